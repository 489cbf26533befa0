//===- AtcRefusals.cpp - the ONNX nodes ATC refuses, in ATC's words -------===//
//
// The E13010 text is hicann/ge's (base/common/error_registry/
// error_registry.cc, errTitle Not_Supported_Operator, Arglist
// opname,optype; docs/en/user_guides/error_codes/
// E13010-Not_Supported_Operator.md). The ways forward are CANN's documented
// routes: AMCT for quantized models (its deploy model names AscendQuant and
// AscendDequant, which have plugins; hiascend AMCT docs atlasamct_16_0148
// for QDQ models), and the opsets CANN's ONNX operator list targets (ONNX
// 1.12.0, opsets 9-18, CANN 7.0 ATC guide) for a model exported above them.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/AtcRefusals.h"

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/OnnxParserPlugins.h"

#include <algorithm>

namespace ascendprec::policy {

namespace {

/// Nodes named in a message, and op types in the summary line; the rest
/// are counted.
constexpr size_t kNamedNodes = 5;
constexpr size_t kNamedTypes = 5;

/// ONNX's integer quantization op types. No CANN plugin registers any of
/// them (docs/research/cann-onnx-parser-plugins.md): CANN's quantized
/// models come from AMCT.
bool isOnnxQuantization(const std::string &opType) {
  return opType == "QuantizeLinear" || opType == "DequantizeLinear" ||
         opType == "DynamicQuantizeLinear" || opType == "ConvInteger" ||
         opType == "MatMulInteger" || opType.rfind("QLinear", 0) == 0;
}

/// The highest opset of a compact opset list ("8-9,11-16" -> 16); 0 when
/// there is none.
int64_t highestOpset(const std::string &opsets) {
  size_t last = opsets.find_last_of(",-");
  int64_t value = 0;
  for (char c : opsets.substr(last == std::string::npos ? 0 : last + 1)) {
    if (c < '0' || c > '9')
      return 0;
    value = value * 10 + (c - '0');
  }
  return value;
}

} // namespace

std::string e13010Text(const std::string &node, const std::string &key) {
  return std::string(kAtcRefusalCode) + ": No operator plugin is registered for Op: " + node +
         ", optype: " + key + ".";
}

std::string atcWayForward(const std::string &domain, int64_t opset, const std::string &opType,
                          const std::string &pluginOpsets) {
  bool standard = domain == "ai.onnx";
  if (standard && isOnnxQuantization(opType)) {
    std::string text =
        "quantize statically with AMCT, whose deploy model carries AscendQuant/AscendDequant";
    // A QDQ model is planned as that deploy model (ONNXQuantOps.cpp).
    if (opType == "QuantizeLinear" || opType == "DequantizeLinear")
      text += " (AMCT's convert_qat_model turns a QDQ model into one; this plan models that "
              "deploy model, docs/quantization.md)";
    return text;
  }
  if (pluginOpsets.empty())
    return {};
  std::string supported = standard ? " (CANN's parser supports ONNX opsets " +
                                         std::to_string(kParserMinDocumentedOpset) + "-" +
                                         std::to_string(kParserMaxOpset) + ")"
                                   : "";
  int64_t highest = highestOpset(pluginOpsets);
  if (highest > 0 && opset > highest)
    return "export at opset " + std::to_string(highest) + " or lower" + supported;
  return "export at an opset the plugin covers" + supported;
}

std::string atcRefusalMessage(const AtcRefusal &refusal) {
  std::string text = e13010Text(refusal.nodes.empty() ? "" : escapeForDisplay(refusal.nodes[0]),
                                escapeForDisplay(refusal.key));
  size_t count = refusal.nodes.size();
  text += " " + std::to_string(count) + (count == 1 ? " node: " : " nodes: ");
  for (size_t i = 0; i < count && i < kNamedNodes; ++i)
    text += (i ? ", '" : "'") + escapeForDisplay(refusal.nodes[i]) + "'";
  if (count > kNamedNodes)
    text += " and " + std::to_string(count - kNamedNodes) + " more";
  bool standard = refusal.domain == "ai.onnx";
  if (refusal.pluginOpsets.empty()) {
    text += "; no plugin registers " +
            escapeForDisplay(standard ? refusal.opType : refusal.domain + "::" + refusal.opType) +
            " at any opset";
  } else {
    bool several = refusal.pluginOpsets.find_first_of(",-") != std::string::npos;
    text += std::string("; ATC's plugin covers ") + (several ? "opsets " : "opset ") +
            refusal.pluginOpsets + "; this model imports opset " +
            std::to_string(refusal.opset) +
            (standard ? "" : " of domain '" + escapeForDisplay(refusal.domain) + "'");
  }
  if (!refusal.wayForward.empty())
    text += "; way forward: " + refusal.wayForward;
  return text;
}

size_t atcRefusedNodeCount(const std::vector<AtcRefusal> &refusals) {
  size_t count = 0;
  for (const AtcRefusal &refusal : refusals)
    count += refusal.nodes.size();
  return count;
}

std::string atcRefusalSummary(const std::vector<AtcRefusal> &refusals) {
  if (refusals.empty())
    return {};
  std::vector<std::string> types;
  for (const AtcRefusal &refusal : refusals)
    if (std::find(types.begin(), types.end(), refusal.opType) == types.end())
      types.push_back(refusal.opType);
  size_t nodes = atcRefusedNodeCount(refusals);
  std::string text = "ATC would not convert this model: " + std::string(kAtcRefusalCode) +
                     " for " + std::to_string(nodes) + (nodes == 1 ? " node" : " nodes") +
                     (types.size() == 1 ? " (type " : " (types ");
  for (size_t i = 0; i < types.size() && i < kNamedTypes; ++i)
    text += (i ? ", " : "") + escapeForDisplay(types[i]);
  if (types.size() > kNamedTypes)
    text += " and " + std::to_string(types.size() - kNamedTypes) + " more";
  return text + ")";
}

} // namespace ascendprec::policy
