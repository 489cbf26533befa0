//===- ReportGraph.cpp - the planned graph as Graphviz --------------------===//
//
// Ops coloured by compute dtype; Casts that materialization inserted are red
// diamonds, so where the precision changes is visible at a glance; name
// scopes are clusters.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Report/Report.h"

#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::report;

std::string ascendprec::report::reportColorFor(const std::string &dtype) {
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

static std::string escape(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

namespace {

/// A node's name scope: its name up to the last '/' ("/blocks.0/attn/MatMul"
/// is in "/blocks.0/attn"); "" for a name without one.
std::string scopeOf(const std::string &name) {
  size_t slash = name.rfind('/');
  return slash == std::string::npos || slash == 0 ? "" : name.substr(0, slash);
}

/// Name scopes as nested Graphviz clusters, so that a large graph reads as
/// its model's modules ("/blocks.0", "/blocks.0/attn", ...).
struct ScopeTree {
  std::map<std::string, ScopeTree> children;
  std::vector<std::string> lines; ///< node statements in this scope

  ScopeTree &at(const std::string &scope) {
    if (scope.empty())
      return *this;
    ScopeTree *tree = this;
    size_t start = scope[0] == '/' ? 1 : 0;
    while (start <= scope.size()) {
      size_t slash = scope.find('/', start);
      tree = &tree->children[scope.substr(0, slash)];
      if (slash == std::string::npos)
        break;
      start = slash + 1;
    }
    return *tree;
  }

  void print(raw_ostream &os, const std::string &indent, int &clusterId) const {
    for (const std::string &line : lines)
      os << indent << line;
    for (const auto &[scope, child] : children) {
      os << indent << "subgraph cluster_" << clusterId++ << " {\n"
         << indent << "  label=\"" << escape(scope)
         << "\"; style=rounded; color=\"#888888\";\n";
      child.print(os, indent + "  ", clusterId);
      os << indent << "}\n";
    }
  }
};

} // namespace

/// A fused op as a dashed cluster: the op, and the node names it absorbed
/// as notes beside it (FU-3), labelled with the fusion passes.
static std::string fusedCluster(const ReportNode &node, const std::string &opLine,
                                unsigned id) {
  std::string out = "subgraph cluster_fused_" + std::to_string(id) + " {\n  label=\"" +
                    escape("fused by " + llvm::join(node.fusedBy, ", ")) +
                    "\";\n  style=dashed;\n  " + opLine;
  for (const std::string &name : node.absorbed)
    out += "  \"" + escape(node.name + " <- " + name) + "\" [label=\"" + escape(name) +
           "\", shape=note, style=dashed, fillcolor=white];\n";
  return out + "}\n";
}

void ascendprec::report::writeReportDot(const ReportData &report, raw_ostream &os) {
  os << "// Planned graph: ops coloured by compute dtype, inserted "
        "Casts as red diamonds,\n// name scopes as clusters.\n"
        "// Render: dot -Tsvg report.dot -o report.svg\n"
        "digraph precision {\n  rankdir=TB;\n"
        "  node [style=filled, fontname=\"Helvetica\", shape=box];\n";
  os << "  label=\"" << escape(report.socVersion + " / " + report.precisionMode) << "\";\n";
  llvm::StringSet<> known;
  for (const std::string &input : report.graphInputs)
    known.insert(input);
  for (const ReportNode &node : report.nodes)
    known.insert(node.name);
  llvm::StringMap<std::string> scopeOfNode;
  ScopeTree scopes;
  // Consecutive ops usually share a scope: its tree is looked up once.
  std::string lastScope;
  ScopeTree *lastTree = &scopes;
  unsigned fusedClusters = 0;
  for (const std::string &input : report.graphInputs)
    scopes.lines.push_back("\"" + escape(input) + "\" [shape=ellipse, fillcolor=white];\n");
  for (const ReportNode &node : report.nodes) {
    // An inserted Cast sits in the scope of the value it converts.
    std::string scope = node.insertedCast && !node.producers.empty()
                            ? scopeOfNode[node.producers.front()]
                            : scopeOf(node.name);
    scopeOfNode[node.name] = scope;
    std::string label = escape(node.name) + "\\n" +
                        escape(node.opType + (node.generic ? " (generic)" : "") + " [" +
                               node.computeDType + ", " + node.engine + "]");
    if (!node.insertedCast)
      label += "\\n" + escape(node.rule);
    if (scope != lastScope) {
      lastTree = &scopes.at(scope);
      lastScope = scope;
    }
    std::string line = "\"" + escape(node.name) + "\" [label=\"" + label + "\", fillcolor=\"" +
                       reportColorFor(node.computeDType) + "\"" +
                       (node.insertedCast ? ", shape=diamond, color=red, penwidth=2" : "") +
                       "];\n";
    if (!node.absorbed.empty())
      line = fusedCluster(node, line, fusedClusters++);
    lastTree->lines.push_back(std::move(line));
  }
  int clusterId = 0;
  scopes.print(os, "  ", clusterId);
  for (const ReportNode &node : report.nodes)
    for (const std::string &producer : node.producers)
      if (known.count(producer))
        os << "  \"" << escape(producer) << "\" -> \"" << escape(node.name) << "\";\n";
  os << "  subgraph cluster_legend {\n    label=\"compute dtype\";\n";
  for (const char *dtype : {"float16", "bfloat16", "float32", "int / other"})
    os << "    \"legend " << dtype << "\" [label=\"" << dtype << "\", fillcolor=\""
       << reportColorFor(dtype) << "\"];\n";
  os << "  }\n}\n";
}
