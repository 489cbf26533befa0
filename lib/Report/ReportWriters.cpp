//===- ReportWriters.cpp - report as JSON, text table and lockfile --------===//

#include "AscendPrec/Report/Report.h"

#include "AscendPrec/Policy/AtcRefusals.h"
#include "AscendPrec/Policy/ConfigFiles.h"

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/JsonOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::report;
using ::ascendprec::policy::jsonText;

/// Microseconds to three decimals (nanoseconds; the model is not finer).
static double roundedUs(double us) { return std::round(us * 1000.0) / 1000.0; }

/// A JSON array of strings under `key`.
static void writeList(llvm::json::OStream &json, StringRef key,
                      const std::vector<std::string> &items) {
  json.attributeArray(key, [&] {
    for (const std::string &item : items)
      json.value(jsonText(item));
  });
}

/// One entry of report.json's `nodes`.
static void writeNodeJson(llvm::json::OStream &json, const ReportNode &node,
                          const ReportData &report) {
  auto list = [&](StringRef key, const std::vector<std::string> &items) {
    writeList(json, key, items);
  };
  json.attribute("name", jsonText(node.name));
  json.attribute("op_type", jsonText(node.opType));
  json.attribute("generic", node.generic);
  json.attribute("inserted_cast", node.insertedCast);
  if (!node.unshapedBranch.empty())
    json.attribute("branch_without_shapes", jsonText(node.unshapedBranch));
  json.attribute("engine", jsonText(node.engine));
  json.attribute("origin_dtype", jsonText(node.originDType));
  json.attribute("compute_dtype", jsonText(node.computeDType));
  list("input_dtypes", node.inputDTypes);
  list("output_dtypes", node.outputDTypes);
  if (node.implMode.empty())
    json.attribute("impl_mode", nullptr);
  else
    json.attribute("impl_mode", jsonText(node.implMode));
  json.attribute("list", jsonText(node.list));
  json.attribute("rule", jsonText(node.rule));
  json.attribute("source", jsonText(node.source));
  list("absorbed", node.absorbed);
  if (!node.fusedBy.empty())
    list("fused_by", node.fusedBy);
  if (!node.bufferGroup.empty())
    json.attribute("ub_group", jsonText(node.bufferGroup));
  if (!node.bufferStep.empty())
    json.attribute("ub_step", jsonText(node.bufferStep));
  if (!node.region.empty())
    json.attribute("region", jsonText(node.region));
  if (report.lowered) {
    if (node.kernel.empty())
      json.attribute("kernel", nullptr);
    else
      json.attribute("kernel", jsonText(node.kernel));
    if (node.estUs)
      json.attribute("est_us", roundedUs(*node.estUs));
    else
      json.attribute("est_us", nullptr);
  }
  if (report.measured) {
    if (node.relErr && std::isfinite(*node.relErr))
      json.attribute("rel_err", *node.relErr);
    else
      json.attribute("rel_err", nullptr);
  }
}

