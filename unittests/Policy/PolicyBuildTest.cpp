//===- PolicyBuildTest.cpp - options, modes and validation ----------------===//
//
// PM-1..PM-4, PM-8..PM-13, ML-8, IM-1, IM-3, IM-5, KD-3, CD-6, CD-8,
// OP-1..OP-3.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/Policy.h"
#include "PolicyTestUtils.h"

using namespace ascendprec::policy;
using namespace ascendprec::policy::testing;

namespace {

std::optional<Policy> build(const std::vector<std::string> &args,
                            DiagnosticList &diags) {
  return buildPolicy(args, diags);
}

std::string input(const std::string &option, const std::string &file) {
  return inputOption(option, file);
}

//===--- OP: options ---===//

TEST(Options, OP_1_UnknownOptionSuggestsTheCannName) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precison_mode=force_fp16"}, diags));
  const Diagnostic *d = findDiag(diags, "OP-1", "unknown option '--precison_mode'");
  ASSERT_NE(d, nullptr) << diags.format();
  EXPECT_NE(d->message.find("did you mean '--precision_mode'?"), std::string::npos);
  EXPECT_EQ(d->loc.column, 2u) << "argument index";
}

TEST(Options, OP_1_SocVersionIsRequiredAndChecked) {
  DiagnosticList missing;
  EXPECT_FALSE(build({"--precision_mode=force_fp16"}, missing));
  EXPECT_NE(findDiag(missing, "OP-1", "--soc_version is required"), nullptr);
  DiagnosticList unknown;
  EXPECT_FALSE(build({"--soc_version=Ascend91OB"}, unknown));
  EXPECT_NE(findDiag(unknown, "OP-1", "did you mean 'Ascend910B'?"), nullptr);
}

TEST(Options, OP_1_OptionWithoutValueIsAnError) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version"}, diags));
  EXPECT_NE(findDiag(diags, "OP-1", "needs a value: --soc_version=VALUE"), nullptr);
}

TEST(Options, OP_1_SessionFileWithRelativePathsAndCommandLineOverride) {
  DiagnosticList diags;
  auto policy = build({input("session_options", "session_options.json"),
                       "--precision_mode=allow_mix_precision_fp16"},
                      diags);
  ASSERT_TRUE(policy) << diags.format();
  // The command line wins (OP-1).
  EXPECT_EQ(policy->modeSpelling, "allow_mix_precision_fp16");
  EXPECT_TRUE(policy->options.get("precision_mode")->fromCommandLine);
  // Relative paths in the file resolve against the file's folder.
  ASSERT_TRUE(policy->mixList);
  EXPECT_EQ(policy->mixList->path, inputPath("mixlist-relu-to-white.json"));
  EXPECT_EQ(policy->options.get("soc_version")->loc.line, 2u);
  EXPECT_EQ(policy->options.get("soc_version")->loc.file,
            inputPath("session_options.json"));
}

TEST(Options, OP_1_SessionFileErrorsNameTheirPosition) {
  DiagnosticList unknown;
  EXPECT_FALSE(build({input("session_options", "bad-session-unknown-key.json")}, unknown));
  EXPECT_DIAG_AT(unknown, "OP-1", "unknown option 'precison_mode'; did you mean "
                                  "'precision_mode'?",
                 3, 3);
  DiagnosticList type;
  EXPECT_FALSE(build({input("session_options", "bad-session-type.json")}, type));
  EXPECT_DIAG_AT(type, "PM-4", "option 'graph_run_mode' takes an integer, found an array",
                 3, 21);
  DiagnosticList missing;
  EXPECT_FALSE(build({"--session_options=/nonexistent/s.json"}, missing));
  EXPECT_NE(findDiag(missing, "OP-1", "cannot read the --session_options file '/nonexistent/s.json': no such file"), nullptr);
}

