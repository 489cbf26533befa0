//===- PolicyTestUtils.h - helpers for the policy unit tests --------------===//

#ifndef ASCENDPREC_UNITTESTS_POLICY_POLICYTESTUTILS_H
#define ASCENDPREC_UNITTESTS_POLICY_POLICYTESTUTILS_H

#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/Json.h"
#include "AscendPrec/Policy/Policy.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

namespace ascendprec::policy::testing {

/// test/Policy/inputs/<name>.
inline std::string inputPath(const std::string &name) {
  return std::string(ASCENDPREC_TEST_INPUTS_DIR) + "/" + name;
}

inline std::string readInput(const std::string &name) {
  std::ifstream in(inputPath(name), std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test input " << name;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// "--<option>=<path of test input file>".
inline std::string inputOption(const std::string &option,
                               const std::string &file) {
  return "--" + option + "=" + inputPath(file);
}

/// Builds a policy from CANN command-line arguments against the source
/// tree's operator library.
inline std::optional<Policy> buildPolicy(const std::vector<std::string> &args,
                                         DiagnosticList &diags) {
  std::optional<ParsedCommandLine> parsed = parseCannArguments(args, {}, diags);
  if (!parsed)
    return std::nullopt;
  return Policy::build(parsed->options, diags, ASCENDPREC_TEST_DATA_DIR);
}

/// buildPolicy, failing the test (and stopping it) when the policy cannot
/// be built.
inline Policy mustBuild(const std::vector<std::string> &args) {
  DiagnosticList diags;
  std::optional<Policy> policy = buildPolicy(args, diags);
  if (!policy) {
    ADD_FAILURE() << diags.format();
    std::abort();
  }
  return std::move(*policy);
}

/// The first diagnostic with `rule` whose message contains `text`, or null.
inline const Diagnostic *findDiag(const DiagnosticList &diags,
                                  const std::string &rule,
                                  const std::string &text) {
  for (const Diagnostic &diag : diags.all())
    if ((rule.empty() || diag.rule == rule) &&
        diag.message.find(text) != std::string::npos)
      return &diag;
  return nullptr;
}

#define EXPECT_DIAG_AT(diags, rule, text, expectedLine, expectedColumn)                        \
  do {                                                                         \
    const auto *found_ = ::ascendprec::policy::testing::findDiag(              \
        diags, rule, text);                                                    \
    ASSERT_NE(found_, nullptr) << "no [" << rule << "] diagnostic with '"      \
                               << text << "' in:\n"                            \
                               << (diags).format();                            \
    EXPECT_EQ(found_->loc.line, static_cast<unsigned>(expectedLine))                   \
        << found_->format();                                                   \
    EXPECT_EQ(found_->loc.column, static_cast<unsigned>(expectedColumn))               \
        << found_->format();                                                   \
  } while (0)

/// A scratch directory removed at the end of the test.
class TempDir {
public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    path = std::filesystem::temp_directory_path() /
           ("ascendprec-test-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
  /// Writes `text` to `name` (creating folders) and returns the full path.
  std::string write(const std::string &name, const std::string &text) const {
    std::filesystem::path file = path / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  std::string str() const { return path.string(); }

private:
  std::filesystem::path path;
};

} // namespace ascendprec::policy::testing

#endif // ASCENDPREC_UNITTESTS_POLICY_POLICYTESTUTILS_H
