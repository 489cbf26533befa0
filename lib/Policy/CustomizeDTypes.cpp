//===- CustomizeDTypes.cpp - customize_dtypes lists (CD-1..CD-4, CD-8) ----===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "LineReader.h"

#include <cstdio>

namespace ascendprec::policy {

namespace {

constexpr size_t kMaxLineLength = 1024; // CD-1
constexpr std::string_view kInput = "InputDtype:";
constexpr std::string_view kOutput = "OutputDtype:";

/// Parses "d1,d2,,d4" starting at `offset` in the line; empty positions are
/// "any" (CD-1), names follow CD-2.
bool parseDTypeList(const ContentLine &line, size_t offset,
                    std::string_view list, std::vector<DTypeSlot> &out,
                    DiagnosticList &diags) {
  if (list.empty())
    return true;
  bool ok = true;
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string_view token = list.substr(
        start, comma == std::string_view::npos ? std::string_view::npos
                                               : comma - start);
    size_t first = token.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
      out.push_back(std::nullopt);
    } else {
      size_t last = token.find_last_not_of(" \t");
      std::string_view name = token.substr(first, last - first + 1);
      if (std::optional<DType> dtype = parseConfigDType(name)) {
        out.push_back(dtype);
      } else {
        std::string hint = closestMatch(std::string(name), configDTypeNames());
        diags.error(line.locAt(offset + start + first),
                    "unknown dtype '" + std::string(name) + "'; expected one of " +
                        joinChoices(configDTypeNames()) +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)"),
                    "CD-2");
        ok = false;
      }
    }
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return ok;
}

/// Parses "InputDtype:...[,]OutputDtype:..." at `offset` of the line.
bool parseSpec(const ContentLine &line, size_t offset,
               CustomizeDTypesEntry &entry, DiagnosticList &diags) {
  std::string_view spec = line.text.substr(offset);
  size_t inputAt = spec.find(kInput);
  size_t outputAt = spec.find(kOutput);
  if (inputAt != 0 && outputAt != 0) {
    std::string_view word = spec.substr(0, spec.find(':'));
    std::string hint =
        closestMatch(std::string(word), {"InputDtype", "OutputDtype"});
    diags.error(line.locAt(offset),
                "expected 'InputDtype:' or 'OutputDtype:', found '" +
                    std::string(word) + "'" +
                    (hint.empty() ? "" : " (did you mean '" + hint + "'?)"),
                "CD-1");
    return false;
  }
  if (inputAt != std::string_view::npos && outputAt != std::string_view::npos &&
      inputAt > outputAt) {
    diags.error(line.locAt(offset + inputAt),
                "InputDtype must come before OutputDtype", "CD-1");
    return false;
  }
  for (std::string_view keyword : {kInput, kOutput}) {
    size_t first = spec.find(keyword);
    if (first != std::string_view::npos &&
        spec.find(keyword, first + 1) != std::string_view::npos) {
      diags.error(line.locAt(offset + spec.find(keyword, first + 1)),
                  "'" + std::string(keyword.substr(0, keyword.size() - 1)) +
                      "' appears twice on one line",
                  "CD-1");
      return false;
    }
  }
  bool ok = true;
  if (inputAt == 0) {
    size_t listStart = kInput.size();
    size_t listEnd = outputAt == std::string_view::npos ? spec.size() : outputAt;
    std::string_view list = spec.substr(listStart, listEnd - listStart);
    // The normal form has a comma before OutputDtype; seed 004 prints the
    // template without one ("dtype2,...OutputDtype:"). Both are accepted.
    if (outputAt != std::string_view::npos && !list.empty() && list.back() == ',')
      list.remove_suffix(1);
    ok &= parseDTypeList(line, offset + listStart, list, entry.inputs, diags);
  }
  if (outputAt != std::string_view::npos) {
    size_t listStart = outputAt + kOutput.size();
    ok &= parseDTypeList(line, offset + listStart, spec.substr(listStart),
                         entry.outputs, diags);
  }
  return ok;
}

} // namespace

const CustomizeDTypesEntry *
CustomizeDTypesList::findByName(const std::string &name) const {
  for (const CustomizeDTypesEntry &entry : entries)
    if (!entry.isOpType && entry.key == name)
      return &entry;
  return nullptr;
}

const CustomizeDTypesEntry *
CustomizeDTypesList::findByOpType(const std::string &opType) const {
  for (const CustomizeDTypesEntry &entry : entries)
    if (entry.isOpType && entry.key == opType)
      return &entry;
  return nullptr;
}