void ascendprec::report::writeReportJson(const ReportData &report, raw_ostream &os) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  auto list = [&](StringRef key, const std::vector<std::string> &items) {
    writeList(json, key, items);
  };
  auto counts = [&](StringRef key, const std::map<std::string, int64_t> &byKey) {
    json.attributeObject(key, [&] {
      for (const auto &[name, count] : byKey)
        json.attribute(name, count);
    });
  };

  std::map<std::string, int64_t> byDType, byEngine;
  for (const char *engine : {"AICore-cube", "AICore-vector", "AICPU"})
    byEngine[engine] = 0;
  for (const ReportNode &node : report.nodes)
    if (!node.insertedCast) {
      ++byDType[node.computeDType];
      ++byEngine[node.engine];
    }

  json.object([&] {
    json.attribute("soc_version", jsonText(report.socVersion));
    json.attribute("precision_mode", jsonText(report.precisionMode));
    json.attributeObject("options", [&] {
      for (const auto &[name, value] : report.options)
        json.attribute(name, jsonText(value));
    });
    json.attributeObject("summary", [&] {
      json.attribute("ops", static_cast<int64_t>(report.plannedCount()));
      json.attribute("generic_ops", static_cast<int64_t>(report.genericCount()));
      if (size_t unshaped = report.unshapedBranchCount())
        json.attribute("ops_in_branches_without_shapes", static_cast<int64_t>(unshaped));
      counts("by_compute_dtype", byDType);
      counts("by_engine", byEngine);
      json.attribute("casts_inserted", report.castsInserted);
      json.attribute("casts_in_ub_groups", report.castsInBufferGroups());
      json.attribute("casts_removed", report.castsRemoved);
      json.attribute("constants_converted", report.constantsConverted);
      counts("fusions", report.fusionsByPass());
      if (report.lowered) {
        json.attribute("kernels", static_cast<int64_t>(report.distinctKernels()));
        json.attribute("launches", static_cast<int64_t>(report.kernels.size()));
        if (size_t uncounted = report.uncountedLaunches())
          json.attribute("uncounted_launches", static_cast<int64_t>(uncounted));
        json.attribute("unlowered_ops", static_cast<int64_t>(report.unlowered.size()));
        json.attribute("est_device_us", roundedUs(report.estDeviceUs()));
        json.attribute("est_cast_us", roundedUs(report.estCastUs()));
        json.attribute("est_launch_us", roundedUs(report.estLaunchUs()));
        json.attributeObject("est_us_by_engine", [&] {
          for (const auto &[engine, us] : report.estUsByEngine())
            json.attribute(engine, roundedUs(us));
        });
      }
    });
    // Every op the plan runs, the Casts planning inserted too (marked), as
    // report.txt and the Python API's ops list them.
    json.attributeArray("nodes", [&] {
      for (const ReportNode &node : report.nodes) {
        json.object([&] { writeNodeJson(json, node, report); });
      }
    });
    json.attributeArray("diagnostics", [&] {
      for (const ReportData::Diagnostic &diag : report.diagnostics)
        json.object([&] {
          json.attribute("severity", jsonText(diag.severity));
          json.attribute("rule", jsonText(diag.rule));
          json.attribute("location", jsonText(diag.location));
          json.attribute("message", jsonText(diag.message));
        });
    });
    // ATC's refusals (E13010, policy/AtcRefusals.h): each parser key no
    // CANN plugin registers, with its nodes; last, so that the keys above
    // keep their places.
    json.attributeObject("atc_refusals", [&] {
      json.attribute("checked", report.atcChecked);
      json.attribute("nodes", static_cast<int64_t>(
                                  ::ascendprec::policy::atcRefusedNodeCount(report.atcRefusals)));
      std::string summary = ::ascendprec::policy::atcRefusalSummary(report.atcRefusals);
      if (summary.empty())
        json.attribute("message", nullptr);
      else
        json.attribute("message", jsonText(summary));
      json.attributeArray("op_types", [&] {
        for (const ::ascendprec::policy::AtcRefusal &refusal : report.atcRefusals)
          json.object([&] {
            json.attribute("op_type", jsonText(refusal.opType));
            json.attribute("domain", jsonText(refusal.domain));
            json.attribute("opset", refusal.opset);
            json.attribute("key", jsonText(refusal.key));
            json.attribute("error_code", ::ascendprec::policy::kAtcRefusalCode);
            json.attribute("node_count", static_cast<int64_t>(refusal.nodes.size()));
            list("nodes", refusal.nodes);
            if (refusal.pluginOpsets.empty())
              json.attribute("plugin_opsets", nullptr);
            else
              json.attribute("plugin_opsets", jsonText(refusal.pluginOpsets));
            if (refusal.wayForward.empty())
              json.attribute("way_forward", nullptr);
            else
              json.attribute("way_forward", jsonText(refusal.wayForward));
          });
      });
    });
  });
  os << "\n";
}

