//===- PrecisionEdits.cpp - ops raised to their origin dtype, as CANN files ===//

#include "AscendPrec/Policy/PrecisionEdits.h"
#include "AscendPrec/Policy/JsonOutput.h"

#include "llvm/Support/raw_ostream.h"

namespace ascendprec::policy {

std::optional<std::string> formatKeepDTypeLine(std::string_view name, std::string &problem) {
  auto isBlank = [](char c) { return c == ' ' || c == '\t'; };
  if (name.empty())
    problem = "the name is empty";
  else if (isBlank(name.front()) || isBlank(name.back()))
    problem = "it starts or ends with a blank, which keep_dtype trims";
  else if (name.front() == '#')
    problem = "it starts with '#', which makes a keep_dtype comment line";
  else if (name.substr(0, 8) == "OpType::")
    problem = "it starts with 'OpType::', which makes a keep_dtype op type line";
  else if (name.find_first_of(std::string_view("\n\r\0", 3)) != std::string_view::npos)
    problem = "it holds a line break or NUL";
  else
    return std::string(name);
  return std::nullopt;
}

std::string keepDTypeFileText(const PrecisionEdits &edits, std::string_view userText,
                              const std::vector<std::string> &header) {
  std::string text(userText);
  if (!text.empty() && text.back() != '\n' && text.back() != '\r')
    text += '\n';
  for (const std::string &line : header)
    text += "# " + line + "\n";
  for (const std::string &type : edits.opTypes)
    text += "OpType::" + type + "\n";
  for (const std::string &name : edits.nodeNames)
    text += name + "\n";
  return text;
}

std::string blackListFileText(const std::vector<std::string> &opTypes,
                              const std::vector<std::string> &header) {
  std::string text;
  for (const std::string &line : header)
    text += "// " + line + "\n";
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attributeObject("black-list", [&] {
      json.attributeArray("to-add", [&] {
        for (const std::string &type : opTypes)
          json.value(jsonText(type));
      });
    });
  });
  os << "\n";
  return text;
}

} // namespace ascendprec::policy
