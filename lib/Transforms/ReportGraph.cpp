//===- ReportGraph.cpp - the planned graph as Graphviz and HTML -----------===//
//
// Ops coloured by compute dtype; Casts that materialization inserted are red
// diamonds, so where the precision changes is visible at a glance.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Transforms/Report.h"

#include <set>

using namespace mlir;
using namespace mlir::ascendprec;

static std::string colorFor(const std::string &dtype) {
  if (dtype == "float16")
    return "#9ecae1";
  if (dtype == "bfloat16")
    return "#a1d99b";
  if (dtype == "float32")
    return "#fdae6b";
  if (dtype == "double")
    return "#fd8d3c";
  return "#d9d9d9";
}

static std::string escape(const std::string &text, bool html) {
  std::string out;
  for (char c : text) {
    if (c == '"' && !html)
      out += "\\\"";
    else if (c == '\\' && !html)
      out += "\\\\";
    else if (c == '<' && html)
      out += "&lt;";
    else if (c == '>' && html)
      out += "&gt;";
    else if (c == '&' && html)
      out += "&amp;";
    else if (c == '"' && html)
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string mlir::ascendprec::reportDot(const ReportData &report) {
  std::string out = "// Planned graph: ops coloured by compute dtype, inserted "
                    "Casts as red diamonds.\n// Render: dot -Tsvg report.dot "
                    "-o report.svg\ndigraph precision {\n  rankdir=TB;\n"
                    "  node [style=filled, fontname=\"Helvetica\", shape=box];\n";
  out += "  label=\"" + escape(report.socVersion + " / " + report.precisionMode, false) +
         "\";\n";
  std::set<std::string> known, inputs;
  for (const ReportNode &node : report.nodes)
    known.insert(node.name);
  for (const ReportNode &node : report.nodes) {
    // Escape each line, then join with DOT's line break.
    std::string label = escape(node.name, false) + "\\n" +
                        escape(node.opType + " [" + node.computeDType + ", " +
                                   node.engine + "]",
                               false);
    if (!node.insertedCast)
      label += "\\n" + escape(node.rule, false);
    out += "  \"" + escape(node.name, false) + "\" [label=\"" + label +
           "\", fillcolor=\"" +
           colorFor(node.computeDType) + "\"" +
           (node.insertedCast ? ", shape=diamond, color=red, penwidth=2" : "") +
           "];\n";
    for (const std::string &producer : node.producers) {
      if (!known.count(producer) && producer.rfind("arg", 0) == 0 &&
          inputs.insert(producer).second)
        out += "  \"" + producer + "\" [shape=ellipse, fillcolor=white];\n";
      if (known.count(producer) || inputs.count(producer))
        out += "  \"" + escape(producer, false) + "\" -> \"" +
               escape(node.name, false) + "\";\n";
    }
  }
  out += "  subgraph cluster_legend {\n    label=\"compute dtype\";\n";
  for (const char *dtype : {"float16", "bfloat16", "float32", "int / other"})
    out += "    \"legend " + std::string(dtype) + "\" [label=\"" + dtype +
           "\", fillcolor=\"" + colorFor(dtype) + "\"];\n";
  out += "  }\n}\n";
  return out;
}

std::string mlir::ascendprec::reportHtml(const ReportData &report) {
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>AscendPrec "
      "precision report</title>\n<style>body{font-family:sans-serif;margin:2em}"
      "table{border-collapse:collapse}td,th{border:1px solid #999;padding:3px 8px;"
      "text-align:left}tr.inserted td{border:2px solid #d00}.legend span{display:"
      "inline-block;padding:2px 10px;margin-right:6px}</style></head><body>\n";
  out += "<h1>Precision plan: " + escape(report.socVersion, true) + ", " +
         escape(report.precisionMode, true) + "</h1>\n<p>" +
         std::to_string(report.plannedCount()) + " ops, " +
         std::to_string(report.castsInserted) + " casts inserted (red rows), " +
         std::to_string(report.castsRemoved) + " removed.</p>\n<p class=\"legend\">";
  for (const char *dtype : {"float16", "bfloat16", "float32", "int / other"})
    out += "<span style=\"background:" + colorFor(dtype) + "\">" + dtype + "</span>";
  out += "</p>\n<table>\n<tr><th>node</th><th>op type</th><th>inputs from</th>"
         "<th>engine</th><th>origin</th><th>compute</th><th>in</th><th>out</th>"
         "<th>impl mode</th><th>list</th><th>rule</th><th>source</th></tr>\n";
  auto join = [](const std::vector<std::string> &items) {
    std::string text;
    for (size_t i = 0; i < items.size(); ++i)
      text += (i ? ", " : "") + items[i];
    return text;
  };
  for (const ReportNode &node : report.nodes) {
    out += std::string("<tr") + (node.insertedCast ? " class=\"inserted\"" : "") +
           " style=\"background:" + colorFor(node.computeDType) + "\">";
    for (const std::string &cell :
         {node.name, node.opType, join(node.producers), node.engine,
          node.originDType, node.computeDType, join(node.inputDTypes),
          join(node.outputDTypes), node.implMode, node.list, node.rule, node.source})
      out += "<td>" + escape(cell, true) + "</td>";
    out += "</tr>\n";
  }
  out += "</table>\n";
  if (!report.diagnostics.empty()) {
    out += "<h2>Diagnostics</h2>\n<ul>\n";
    for (const ReportData::Diagnostic &diag : report.diagnostics)
      out += "<li>" + escape(diag.severity + " [" + diag.rule + "] " +
                                 (diag.location.empty() ? "" : diag.location + ": ") +
                                 diag.message,
                             true) +
             "</li>\n";
    out += "</ul>\n";
  }
  out += "</body></html>\n";
  return out;
}
