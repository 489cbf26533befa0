//===- TextWrap.cpp - prose fitted to a terminal's width ------------------===//

#include "AscendPrec/Report/TextWrap.h"

#include <algorithm>
#include <cstddef>

namespace {

/// One line (no newline) wrapped onto `out`.
void wrapLine(const std::string &line, size_t width, size_t hangingIndent, std::string &out) {
  if (line.size() <= width) {
    out += line;
    return;
  }
  size_t indent = line.find_first_not_of(' ');
  if (indent == std::string::npos)
    indent = 0;
  // A continuation keeps at least a third of the width for its words.
  const std::string continuation(std::min(indent + hangingIndent, width / 3 * 2), ' ');
  size_t start = indent;
  std::string current(line, 0, indent);
  bool firstWord = true;
  while (start < line.size()) {
    size_t end = line.find(' ', start);
    if (end == std::string::npos)
      end = line.size();
    // An empty word (a run of spaces) keeps the line's own spacing.
    std::string word(line, start, end - start);
    if (!firstWord && current.size() + 1 + word.size() > width) {
      while (!current.empty() && current.back() == ' ')
        current.pop_back();
      out += current;
      out += '\n';
      current = continuation;
      firstWord = true;
    }
    if (!firstWord)
      current += ' ';
    current += word;
    firstWord = false;
    start = end + 1;
  }
  while (!current.empty() && current.back() == ' ')
    current.pop_back();
  out += current;
}

} // namespace

std::string ascendprec::report::wrapText(const std::string &text, unsigned width,
                                         unsigned hangingIndent) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    bool last = end == std::string::npos;
    if (last)
      end = text.size();
    wrapLine(text.substr(start, end - start), std::max(width, 20u), hangingIndent, out);
    if (last)
      break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string ascendprec::report::shortenMiddle(const std::string &text, size_t width) {
  if (text.size() <= width)
    return text;
  if (width <= 3)
    return text.substr(0, width);
  size_t keep = width - 3, head = (keep + 1) / 2;
  return text.substr(0, head) + "..." + text.substr(text.size() - (keep - head));
}
