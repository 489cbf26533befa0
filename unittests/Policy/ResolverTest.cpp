//===- ResolverTest.cpp - per-op answers (ML, KD, CD, IM, PM facts) -------===//

#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/OnnxOpTypes.h"
#include "AscendPrec/Policy/Policy.h"
#include "PolicyTestUtils.h"

using namespace ascendprec::policy;
using namespace ascendprec::policy::testing;

namespace {

std::string input(const std::string &option, const std::string &file) {
  return inputOption(option, file);
}

OpQuery op(std::string type, std::string name, std::vector<DType> ins,
           std::vector<DType> outs, std::vector<std::string> absorbed = {}) {
  return {std::move(type), std::move(name), std::move(absorbed), std::move(ins),
          std::move(outs)};
}

const DType F16 = DType::Float16, F32 = DType::Float32, I8 = DType::Int8;

bool hasRow(const std::vector<KernelRow> &rows, std::vector<DType> ins,
            std::vector<DType> outs) {
  for (const KernelRow &row : rows)
    if (row.inputs == ins && row.outputs == outs)
      return true;
  return false;
}

//===--- ML ---===//

TEST(Resolver, ML_1_BuiltinListsComeFromPrecisionReduce) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision"});
  EXPECT_EQ(policy.listColor("Conv2D").color, ListColor::White);
  EXPECT_EQ(policy.listColor("Exp").color, ListColor::Black);
  EXPECT_EQ(policy.listColor("Relu").color, ListColor::Gray);
  EXPECT_EQ(policy.listColor("Xlog1py").color, ListColor::Gray);
  ListAnswer conv = policy.listColor("Conv2D");
  EXPECT_EQ(conv.why.rule, "ML-1");
  EXPECT_EQ(conv.why.sourceText(), "built-in");
}

TEST(Resolver, ML_2_WhiteOpsHaveALowPrecisionRow) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision"});
  DiagnosticList diags;
  KernelRowsAnswer rows = policy.kernelRows(op("MatMulV2", "fc", {F32, F32}, {F32}), {}, diags);
  EXPECT_TRUE(hasRow(rows.aicore, {F16, F16, F16}, {F16}));
}

TEST(Resolver, ML_3_BlackOpWithoutItsOriginDTypeNeedsAnAiCpuKernel) {
  // Exp (black) keeps fp32 on the AI Core; MaxPool made black has neither an
  // fp32 AI Core row nor an AI CPU kernel on 910A.
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision",
                             input("modify_mixlist", "seed002-ops_info.json")});
  DiagnosticList diags;
  KernelRowsAnswer exp = policy.kernelRows(op("Exp", "e", {F32}, {F32}), {}, diags);
  EXPECT_TRUE(hasRow(exp.aicore, {F32}, {F32}));
  KernelRowsAnswer pool = policy.kernelRows(op("MaxPool", "p", {F32}, {F32}), {}, diags);
  EXPECT_FALSE(hasRow(pool.aicore, {F32}, {F32}));
  EXPECT_TRUE(pool.aicpu.empty());
  KernelRowsAnswer cast = policy.kernelRows(op("Cast", "c", {F32}, {F16}), {}, diags);
  EXPECT_EQ(policy.listColor("Cast").color, ListColor::Black) << "seed 002 adds Cast";
  EXPECT_TRUE(hasRow(cast.aicore, {F32}, {F16}));
}

TEST(Resolver, ML_6_ModifiedListsNameTheFileAndLine) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision",
                             input("modify_mixlist", "mixlist-relu-to-white.json")});
  ListAnswer relu = policy.listColor("Relu");
  EXPECT_EQ(relu.color, ListColor::White);
  EXPECT_EQ(relu.why.rule, "ML-6");
  EXPECT_EQ(relu.why.sourceText(), inputPath("mixlist-relu-to-white.json") + ":4");
  ListAnswer softmax = policy.listColor("SoftmaxV2");
  EXPECT_EQ(softmax.color, ListColor::Gray);
  EXPECT_EQ(softmax.why.source.line, 5u);
}

