//===- ReplacingWriter.h - text written with some characters replaced -----===//
//
// The HTML and DOT writers escape every name they write. Reports of graphs
// with 100k+ nodes are hundreds of MB, so the text goes to the stream in
// runs between the characters that need replacing, with no copy.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_REPORT_REPLACINGWRITER_H
#define ASCENDPREC_LIB_REPORT_REPLACINGWRITER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace ascendprec::report {

/// Writes `text` to `os`, each character for which `replacement` gives a
/// string replaced by that string.
template <typename Replacement>
llvm::raw_ostream &writeReplacing(llvm::raw_ostream &os, llvm::StringRef text,
                                  Replacement replacement) {
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i)
    if (const char *with = replacement(text[i])) {
      os << text.slice(start, i) << with;
      start = i + 1;
    }
  return os << text.drop_front(start);
}

} // namespace ascendprec::report

#endif // ASCENDPREC_LIB_REPORT_REPLACINGWRITER_H
