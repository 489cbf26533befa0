//===- Options.h - CANN session options (OP-1, OP-2) ----------------------===//
//
// One table of every option AscendPrec accepts, spelled as CANN spells it.
// Values come from `--key=value` command-line arguments and from a session
// options JSON file; the command line wins (OP-1). Unknown keys are errors
// with a "did you mean" suggestion.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_OPTIONS_H
#define ASCENDPREC_POLICY_OPTIONS_H

#include "AscendPrec/Policy/Diagnostics.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

enum class OptionType {
  String,     ///< free text
  Enum,       ///< one of `allowedValues`
  Int,        ///< an integer (`allowedValues`, when set, lists the legal ones)
  Bool,       ///< true/false (also 1/0 on the command line)
  Path,       ///< a file; relative paths resolve against the session file
  Directory,  ///< a directory; resolved like Path
};

struct OptionSpec {
  std::string name;
  OptionType type;
  /// False for OP-2's options: accepted and type-checked, no effect here.
  bool affectsCompilation;
  std::string group; ///< section in --help, as CANN's docs group them
  std::string help;
  std::vector<std::string> allowedValues;
  std::string rule; ///< rule ID that governs the value, if any
  /// Also an option of the planning pass and pipeline (prec-plan-precision,
  /// prec-precision-pipeline): the policy is built from it. The pass and the
  /// pipeline declare these options from this table, so that a new option
  /// is one entry here.
  bool passOption = false;
};

/// Every option, in --help order.
const std::vector<OptionSpec> &optionSpecs();
const OptionSpec *findOptionSpec(const std::string &name);

struct OptionValue {
  std::string text; ///< normalized: "true"/"false" for Bool, digits for Int
  SourceLoc loc;    ///< where it was set
  bool fromCommandLine = false;
};

class SessionOptions {
public:
  /// Parses `--key=value` arguments. Arguments that are not options (no
  /// leading "--") are appended to `positional`; `--key` without a value is
  /// an error. `extraFlags` names tool flags (e.g. "print-policy") that are
  /// passed through in `toolFlags` instead of being rejected.
  bool parseCommandLine(const std::vector<std::string> &args,
                        DiagnosticList &diags,
                        std::vector<std::string> *positional = nullptr,
                        const std::vector<std::string> &extraFlags = {},
                        std::map<std::string, std::string> *toolFlags = nullptr);

  /// Loads a session-options JSON object; keys already set on the command
  /// line keep their command-line value (OP-1).
  bool loadSessionFile(const std::string &path, DiagnosticList &diags);
  /// The same for text already read from `path`.
  bool loadSessionText(std::string_view text, const std::string &path,
                       DiagnosticList &diags);

  /// Sets one option from text (as the command line does).
  bool set(const std::string &name, const std::string &text,
           const SourceLoc &loc, bool fromCommandLine, DiagnosticList &diags);

  const OptionValue *get(const std::string &name) const;
  /// Drops an option (prec-compile --compare-modes replaces the precision
  /// mode options with each mode in turn).
  void erase(const std::string &name) { values.erase(name); }
  bool has(const std::string &name) const { return get(name) != nullptr; }
  const std::map<std::string, OptionValue> &all() const { return values; }

private:
  std::map<std::string, OptionValue> values;
};

/// Splits "a,b , c" into trimmed non-empty items.
std::vector<std::string> splitList(const std::string &text, char separator = ',');

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_OPTIONS_H