TEST(Resolver, ML_7_Seed002WarnsAboutUnknownTypesAndAbsentRemovals) {
  DiagnosticList diags;
  auto policy = buildPolicy({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision",
                             input("modify_mixlist", "seed002-ops_info.json")},
                            diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_NE(findDiag(diags, "ML-7", "'Matmul' is not in the operator library for "
                                    "Ascend910; did you mean 'MatMulV2'?"),
            nullptr)
      << diags.format();
  EXPECT_NE(findDiag(diags, "ML-7", "'Xlog1py' is not on the black list (it is gray)"),
            nullptr);
  DiagnosticList unused;
  policy->reportUnusedSettings({}, {"Conv2D", "Cast"}, unused);
  const Diagnostic *absent =
      findDiag(unused, "ML-7", "appear nowhere in the model: Bias, Matmul, Xlog1py");
  ASSERT_NE(absent, nullptr) << unused.format();
  // Located at the earliest of those entries, not at the file as a whole.
  EXPECT_GT(absent->loc.line, 0u);
}

//===--- KD ---===//

TEST(Resolver, KD_2_MatchesNodeNamesOpTypesAndAbsorbedNames) {
  Policy policy = mustBuild({"--soc_version=Ascend910", input("keep_dtype", "keep_dtype.cfg")});
  KeepDTypeAnswer byName = policy.keepDType(op("Conv2D", "conv1", {F32, F32}, {F32}));
  EXPECT_TRUE(byName.keep);
  EXPECT_EQ(byName.why.rule, "KD-2");
  EXPECT_EQ(byName.why.source.line, 2u);
  EXPECT_TRUE(policy.keepDType(op("SoftmaxV2", "attn/sm", {F32}, {F32})).keep);
  KeepDTypeAnswer fused = policy.keepDType(
      op("Conv2D", "fused_conv", {F32, F32}, {F32}, {"stage2/block1/Relu"}));
  EXPECT_TRUE(fused.keep) << "FU-3: absorbed names match";
  EXPECT_NE(fused.why.why.find("fused into fused_conv"), std::string::npos);
  EXPECT_FALSE(policy.keepDType(op("Relu", "relu9", {F32}, {F32})).keep);
}

TEST(Resolver, KD_3_OriginModeMakesKeepDTypeInert) {
  Policy policy = mustBuild({"--soc_version=Ascend910B", "--precision_mode_v2=origin",
                             input("keep_dtype", "keep_dtype.cfg")});
  KeepDTypeAnswer answer = policy.keepDType(op("Conv2D", "conv1", {F32, F32}, {F32}));
  EXPECT_FALSE(answer.keep);
  EXPECT_EQ(answer.why.rule, "KD-3");
}

TEST(Resolver, KD_4_UnmatchedEntriesOneWarningListingUpToTen) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 12; ++i)
    text += "node" + std::to_string(i) + "\n";
  text += "OpType::Relu\n";
  std::string path = dir.write("keep.cfg", text);
  Policy policy = mustBuild({"--soc_version=Ascend910", "--keep_dtype=" + path});
  DiagnosticList diags;
  policy.reportUnusedSettings({"node0"}, {"Relu"}, diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(findDiag(diags, "KD-4", "11 keep_dtype entries match no op in the model: "
                                    "node1 (line 2)"),
            nullptr)
      << diags.format();
  EXPECT_NE(findDiag(diags, "KD-4", "and 1 more"), nullptr);
  // Located at the first unmatched entry (node1, line 2).
  EXPECT_EQ(diags.all().front().loc.line, 2u);
}