TEST(Options, OP_1_SessionFileValuesWrittenAsStrings) {
  // TF adapter users write every value as a string; CANN accepts them.
  TempDir dir;
  std::string good = dir.write("s.json", "{\"soc_version\": \"Ascend910\", "
                                         "\"graph_run_mode\": \"1\", "
                                         "\"deterministic\": \"1\", \"hcom_parallel\": \"true\"}");
  DiagnosticList diags;
  auto policy = build({"--session_options=" + good}, diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_EQ(policy->graphRunMode, 1);
  EXPECT_TRUE(policy->deterministic);
  // A string is checked as the command line's text would be.
  std::string bad = dir.write("b.json", "{\"soc_version\": \"Ascend910\",\n"
                                        "  \"graph_run_mode\": \"1x\"}");
  DiagnosticList badDiags;
  EXPECT_FALSE(build({"--session_options=" + bad}, badDiags));
  EXPECT_DIAG_AT(badDiags, "PM-4", "option 'graph_run_mode' takes an integer, found '1x'", 2, 21);
}

TEST(Options, OP_2_SessionOptionsWithoutEffectAreAcceptedTypedAndListed) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910", "--hcom_parallel=true",
                       "--hccl_timeout=1800", "--variable_placement=Device"},
                      diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_EQ(policy->noEffectOptions,
            (std::vector<std::string>{"hccl_timeout", "hcom_parallel",
                                      "variable_placement"}));
  EXPECT_NE(findDiag(diags, "OP-2", "accepted, no effect on compilation here"), nullptr);
  DiagnosticList typed;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--hccl_timeout=soon"}, typed));
  EXPECT_NE(findDiag(typed, "OP-2", "takes an integer"), nullptr);
  DiagnosticList badBool;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--hcom_parallel=maybe"}, badBool));
  EXPECT_NE(findDiag(badBool, "OP-2", "takes true or false"), nullptr);
}

TEST(Options, OP_3_TuningOptions) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910B3", "--deterministic=1",
                       "--aicore_num=2|4", "--oo_constant_folding=false",
                       "--enable_small_channel=0"},
                      diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_TRUE(policy->deterministic);
  EXPECT_EQ(policy->aicoreNum, std::make_pair(2u, 4u));
  EXPECT_FALSE(policy->constantFolding);
  EXPECT_FALSE(policy->enableSmallChannel);
  DiagnosticList format;
  EXPECT_FALSE(build({"--soc_version=Ascend910B3", "--aicore_num=2,4"}, format));
  EXPECT_NE(findDiag(format, "OP-3", "takes 'cube|vector'"), nullptr);
  DiagnosticList tooMany;
  EXPECT_FALSE(build({"--soc_version=Ascend910B3", "--aicore_num=21|4"}, tooMany));
  EXPECT_NE(findDiag(tooMany, "OP-3", "exceeds Ascend910B3's 20 cube and 40 vector cores"),
            nullptr);
  DiagnosticList binary;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--deterministic=2"}, binary));
  EXPECT_NE(findDiag(binary, "OP-3", "valid values: 0, 1"), nullptr);
}

//===--- PM: precision modes ---===//

TEST(PrecisionModes, PM_1_InvalidValueListsTheValidOnes) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode=force_f16"}, diags));
  const Diagnostic *d =
      findDiag(diags, "PM-1", "invalid value 'force_f16' for option 'precision_mode'");
  ASSERT_NE(d, nullptr) << diags.format();
  EXPECT_NE(d->message.find("force_fp16, force_fp32, cube_fp16in_fp32out"), std::string::npos);
  DiagnosticList v2;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode_v2=force_fp16"}, v2));
  EXPECT_NE(findDiag(v2, "PM-1", "fp16, origin, cube_fp16in_fp32out, mixed_float16"), nullptr);
  // A precision_mode_v2 spelling given to precision_mode says which option.
  DiagnosticList swapped;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode=fp16"}, swapped));
  EXPECT_NE(findDiag(swapped, "PM-1", "write --precision_mode_v2=fp16"), nullptr);
  // No value a letter off: the values that contain what was written.
  DiagnosticList part;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode=bf16"}, part));
  EXPECT_NE(findDiag(part, "PM-1",
                     "(did you mean 'allow_mix_precision_bf16' or 'allow_fp32_to_bf16'?)"),
            nullptr)
      << part.format();
}

