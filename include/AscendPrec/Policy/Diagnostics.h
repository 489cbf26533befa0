//===- Diagnostics.h - located messages from the policy layer -------------===//
//
// Plain C++ (no MLIR): every message names the file, line and column it is
// about (OP-5) and the rule ID that produced it.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_DIAGNOSTICS_H
#define ASCENDPREC_POLICY_DIAGNOSTICS_H

#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

/// A position in a config file or on the command line. `line` and `column`
/// are 1-based; 0 means "the whole file" (or, for `<command line>`, unknown).
struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;

  bool isKnown() const { return !file.empty(); }
  /// "file:line:col", "file:line" or "file".
  std::string str() const;
  /// "file:line", the form the report and precision attributes use.
  std::string fileAndLine() const;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity;
  std::string rule; ///< e.g. "ML-6"; empty for plain syntax errors
  SourceLoc loc;
  std::string message;
  std::vector<Diagnostic> notes;

  /// "file:line:col: error: message [ML-6]" plus note lines.
  std::string format() const;
};

/// Collects diagnostics in the order they were reported.
class DiagnosticList {
public:
  Diagnostic &error(const SourceLoc &loc, std::string message,
                    std::string rule = {});
  Diagnostic &warning(const SourceLoc &loc, std::string message,
                      std::string rule = {});
  void append(const DiagnosticList &other);

  bool hasErrors() const;
  size_t errorCount() const;
  const std::vector<Diagnostic> &all() const { return diagnostics; }
  size_t size() const { return diagnostics.size(); }
  bool empty() const { return diagnostics.empty(); }
  /// Every diagnostic formatted, one per line.
  std::string format() const;

private:
  std::vector<Diagnostic> diagnostics;
};

/// `text` as it can be shown on a terminal: valid UTF-8 is kept; control
/// characters and bytes that are not UTF-8 become \n, \t, \r or \xNN, so
/// that a name from a file or the command line cannot garble the output.
/// `keepNewlines` leaves line breaks alone (for whole multi-line messages).
std::string escapeForDisplay(std::string_view text, bool keepNewlines = false);


/// The candidate closest to `word`, if it is close enough to be a likely
/// typo (distance at most a third of the word's length, and at least 1).
std::string closestMatch(const std::string &word,
                         const std::vector<std::string> &candidates);

/// What a mistyped `word` most likely meant: the candidate equal to it but
/// for case and '-' against '_'; else the shortest candidates (up to 3) it
/// begins or that begin it (three characters at least); else closestMatch.
std::vector<std::string> likelyMeant(const std::string &word,
                                     const std::vector<std::string> &candidates);

/// For "X names 'name', which is not ...": "; did you mean 'y'?" when one of
/// `known` is close, then " (its <what>: a, b, c)".
std::string unknownNameHint(const std::string &name, const std::vector<std::string> &known,
                            const std::string &what);

/// "a, b or c"
std::string joinChoices(const std::vector<std::string> &choices,
                        const std::string &lastSeparator = " or ");

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_DIAGNOSTICS_H