TEST(Resolver, ML_7_OnnxSpellingsPointToTheImportedOpType) {
  TempDir dir;
  std::string path = dir.write(
      "m.json", "{\"black-list\": {\"to-add\": [\"Softmax\"]},\n"
                " \"white-list\": {\"to-add\": [\"MatMul\"]}}\n");
  DiagnosticList diags;
  auto policy = buildPolicy({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision",
                             "--modify_mixlist=" + path},
                            diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_NE(findDiag(diags, "ML-7", "'MatMul' is not in the operator library for Ascend910; "
                                    "did you mean 'BatchMatMulV2'?"),
            nullptr)
      << diags.format();
  // In the file's line order: Softmax (line 1) before MatMul (line 2).
  ASSERT_GE(diags.size(), 2u);
  EXPECT_LE(diags.all()[0].loc.line, diags.all()[1].loc.line);
  EXPECT_EQ(ascendprec::policy::cannOpTypeForOnnx("Where"), "Select");
  EXPECT_EQ(ascendprec::policy::cannOpTypeForOnnx("Relu"), "Relu");
}

TEST(Resolver, KD_4_AnOnnxOpTypeNameSaysWhichCannTypeItBecame) {
  TempDir dir;
  std::string path = dir.write("keep.cfg", "OpType::Softmax\nstem.rleu\n");
  Policy policy = mustBuild({"--soc_version=Ascend910", "--keep_dtype=" + path});
  DiagnosticList diags;
  policy.reportUnusedSettings({"stem.relu"}, {"SoftmaxV2", "Relu"}, diags);
  EXPECT_NE(findDiag(diags, "KD-4", "OpType::Softmax (line 1): ONNX's name; CANN's op type is "
                                    "SoftmaxV2, write OpType::SoftmaxV2"),
            nullptr)
      << diags.format();
  EXPECT_NE(findDiag(diags, "KD-4", "stem.rleu (line 2): did you mean 'stem.relu'?"), nullptr)
      << diags.format();
}

TEST(Resolver, CD_1_UnmatchedCustomizeDTypesEntriesWarnAtTheirLine) {
  TempDir dir;
  std::string path = dir.write(
      "c.cfg", "conv1::InputDtype:float16\nghost::OutputDtype:float16\n"
               "OpType::Relu:OutputDtype:float16\nOpType::Nope:OutputDtype:float16\n");
  Policy policy = mustBuild({"--soc_version=Ascend910", "--customize_dtypes=" + path});
  DiagnosticList diags;
  policy.reportUnusedSettings({"conv1"}, {"Conv2D", "Relu"}, diags);
  ASSERT_EQ(diags.size(), 1u) << diags.format();
  EXPECT_NE(findDiag(diags, "CD-1", "2 customize_dtypes entries match no op in the model: "
                                    "ghost (line 2), OpType::Nope (line 4)"),
            nullptr)
      << diags.format();
  EXPECT_EQ(diags.all().front().loc.line, 2u);
}

/// A policy for `soc` with an op_precision_mode file (in `dir`) holding `ini`.
Policy withOpPrecisionMode(TempDir &dir, const std::string &soc, const std::string &ini) {
  return mustBuild({"--soc_version=" + soc, "--op_precision_mode=" + dir.write("p.ini", ini)});
}

TEST(Resolver, IM_4_UnmatchedOpPrecisionModeEntriesWarn) {
  TempDir dir;
  Policy policy = withOpPrecisionMode(
      dir, "Ascend910",
      "[ByOpType]\nRelu=high_precision\nGhostOp=high_precision\n"
      "[ByNodeName]\nconv1=high_performance\nghost=high_precision\n");
  DiagnosticList diags;
  policy.reportUnusedSettings({"conv1"}, {"Relu"}, diags);
  EXPECT_NE(findDiag(diags, "IM-4", "2 op_precision_mode entries match no op in the model: "
                                    "OpType::GhostOp (line 3), ghost (line 6)"),
            nullptr)
      << diags.format();
}

TEST(Resolver, IM_3_UnmatchedOptypelistEntriesWarn) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--op_select_implmode=high_precision",
                             "--optypelist_for_implmode=SoftmaxV2,Pooling"});
  DiagnosticList diags;
  policy.reportUnusedSettings({}, {"SoftmaxV2"}, diags);
  EXPECT_NE(findDiag(diags, "IM-3", "1 optypelist_for_implmode entry matches no op in the "
                                    "model: OpType::Pooling"),
            nullptr)
      << diags.format();
}

TEST(Resolver, KD_5_CustomizeDTypesWinsOverKeepDType) {
  TempDir dir;
  std::string custom = dir.write("c.cfg", "conv1::OutputDtype:float16\n");
  Policy policy = mustBuild({"--soc_version=Ascend910", input("keep_dtype", "keep_dtype.cfg"),
                             "--customize_dtypes=" + custom});
  KeepDTypeAnswer answer = policy.keepDType(op("Conv2D", "conv1", {F32, F32}, {F32}));
  EXPECT_FALSE(answer.keep);
  EXPECT_EQ(answer.why.rule, "KD-5");
}

//===--- CD ---===//

TEST(Resolver, CD_3_MoreDTypesThanTheOpHasIsAnError) {
  Policy policy = mustBuild({"--soc_version=Ascend910",
                             input("customize_dtypes", "seed004-customize_dtypes.cfg")});
  DiagnosticList diags;
  PinAnswer pin = policy.customizeDTypes(op("Relu", "relu1", {F32}, {F32}), diags);
  EXPECT_FALSE(pin.pinned);
  EXPECT_DIAG_AT(diags, "CD-3", "lists 2 input dtypes for relu1 (Relu), which has 1 inputs", 4, 1);
}

