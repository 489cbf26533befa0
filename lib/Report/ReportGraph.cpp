//===- ReportGraph.cpp - the planned graph as Graphviz --------------------===//
//
// Ops coloured by compute dtype; Casts that materialization inserted are red
// diamonds, so where the precision changes is visible at a glance; name
// scopes are clusters.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Report/Report.h"
#include "ReplacingWriter.h"

#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"

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

namespace {

/// `text` as a Graphviz string holds it ('"' and '\\' escaped), written
/// straight to the stream (the writer runs once per node and edge of graphs
/// of 100k+ nodes).
struct DotEscaped {
  StringRef text;
};
DotEscaped escape(StringRef text) { return {text}; }

raw_ostream &operator<<(raw_ostream &os, DotEscaped escaped) {
  return writeReplacing(os, escaped.text, [](char c) -> const char * {
    return c == '"' ? "\\\"" : c == '\\' ? "\\\\" : nullptr;
  });
}

/// A node's name scope: its name up to the last '/' ("/blocks.0/attn/MatMul"
/// is in "/blocks.0/attn"); "" for a name without one.
StringRef scopeOf(StringRef name) {
  size_t slash = name.rfind('/');
  return slash == StringRef::npos || slash == 0 ? StringRef() : name.take_front(slash);
}

/// One statement of a scope: a graph input, or a node (in a dashed cluster
/// of its own when it absorbed others).
struct ScopeEntry {
  const std::string *input = nullptr;
  const ReportNode *node = nullptr;
  unsigned fusedCluster = 0;
};

/// Name scopes as nested Graphviz clusters, so that a large graph reads as
/// its model's modules ("/blocks.0", "/blocks.0/attn", ...).
struct ScopeTree {
  std::map<std::string, ScopeTree> children;
  std::vector<ScopeEntry> entries; ///< statements in this scope, in graph order

  ScopeTree &at(StringRef scope) {
    if (scope.empty())
      return *this;
    ScopeTree *tree = this;
    size_t start = scope[0] == '/' ? 1 : 0;
    while (start <= scope.size()) {
      size_t slash = scope.find('/', start);
      tree = &tree->children[scope.take_front(slash).str()];
      if (slash == StringRef::npos)
        break;
      start = slash + 1;
    }
    return *tree;
  }

  void print(raw_ostream &os, const std::string &indent, int &clusterId) const {
    for (const ScopeEntry &entry : entries)
      printEntry(os, indent, entry);
    for (const auto &[scope, child] : children) {
      os << indent << "subgraph cluster_" << clusterId++ << " {\n"
         << indent << "  label=\"" << escape(scope) << "\"; style=rounded; color=\"#888888\";\n";
      child.print(os, indent + "  ", clusterId);
      os << indent << "}\n";
    }
  }

  static void printEntry(raw_ostream &os, StringRef indent, const ScopeEntry &entry) {
    os << indent;
    if (entry.input) {
      os << '"' << escape(*entry.input) << "\" [shape=ellipse, fillcolor=white];\n";
      return;
    }
    const ReportNode &node = *entry.node;
    // A fused op as a dashed cluster: the op, and the node names it
    // absorbed as notes beside it (FU-3), labelled with the fusion passes.
    bool fused = !node.absorbed.empty();
    if (fused) {
      os << "subgraph cluster_fused_" << entry.fusedCluster << " {\n  label=\""
         << escape("fused by " + llvm::join(node.fusedBy, ", ")) << "\";\n  style=dashed;\n  ";
    }
    os << '"' << escape(node.name) << "\" [label=\"" << escape(node.name) << "\\n"
       << escape(node.opType) << (node.generic ? " (generic)" : "") << " ["
       << escape(node.computeDType) << ", " << escape(node.engine) << ']';
    if (!node.insertedCast)
      os << "\\n" << escape(node.rule);
    os << "\", fillcolor=\"" << reportColorFor(node.computeDType) << '"'
       << (node.insertedCast ? ", shape=diamond, color=red, penwidth=2" : "") << "];\n";
    if (!fused)
      return;
    for (const std::string &name : node.absorbed)
      os << "  \"" << escape(node.name + " <- " + name) << "\" [label=\"" << escape(name)
         << "\", shape=note, style=dashed, fillcolor=white];\n";
    os << "}\n";
  }
};

} // namespace

void ascendprec::report::writeReportDot(const ReportData &report, raw_ostream &os) {
  os << "// Planned graph: ops coloured by compute dtype, inserted "
        "Casts as red diamonds,\n// name scopes as clusters.\n"
        "// Render: dot -Tsvg report.dot -o report.svg\n"
        "digraph precision {\n  rankdir=TB;\n"
        "  node [style=filled, fontname=\"Helvetica\", shape=box];\n";
  os << "  label=\"" << escape(report.socVersion + " / " + report.precisionMode) << "\";\n";
  llvm::StringSet<llvm::BumpPtrAllocator> known;
  for (const std::string &input : report.graphInputs)
    known.insert(input);
  for (const ReportNode &node : report.nodes)
    known.insert(node.name);
  llvm::StringMap<StringRef, llvm::BumpPtrAllocator> scopeOfNode;
  ScopeTree scopes;
  // Consecutive ops usually share a scope: its tree is looked up once.
  StringRef lastScope;
  ScopeTree *lastTree = &scopes;
  unsigned fusedClusters = 0;
  for (const std::string &input : report.graphInputs)
    scopes.entries.push_back({&input, nullptr, 0});
  for (const ReportNode &node : report.nodes) {
    // An inserted Cast sits in the scope of the value it converts.
    StringRef scope = node.insertedCast && !node.producers.empty()
                          ? scopeOfNode.lookup(node.producers.front())
                          : scopeOf(node.name);
    scopeOfNode[node.name] = scope;
    if (scope != lastScope) {
      lastTree = &scopes.at(scope);
      lastScope = scope;
    }
    lastTree->entries.push_back(
        {nullptr, &node, node.absorbed.empty() ? 0 : fusedClusters++});
  }
  int clusterId = 0;
  scopes.print(os, "  ", clusterId);
  for (const ReportNode &node : report.nodes)
    for (const std::string &producer : node.producers)
      if (known.contains(producer))
        os << "  \"" << escape(producer) << "\" -> \"" << escape(node.name) << "\";\n";
  os << "  subgraph cluster_legend {\n    label=\"compute dtype\";\n";
  for (const char *dtype : {"float16", "bfloat16", "float32", "int / other"})
    os << "    \"legend " << dtype << "\" [label=\"" << dtype << "\", fillcolor=\""
       << reportColorFor(dtype) << "\"];\n";
  os << "  }\n}\n";
}
