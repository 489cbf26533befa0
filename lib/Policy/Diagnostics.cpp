//===- Diagnostics.cpp - located messages from the policy layer -----------===//

#include "AscendPrec/Policy/Diagnostics.h"

#include <algorithm>

namespace ascendprec::policy {

std::string SourceLoc::str() const {
  if (file.empty())
    return "<unknown>";
  std::string text = file;
  if (line) {
    text += ":" + std::to_string(line);
    if (column)
      text += ":" + std::to_string(column);
  }
  return text;
}

std::string SourceLoc::fileAndLine() const {
  if (file.empty())
    return "";
  return line ? file + ":" + std::to_string(line) : file;
}

static const char *severityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string Diagnostic::format() const {
  std::string text = loc.str() + ": " + severityName(severity) + ": " + message;
  if (!rule.empty())
    text += " [" + rule + "]";
  for (const Diagnostic &note : notes)
    text += "\n" + note.format();
  return text;
}

Diagnostic &DiagnosticList::error(const SourceLoc &loc, std::string message,
                                  std::string rule) {
  diagnostics.push_back(
      {Severity::Error, std::move(rule), loc, std::move(message), {}});
  return diagnostics.back();
}

Diagnostic &DiagnosticList::warning(const SourceLoc &loc, std::string message,
                                    std::string rule) {
  diagnostics.push_back(
      {Severity::Warning, std::move(rule), loc, std::move(message), {}});
  return diagnostics.back();
}

void DiagnosticList::append(const DiagnosticList &other) {
  diagnostics.insert(diagnostics.end(), other.diagnostics.begin(),
                     other.diagnostics.end());
}

bool DiagnosticList::hasErrors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic &d) {
                       return d.severity == Severity::Error;
                     });
}

size_t DiagnosticList::errorCount() const {
  return std::count_if(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic &d) {
                         return d.severity == Severity::Error;
                       });
}

std::string DiagnosticList::format() const {
  std::string text;
  for (const Diagnostic &diagnostic : diagnostics)
    text += diagnostic.format() + "\n";
  return text;
}

unsigned editDistance(const std::string &a, const std::string &b) {
  std::vector<unsigned> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    unsigned diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      unsigned above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

static std::string lowercase(std::string text) {
  for (char &c : text)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return text;
}

std::string closestMatch(const std::string &word,
                         const std::vector<std::string> &candidates) {
  // No option, op type or dtype name is this long: do not spend quadratic
  // time suggesting one for garbage.
  if (word.size() > 64)
    return {};
  // Case is ignored: "Matmul" should find "MatMulV2".
  std::string lowered = lowercase(word);
  std::string best;
  unsigned bestDistance = ~0u;
  for (const std::string &candidate : candidates) {
    unsigned distance = editDistance(lowered, lowercase(candidate));
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  unsigned limit = std::max<unsigned>(1, word.size() / 3);
  return bestDistance <= limit ? best : std::string();
}

std::string joinChoices(const std::vector<std::string> &choices,
                        const std::string &lastSeparator) {
  std::string text;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i)
      text += i + 1 == choices.size() ? lastSeparator : ", ";
    text += choices[i];
  }
  return text;
}

} // namespace ascendprec::policy