void ascendprec::report::writeReportText(const ReportData &report, raw_ostream &os) {
  auto join = [](const std::vector<std::string> &items) {
    std::string text;
    for (size_t i = 0; i < items.size(); ++i)
      text += (i ? "," : "") + items[i];
    return text;
  };
  // Models with If/Loop/Scan get a last column saying where each op sits.
  bool withRegion =
      llvm::any_of(report.nodes, [](const ReportNode &n) { return !n.region.empty(); });
  std::vector<std::string> header = {"node", "op type", "engine", "origin", "compute",
                                     "inputs", "outputs", "impl mode", "list", "rule",
                                     "source"};
  if (withRegion)
    header.push_back("region");
  if (report.lowered) {
    header.push_back("kernel");
    header.push_back("est us");
  }
  if (report.measured)
    header.push_back("rel err");
  auto cellsOf = [&](const ReportNode &node) {
    std::vector<std::string> cells = {
        displayName(node) + (node.insertedCast ? " (inserted)" : ""),
        node.opType + (node.generic ? " (generic)" : ""), node.engine, node.originDType,
        node.computeDType, join(node.inputDTypes), join(node.outputDTypes),
        node.implMode.empty() ? "-" : node.implMode, node.list, node.rule, node.source};
    if (withRegion)
      cells.push_back(node.region.empty() ? "-" : node.region);
    if (report.lowered) {
      cells.push_back(node.kernel.empty() ? "-" : node.kernel);
      cells.push_back(estimateCell(node));
    }
    if (report.measured)
      cells.push_back(errorCell(node.relErr));
    return cells;
  };
  // Two passes over the nodes (widths, then lines) rather than holding every
  // cell of a 200k-op table in memory.
  std::vector<size_t> widths(header.size(), 0);
  auto widen = [&](const std::vector<std::string> &cells) {
    for (size_t i = 0; i < cells.size(); ++i)
      widths[i] = std::max(widths[i], cells[i].size());
  };
  widen(header);
  for (const ReportNode &node : report.nodes)
    widen(cellsOf(node));
  auto line = [&](const std::vector<std::string> &cells) {
    for (size_t i = 0; i < cells.size(); ++i) {
      os << cells[i];
      if (i + 1 < cells.size())
        os.indent(widths[i] - cells[i].size() + 2);
    }
    os << "\n";
  };
  os << reportSummaryLine(report) << "\n";
  // ATC would not convert the model (E13010): right under the summary.
  std::string refused = ::ascendprec::policy::atcRefusalSummary(report.atcRefusals);
  if (!refused.empty())
    os << refused << "\n";
  line(header);
  size_t total = 0;
  for (size_t w : widths)
    total += w + 2;
  os << std::string(total - 2, '-') << "\n";
  for (const ReportNode &node : report.nodes)
    line(cellsOf(node));
  // After a blank line, so that the table alone is the text up to it.
  if (!report.diagnostics.empty())
    os << "\n" << report.diagnostics.size()
       << (report.diagnostics.size() == 1 ? " diagnostic:\n" : " diagnostics:\n");
  for (const ReportData::Diagnostic &diag : report.diagnostics)
    os << (diag.location.empty() ? "" : diag.location + ": ") << diag.severity << ": "
       << diag.message << (diag.rule.empty() ? "" : " [" + diag.rule + "]") << "\n";
}

std::vector<LockfileOmission> ascendprec::report::lockfileLines(const ReportData &report,
                                                             std::vector<std::string> &lines) {
  std::vector<LockfileOmission> omitted;
  for (const ReportNode &node : report.nodes) {
    // Casts follow their producers.
    if (node.insertedCast || node.opType == "Cast")
      continue;
    // The fused op's line pins it by its own name; the names it absorbed no
    // longer exist after fusion (CD-7), so they are only named here.
    if (!node.absorbed.empty())
      lines.push_back("# " + ::ascendprec::policy::escapeForDisplay(displayName(node)) +
                      ", fused by " + llvm::join(node.fusedBy, ", "));
    std::string problem;
    if (std::optional<std::string> line = ::ascendprec::policy::formatCustomizeDTypesLine(
            node.name, node.inputDTypes, node.outputDTypes, problem))
      lines.push_back(std::move(*line));
    else
      omitted.push_back({node.name, problem});
  }
  return omitted;
}

void ascendprec::report::writeReportLockfile(const ReportData &report, raw_ostream &os) {
  std::vector<std::string> lines;
  std::vector<LockfileOmission> omitted = lockfileLines(report, lines);
  os << "# customize_dtypes lockfile written by AscendPrec for " << report.socVersion
     << " under " << report.precisionMode
     << ".\n# Passed back as --customize_dtypes with the same "
        "options, it reproduces every decision below.\n";
  if (!omitted.empty()) {
    os << "# It leaves out " << omitted.size()
       << " node(s) whose names customize_dtypes cannot express (pin them by\n"
          "# op type or keep_dtype instead):\n";
    for (const LockfileOmission &omission : omitted)
      os << "#   '" << ::ascendprec::policy::escapeForDisplay(omission.name)
         << "': " << omission.problem << "\n";
  }
  for (const std::string &line : lines)
    os << line << "\n";
}