TEST(PrecisionModes, PM_2_BothOptionsAreAnError) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode=force_fp16",
                      "--precision_mode_v2=fp16"},
                     diags));
  EXPECT_NE(findDiag(diags, "PM-2", "precision_mode and precision_mode_v2 are both set"),
            nullptr);
}

TEST(PrecisionModes, PM_3_AliasesResolveToOneMode) {
  const std::vector<std::pair<std::string, PrecisionMode>> cases = {
      {"--precision_mode=allow_mix_precision", PrecisionMode::MixedFloat16},
      {"--precision_mode=allow_mix_precision_fp16", PrecisionMode::MixedFloat16},
      {"--precision_mode_v2=mixed_float16", PrecisionMode::MixedFloat16},
      {"--precision_mode=must_keep_origin_dtype", PrecisionMode::MustKeepOrigin},
      {"--precision_mode_v2=origin", PrecisionMode::MustKeepOrigin},
      {"--precision_mode=force_fp16", PrecisionMode::ForceFp16},
      {"--precision_mode_v2=fp16", PrecisionMode::ForceFp16},
  };
  for (const auto &[arg, mode] : cases) {
    DiagnosticList diags;
    auto policy = build({"--soc_version=Ascend910B", arg}, diags);
    ASSERT_TRUE(policy) << arg << diags.format();
    EXPECT_EQ(policy->mode, mode) << arg;
  }
  DiagnosticList diags;
  auto v2 = build({"--soc_version=Ascend910B", "--precision_mode_v2=mixed_bfloat16"}, diags);
  ASSERT_TRUE(v2);
  EXPECT_EQ(v2->mode, PrecisionMode::MixedBFloat16);
  EXPECT_EQ(v2->modeWhy.rule, "PM-3");
}

TEST(PrecisionModes, PM_4_DefaultsForInferenceAndTraining) {
  DiagnosticList diags;
  auto inference = build({"--soc_version=Ascend910"}, diags);
  ASSERT_TRUE(inference);
  EXPECT_EQ(inference->mode, PrecisionMode::ForceFp16);
  EXPECT_EQ(inference->modeWhy.rule, "PM-4");
  auto training = build({"--soc_version=Ascend910", "--graph_run_mode=1"}, diags);
  ASSERT_TRUE(training);
  EXPECT_EQ(training->mode, PrecisionMode::AllowFp32ToFp16);
  auto training910B = build({"--soc_version=Ascend910B2", "--graph_run_mode=1"}, diags);
  ASSERT_TRUE(training910B);
  EXPECT_EQ(training910B->mode, PrecisionMode::MustKeepOrigin);
  EXPECT_EQ(training910B->modeSpelling, "must_keep_origin_dtype");
}

TEST(PrecisionModes, PM_8_AllowFp32ToLowModes) {
  EXPECT_EQ(parsePrecisionMode("allow_fp32_to_fp16"), PrecisionMode::AllowFp32ToFp16);
  EXPECT_EQ(lowDType(PrecisionMode::AllowFp32ToFp16), DType::Float16);
  EXPECT_EQ(parsePrecisionMode("allow_fp32_to_bf16"), PrecisionMode::AllowFp32ToBf16);
  EXPECT_EQ(lowDType(PrecisionMode::AllowFp32ToBf16), DType::BFloat16);
  EXPECT_FALSE(isMixedMode(PrecisionMode::AllowFp32ToFp16));
}

TEST(PrecisionModes, PM_9_OriginModeMakesKeepDTypeAndCustomizeInert) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910B", "--precision_mode_v2=origin",
                       input("keep_dtype", "keep_dtype.cfg"),
                       input("customize_dtypes", "seed004-customize_dtypes.cfg")},
                      diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_TRUE(isOriginMode(policy->mode));
  EXPECT_FALSE(policy->keepDTypeActive);
  EXPECT_FALSE(policy->customizeActive);
}

