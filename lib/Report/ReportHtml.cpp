//===- ReportHtml.cpp - the report as one self-contained HTML page --------===//
//
// For a person with a 500-op model in a browser: a summary (counts by
// compute dtype, engine, rule and list; generic ops; casts), every
// diagnostic with its location, and the op table with each inserted Cast
// next to the op whose value it converts. A few lines of embedded
// JavaScript (nothing from the network) filter the rows (every word must
// appear in the row; also from the URL: report.html#filter=MatMul) and sort
// them by a column header.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include "AscendPrec/Report/Report.h"
#include "HtmlEscape.h"
#include "ReportPlot.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::report;

namespace {


std::string join(const std::vector<std::string> &items) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i)
      text += ", ";
    text += items[i];
  }
  return text;
}

constexpr const char *kStyle =
    "body{font-family:sans-serif;margin:1.5em}"
    "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px;"
    "text-align:left;font-size:13px}th{cursor:pointer;background:#eee}"
    "th.sorted{background:#ccc}tr.cast td:first-child{padding-left:2em}"
    "tr.cast td{border:2px solid #d00}.region{font-size:smaller;color:#555}.fused{font-size:smaller;color:#333}.fused ul{margin:0;padding-left:1.2em}tr.generic td:nth-child(2){font-style:italic}"
    ".counts{display:inline-block;vertical-align:top;margin:0 1.5em 1em 0}"
    ".legend span{display:inline-block;padding:2px 10px;margin-right:6px}"
    "li.error{color:#b00}li.warning{color:#850}#filter{width:30em;font-size:14px}"
    "#atc-refusals{color:#b00;font-weight:bold}"
    ".engines{margin-bottom:1em}.bar{display:inline-block;height:10px;background:#47a}"
    "#kernels{margin-bottom:1em}"
    // The page fits a 1400 px window whatever the names: the op and kernel
    // tables take the window's width, long names and lists break anywhere
    // (exporters' names have no spaces), short cells never break.
    "#ops,#kernels{width:100%}"
    "#ops td:nth-child(1),#ops td:nth-child(3),#ops td:nth-child(9),#ops td:nth-child(12),"
    "#ops td:nth-child(13),#kernels td:nth-child(1),#kernels td:nth-child(7)"
    "{overflow-wrap:anywhere;word-break:break-word}"
    "#ops td:nth-child(4),#ops td:nth-child(5),#ops td:nth-child(6),#ops td:nth-child(10),"
    "#ops td:nth-child(11),#ops td:nth-child(14),#ops td:nth-child(15),#ops th"
    "{white-space:nowrap}"
    "svg.plot{max-width:100%;height:auto}";

