//===- TextWrap.h - prose fitted to a terminal's width ----------*- C++ -*-===//
//
// What prec-compile prints is read in terminals of 80-120 columns: lines of
// prose are broken between words, each continuation indented under the
// line it continues, so that no line runs past the width (a single word
// longer than the width, such as a path, stays whole).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_REPORT_TEXTWRAP_H
#define ASCENDPREC_REPORT_TEXTWRAP_H

#include <string>

namespace ascendprec::report {

/// Every line of `text` longer than `width` broken at spaces; a continuation
/// is indented by the line's own leading spaces plus `hangingIndent`.
/// Lines that fit, and the newlines between lines, are kept as they are.
std::string wrapText(const std::string &text, unsigned width, unsigned hangingIndent = 2);

/// `text` cut to `width` characters by replacing its middle with "...", so
/// that both its start and its distinguishing end stay.
std::string shortenMiddle(const std::string &text, size_t width);

} // namespace ascendprec::report

#endif // ASCENDPREC_REPORT_TEXTWRAP_H