std::optional<CustomizeDTypesList>
parseCustomizeDTypes(std::string_view text, const std::string &file,
                     DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  CustomizeDTypesList list;
  list.path = file;
  forEachContentLine(text, file, [&](const ContentLine &line) {
    if (line.rawLength > kMaxLineLength) {
      diags.error(line.loc,
                  "line is " + std::to_string(line.rawLength) +
                      " characters long; customize_dtypes lines may have at "
                      "most " + std::to_string(kMaxLineLength),
                  "CD-1");
      return;
    }
    CustomizeDTypesEntry entry;
    entry.loc = line.loc;
    size_t specOffset;
    static constexpr std::string_view kOpType = "OpType::";
    if (line.text.substr(0, kOpType.size()) == kOpType) {
      entry.isOpType = true;
      size_t colon = line.text.find(':', kOpType.size());
      entry.key = std::string(line.text.substr(
          kOpType.size(), colon == std::string_view::npos
                              ? std::string_view::npos
                              : colon - kOpType.size()));
      if (colon == std::string_view::npos) {
        diags.error(line.loc, "expected 'OpType::TypeName:InputDtype:...,"
                              "OutputDtype:...', found no ':' after the op type",
                    "CD-1");
        return;
      }
      if (!isOpTypeSpelling(entry.key)) {
        diags.error(line.locAt(kOpType.size()),
                    "op type '" + entry.key +
                        "' is not an Ascend IR op type (PascalCase, e.g. "
                        "'Relu')",
                    "CD-1");
        return;
      }
      specOffset = colon + 1;
    } else {
      entry.isOpType = false;
      // The dtype part never contains "::", so the name is everything before
      // the last one: node names may themselves contain "::" or
      // "InputDtype:" (docs/decisions.md). A misspelled keyword
      // ("::InputDType:") still separates the name.
      size_t separator = line.text.rfind("::");
      if (separator == std::string_view::npos || separator == 0) {
        diags.error(line.loc,
                    separator == 0
                        ? "missing node name before '::'"
                        : "expected 'Opname::InputDtype:d1,...,OutputDtype:"
                          "d1,...' or 'OpType::TypeName:InputDtype:...'",
                    "CD-1");
        return;
      }
      entry.key = std::string(line.text.substr(0, separator));
      specOffset = separator + 2;
    }
    if (!parseSpec(line, specOffset, entry, diags))
      return;
    const CustomizeDTypesEntry *first =
        entry.isOpType ? list.findByOpType(entry.key) : list.findByName(entry.key);
    if (first) {
      diags.warning(entry.loc,
                    std::string(entry.isOpType ? "op type '" : "node '") +
                        entry.key + "' is configured again; the first entry "
                        "(line " + std::to_string(first->loc.line) + ") wins",
                    "CD-4")
          .notes.push_back(
              {Severity::Note, "", first->loc, "first entry here", {}});
      return;
    }
    list.entries.push_back(std::move(entry));
  });
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return list;
}

std::optional<std::string>
formatCustomizeDTypesLine(std::string_view name, const std::vector<std::string> &inputs,
                          const std::vector<std::string> &outputs, std::string &problem) {
  auto isBlank = [](char c) { return c == ' ' || c == '\t'; };
  if (name.empty())
    problem = "an empty name";
  else if (name[0] == '#')
    problem = "starts with '#', which makes the line a comment";
  else if (name.substr(0, 8) == "OpType::")
    problem = "starts with 'OpType::', which makes the line an op type entry";
  else if (isBlank(name.front()) || isBlank(name.back()))
    problem = "blanks at either end are trimmed";
  else if (name.find_first_of(std::string_view("\n\r\0", 3)) != std::string_view::npos)
    problem = "a line break or NUL in the name";
  if (!problem.empty())
    return std::nullopt;
  std::string line = std::string(name) + "::InputDtype:";
  for (size_t i = 0; i < inputs.size(); ++i)
    line += (i ? "," : "") + inputs[i];
  line += ",OutputDtype:";
  for (size_t i = 0; i < outputs.size(); ++i)
    line += (i ? "," : "") + outputs[i];
  if (line.size() > kMaxLineLength) {
    problem = "the line would be longer than " + std::to_string(kMaxLineLength) +
              " characters";
    return std::nullopt;
  }
  return line;
}

std::string findForbiddenPathCharacter(std::string_view path) {
  size_t i = 0;
  while (i < path.size()) {
    unsigned char c = path[i];
    if (c < 0x80) {
      if (!(std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == ':' ||
            c == '/'))
        return std::string(1, static_cast<char>(c));
      ++i;
      continue;
    }
    // Decode one UTF-8 sequence; only CJK ideographs are allowed.
    unsigned length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    unsigned codePoint = length == 4 ? c & 0x07 : length == 3 ? c & 0x0F : c & 0x1F;
    bool valid = length != 0 && i + length <= path.size();
    for (unsigned k = 1; valid && k < length; ++k) {
      unsigned char next = path[i + k];
      valid = (next & 0xC0) == 0x80;
      codePoint = (codePoint << 6) | (next & 0x3F);
    }
    if (!valid) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02X", c);
      return buffer;
    }
    bool cjk = (codePoint >= 0x4E00 && codePoint <= 0x9FFF) ||
               (codePoint >= 0x3400 && codePoint <= 0x4DBF) ||
               (codePoint >= 0x20000 && codePoint <= 0x2A6DF) ||
               (codePoint >= 0xF900 && codePoint <= 0xFAFF);
    if (!cjk)
      return std::string(path.substr(i, length));
    i += length;
  }
  return {};
}

} // namespace ascendprec::policy