// Filter: every whitespace-separated word must occur in the row's text.
// Sort: by the clicked column, numbers numerically, again to reverse.
constexpr const char *kScript = R"js(
(function () {
  var table = document.getElementById('ops');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var box = document.getElementById('filter');
  var shown = document.getElementById('shown');
  // A row's search text: its cells' text (the first cell's region, fused
  // names and UB group are set off by spaces in the page) joined by spaces,
  // in lower case; read once, at the first filter.
  var texts = null;
  function rowText(row) {
    var parts = [];
    for (var i = 0; i < row.cells.length; i++)
      parts.push(row.cells[i].textContent);
    return parts.join(' ').toLowerCase();
  }
  function applyFilter() {
    var words = box.value.toLowerCase().split(/\s+/).filter(function (w) { return w; });
    if (!texts) {
      texts = new Map();
      rows.forEach(function (row) { texts.set(row, rowText(row)); });
    }
    var count = 0;
    rows.forEach(function (row) {
      var text = texts.get(row);
      var match = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.hidden = !match;
      if (match) count++;
    });
    shown.textContent = count + ' of ' + rows.length + ' rows';
  }
  var sortColumn = -1, ascending = true;
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
    th.addEventListener('click', function () {
      ascending = column === sortColumn ? !ascending : true;
      sortColumn = column;
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
        c.className = c === th ? 'sorted' : '';
      });
      rows.sort(function (a, b) {
        var x = a.cells[column].textContent, y = b.cells[column].textContent;
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
  box.addEventListener('input', applyFilter);
  var hash = decodeURIComponent(window.location.hash || '');
  if (hash.indexOf('#filter=') === 0) box.value = hash.substring(8);
  applyFilter();
})();
)js";

/// A small table of counts under `title`.
void countsTable(raw_ostream &os, StringRef title, const std::map<std::string, size_t> &counts) {
  os << "<table class=\"counts\"><tr><th>" << escapeHtml(title) << "</th><th>ops</th></tr>";
  for (const auto &[key, count] : counts)
    os << "<tr><td>" << escapeHtml(key) << "</td><td>" << count << "</td></tr>";
  os << "</table>\n";
}


/// --search-precision: each plan the search ran, and what it found.
void searchSection(raw_ostream &os, const ReportSearch &search) {
  os << "<h3>Precision search</h3>\n<p>Target <code>" << escapeHtml(search.target)
     << "</code> (vs the fp32 reference), from <code>" << escapeHtml(search.startMode)
     << "</code>. Result: <b>" << escapeHtml(search.result) << "</b>, est. ";
  char us[32];
  std::snprintf(us, sizeof(us), "%.1f", search.estDeviceUs);
  os << us << " us, " << escapeHtml(search.values);
  if (!search.message.empty())
    os << " (" << escapeHtml(search.message) << ")";
  os << ". The files that reproduce it are in <code>search/</code>; the rest of this report "
        "describes the plan of the options given, not the one found.</p>\n"
        "<table class=\"engines\"><tr><th>step</th><th>change</th><th>ops in fp32</th>"
        "<th>est us</th><th>accuracy</th><th>target</th></tr>";
  for (size_t i = 0; i < search.steps.size(); ++i) {
    const ReportSearchStep &step = search.steps[i];
    os << "<tr><td>" << i << "</td><td>" << escapeHtml(step.change) << "</td><td>"
       << step.opsInFp32 << "</td>";
    if (!step.note.empty()) {
      os << "<td colspan=\"3\">could not run: " << escapeHtml(step.note) << "</td></tr>";
      continue;
    }
    std::snprintf(us, sizeof(us), "%.1f", step.estDeviceUs);
    os << "<td>" << us << "</td><td>" << escapeHtml(step.values) << "</td><td>"
       << (step.meets ? "met" : "missed") << (step.verdict.empty() ? "" : ", ")
       << escapeHtml(step.verdict) << (step.result ? " <b>&larr; result</b>" : "")
       << "</td></tr>";
  }
  os << "</table>\n";
}

/// After --run: the outputs' error, the error along the graph (where it
/// breaks), and --compare-modes' time against error.
void accuracySection(raw_ostream &os, const ReportData &report) {
  if (!report.measured && report.modes.empty())
    return;
  os << "<h2>Accuracy (measured on the host, vs the fp32 reference)</h2>\n";
  if (report.measured) {
    os << "<table class=\"engines\"><tr><th>output</th><th>rel rmse</th><th>max abs err</th>"
          "<th>cosine</th><th>vs expected</th></tr>";
    for (const ReportOutputAccuracy &output : report.outputAccuracy) {
      char cosine[32];
      if (std::isnan(output.cosine))
        std::snprintf(cosine, sizeof(cosine), "-");
      else
        std::snprintf(cosine, sizeof(cosine), "%.7f", output.cosine);
      os << "<tr><td>" << escapeHtml(output.name) << "</td><td>"
         << errorCell(output.relRmse) << "</td><td>" << errorCell(output.maxAbsErr)
         << "</td><td>" << cosine << "</td><td>"
         << (!output.withinTolerance ? "-" : *output.withinTolerance ? "within tolerance"
                                                                      : "OUT of tolerance")
         << "</td></tr>";
    }
    os << "</table>\n";
    std::vector<PlotPoint> points;
    // Exact ops (error 0) would stretch a log axis to nothing, and
    // overflowing ones (Inf/NaN where fp32 is finite) have no place on it:
    // both are counted under the plot instead.
    std::vector<std::string> overflowing;
    size_t exactOps = 0, position = 0;
    for (const auto &[node, error] : report.errorAlongGraph) {
      ++position;
      if (error == 0) {
        ++exactOps;
      } else if (!std::isfinite(error)) {
        overflowing.push_back(node);
      } else {
        points.push_back({static_cast<double>(position), error, node + ": " + errorCell(error),
                          llvm::is_contained(report.errorJumps, node) ? PlotPoint::Style::Jump
                                                                      : PlotPoint::Style::Plain});
      }
    }
    if (!points.empty()) {
      os << "<p>Error of each op's output along the graph (hover a point for the op; large "
            "red points are where the error jumps)";
      if (!report.errorJumps.empty()) {
        os << "; the error first jumps at ";
        for (size_t i = 0; i < report.errorJumps.size(); ++i)
          os << (i ? ", " : "") << "<code>" << escapeHtml(report.errorJumps[i]) << "</code>";
      }
      os << ":</p>\n";
      PlotOptions plot;
      plot.xLabel = "ops in graph order";
      plot.yLabel = "rel rmse vs fp32 (log)";
      plot.connect = true;
      writeLogPlot(os, points, plot);
    }
    if (exactOps || !overflowing.empty()) {
      os << "<p>";
      if (exactOps)
        os << exactOps << " ops exact (not plotted). ";
      if (!overflowing.empty()) {
        os << "<b>Inf or NaN where fp32 is finite (overflow) at:</b>";
        for (const std::string &node : overflowing)
          os << " <code>" << escapeHtml(node) << "</code>";
      }
      os << "</p>\n";
    }
  }
  if (!report.modes.empty()) {
    os << "<h3>Precision modes compared</h3>\n<table class=\"engines\"><tr><th>mode</th>"
          "<th>fp16/bf16 ops</th><th>casts</th><th>est us</th><th>rel rmse</th></tr>";
    std::vector<PlotPoint> points;
    std::vector<std::string> exact, overflowing;
    const ReportSearch *search = report.search ? &*report.search : nullptr;
    for (size_t m = 0; m < report.modes.size(); ++m) {
      const ReportModeComparison &mode = report.modes[m];
      os << "<tr><td>" << escapeHtml(mode.mode) << "</td>";
      if (!mode.note.empty()) {
        os << "<td colspan=\"4\">" << escapeHtml(mode.note) << "</td></tr>";
        continue;
      }
      char us[32];
      std::snprintf(us, sizeof(us), "%.1f", mode.estDeviceUs);
      os << "<td>" << mode.lowPrecisionOps << "</td><td>" << mode.casts << "</td><td>" << us
         << "</td><td>" << errorCell(mode.relRmse) << "</td></tr>";
      if (mode.relRmse == 0) {
        exact.push_back(mode.mode);
        continue;
      }
      if (!std::isfinite(mode.relRmse)) {
        overflowing.push_back(mode.mode);
        continue;
      }
      PlotPoint::Style style = PlotPoint::Style::Plain;
      if (search && m < search->modeMeets.size())
        style = search->modeMeets[m] ? PlotPoint::Style::Met : PlotPoint::Style::Missed;
      // Modes at the same point (and alike against the target) share one
      // label.
      auto same = llvm::find_if(points, [&](const PlotPoint &point) {
        return point.x == mode.estDeviceUs && point.y == mode.relRmse && point.style == style;
      });
      if (same != points.end())
        same->label += ", " + mode.mode;
      else
        points.push_back({mode.estDeviceUs, mode.relRmse, mode.mode, style});
    }
    os << "</table>\n";
    // The plan a precision search found, among the modes; highlighted.
    if (search && std::isfinite(search->relRmse) && search->relRmse > 0)
      points.push_back({search->estDeviceUs, search->relRmse, "search: " + search->result,
                        PlotPoint::Style::Found});
    if (!points.empty()) {
      os << "<p>Estimated device time against measured error";
      if (search)
        os << " (target <code>" << escapeHtml(search->target) << "</code>: "
           << "<span style=\"color:#2e8b57\">&#9679;</span> meets it, &#9675; misses it"
           << (search->relRmseBound ? ", the dashed line is the bound" : "")
           << "; the large red point is the plan the search found)";
      if (!exact.empty()) {
        os << " (exact, not plotted:";
        for (const std::string &mode : exact)
          os << " " << escapeHtml(mode);
        os << ")";
      }
      if (!overflowing.empty()) {
        os << " (<b>overflowing</b>, Inf or NaN where fp32 is finite:";
        for (const std::string &mode : overflowing)
          os << " " << escapeHtml(mode);
        os << ")";
      }
      os << ":</p>\n";
      PlotOptions plot;
      plot.xLabel = "estimated device time (us)";
      plot.yLabel = "rel rmse vs fp32 (log)";
      plot.labelPoints = true;
      if (search && search->relRmseBound) {
        plot.targetY = *search->relRmseBound;
        plot.targetLabel = "target " + search->target;
      }
      writeLogPlot(os, points, plot);
    }
  }
  if (report.search)
    searchSection(os, *report.search);
}

/// Device time, as the lowering estimated it: the total, a bar per kernel
/// engine, and the kernels that take longest (docs/cost-model.md).
void timeSection(raw_ostream &os, const ReportData &report, size_t top = 10) {
  if (!report.lowered)
    return;
  double total = report.estDeviceUs();
  os << "<h2>Device time (estimated)</h2>\n<p id=\"time\">";
  if (report.kernels.empty()) {
    os << "No estimate: no op was lowered to a kernel (" << report.unlowered.size()
       << " ops without a kernel; the diagnostics say why).</p>\n";
    return;
  }
  size_t launches = report.kernels.size(), distinct = report.distinctKernels();
  os << formatUs(total) << " in " << launches << (launches == 1 ? " kernel launch" : " kernel launches")
     << " of " << distinct << (distinct == 1 ? " distinct kernel" : " distinct kernels");
  if (report.estCastUs() > 0)
    os << ", of which " << formatUs(report.estCastUs()) << " in inserted Casts";
  if (report.estLaunchUs() > 0)
    os << "; " << formatUs(report.estLaunchUs())
       << " of the total is the launches' fixed cost (docs/cost-model.md, Launch)";
  if (size_t uncounted = report.uncountedLaunches())
    os << "; each If counts its longer branch (" << uncounted
       << (uncounted == 1 ? " launch" : " launches") << " of shorter branches not in the total)";
  if (!report.unlowered.empty())
    os << "; " << report.unlowered.size() << " ops have no kernel and no estimate: "
       << escapeHtml(join(report.unlowered));
  os << ". Estimates from the SoC's platform config and published measurements; docs/cost-model.md has the formulas and their sources.</p>\n";
  os << "<table class=\"engines\"><tr><th>engine</th><th>est us</th><th>share</th></tr>";
  for (const auto &[engine, us] : report.estUsByEngine()) {
    double share = total > 0 ? 100.0 * us / total : 0;
    os << "<tr><td>" << escapeHtml(engine) << "</td><td>" << llvm::format("%.3g", us)
       << "</td><td><span class=\"bar\" style=\"width:" << llvm::format("%.0f", 2 * share)
       << "px\"></span> " << llvm::format("%.0f", share) << "%</td></tr>";
  }
  os << "</table>\n";
  std::vector<const KernelEstimate *> sorted = report.longestKernels(top);
  os << "<table id=\"kernels\"><tr><th>launch (node)</th><th>engine</th><th>blocks</th>"
        "<th>est us</th><th>launch us</th><th>cube busy us</th><th>vector busy us</th>"
        "<th>data movement busy us</th><th>nodes</th></tr>\n";
  for (size_t i = 0; i < sorted.size(); ++i) {
    const KernelEstimate &k = *sorted[i];
    os << "<tr><td>" << escapeHtml(k.node)
       << (k.node != k.name ? " (kernel " + k.name + ")" : std::string()) << "</td><td>"
       << escapeHtml(k.engine) << "</td><td>"
       << k.blockDim << "</td><td>" << llvm::format("%.3g", k.us) << "</td><td>"
       << llvm::format("%.3g", k.launchUs) << "</td><td>" << llvm::format("%.3g", k.cubeUs) << "</td><td>" << llvm::format("%.3g", k.vectorUs)
       << "</td><td>" << llvm::format("%.3g", k.moveUs) << "</td><td>"
       << escapeHtml(join(k.nodes)) << "</td></tr>\n";
  }
  os << "</table>\n";
  // The busy times overlap (double buffering), so they do not add up to
  // the estimate: a new user read them as a sum.
  os << "<p>A kernel's estimate is its launch plus its pipes' work; the pipes run at once, so "
        "their busy times overlap and do not add up to it (docs/cost-model.md, Overlap).</p>\n";
  if (report.kernels.size() > top)
    os << "<p>The " << top << " longest of " << report.kernels.size()
       << " kernels; every node's kernel and estimate are in the table below and in "
          "report.json.</p>\n";
}

void row(raw_ostream &os, const ReportNode &node, bool lowered, bool measured) {
  std::vector<std::string> cells = {node.name,
                                    node.opType + (node.generic ? " (generic)" : ""),
                                    join(node.producers),
                                    node.engine,
                                    node.originDType,
                                    node.computeDType,
                                    join(node.inputDTypes),
                                    join(node.outputDTypes),
                                    node.implMode,
                                    node.list,
                                    node.rule,
                                    node.insertedCast ? "inserted Cast" : node.source};
  if (lowered) {
    cells.push_back(node.kernel.empty() ? "-" : node.kernel);
    cells.push_back(estimateCell(node));
  }
  if (measured)
    cells.push_back(errorCell(node.relErr));
  // The filter searches the row's own text, so an original node name (in
  // the fused list) finds the op it was fused into (FU-3).
  std::string classes = node.insertedCast ? "cast" : node.generic ? "generic" : "";
  os << "<tr" << (classes.empty() ? "" : " class=\"" + classes + "\"")
     << " style=\"background:" << reportColorFor(node.computeDType) << "\">";
  for (const std::string &cell : cells) {
    os << "<td>" << escapeHtml(cell);
    // An op inside If/Loop/Scan says where, under its name.
    if (&cell == &cells.front() && !node.region.empty())
      os << " <div class=\"region\">in " << escapeHtml(node.region) << "</div>";
    if (&cell == &cells.front() && !node.absorbed.empty()) {
      os << " <div class=\"fused\">fused by " << escapeHtml(join(node.fusedBy)) << ":<ul>";
      for (const std::string &name : node.absorbed)
        os << "<li>" << escapeHtml(name) << " </li>";
      os << "</ul></div>";
    }
    // UB fusion (FU-1): the kernel this op runs in, and where in it the op
    // converts or computes (FU-4).
    if (&cell == &cells.front() && !node.bufferGroup.empty()) {
      os << " <div class=\"fused\">in UB group " << escapeHtml(node.bufferGroup) << " ("
         << escapeHtml(node.bufferPass) << ")";
      if (!node.bufferStep.empty())
        os << ": " << escapeHtml(node.bufferStep) << " [FU-4]";
      os << "</div>";
    }
    os << "</td>";
  }
  os << "</tr>\n";
}

} // namespace