TEST(Resolver, CD_4_OpnameBeatsOpType) {
  TempDir dir;
  std::string path = dir.write("c.cfg", "OpType::Relu:OutputDtype:float32\n"
                                        "block/Relu::OutputDtype:float16\n");
  Policy policy = mustBuild({"--soc_version=Ascend910", "--customize_dtypes=" + path});
  DiagnosticList diags;
  PinAnswer named = policy.customizeDTypes(op("Relu", "block/Relu", {F32}, {F32}), diags);
  ASSERT_TRUE(named.pinned);
  EXPECT_EQ(named.outputs, std::vector<DTypeSlot>{F16});
  EXPECT_EQ(named.why.rule, "CD-4");
  EXPECT_EQ(named.why.source.line, 2u);
  EXPECT_NE(named.why.why.find("the Opname entry wins over OpType::Relu at line 1"),
            std::string::npos);
  PinAnswer typed = policy.customizeDTypes(op("Relu", "other", {F32}, {F32}), diags);
  ASSERT_TRUE(typed.pinned);
  EXPECT_EQ(typed.outputs, std::vector<DTypeSlot>{F32});
}

TEST(Resolver, CD_5_Seed000PinWithNoKernelRowFailsTheBuild) {
  // Relu pinned to float16 in / int8 out: no Relu kernel converts.
  Policy policy = mustBuild({"--soc_version=Ascend910",
                             input("customize_dtypes", "seed000-customize_dtypes-opname.cfg")});
  DiagnosticList diags;
  OpQuery relu = op("Relu", "fp32_vars/Relu", {F32}, {F32});
  PinAnswer pin = policy.customizeDTypes(relu, diags);
  ASSERT_TRUE(pin.pinned);
  KernelRowsAnswer rows = policy.kernelRows(relu, pin, diags);
  EXPECT_FALSE(rows.ok);
  const Diagnostic *d = findDiag(diags, "CD-5", "customize_dtypes pins fp32_vars/Relu (Relu) "
                                                "to inputs (float16), outputs (int8)");
  ASSERT_NE(d, nullptr) << diags.format();
  EXPECT_NE(d->message.find("AI Core (int8) -> (int8)"), std::string::npos);
  EXPECT_EQ(d->loc.line, 1u);
}

TEST(Resolver, CD_5_PinsFilterTheRows) {
  TempDir dir;
  std::string path = dir.write("c.cfg", "fc::InputDtype:float16,,OutputDtype:float\n");
  Policy policy = mustBuild({"--soc_version=Ascend910", "--customize_dtypes=" + path});
  DiagnosticList diags;
  OpQuery fc = op("MatMulV2", "fc", {F32, F32}, {F32});
  KernelRowsAnswer rows = policy.kernelRows(fc, policy.customizeDTypes(fc, diags), diags);
  ASSERT_TRUE(rows.ok) << diags.format();
  ASSERT_EQ(rows.aicore.size(), 1u);
  EXPECT_EQ(rows.aicore.front().str(), "(float16, float16, float32) -> (float32)");
  ASSERT_EQ(rows.aicpu.size(), 0u);
}

TEST(Resolver, CD_6_OriginModeMakesPinsInert) {
  Policy policy = mustBuild({"--soc_version=Ascend910B", "--precision_mode_v2=origin",
                             input("customize_dtypes", "seed000-customize_dtypes-optype.cfg")});
  DiagnosticList diags;
  PinAnswer pin = policy.customizeDTypes(op("Relu", "r", {F32}, {F32}), diags);
  EXPECT_FALSE(pin.pinned);
  EXPECT_EQ(pin.why.rule, "CD-6");
}

TEST(Resolver, CD_7_PinsDoNotFollowNamesIntoFusedOps) {
  Policy policy = mustBuild({"--soc_version=Ascend910",
                             input("customize_dtypes", "seed000-customize_dtypes-opname.cfg")});
  DiagnosticList diags;
  PinAnswer pin = policy.customizeDTypes(
      op("Conv2D", "fused", {F32, F32}, {F32}, {"fp32_vars/Relu"}), diags);
  EXPECT_FALSE(pin.pinned);
}

//===--- IM ---===//

