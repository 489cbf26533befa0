//===- HtmlEscape.h - text written into HTML ------------------*- C++ -*-===//
//
// Internal to the report library: names from models are written into
// report.html with HTML's special characters as entities.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_REPORT_HTMLESCAPE_H
#define ASCENDPREC_LIB_REPORT_HTMLESCAPE_H

#include "ReplacingWriter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace ascendprec::report {

/// `text` with HTML's special characters as entities.
struct Escaped {
  llvm::StringRef text;
};
inline Escaped escapeHtml(llvm::StringRef text) { return {text}; }

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Escaped escaped) {
  return writeReplacing(os, escaped.text, [](char c) -> const char * {
    switch (c) {
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '&':
      return "&amp;";
    case '"':
      return "&quot;";
    default:
      return nullptr;
    }
  });
}

} // namespace ascendprec::report

#endif // ASCENDPREC_LIB_REPORT_HTMLESCAPE_H
