//===- ReportWriters.cpp - report as JSON, text table and lockfile --------===//

#include "AscendPrec/Transforms/Report.h"

#include "AscendPrec/Policy/ConfigFiles.h"

#include "AscendPrec/Policy/JsonWriter.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::ascendprec;
using ::ascendprec::policy::JsonWriter;

std::string mlir::ascendprec::reportJson(const ReportData &report) {
  JsonWriter json;
  json.beginObject();
  json.member("soc_version", report.socVersion);
  json.member("precision_mode", report.precisionMode);
  json.key("options").beginObject();
  for (const auto &[name, value] : report.options)
    json.member(name, value);
  json.endObject();

  std::map<std::string, long long> byDType, byEngine;
  for (const char *engine : {"AICore-cube", "AICore-vector", "AICPU"})
    byEngine[engine] = 0;
  for (const ReportNode &node : report.nodes)
    if (!node.insertedCast) {
      ++byDType[node.computeDType];
      ++byEngine[node.engine];
    }
  json.key("summary").beginObject();
  json.member("ops", static_cast<unsigned long long>(report.plannedCount()));
  json.member("generic_ops", static_cast<unsigned long long>(report.genericCount()));
  json.key("by_compute_dtype").beginObject();
  for (const auto &[dtype, count] : byDType)
    json.member(dtype, count);
  json.endObject();
  json.key("by_engine").beginObject();
  for (const auto &[engine, count] : byEngine)
    json.member(engine, count);
  json.endObject();
  json.member("casts_inserted", static_cast<long long>(report.castsInserted))
      .member("casts_removed", static_cast<long long>(report.castsRemoved))
      .member("constants_converted",
              static_cast<long long>(report.constantsConverted));
  json.endObject();

  auto list = [&](const char *key, const std::vector<std::string> &items) {
    json.key(key).beginArray();
    for (const std::string &item : items)
      json.value(item);
    json.endArray();
  };
  json.key("nodes").beginArray();
  for (const ReportNode &node : report.nodes) {
    if (node.insertedCast)
      continue;
    json.beginObject();
    json.member("name", node.name)
        .member("op_type", node.opType)
        .member("generic", node.generic)
        .member("engine", node.engine)
        .member("origin_dtype", node.originDType)
        .member("compute_dtype", node.computeDType);
    list("input_dtypes", node.inputDTypes);
    list("output_dtypes", node.outputDTypes);
    json.key("impl_mode");
    if (node.implMode.empty())
      json.null();
    else
      json.value(node.implMode);
    json.member("list", node.list).member("rule", node.rule).member("source", node.source);
    list("absorbed", node.absorbed);
    if (!node.region.empty())
      json.member("region", node.region);
    json.endObject();
  }
  json.endArray();

  json.key("diagnostics").beginArray();
  for (const ReportData::Diagnostic &diag : report.diagnostics) {
    json.beginObject();
    json.member("severity", diag.severity)
        .member("rule", diag.rule)
        .member("location", diag.location)
        .member("message", diag.message);
    json.endObject();
  }
  json.endArray();
  json.endObject();
  return json.str();
}

std::string mlir::ascendprec::reportText(const ReportData &report) {
  std::vector<std::vector<std::string>> rows = {
      {"node", "op type", "engine", "origin", "compute", "inputs", "outputs",
       "impl mode", "list", "rule", "source"}};
  auto join = [](const std::vector<std::string> &items) {
    std::string text;
    for (size_t i = 0; i < items.size(); ++i)
      text += (i ? "," : "") + items[i];
    return text;
  };
  for (const ReportNode &node : report.nodes)
    rows.push_back({node.name + (node.insertedCast ? " (inserted)" : ""),
                    node.opType + (node.generic ? " (generic)" : ""), node.engine, node.originDType, node.computeDType,
                    join(node.inputDTypes), join(node.outputDTypes),
                    node.implMode.empty() ? "-" : node.implMode, node.list,
                    node.rule, node.source});
  // Models with If/Loop/Scan get a last column saying where each op sits.
  if (llvm::any_of(report.nodes, [](const ReportNode &n) { return !n.region.empty(); })) {
    rows.front().push_back("region");
    for (size_t i = 1; i < rows.size(); ++i)
      rows[i].push_back(report.nodes[i - 1].region.empty() ? "-" : report.nodes[i - 1].region);
  }
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  std::string out = reportSummaryLine(report) + "\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (size_t i = 0; i < rows[r].size(); ++i) {
      line += rows[r][i];
      if (i + 1 < rows[r].size())
        line += std::string(widths[i] - rows[r][i].size() + 2, ' ');
    }
    out += line + "\n";
    if (r == 0) {
      size_t total = 0;
      for (size_t w : widths)
        total += w + 2;
      out += std::string(total - 2, '-') + "\n";
    }
  }
  // After a blank line, so that the table alone is the text up to it.
  if (!report.diagnostics.empty())
    out += "\n" + std::to_string(report.diagnostics.size()) +
           (report.diagnostics.size() == 1 ? " diagnostic:\n" : " diagnostics:\n");
  for (const ReportData::Diagnostic &diag : report.diagnostics)
    out += (diag.location.empty() ? "" : diag.location + ": ") + diag.severity +
           ": " + diag.message + (diag.rule.empty() ? "" : " [" + diag.rule + "]") +
           "\n";
  return out;
}

std::vector<LockfileOmission> mlir::ascendprec::lockfileLines(const ReportData &report,
                                                             std::vector<std::string> &lines) {
  std::vector<LockfileOmission> omitted;
  for (const ReportNode &node : report.nodes) {
    // Casts follow their producers.
    if (node.insertedCast || node.opType == "Cast")
      continue;
    std::string problem;
    if (std::optional<std::string> line = ::ascendprec::policy::formatCustomizeDTypesLine(
            node.name, node.inputDTypes, node.outputDTypes, problem))
      lines.push_back(std::move(*line));
    else
      omitted.push_back({node.name, problem});
  }
  return omitted;
}

std::string mlir::ascendprec::reportLockfile(const ReportData &report) {
  std::vector<std::string> lines;
  std::vector<LockfileOmission> omitted = lockfileLines(report, lines);
  std::string out = "# customize_dtypes lockfile written by AscendPrec for " +
                    report.socVersion + " under " + report.precisionMode +
                    ".\n# Passed back as --customize_dtypes with the same "
                    "options, it reproduces every decision below.\n";
  if (!omitted.empty()) {
    out += "# It leaves out " + std::to_string(omitted.size()) +
           " node(s) whose names customize_dtypes cannot express (pin them by\n"
           "# op type or keep_dtype instead):\n";
    for (const LockfileOmission &omission : omitted)
      out += "#   '" + ::ascendprec::policy::escapeForDisplay(omission.name) + "': " +
             omission.problem + "\n";
  }
  for (const std::string &line : lines)
    out += line + "\n";
  return out;
}
