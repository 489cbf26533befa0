//===- OnnxParserPlugins.cpp - the ONNX op types CANN's parser has plugins for //
//
// Reads data/onnx/parser-plugins.tsv (its header gives the sources: the
// REGISTER_CUSTOM_OP(...).FrameworkType(ONNX).OriginOpType(...) statements
// of hicann/ops-math, ops-nn, ops-cv and ops-transformer) and answers
// whether GE's ONNX parser finds a plugin for a node's key.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/OnnxParserPlugins.h"

#include "LineReader.h"

#include <algorithm>

namespace ascendprec::policy {

std::string parserDomain(std::string_view domain) {
  // ConstructOriType: a node without a domain is ONNX's default domain,
  // which the plugins register as "ai.onnx".
  if (domain.empty() || domain == "ai.onnx")
    return "ai.onnx";
  return std::string(domain);
}

std::string parserPluginKey(std::string_view domain, int64_t opset, std::string_view opType) {
  return parserDomain(domain) + "::" + std::to_string(opset) + "::" + std::string(opType);
}

bool ParserPluginEntry::covers(int64_t opset) const {
  for (const auto &[low, high] : opsets)
    if (opset >= low && opset <= high)
      return true;
  return false;
}

std::string ParserPluginEntry::opsetText() const {
  std::string text;
  for (const auto &[low, high] : opsets) {
    if (!text.empty())
      text += ",";
    text += std::to_string(low);
    if (high != low)
      text += "-" + std::to_string(high);
  }
  return text;
}

namespace {

/// `text` without the spaces, tabs and carriage returns around it.
std::string_view trimmed(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos)
    return {};
  size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

/// An opset number (1 to 9999), or nothing.
std::optional<int64_t> opsetNumber(std::string_view text) {
  if (text.empty() || text.size() > 4)
    return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value < 1)
    return std::nullopt;
  return value;
}

/// The opsets column: "-" (none), or "N" and "N-M" items separated by
/// commas, ascending and disjoint. Nothing, with `what` set, when
/// malformed.
std::optional<std::vector<std::pair<int64_t, int64_t>>> readOpsets(std::string_view text,
                                                                   std::string &what) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  if (text == "-")
    return ranges;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                          : comma - start);
    size_t dash = item.find('-');
    std::optional<int64_t> low = opsetNumber(item.substr(0, dash));
    std::optional<int64_t> high =
        dash == std::string_view::npos ? low : opsetNumber(item.substr(dash + 1));
    if (!low || !high || *high < *low) {
      what = "'" + std::string(item) +
             "' in the opsets column is not an opset N or a range N-M (N <= M), nor '-'";
      return std::nullopt;
    }
    if (!ranges.empty() && *low <= ranges.back().second) {
      what = "the opsets '" + std::string(text) +
             "' are not in ascending order without overlap";
      return std::nullopt;
    }
    ranges.push_back({*low, *high});
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return ranges;
}

/// The row's first four tab-separated columns and what follows them (a
/// comment, or empty).
std::vector<std::string_view> columnsOf(std::string_view row) {
  std::vector<std::string_view> columns;
  size_t start = 0;
  while (columns.size() < 4) {
    size_t tab = row.find('\t', start);
    if (tab == std::string_view::npos) {
      columns.push_back(row.substr(start));
      return columns;
    }
    columns.push_back(row.substr(start, tab - start));
    start = tab + 1;
  }
  columns.push_back(row.substr(start));
  return columns;
}

