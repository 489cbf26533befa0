//===- LineReader.cpp - line-oriented config files ------------------------===//

#include "LineReader.h"

#include <cctype>

namespace ascendprec::policy {

bool isOpTypeSpelling(std::string_view name) {
  if (name.empty() || !(name[0] >= 'A' && name[0] <= 'Z'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

void forEachContentLine(std::string_view text, const std::string &file,
                        const std::function<void(const ContentLine &)> &onLine) {
  unsigned lineNumber = 0;
  size_t start = 0;
  // A UTF-8 byte-order mark is not part of the first line.
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    start = 3;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++lineNumber;
    size_t first = raw.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || raw[first] == '#')
      continue;
    size_t last = raw.find_last_not_of(" \t\r");
    ContentLine line{raw.substr(first, last - first + 1),
                     SourceLoc{file, lineNumber, static_cast<unsigned>(first + 1)},
                     raw.size()};
    onLine(line);
  }
}

} // namespace ascendprec::policy