TEST(Resolver, IM_2_OpSelectImplmodeUsesTheLibraryList) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--op_select_implmode=high_precision"});
  DiagnosticList diags;
  ImplModeAnswer softmax = policy.implMode(op("SoftmaxV2", "sm", {F32}, {F32}), diags);
  EXPECT_EQ(softmax.mode, "high_precision");
  EXPECT_EQ(softmax.why.rule, "IM-2");
  EXPECT_NE(softmax.why.sourceText().find("impl_mode/high_precision.ini:"), std::string::npos);
  EXPECT_FALSE(policy.implMode(op("Add", "a", {F32, F32}, {F32}), diags).mode);
  Policy forAll = mustBuild({"--soc_version=Ascend910",
                             "--op_select_implmode=high_performance_for_all"});
  EXPECT_EQ(forAll.implMode(op("ReduceMean", "m", {F32}, {F32}), diags).mode,
            "high_performance");
}

TEST(Resolver, IM_3_OptypelistRestrictsTheMode) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--op_select_implmode=high_precision",
                             "--optypelist_for_implmode=SoftmaxV2"});
  DiagnosticList diags;
  EXPECT_EQ(policy.implMode(op("SoftmaxV2", "sm", {F32}, {F32}), diags).mode, "high_precision");
  EXPECT_FALSE(policy.implMode(op("Gelu", "g", {F32}, {F32}), diags).mode);
}

TEST(Resolver, IM_5_ByNodeNameBeatsByOpType) {
  TempDir dir;
  Policy policy = withOpPrecisionMode(
      dir, "Ascend910",
      "[ByOpType]\nSoftmaxV2=high_performance\n"
      "[ByNodeName]\nattn/sm = high_precision\n");
  DiagnosticList diags;
  ImplModeAnswer named = policy.implMode(op("SoftmaxV2", "attn/sm", {F32}, {F32}), diags);
  EXPECT_EQ(named.mode, "high_precision");
  EXPECT_EQ(named.why.source.line, 4u);
  ImplModeAnswer typed = policy.implMode(op("SoftmaxV2", "other", {F32}, {F32}), diags);
  EXPECT_EQ(typed.mode, "high_performance");
  EXPECT_EQ(typed.why.rule, "IM-5");
  ImplModeAnswer fused = policy.implMode(
      op("SoftmaxV2", "fused", {F32}, {F32}, {"attn/sm"}), diags);
  EXPECT_EQ(fused.mode, "high_precision") << "absorbed names count (FU-3)";
}

TEST(Resolver, IM_6_SingleModeOpsAndUnsupportedModes) {
  TempDir dir;
  Policy policy = withOpPrecisionMode(
      dir, "Ascend910",
      "Rsqrt=high_performance\nAdd=high_precision\n"
      "GatherV2=keep_fp16\n");
  DiagnosticList diags;
  ImplModeAnswer rsqrt = policy.implMode(op("Rsqrt", "r", {F32}, {F32}), diags);
  EXPECT_EQ(rsqrt.mode, "high_precision");
  EXPECT_EQ(rsqrt.why.rule, "IM-6");
  EXPECT_NE(findDiag(diags, "IM-6", "supports only high_precision"), nullptr);
  ImplModeAnswer gather = policy.implMode(op("GatherV2", "g", {F32, DType::Int32}, {F32}), diags);
  EXPECT_FALSE(gather.mode);
  EXPECT_NE(findDiag(diags, "IM-6", "has no keep_fp16 mode"), nullptr);
  // An op all_ops_impl_mode.ini does not list keeps what was asked.
  EXPECT_EQ(policy.implMode(op("Add", "a", {F32, F32}, {F32}), diags).mode, "high_precision");
}

TEST(Resolver, IM_7_KernelModesReachTheOp) {
  TempDir dir;
  Policy policy = withOpPrecisionMode(
      dir, "Ascend910B",
      "LayerNorm=keep_fp16\nMatMulV2=enable_float_32_execution\n");
  DiagnosticList diags;
  EXPECT_EQ(policy.implMode(op("LayerNorm", "ln", {F16, F16, F16}, {F16, F16, F16}), diags).mode,
            "keep_fp16");
  EXPECT_EQ(policy.implMode(op("MatMulV2", "fc", {F32, F32}, {F32}), diags).mode,
            "enable_float_32_execution");
  EXPECT_TRUE(diags.empty()) << diags.format();
}

