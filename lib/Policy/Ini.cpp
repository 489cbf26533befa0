//===- Ini.cpp - INI files with positions ---------------------------------===//

#include "AscendPrec/Policy/Ini.h"

namespace ascendprec::policy {

const IniEntry *IniFile::find(std::string_view section,
                              std::string_view key) const {
  for (const IniEntry &entry : entries)
    if (entry.section == section && entry.key == key)
      return &entry;
  return nullptr;
}

namespace {
struct Token {
  std::string text; ///< "=" for the separator
  unsigned column;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// Splits a line into words and '=' separators, with 1-based columns.
std::vector<Token> tokenize(std::string_view line) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < line.size()) {
    if (isSpace(line[i])) {
      ++i;
    } else if (line[i] == '=') {
      tokens.push_back({"=", static_cast<unsigned>(i + 1)});
      ++i;
    } else {
      size_t start = i;
      while (i < line.size() && !isSpace(line[i]) && line[i] != '=')
        ++i;
      tokens.push_back({std::string(line.substr(start, i - start)),
                        static_cast<unsigned>(start + 1)});
    }
  }
  return tokens;
}
} // namespace

std::optional<IniFile> parseIni(std::string_view text, const std::string &file,
                                DiagnosticList &diags) {
  IniFile ini;
  ini.path = file;
  std::string section;
  unsigned lineNumber = 0;
  bool ok = true;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++lineNumber;

    size_t first = 0;
    while (first < line.size() && isSpace(line[first]))
      ++first;
    if (first == line.size() || line[first] == '#' || line[first] == ';') {
      if (end == text.size())
        break;
      continue;
    }
    SourceLoc lineLoc{file, lineNumber, static_cast<unsigned>(first + 1)};
    if (line[first] == '[') {
      size_t close = line.find(']', first);
      std::string_view rest =
          close == std::string_view::npos ? "" : line.substr(close + 1);
      bool trailingOk = rest.find_first_not_of(" \t\r") == std::string_view::npos;
      if (close == std::string_view::npos || !trailingOk) {
        diags.error(lineLoc, "malformed section header; expected '[name]' "
                             "alone on the line");
        ok = false;
      } else {
        section = std::string(line.substr(first + 1, close - first - 1));
        ini.sections.emplace_back(section, lineLoc);
      }
      if (end == text.size())
        break;
      continue;
    }

    std::vector<Token> tokens = tokenize(line);
    for (size_t i = 0; i < tokens.size();) {
      const Token &key = tokens[i];
      SourceLoc keyLoc{file, lineNumber, key.column};
      if (key.text == "=") {
        diags.error(keyLoc, "'=' without a key; expected 'key=value'");
        ok = false;
        break;
      }
      if (i + 1 >= tokens.size() || tokens[i + 1].text != "=") {
        diags.error(keyLoc, "expected 'key=value', found '" + key.text +
                                "' without '='");
        ok = false;
        break;
      }
      IniEntry entry{section, key.text, "", keyLoc,
                     SourceLoc{file, lineNumber, tokens[i + 1].column + 1}};
      i += 2;
      if (i < tokens.size() && tokens[i].text != "=") {
        entry.value = tokens[i].text;
        entry.valueLoc.column = tokens[i].column;
        ++i;
      }
      ini.entries.push_back(std::move(entry));
    }
    if (end == text.size())
      break;
  }
  if (!ok)
    return std::nullopt;
  return ini;
}

} // namespace ascendprec::policy
