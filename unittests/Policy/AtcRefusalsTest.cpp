//===- AtcRefusalsTest.cpp - ATC's refusals, in ATC's words ---------------===//
//
// The E13010 text (hicann/ge error_registry.cc), the ways forward and the
// summary line every front end prints (AtcRefusals.h).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/AtcRefusals.h"

#include <gtest/gtest.h>

using namespace ascendprec::policy;

namespace {

AtcRefusal refusal(const std::string &type, int64_t opset, std::vector<std::string> nodes,
                   const std::string &pluginOpsets) {
  AtcRefusal result;
  result.domain = "ai.onnx";
  result.opset = opset;
  result.opType = type;
  result.key = "ai.onnx::" + std::to_string(opset) + "::" + type;
  result.nodes = std::move(nodes);
  result.pluginOpsets = pluginOpsets;
  result.wayForward = atcWayForward(result.domain, opset, type, pluginOpsets);
  return result;
}

TEST(AtcRefusals, TheE13010TextIsAtcs) {
  EXPECT_EQ(e13010Text("x_QuantizeLinear", "ai.onnx::13::DynamicQuantizeLinear"),
            "E13010: No operator plugin is registered for Op: x_QuantizeLinear, optype: "
            "ai.onnx::13::DynamicQuantizeLinear.");
}

TEST(AtcRefusals, WaysForward) {
  const std::string amct =
      "quantize statically with AMCT, whose deploy model carries AscendQuant/AscendDequant";
  for (const char *type : {"DynamicQuantizeLinear", "ConvInteger", "MatMulInteger",
                           "QLinearConv", "QLinearMatMul", "QLinearAdd"})
    EXPECT_EQ(atcWayForward("ai.onnx", 13, type, ""), amct) << type;
  EXPECT_EQ(atcWayForward("ai.onnx", 13, "QuantizeLinear", ""),
            amct + " (AMCT's convert_qat_model turns a QDQ model into one; this plan models "
                   "that deploy model, docs/quantization.md)");
  EXPECT_EQ(atcWayForward("ai.onnx", 19, "Relu", "8-18"),
            "export at opset 18 or lower (CANN's parser supports ONNX opsets 9-18)");
  EXPECT_EQ(atcWayForward("ai.onnx", 17, "BatchMatMul", "8-16"),
            "export at opset 16 or lower (CANN's parser supports ONNX opsets 9-18)");
  EXPECT_EQ(atcWayForward("ai.onnx", 10, "Upsample", "8-9,11-16"),
            "export at an opset the plugin covers (CANN's parser supports ONNX opsets 9-18)");
  EXPECT_EQ(atcWayForward("ai.onnx", 6, "Gemm", "8-18"),
            "export at an opset the plugin covers (CANN's parser supports ONNX opsets 9-18)");
  EXPECT_EQ(atcWayForward("npu", 2, "NPURmsNorm", "1"), "export at opset 1 or lower");
  // No plugin at any opset, and not a quantization: nothing to advise.
  EXPECT_EQ(atcWayForward("ai.onnx", 16, "Loop", ""), "");
  EXPECT_EQ(atcWayForward("com.microsoft", 1, "QLinearConv", ""), "");
}

TEST(AtcRefusals, OneMessagePerKey) {
  EXPECT_EQ(atcRefusalMessage(refusal("DynamicQuantizeLinear", 13, {"x_QuantizeLinear"}, "")),
            "E13010: No operator plugin is registered for Op: x_QuantizeLinear, optype: "
            "ai.onnx::13::DynamicQuantizeLinear. 1 node: 'x_QuantizeLinear'; no plugin "
            "registers DynamicQuantizeLinear at any opset; way forward: quantize statically "
            "with AMCT, whose deploy model carries AscendQuant/AscendDequant");
  EXPECT_EQ(atcRefusalMessage(refusal("Relu", 19, {"relu"}, "8-18")),
            "E13010: No operator plugin is registered for Op: relu, optype: ai.onnx::19::Relu. "
            "1 node: 'relu'; ATC's plugin covers opsets 8-18; this model imports opset 19; way "
            "forward: export at opset 18 or lower (CANN's parser supports ONNX opsets 9-18)");
  // The first five nodes by name, then a count; no way forward known.
  EXPECT_EQ(atcRefusalMessage(refusal("Loop", 16, {"a", "b", "c", "d", "e", "f", "g"}, "")),
            "E13010: No operator plugin is registered for Op: a, optype: ai.onnx::16::Loop. 7 "
            "nodes: 'a', 'b', 'c', 'd', 'e' and 2 more; no plugin registers Loop at any opset");
  AtcRefusal custom = refusal("NPURmsNorm", 2, {"norm"}, "1");
  custom.domain = "npu";
  custom.key = "npu::2::NPURmsNorm";
  custom.wayForward = atcWayForward("npu", 2, "NPURmsNorm", "1");
  EXPECT_EQ(atcRefusalMessage(custom),
            "E13010: No operator plugin is registered for Op: norm, optype: npu::2::NPURmsNorm. "
            "1 node: 'norm'; ATC's plugin covers opset 1; this model imports opset 2 of domain "
            "'npu'; way forward: export at opset 1 or lower");
}

TEST(AtcRefusals, TheSummaryLine) {
  EXPECT_EQ(atcRefusalSummary({}), "");
  std::vector<AtcRefusal> refusals = {
      refusal("DynamicQuantizeLinear", 13, {"q0", "q1"}, ""),
      refusal("ConvInteger", 13, {"conv"}, "")};
  EXPECT_EQ(atcRefusedNodeCount(refusals), 3u);
  EXPECT_EQ(atcRefusalSummary(refusals),
            "ATC would not convert this model: E13010 for 3 nodes (types DynamicQuantizeLinear, "
            "ConvInteger)");
  EXPECT_EQ(atcRefusalSummary({refusal("Relu", 19, {"relu"}, "8-18")}),
            "ATC would not convert this model: E13010 for 1 node (type Relu)");
}

} // namespace
