//===- PluginCheck.cpp - the nodes ATC's ONNX parser has no plugin for ----===//
//
// ATC's pre-check (hicann/ge parser/parser/common/pre_checker.cc
// CheckTypeSupported), node by node, against data/onnx/parser-plugins.tsv.
//
//===----------------------------------------------------------------------===//

#include "PluginCheck.h"

#include "ONNXImporter.h"

#include <map>
#include <string>
#include <unordered_map>

namespace ascendprec::onnximport {

namespace {

/// Nodes GE's parser takes without a plugin (kOnnxOpMap in onnx_parser.cc).
bool bypassesPlugins(const onnx::NodeProto &node) {
  return node.op_type() == "Constant" || node.op_type() == "FileConstant";
}

/// AMCT's deploy ops, registered in the default domain
/// (ops-nn quant/ascend_quant/framework/ascend_quant_onnx_plugin.cpp and its
/// AscendDequant and AscendAntiQuant siblings).
bool isAmctDeployOp(const onnx::NodeProto &node) {
  return node.op_type() == "AscendQuant" || node.op_type() == "AscendDequant" ||
         node.op_type() == "AscendAntiQuant";
}

/// Walks a model's graphs as the pre-check does and groups the misses by
/// key.
class RefusalFinder {
public:
  RefusalFinder(const onnx::ModelProto &model, const policy::OnnxParserPlugins &plugins)
      : plugins(plugins) {
    for (const onnx::OperatorSetIdProto &import : model.opset_import())
      opsets[policy::parserDomain(import.domain())] = import.version();
  }

  void walk(const onnx::GraphProto &graph) {
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto &node = graph.node(i);
      check(node, static_cast<unsigned>(i));
      for (const onnx::AttributeProto &attribute : node.attribute()) {
        if (attribute.has_g())
          walk(attribute.g());
        for (const onnx::GraphProto &subgraph : attribute.graphs())
          walk(subgraph);
      }
    }
  }

  std::vector<policy::AtcRefusal> take() { return std::move(refusals); }

private:
  void check(const onnx::NodeProto &node, unsigned index) {
    if (bypassesPlugins(node))
      return;
    std::string domain =
        isAmctDeployOp(node) ? std::string("ai.onnx") : policy::parserDomain(node.domain());
    // ONNX's checker has made sure every domain a node uses is imported.
    auto version = opsets.find(domain);
    int64_t opset = version == opsets.end() ? 1 : version->second;
    if (plugins.hasPlugin(domain, opset, node.op_type()))
      return;
    std::string key = policy::parserPluginKey(domain, opset, node.op_type());
    auto [slot, added] = byKey.try_emplace(key, refusals.size());
    if (added) {
      policy::AtcRefusal refusal;
      refusal.domain = domain;
      refusal.opset = opset;
      refusal.opType = node.op_type();
      refusal.key = key;
      refusal.pluginOpsets = plugins.opsetsFor(domain, node.op_type());
      refusal.wayForward =
          policy::atcWayForward(domain, opset, node.op_type(), refusal.pluginOpsets);
      refusals.push_back(std::move(refusal));
    }
    refusals[slot->second].nodes.push_back(importedNodeName(node, index));
  }

  const policy::OnnxParserPlugins &plugins;
  std::map<std::string, int64_t> opsets; ///< by parserDomain()
  std::unordered_map<std::string, size_t> byKey; ///< index into `refusals`
  std::vector<policy::AtcRefusal> refusals;
};

} // namespace

std::vector<policy::AtcRefusal> findAtcRefusals(const onnx::ModelProto &model,
                                                const policy::OnnxParserPlugins &plugins) {
  RefusalFinder finder(model, plugins);
  finder.walk(model.graph());
  return finder.take();
}

} // namespace ascendprec::onnximport
