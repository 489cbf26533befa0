//===- Fusion.cpp - the fusion pass table and which passes run (FU-1) -----===//

#include "AscendPrec/Policy/Fusion.h"

#include <algorithm>

namespace ascendprec::policy {

const char *fusionKindSection(FusionKind kind) {
  return kind == FusionKind::Graph ? "GraphFusion" : "UBFusion";
}

const std::vector<FusionPassInfo> &fusionPasses() {
  static const std::vector<FusionPassInfo> passes = {
      {"EinsumPass", FusionKind::Graph, true, "ReduceSum / Transpose / Reshape / BatchMatMulV2",
       "an fp16/bf16/fp32 Einsum of one or two operands with static shapes (no '...', no "
       "label repeated in an operand, no broadcast batch dimension): labels in one operand "
       "only are summed away, two operands transposed and reshaped to [batch, M, K] and "
       "[batch, K, N], one BatchMatMulV2 (named as the Einsum) contracts them, and the "
       "result is reshaped and transposed to the output; CANN has no AI Core Einsum "
       "kernel"},
      {"ConcatExt2FusionPass", FusionKind::Graph, true, "ConcatV2 tree",
       "a ConcatV2 of more than 63 inputs (static shapes), which CANN's kernel does not "
       "take: children of 63 inputs each, named <name>/ConcatV2<index><rank>, joined by a "
       "ConcatV2 under the original name, split again while it has more than 63 (ST-2)"},
      {"ConvBatchnormFusionPass", FusionKind::Graph, true, "Conv2D",
       "Conv2D with a constant filter (and bias) followed by an inference BatchNorm with "
       "constant statistics, the Conv's only user: the BatchNorm is folded into the filter "
       "and bias in fp32 at compile time"},
      {"AABiasaddConvFusion", FusionKind::Graph, true, "Conv2D",
       "Conv2D followed by a BiasAdd of a constant [C] or an Add of a constant "
       "[C,1,1] / [1,C,1,1], the Conv's only user: the bias joins the Conv (summed with "
       "its own constant bias)"},
      {"MatMulBiasAddFusionPass", FusionKind::Graph, true, "MatMulV2 / BatchMatMulV2",
       "MatMulV2 or BatchMatMulV2 without bias followed by a BiasAdd or an Add of a "
       "constant [N] (or [1,N], [1,1,N]), the product's only user: the bias joins it"},
      {"LayerNormONNXFusionPass", FusionKind::Graph, true, "LayerNorm",
       "the decomposed LayerNorm PyTorch and Paddle export over the last axis: "
       "ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul gamma, Add beta"},
      {"GeluONNXFusionPass", FusionKind::Graph, true, "Gelu",
       "GELU's erf form as torch exports nn.GELU(): x / sqrt(2) (or x * 0.7071), Erf, "
       "Add 1, Mul x, Mul 0.5"},
      {"HardSwishFusionPass", FusionKind::Graph, true, "HardSwish",
       "x * HardSigmoid(x) with alpha 1/6 and beta 0.5"},
      {"SoftmaxFusionPass", FusionKind::Graph, true, "SoftmaxV2",
       "Exp, ReduceSum over one axis (keep_dims) and Div, optionally after x - ReduceMax(x) "
       "over the same axis"},
      {"TbeCommonRules0FusionPass", FusionKind::Buffer, true, "Conv2D + elementwise",
       "after planning: a Conv2D on the AI Core (depthwise and grouped ones too) and the "
       "chain of elementwise vector ops after it, each the previous one's only user: up to "
       "3 of any kind, 4 or 5 only when all are in CANN's white list (Relu, Relu6, "
       "LeakyRelu, PRelu, Add, Mul, Minimum, Sigmoid, Tanh, Softplus, Mish, Swish): one "
       "kernel; the intermediate stays in the accumulator's fp32 and is cast once on the "
       "way out"},
      {"TbeMatmulElemwiseFusionPass", FusionKind::Buffer, true, "MatMul + elementwise",
       "the same for MatMulV2 and BatchMatMulV2"},
      {"TbeEltwiseFusionPass", FusionKind::Buffer, true, "elementwise chain",
       "after planning, after the cube ops' passes: up to 6 consecutive elementwise ops "
       "(ClipByValue included) on the AI Core vector unit, each the previous one's only "
       "user, keeping the first one's shape (other inputs may broadcast to it), that no "
       "cube group took: one kernel, each op computing as it would alone"},
      {"TbeConv2dAddClipMulDivFusionPass", FusionKind::Buffer, true,
       "Conv2D + Add, ClipByValue, Mul, RealDiv",
       "after planning: the hard-swish opset-9 exporters write after a convolution, "
       "y * Clip(y + a, lo, hi) / d with y the Conv2D's output (read by the Add and the Mul "
       "only) and the divisor possibly a Mul by a scalar, every op on the AI Core vector "
       "unit: one kernel, each op computing as it would alone"},
  };
  return passes;
}

const FusionPassInfo *findFusionPass(std::string_view name) {
  for (const FusionPassInfo &pass : fusionPasses())
    if (pass.name == name)
      return &pass;
  return nullptr;
}

bool isCannOnlyFusionPass(std::string_view name) {
  // Passes CANN's documentation and graph engine name that AscendPrec does
  // not implement: a switch file written for CANN may mention them.
  static const char *const kNames[] = {
      "ConvToFullyConnectionFusionPass", "ConvConcatFusionPass",
      "ConvWeightCompressFusionPass",    "ConvScaleFusionPass",
      "FCTransdataMergePass",            "MatMulBiasAddFusionPassV2",
      "TbeConv2DBackpropElemwiseFusionPass",
      "TbeReduceElemwiseFusionPass",     "TbeMultiOutputFusionPass",
      "TbeConvBnreduceFusionPass",       "TbeBnupdateEltwiseFusionPass",
      "BatchMatmulFusionPass",           "LayerNormFusionPass",
      "GeluFusionPass",
      "ScopeLayerNormPass",              "ScopeBatchMultiMatMulPass",
      "ZConcatExt2FusionPass",           "TransposeReshapeFusionPass",
      "ReshapeTransposeFusionPass",      "SplitConvConcatFusionPass",
      "TbeCommonRules2FusionPass",       "TbeConvDoubleInFusionPass",
      "TbeFullyconnectionElemwiseFusionPass", "TbeDepthwiseConvElemwiseFusionPass",
      "TbeConv3dElemwisePass",           "AutomaticUbFusion",
      "PoolingFusionPass",               "ZConcatv2dFusionPass",
      "TfMergeSubFusionPass",            "FusionVirtualOpSetSwitch",
  };
  return std::any_of(std::begin(kNames), std::end(kNames),
                     [&](const char *known) { return name == known; });
}

bool FusionSettings::isOn(std::string_view name) const {
  auto it = passes.find(std::string(name));
  return it != passes.end() && it->second.on;
}

namespace {
std::vector<std::string> passNames(bool generalToo) {
  std::vector<std::string> names;
  for (const FusionPassInfo &pass : fusionPasses())
    if (generalToo || !pass.general)
      names.push_back(pass.name);
  return names;
}

void applySwitch(FusionSettings &settings, const FusionPassInfo &pass, const FusionSwitch &line) {
  FusionSettings::State &state = settings.passes[pass.name];
  if (!pass.general && line.on && !state.on)
    return; // a switch file cannot turn on a non-general pass (FU-1)
  state.on = line.on;
  state.why = std::string(line.on ? "on" : "off") + " in " + line.loc.fileAndLine() +
              (line.name == "ALL" ? " (\"ALL\")" : "");
}
} // namespace

FusionSettings resolveFusionSettings(const std::vector<std::string> &scopePasses,
                                     const SourceLoc &scopeLoc,
                                     const FusionSwitchFile *switchFile,
                                     DiagnosticList &diags) {
  FusionSettings settings;
  for (const FusionPassInfo &pass : fusionPasses())
    settings.passes[pass.name] = {pass.general, pass.general
                                                    ? "general: on by default"
                                                    : "not general: off unless named in "
                                                      "enable_scope_fusion_passes"};
  for (const std::string &name : scopePasses) {
    const FusionPassInfo *pass = findFusionPass(name);
    if (!pass) {
      diags.error(scopeLoc,
                  "enable_scope_fusion_passes names '" + name + "', which is not a fusion pass" +
                      unknownNameHint(name, passNames(true), "fusion passes"),
                  "FU-1");
      continue;
    }
    if (pass->general) {
      diags.warning(scopeLoc,
                    "enable_scope_fusion_passes names '" + name +
                        "', a general pass that is on by default; naming it changes nothing",
                    "FU-1");
      continue;
    }
    settings.passes[pass->name] = {true, "named in enable_scope_fusion_passes"};
  }
  if (!switchFile)
    return settings;
  // "ALL" first, then the named switches, each in file order: a named switch
  // beats its section's ALL wherever it stands in the file.
  for (bool named : {false, true})
    for (const FusionSwitch &line : switchFile->switches) {
      if ((line.name != "ALL") != named)
        continue;
      for (const FusionPassInfo &pass : fusionPasses())
        if (pass.kind == line.kind && (line.name == "ALL" || line.name == pass.name))
          applySwitch(settings, pass, line);
    }
  return settings;
}

} // namespace ascendprec::policy