void ascendprec::report::writeReportHtml(const ReportData &report, raw_ostream &os) {
  std::map<std::string, size_t> byDType, byEngine, byRule, byList;
  for (const ReportNode &node : report.nodes)
    if (!node.insertedCast) {
      ++byDType[node.computeDType];
      ++byEngine[node.engine];
      ++byRule[node.rule];
      ++byList[node.list];
    }
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
        "<title>AscendPrec precision report</title>\n<style>"
     << kStyle << "</style></head><body>\n";
  if (report.search && !report.search->result.empty()) {
    // After a search the answer is the news: the plan found, then the one
    // the table below shows (the mode the run was given).
    os << "<h1>Plan found for " << escapeHtml(report.search->target) << ": "
       << escapeHtml(report.search->result) << " on " << escapeHtml(report.socVersion)
       << "</h1>\n<p id=\"search-headline\">Est. "
       << llvm::format("%.1f", report.search->estDeviceUs) << " us on the device; "
       << escapeHtml(report.search->values) << ". The tables below show the plan under "
       << escapeHtml(report.precisionMode) << ", the mode the run was given; the search's "
       << "steps are under Precision search.</p>\n<p id=\"summary\">";
  } else {
    os << "<h1>Precision plan: " << escapeHtml(report.socVersion) << ", "
       << escapeHtml(report.precisionMode) << "</h1>\n<p id=\"summary\">";
  }
  os
     << report.plannedCount() << " ops (" << report.genericCount() << " generic";
  if (size_t unshaped = report.unshapedBranchCount())
    os << "; " << unshaped << " in If branches that cannot run with the given input shapes";
  os << "), " << report.castsInserted << " casts inserted (red rows";
  if (int64_t inGroups = report.castsInBufferGroups())
    os << "; " << inGroups << " of them inside UB groups";
  os << "), " << report.castsRemoved
     << " removed, " << report.constantsConverted << " constants converted, "
     << report.diagnostics.size()
     << (report.diagnostics.size() == 1 ? " diagnostic.</p>\n" : " diagnostics.</p>\n");
  // ATC would not convert the model (E13010): the line report.txt and the
  // terminal give, under the summary; each refused key is a diagnostic.
  std::string refused = ::ascendprec::policy::atcRefusalSummary(report.atcRefusals);
  if (!refused.empty())
    os << "<p id=\"atc-refusals\">" << escapeHtml(refused) << "</p>\n";
  countsTable(os, "compute dtype", byDType);
  countsTable(os, "engine", byEngine);
  countsTable(os, "rule", byRule);
  countsTable(os, "list", byList);
  timeSection(os, report);

  os << "<h2>Diagnostics</h2>\n";
  if (report.diagnostics.empty())
    os << "<p>None.</p>\n";
  else {
    os << "<ul id=\"diagnostics\">\n";
    for (const ReportData::Diagnostic &diag : report.diagnostics)
      os << "<li class=\"" << escapeHtml(diag.severity) << "\">"
         << escapeHtml((diag.location.empty() ? "" : diag.location + ": ") + diag.severity +
                       ": " + diag.message + (diag.rule.empty() ? "" : " [" + diag.rule + "]"))
         << "</li>\n";
    os << "</ul>\n";
  }

  accuracySection(os, report);
  os << "<h2>Ops</h2>\n<p class=\"legend\">";
  for (const char *dtype : {"float16", "bfloat16", "float32", "int / other"})
    os << "<span style=\"background:" << reportColorFor(dtype) << "\">" << dtype << "</span>";
  os << "</p>\n<p><input id=\"filter\" type=\"search\" placeholder=\"filter: name, op type, "
         "dtype, rule (all words must match)\"> <span id=\"shown\"></span></p>\n"
         "<table id=\"ops\"><thead><tr><th>node</th><th>op type</th><th>inputs from</th>"
         "<th>engine</th><th>origin</th><th>compute</th><th>in</th><th>out</th>"
         "<th>impl mode</th><th>list</th><th>rule</th><th>source</th>"
     << (report.lowered ? "<th>kernel</th><th>est us</th>" : "")
     << (report.measured ? "<th>rel err</th>" : "") << "</tr></thead><tbody>\n";
  // Each inserted Cast right after the op (or graph input) whose value it
  // converts.
  std::map<std::string, std::vector<const ReportNode *>> castsOf;
  for (const ReportNode &node : report.nodes)
    if (node.insertedCast)
      castsOf[node.producers.empty() ? "" : node.producers.front()].push_back(&node);
  auto castsAfter = [&](const std::string &producer) {
    auto it = castsOf.find(producer);
    if (it == castsOf.end())
      return;
    for (const ReportNode *cast : it->second)
      row(os, *cast, report.lowered, report.measured);
    castsOf.erase(it);
  };
  for (const std::string &input : report.graphInputs)
    castsAfter(input);
  for (const ReportNode &node : report.nodes)
    if (!node.insertedCast) {
      row(os, node, report.lowered, report.measured);
      castsAfter(node.name);
      for (size_t i = 0; i < node.outputDTypes.size() && node.outputDTypes.size() > 1; ++i)
        castsAfter(node.name + ":" + std::to_string(i));
    }
  for (const auto &[producer, casts] : castsOf) // converting something else
    for (const ReportNode *cast : casts)
      row(os, *cast, report.lowered, report.measured);
  os << "</tbody></table>\n<script>" << kScript << "</script>\n</body></html>\n";
}