TEST(PrecisionModes, PM_10_MixedModesAndTheirLowDType) {
  EXPECT_TRUE(isMixedMode(PrecisionMode::MixedFloat16));
  EXPECT_TRUE(isMixedMode(PrecisionMode::MixedBFloat16));
  EXPECT_TRUE(isMixedMode(PrecisionMode::MixedHiFloat8));
  EXPECT_EQ(lowDType(PrecisionMode::MixedFloat16), DType::Float16);
  EXPECT_EQ(lowDType(PrecisionMode::MixedBFloat16), DType::BFloat16);
  EXPECT_EQ(lowDType(PrecisionMode::MixedHiFloat8), DType::HiFloat8);
  EXPECT_FALSE(isMixedMode(PrecisionMode::ForceFp16));
}

TEST(PrecisionModes, PM_11_CubeHif8) {
  EXPECT_EQ(parsePrecisionModeV2("cube_hif8"), PrecisionMode::CubeHiFloat8);
  EXPECT_TRUE(needsHif8(PrecisionMode::CubeHiFloat8));
  EXPECT_EQ(lowDType(PrecisionMode::CubeHiFloat8), DType::HiFloat8);
  EXPECT_FALSE(parsePrecisionMode("cube_hif8")) << "only a precision_mode_v2 value";
}

TEST(PrecisionModes, PM_12_Bf16AndHif8AreGatedBySoc) {
  DiagnosticList bf16;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision_bf16"}, bf16));
  EXPECT_NE(findDiag(bf16, "PM-12", "needs bfloat16, which Ascend910 does not support"), nullptr);
  DiagnosticList ok;
  EXPECT_TRUE(build({"--soc_version=Ascend910B1", "--precision_mode=allow_fp32_to_bf16"}, ok))
      << ok.format();
  DiagnosticList hif8;
  EXPECT_FALSE(build({"--soc_version=Ascend910B", "--precision_mode_v2=mixed_hif8"}, hif8));
  EXPECT_NE(findDiag(hif8, "PM-12", "needs hifloat8, which Ascend910B does not support"), nullptr);
  DiagnosticList p310;
  EXPECT_FALSE(build({"--soc_version=Ascend310P3", "--precision_mode_v2=mixed_bfloat16"}, p310));
  EXPECT_NE(findDiag(p310, "PM-12", "Ascend310P3"), nullptr);
}

TEST(PrecisionModes, PM_13_DocumentedRankings) {
  using P = PrecisionMode;
  const P byAccuracy[] = {P::ForceFp32, P::MustKeepOrigin, P::AllowFp32ToFp16,
                          P::MixedFloat16, P::ForceFp16};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(documentedAccuracyRank(byAccuracy[i]), i);
    EXPECT_EQ(documentedPerformanceRank(byAccuracy[i]), 4 - i);
  }
  EXPECT_FALSE(documentedAccuracyRank(P::MixedBFloat16));
}

//===--- Mixlist, keep_dtype, customize_dtypes, impl-mode validation ---===//

TEST(Validation, ML_8_ModifyMixlistNeedsAMixedMode) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode=force_fp16",
                      input("modify_mixlist", "mixlist-relu-to-white.json")},
                     diags));
  const Diagnostic *d = findDiag(diags, "ML-8", "modify_mixlist only applies in a mixed");
  ASSERT_NE(d, nullptr) << diags.format();
  EXPECT_NE(d->message.find("allow_mix_precision"), std::string::npos);
  EXPECT_NE(d->message.find("mixed_float16"), std::string::npos);
}

TEST(Validation, ML_9_MixlistFileMustExist) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision",
                      "--modify_mixlist=/nonexistent.json"},
                     diags));
  EXPECT_NE(findDiag(diags, "ML-9", "cannot read the --modify_mixlist file '/nonexistent.json': no such file"), nullptr);
}

