//===- Status.h - what an engine call reports: success or an error --------===//
//
// Every engine call that can fail returns a Status. Its Error says whose
// fault it is (the user's input or the tool's), where (a file and position,
// the command line, or the run as a whole), the contract rule that decided
// it, and what to do. Front ends render it: the CLI prints format() and
// exits 1 or 2, Python raises an exception carrying the same fields.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_STATUS_H
#define ASCENDPREC_SESSION_STATUS_H

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ascendprec::session {

struct Error {
  enum class Kind {
    User,     ///< a bad option, file, model or input, or a rule that cannot be met
    Internal, ///< the tool's own failure: please report it
    Interrupted, ///< Observer::cancelled() stopped the work
  };
  Kind kind = Kind::User;
  /// "<command line>" for an option or argument, a file's path, or empty
  /// when the error concerns the run as a whole.
  std::string file;
  unsigned line = 0, column = 0;
  /// The node the error is about, when there is one.
  std::string node;
  /// The contract rule (precision-semantics.md) that decided it, if any.
  std::string rule;
  std::string message;
  /// Further lines: the ops that cannot run, and the like.
  std::vector<std::string> details;
  /// True when the error was already delivered as diagnostics (planning
  /// errors): a front end that shows diagnostics need not show it again.
  bool reported = false;

  /// "FILE[:LINE:COL]: error: MESSAGE" (or "TOOL: error: MESSAGE" without a
  /// file, "TOOL: internal error: ..." for an internal one), then each
  /// detail on a line of its own, indented; ends with a newline.
  std::string format(const std::string &tool = "prec-compile") const;
};

class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : failure(std::move(error)) {}

  /// A user error about `file` ("<command line>", a path, or empty).
  static Status user(std::string file, std::string message, std::string rule = {});
  static Status internal(std::string message);
  static Status interrupted();

  bool ok() const { return !failure.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error &error() const { return *failure; }
  Error &error() { return *failure; }

private:
  std::optional<Error> failure;
};

/// Builds an error's message by streaming into it, and becomes a Status:
///   return ErrorText("<command line>") << "--run-range names input '" << name << "'";
class ErrorText {
public:
  explicit ErrorText(std::string file, Error::Kind kind = Error::Kind::User) {
    error.file = std::move(file);
    error.kind = kind;
  }
  template <typename T> ErrorText &operator<<(const T &value) {
    stream << value;
    return *this;
  }
  operator Status() {
    error.message = std::move(text);
    return Status(std::move(error));
  }

private:
  Error error;
  std::string text;
  llvm::raw_string_ostream stream{text};
};

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_STATUS_H