/// Reads one row into `entry`; the reason when it is malformed.
std::string readRow(std::string_view row, ParserPluginEntry &entry) {
  std::vector<std::string_view> columns = columnsOf(row);
  if (columns.size() < 4)
    return "expected 4 tab-separated columns (onnx_type, opsets, cann_type, source), found " +
           std::to_string(columns.size());
  static const char *const names[] = {"onnx_type", "opsets", "cann_type", "source"};
  for (size_t i = 0; i < 4; ++i)
    if (trimmed(columns[i]).empty() || trimmed(columns[i]) != columns[i])
      return std::string("the ") + names[i] +
             " column is empty or has spaces around it";
  if (columns.size() > 4 && !trimmed(columns[4]).empty() && trimmed(columns[4])[0] != '#')
    return "text after the source column must be a '# comment'";
  std::string_view type = columns[0];
  std::string_view domain;
  if (size_t separator = type.find("::"); separator != std::string_view::npos) {
    domain = type.substr(0, separator);
    type = type.substr(separator + 2);
    if (domain.empty() || type.empty() || type.find("::") != std::string_view::npos)
      return "'" + std::string(columns[0]) +
             "' is neither Type nor domain::Type (the opset goes in its own column)";
  }
  if (type.find_first_of(" \t") != std::string_view::npos)
    return "the op type '" + std::string(type) + "' has a space in it";
  std::string what;
  std::optional<std::vector<std::pair<int64_t, int64_t>>> opsets = readOpsets(columns[1], what);
  if (!opsets)
    return what;
  entry.domain = parserDomain(domain);
  entry.opType = std::string(type);
  entry.opsets = std::move(*opsets);
  entry.cannType = std::string(columns[2]);
  entry.source = std::string(columns[3]);
  return {};
}

} // namespace

std::optional<OnnxParserPlugins> OnnxParserPlugins::parse(std::string_view text,
                                                          const std::string &name,
                                                          std::string &error) {
  OnnxParserPlugins table;
  std::string failure;
  forEachContentLine(text, name, [&](const ContentLine &line) {
    if (!failure.empty())
      return; // the first failure stops the table
    unsigned lineNumber = line.loc.line;
    ParserPluginEntry entry;
    entry.line = lineNumber;
    if (std::string what = readRow(line.text, entry); !what.empty()) {
      failure = name + ":" + std::to_string(lineNumber) + ": " + what;
      return;
    }
    auto key = std::make_pair(entry.domain, entry.opType);
    auto [it, added] = table.entries.emplace(key, std::move(entry));
    if (!added)
      failure = name + ":" + std::to_string(lineNumber) + ": a second row for " + key.first +
              "::" + key.second + " (the first is at line " + std::to_string(it->second.line) +
              "): one row per op type, its opsets joined";
  });
  if (!failure.empty()) {
    error = failure;
    return std::nullopt;
  }
  if (table.entries.empty()) {
    // At the last line: the reader saw the whole file.
    auto lines = std::max<long>(1, std::count(text.begin(), text.end(), '\n'));
    error = name + ":" + std::to_string(lines) + ": the table has no rows";
    return std::nullopt;
  }
  return table;
}

const OnnxParserPlugins *OnnxParserPlugins::builtin(std::string &error) {
  // Read once, on first use (thread-safe: function-local statics).
  static std::string parseError;
  static const std::optional<OnnxParserPlugins> table =
      parse(builtinParserPluginsText(), kBuiltinParserPluginsName, parseError);
  if (!table) {
    error = parseError;
    return nullptr;
  }
  return &*table;
}

const ParserPluginEntry *OnnxParserPlugins::find(std::string_view domain,
                                                 std::string_view opType) const {
  auto it = entries.find({parserDomain(domain), std::string(opType)});
  return it == entries.end() ? nullptr : &it->second;
}

bool OnnxParserPlugins::hasPlugin(std::string_view domain, int64_t opset,
                                  std::string_view opType) const {
  const ParserPluginEntry *entry = find(domain, opType);
  return entry && entry->covers(opset);
}

std::string OnnxParserPlugins::opsetsFor(std::string_view domain,
                                         std::string_view opType) const {
  const ParserPluginEntry *entry = find(domain, opType);
  return entry ? entry->opsetText() : std::string();
}

} // namespace ascendprec::policy