TEST(Resolver, IM_7_HiFloat32IsKeptAndSaidToChangeNothing) {
  // CANN does not support HF32 in this version: the mode is the op's as
  // asked, with a warning that it computes in fp32 (docs/decisions.md).
  TempDir dir;
  Policy policy = withOpPrecisionMode(
      dir, "Ascend910B3",
      "MatMulV2=enable_hi_float_32_execution\n"
      "[ByNodeName]\nconv=enable_hi_float_32_execution\n");
  DiagnosticList diags;
  EXPECT_EQ(policy.implMode(op("MatMulV2", "fc", {F32, F32}, {F32}), diags).mode,
            "enable_hi_float_32_execution");
  const Diagnostic *warning = findDiag(diags, "IM-7", "fc (MatMulV2): enable_hi_float_32_execution "
                                                      "changes nothing");
  ASSERT_NE(warning, nullptr) << diags.format();
  EXPECT_EQ(warning->loc.line, 1u);
  DiagnosticList byName;
  EXPECT_EQ(policy.implMode(op("Conv2D", "conv", {F32, F32}, {F32}), byName).mode,
            "enable_hi_float_32_execution");
  EXPECT_NE(findDiag(byName, "IM-7", "computes in fp32"), nullptr) << byName.format();
  // Other modes say nothing.
  DiagnosticList none;
  policy.implMode(op("BatchMatMulV2", "bmm", {F32, F32}, {F32}), none);
  EXPECT_TRUE(none.empty()) << none.format();
}

//===--- PM facts the planning rules read from the library ---===//

TEST(Resolver, PM_5_VectorAndCubeOpsHaveFp16Rows) {
  Policy policy = mustBuild({"--soc_version=Ascend310P3"});
  DiagnosticList diags;
  for (const char *type : {"Relu", "SoftmaxV2", "Add", "Gelu"}) {
    KernelRowsAnswer rows = policy.kernelRows(op(type, "n", {F32}, {F32}), {}, diags);
    bool fp16 = false;
    for (const KernelRow &row : rows.aicore)
      fp16 |= row.outputs.front() == F16;
    EXPECT_TRUE(fp16) << type;
  }
}

TEST(Resolver, PM_6_Conv2DOn910AHasNoFp32KernelAnywhere) {
  Policy a = mustBuild({"--soc_version=Ascend910A", "--precision_mode=force_fp32"});
  DiagnosticList diags;
  KernelRowsAnswer conv = a.kernelRows(op("Conv2D", "c", {F32, F32}, {F32}), {}, diags);
  EXPECT_FALSE(hasRow(conv.aicore, {F32, F32, F32}, {F32}));
  EXPECT_TRUE(conv.aicpu.empty());
  Policy b = mustBuild({"--soc_version=Ascend910B3", "--precision_mode=force_fp32"});
  EXPECT_TRUE(hasRow(b.kernelRows(op("Conv2D", "c", {F32, F32}, {F32}), {}, diags).aicore,
                     {F32, F32, F32}, {F32}));
}

TEST(Resolver, PM_7_CubeOpsHaveFp16InFp32OutRows) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=cube_fp16in_fp32out"});
  DiagnosticList diags;
  KernelRowsAnswer rows = policy.kernelRows(op("BatchMatMulV2", "b", {F32, F32}, {F32}), {}, diags);
  EXPECT_TRUE(hasRow(rows.aicore, {F16, F16, F32}, {F32}));
  EXPECT_TRUE(hasRow(rows.aicore, {I8, I8, DType::Int32}, {DType::Int32}));
}

} // namespace

// FU-4: a Conv2D's bias is added after the conversion to a 16-bit output
// only on SoCs without a FixPipe (Ascend910, 310P); on the 910B family the
// FixPipe adds it in fp32 first.
TEST(Resolver, FU_4_ConvBiasAfterConversionWithoutFixPipe) {
  std::optional<SocInfo> a910 = lookupSoc("Ascend910"), b910 = lookupSoc("Ascend910B3"),
                         p310 = lookupSoc("Ascend310P3");
  ASSERT_TRUE(a910 && b910 && p310);
  EXPECT_TRUE(a910->addsConvBiasAfterConversion(/*hasBias=*/true, /*sixteenBitOutput=*/true));
  EXPECT_TRUE(p310->addsConvBiasAfterConversion(true, true));
  EXPECT_FALSE(b910->addsConvBiasAfterConversion(true, true));
  EXPECT_FALSE(a910->addsConvBiasAfterConversion(false, true));
  EXPECT_FALSE(a910->addsConvBiasAfterConversion(true, false));
}
