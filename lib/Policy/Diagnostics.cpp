//===- Diagnostics.cpp - located messages from the policy layer -----------===//

#include "AscendPrec/Policy/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>

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

/// The length of the valid UTF-8 sequence at `at`, or 0.
static size_t utf8SequenceLength(std::string_view text, size_t at) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(at);
  size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3
                  : (lead >> 3) == 0x1E                ? 4
                                                       : 0;
  if (length == 0 || at + length > text.size())
    return 0;
  for (size_t i = 1; i < length; ++i)
    if ((byte(at + i) & 0xC0) != 0x80)
      return 0;
  // Overlong forms, surrogates and code points past U+10FFFF are invalid.
  uint32_t code = length == 1 ? lead : lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i)
    code = (code << 6) | (byte(at + i) & 0x3F);
  static constexpr uint32_t minimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < minimum[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
    return 0;
  return length;
}

std::string unknownNameHint(const std::string &name, const std::vector<std::string> &known,
                            const std::string &what) {
  std::string hint = closestMatch(name, known);
  return (hint.empty() ? "" : "; did you mean '" + escapeForDisplay(hint) + "'?") + " (its " +
         what + ": " + escapeForDisplay(joinChoices(known, ", ")) + ")";
}

std::string escapeForDisplay(std::string_view text, bool keepNewlines) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string shown;
  shown.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[at]);
    size_t length = utf8SequenceLength(text, at);
    if (length > 1 || (length == 1 && c >= 0x20 && c != 0x7F) ||
        (keepNewlines && c == '\n')) {
      shown.append(text.substr(at, length));
      at += length;
      continue;
    }
    if (c == '\n')
      shown += "\\n";
    else if (c == '\t')
      shown += "\\t";
    else if (c == '\r')
      shown += "\\r";
    else
      shown += {'\\', 'x', hex[c >> 4], hex[c & 0xF]};
    ++at;
  }
  return shown;
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
  // Names from files and the command line are echoed in messages.
  std::string text = escapeForDisplay(loc.str()) + ": " + severityName(severity) + ": " +
                     escapeForDisplay(message, /*keepNewlines=*/true);
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

std::string closestMatch(const std::string &word,
                         const std::vector<std::string> &candidates) {
  // No option, op type or dtype name is this long: do not spend quadratic
  // time suggesting one for garbage.
  if (word.size() > 64)
    return {};
  // Case is ignored: "Matmul" should find "MatMulV2".
  std::string best;
  unsigned bestDistance = ~0u;
  for (const std::string &candidate : candidates) {
    unsigned distance = llvm::StringRef(word).edit_distance_insensitive(candidate);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  unsigned limit = std::max<unsigned>(1, word.size() / 3);
  return bestDistance <= limit ? best : std::string();
}

std::vector<std::string> likelyMeant(const std::string &word,
                                     const std::vector<std::string> &candidates) {
  // Case and '-' against '_' do not count: --compare_modes is --compare-modes.
  auto normal = [](llvm::StringRef text) {
    std::string folded = text.lower();
    std::replace(folded.begin(), folded.end(), '-', '_');
    return folded;
  };
  std::string typed = normal(word);
  std::vector<std::string> same, longer, shorter, oneEdit;
  for (const std::string &candidate : candidates) {
    std::string folded = normal(candidate);
    if (folded == typed) {
      same.push_back(candidate);
      continue;
    }
    bool prefixes = typed.size() >= 3 && folded.size() >= 3;
    if (prefixes && llvm::StringRef(folded).starts_with(typed))
      longer.push_back(candidate);
    else if (prefixes && llvm::StringRef(typed).starts_with(folded))
      shorter.push_back(candidate);
    if (typed.size() <= 64 && llvm::StringRef(typed).edit_distance(folded) == 1)
      oneEdit.push_back(candidate);
  }
  if (!same.empty())
    return {same.front()};
  auto bySize = [](std::vector<std::string> names, bool shortest, size_t most) {
    size_t best = names.front().size();
    for (const std::string &name : names)
      best = shortest ? std::min(best, name.size()) : std::max(best, name.size());
    std::vector<std::string> chosen;
    for (const std::string &name : names)
      if (name.size() == best && chosen.size() < most)
        chosen.push_back(name);
    return chosen;
  };
  // A prefix of some candidates: the shortest of them, a family before its
  // members (Ascend310 means Ascend310P or Ascend310B).
  if (!longer.empty())
    return bySize(longer, /*shortest=*/true, 3);
  // One letter off: every such candidate, a letter replaced before one
  // added or dropped (Ascend910B5 is one of the variants Ascend910B1-B4,
  // not the family Ascend910B).
  if (!oneEdit.empty()) {
    std::vector<std::string> replaced;
    for (const std::string &name : oneEdit)
      if (name.size() == word.size())
        replaced.push_back(name);
    std::vector<std::string> &chosen = replaced.empty() ? oneEdit : replaced;
    chosen.resize(std::min<size_t>(chosen.size(), 4));
    return chosen;
  }
  // Some candidates are prefixes of it: the longest, the most specific.
  if (!shorter.empty())
    return bySize(shorter, /*shortest=*/false, 3);
  std::string closest = closestMatch(word, candidates);
  if (closest.empty())
    return {};
  return {closest};
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
