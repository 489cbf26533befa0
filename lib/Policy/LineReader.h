//===- LineReader.h - line-oriented config files --------------------------===//
//
// keep_dtype and customize_dtypes share one line discipline: `#` starts a
// comment line, blank lines are ignored, surrounding white space and CR are
// trimmed. They also spell op types the same way.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_POLICY_LINEREADER_H
#define ASCENDPREC_LIB_POLICY_LINEREADER_H

#include "AscendPrec/Policy/Diagnostics.h"

#include <functional>
#include <string_view>

namespace ascendprec::policy {

struct ContentLine {
  std::string_view text; ///< trimmed
  SourceLoc loc;         ///< of the first character of `text`
  size_t rawLength;      ///< untrimmed length, for the CD-1 length limit

  /// The location `offset` characters into `text`.
  SourceLoc locAt(size_t offset) const {
    SourceLoc at = loc;
    at.column += static_cast<unsigned>(offset);
    return at;
  }
};

/// KD-1, CD-1: an op type is PascalCase: an upper-case letter, then letters,
/// digits or `_`.
bool isOpTypeSpelling(std::string_view name);

/// Calls `onLine` for every line that is neither blank nor a `#` comment.
void forEachContentLine(std::string_view text, const std::string &file,
                        const std::function<void(const ContentLine &)> &onLine);

} // namespace ascendprec::policy

#endif // ASCENDPREC_LIB_POLICY_LINEREADER_H