TEST(Validation, KD_3_KeepDTypeUnderOriginWarnsOnce) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910B", "--precision_mode=must_keep_origin_dtype",
                       input("keep_dtype", "keep_dtype.cfg")},
                      diags);
  ASSERT_TRUE(policy);
  int count = 0;
  for (const Diagnostic &d : diags.all())
    count += d.rule == "KD-3";
  EXPECT_EQ(count, 1);
}

TEST(Validation, CD_6_CustomizeUnderOriginWarns) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910B", "--precision_mode_v2=origin",
                       input("customize_dtypes", "seed000-customize_dtypes-opname.cfg")},
                      diags);
  ASSERT_TRUE(policy);
  EXPECT_NE(findDiag(diags, "CD-6", "customize_dtypes has no effect under origin"), nullptr);
}

TEST(Validation, CD_8_ForbiddenPathCharacterIsAnError) {
  TempDir dir;
  std::string path = dir.write("my cfg.cfg", "n::OutputDtype:float16\n");
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--customize_dtypes=" + path}, diags));
  EXPECT_NE(findDiag(diags, "CD-8", "contains ' '"), nullptr);
}

TEST(Validation, IM_1_OpSelectImplmodeIsDeprecated) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910", "--op_select_implmode=high_precision"}, diags);
  ASSERT_TRUE(policy);
  EXPECT_NE(findDiag(diags, "IM-1", "op_select_implmode is deprecated"), nullptr);
}

TEST(Validation, IM_3_OptypelistNeedsOpSelectImplmode) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--optypelist_for_implmode=SoftmaxV2"}, diags));
  EXPECT_NE(findDiag(diags, "IM-3", "optypelist_for_implmode needs op_select_implmode"), nullptr);
  DiagnosticList undocumented;
  auto policy = build({"--soc_version=Ascend910", "--op_select_implmode=high_precision",
                       "--optypelist_for_implmode=SoftmaxV2,Gelu"},
                      undocumented);
  ASSERT_TRUE(policy);
  EXPECT_EQ(policy->optypelistForImplmode, (std::vector<std::string>{"SoftmaxV2", "Gelu"}));
  EXPECT_NE(findDiag(undocumented, "IM-3", "'Gelu' is not one of the op types CANN documents"),
            nullptr);
}

TEST(Validation, IM_4_OpPrecisionModeFileMustExist) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910", "--op_precision_mode=/nonexistent.ini"}, diags));
  EXPECT_NE(findDiag(diags, "IM-4", "cannot read"), nullptr);
}

TEST(Validation, IM_5_OpPrecisionModeWinsOverOpSelectImplmode) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910", "--op_select_implmode=high_precision",
                       input("op_precision_mode", "seed001-op_precision.ini")},
                      diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_TRUE(policy->implSelectIgnored);
  EXPECT_NE(findDiag(diags, "IM-5", "op_select_implmode and optypelist_for_implmode are ignored"),
            nullptr);
}

TEST(Validation, FU_1_GeneralFusionPassesAreOnByDefault) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910"}, diags);
  ASSERT_TRUE(policy) << diags.format();
  for (const FusionPassInfo &pass : fusionPasses())
    EXPECT_EQ(policy->fusion.isOn(pass.name), pass.general) << pass.name;
  EXPECT_EQ(policy->fusion.passes.at("AABiasaddConvFusion").why, "general: on by default");
}

TEST(Validation, FU_1_UnknownScopeFusionPassIsAnErrorListingTheKnownOnes) {
  DiagnosticList diags;
  EXPECT_FALSE(build({"--soc_version=Ascend910",
                      "--enable_scope_fusion_passes=ConvBatchnormFusionPas"},
                     diags));
  const Diagnostic *d = findDiag(diags, "FU-1", "'ConvBatchnormFusionPas', which is not");
  ASSERT_NE(d, nullptr) << diags.format();
  EXPECT_NE(d->message.find("did you mean 'ConvBatchnormFusionPass'?"), std::string::npos);
  EXPECT_NE(d->message.find("MatMulBiasAddFusionPass"), std::string::npos) << d->message;
}

