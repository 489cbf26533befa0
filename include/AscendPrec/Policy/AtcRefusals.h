//===- AtcRefusals.h - the ONNX nodes ATC refuses, in ATC's words ---------===//
//
// A node whose parser key ("ai.onnx::13::DynamicQuantizeLinear",
// OnnxParserPlugins.h) has no plugin stops ATC before it parses the model:
// its pre-check reports E13010 (hicann/ge parser/parser/common/
// pre_checker.cc CheckTypeSupported) with the text of hicann/ge
// base/common/error_registry/error_registry.cc:
//   "No operator plugin is registered for Op: %s, optype: %s."
// (Op: the node's name, optype: the key). AscendPrec still plans and runs
// such a model for the user (docs/decisions.md, "ATC's refusals"); these
// are the words every front end uses to say that ATC would not convert it.
// Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_ATCREFUSALS_H
#define ASCENDPREC_POLICY_ATCREFUSALS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ascendprec::policy {

/// ATC's error code for a node without a parser plugin.
constexpr const char *kAtcRefusalCode = "E13010";

/// One parser key of a model that no plugin registers, with its nodes.
struct AtcRefusal {
  std::string domain; ///< "ai.onnx" for ONNX's default domain
  int64_t opset = 0;  ///< the model's opset_import version for the domain
  std::string opType;
  std::string key; ///< "<domain>::<opset>::<opType>", as ATC prints it
  /// Every node with the key, in the order the parser meets them (main
  /// graph first, a node's subgraphs after it).
  std::vector<std::string> nodes;
  /// The opsets a plugin registers for the op type ("8-18"); empty when
  /// none does at any opset.
  std::string pluginOpsets;
  /// What gets the model through ATC; empty when nothing is known.
  std::string wayForward;
};

/// "E13010: No operator plugin is registered for Op: <node>, optype: <key>."
std::string e13010Text(const std::string &node, const std::string &key);

/// What gets nodes of `opType` through ATC, given the opsets a plugin
/// registers for it (empty: none): for ONNX's integer quantization ops,
/// AMCT's static quantization; for an opset no plugin covers, an export at
/// one it does; else empty.
std::string atcWayForward(const std::string &domain, int64_t opset, const std::string &opType,
                          const std::string &pluginOpsets);

/// The diagnostic for one refused key: ATC's E13010 line for its first
/// node, then the node count and the first five names, the opsets the
/// plugin covers (or that none does), and the way forward.
std::string atcRefusalMessage(const AtcRefusal &refusal);

/// Nodes over every refused key.
size_t atcRefusedNodeCount(const std::vector<AtcRefusal> &refusals);

/// "ATC would not convert this model: E13010 for N nodes (types A, B)";
/// empty when nothing is refused.
std::string atcRefusalSummary(const std::vector<AtcRefusal> &refusals);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_ATCREFUSALS_H