TEST(Validation, FU_1_NamingAGeneralPassIsAWarning) {
  DiagnosticList diags;
  auto policy = build({"--soc_version=Ascend910",
                       "--enable_scope_fusion_passes=AABiasaddConvFusion"},
                      diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_NE(findDiag(diags, "FU-1", "a general pass that is on by default"), nullptr);
}

FusionSettings switched(const std::string &json, DiagnosticList &diags) {
  std::optional<FusionSwitchFile> file = parseFusionSwitchFile(json, "switch.json", diags);
  EXPECT_TRUE(file) << diags.format();
  return resolveFusionSettings({}, {}, file ? &*file : nullptr, diags);
}

TEST(FusionSwitchFile, FU_1_AllOffWithANamedPassOn) {
  DiagnosticList diags;
  FusionSettings settings = switched(R"({"Switch": {"GraphFusion": {
      "MatMulBiasAddFusionPass": "on",
      "ALL": "off"}}})",
                                     diags);
  EXPECT_TRUE(settings.isOn("MatMulBiasAddFusionPass")) << "a named switch beats ALL";
  EXPECT_FALSE(settings.isOn("AABiasaddConvFusion"));
  EXPECT_FALSE(settings.isOn("ConvBatchnormFusionPass"));
  EXPECT_EQ(settings.passes.at("AABiasaddConvFusion").why, "off in switch.json:3 (\"ALL\")");
  EXPECT_EQ(settings.passes.at("MatMulBiasAddFusionPass").why, "on in switch.json:2");
}

TEST(FusionSwitchFile, FU_1_ACannPassWeDoNotHaveIsAWarning) {
  DiagnosticList diags;
  FusionSettings settings =
      switched(R"({"Switch": {"UBFusion": {"TbeReduceElemwiseFusionPass": "off"}}})", diags);
  EXPECT_FALSE(diags.hasErrors());
  EXPECT_NE(findDiag(diags, "FU-1", "'TbeReduceElemwiseFusionPass' is a CANN fusion pass that "
                                    "AscendPrec does not have"),
            nullptr);
  EXPECT_TRUE(settings.isOn("AABiasaddConvFusion"));
}

TEST(FusionSwitchFile, FU_1_MistakesAreErrorsWithTheirPosition) {
  struct Case {
    const char *json, *message;
    unsigned line, column;
  };
  const Case cases[] = {
      {"{\"Switch\": {\"GraphFusion\": {\"AABiasaddConvFusion\": \"of\"}}}",
       "must be \"on\" or \"off\", not \"of\"", 1, 52},
      {"{\"Switch\": {\"GraphFusion\": {\"AABiasaddConvFusion\": true}}}",
       "must be \"on\" or \"off\", not a boolean", 1, 52},
      {"{\"Switch\": {\"GrahpFusion\": {}}}", "did you mean 'GraphFusion'?", 1, 13},
      {"{\"Switch\": {\"GraphFusion\": {\"ConvBatchnormFusion\": \"off\"}}}",
       "did you mean 'ConvBatchnormFusionPass'?", 1, 29},
      {"{\"Switch\": {\"UBFusion\": {\"MatMulBiasAddFusionPass\": \"off\"}}}",
       "is a GraphFusion pass; move it", 1, 26},
      {"{\"switch\": {}}", "expected {\"Switch\"", 1, 1},
      {"{\"Switch\": {\"GraphFusion\": []}}", "must be an object", 1, 28},
  };
  for (const Case &c : cases) {
    DiagnosticList diags;
    EXPECT_FALSE(parseFusionSwitchFile(c.json, "switch.json", diags)) << c.json;
    const Diagnostic *d = findDiag(diags, "FU-1", c.message);
    ASSERT_NE(d, nullptr) << c.json << "\n" << diags.format();
    EXPECT_EQ(d->loc.file, "switch.json");
    EXPECT_EQ(d->loc.line, c.line) << c.json;
    EXPECT_EQ(d->loc.column, c.column) << c.json;
  }
}

} // namespace
