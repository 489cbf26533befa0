//===- OpLibraryTest.cpp - the built-in library and --ops_info_dir (OP-4) -===//

#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/OpLibrary.h"
#include "AscendPrec/Policy/Policy.h"
#include "AscendPrec/Policy/Soc.h"
#include "PolicyTestUtils.h"

using namespace ascendprec::policy;
using namespace ascendprec::policy::testing;

namespace {

const char *kMinimalOps = R"({
  "Relu": {
    "input0": {"dtype": "float16,float", "name": "x", "paramType": "required"},
    "op": {"pattern": "Elewise"},
    "output0": {"dtype": "float16,float", "name": "y", "paramType": "required"},
    "precision_reduce": {"flag": "false"}
  }
})";

TEST(OpLibrary, OP_4_BuiltinLibrariesLoadForEverySoc) {
  for (const char *soc : {"Ascend910", "Ascend910B", "Ascend310P"}) {
    DiagnosticList diags;
    auto library = loadOpLibrary(std::string(ASCENDPREC_TEST_DATA_DIR) + "/" + soc, diags,
                                 platformConfigName(soc));
    ASSERT_TRUE(library) << soc << "\n" << diags.format();
    EXPECT_TRUE(diags.empty()) << diags.format();
    EXPECT_EQ(library->ops.size(), 130u) << soc;
    ASSERT_TRUE(library->platform);
    EXPECT_EQ(library->platform->cubeM, 16u);
    EXPECT_EQ(library->implModeLists.size(), 5u);
    const OpInfo *exp = library->find("Exp");
    ASSERT_TRUE(exp && exp->aicore && exp->aicpu);
    EXPECT_EQ(exp->builtinColor(), ListColor::Black);
  }
}

TEST(OpLibrary, OP_4_BuiltinFactsPerSoc) {
  DiagnosticList diags;
  auto a = loadOpLibrary(std::string(ASCENDPREC_TEST_DATA_DIR) + "/Ascend910", diags,
                         "Ascend910A");
  auto b = loadOpLibrary(std::string(ASCENDPREC_TEST_DATA_DIR) + "/Ascend910B", diags,
                         "Ascend910B3");
  ASSERT_TRUE(a && b);
  // Whether some AI Core row takes `dtype` as its first (data) input.
  auto hasDType = [](const OpInfo *info, DType dtype) {
    for (const KernelRow &row : info->aicore->rows)
      if (!row.inputs.empty() && row.inputs.front() == dtype)
        return true;
    return false;
  };
  // 910A: no bf16 anywhere, Conv2D without fp32 (seed 002, PM-6).
  for (const auto &[type, info] : a->ops)
    EXPECT_FALSE(hasDType(&info, DType::BFloat16)) << type;
  EXPECT_FALSE(hasDType(a->find("Conv2D"), DType::Float32));
  EXPECT_TRUE(hasDType(b->find("Conv2D"), DType::Float32));
  EXPECT_TRUE(hasDType(b->find("MatMulV2"), DType::BFloat16));
  EXPECT_EQ(a->platform->aiCoreCount, 32u);
  EXPECT_EQ(b->platform->l0cSize, 131072u);
}

TEST(OpLibrary, OP_4_EachVariantReadsItsOwnPlatformConfig) {
  // CANN's platform_config/ holds one .ini per SoC: the variant's file is
  // read (CANN 8.1.RC1's figures, data/ops/README.md).
  struct Expected {
    const char *soc;
    uint64_t cores, freq, l2;
  };
  for (Expected e : {Expected{"Ascend910B1", 24, 1850, 201326592},
                     Expected{"Ascend910B2", 24, 1800, 201326592},
                     Expected{"Ascend910B3", 20, 1800, 201326592},
                     Expected{"Ascend910B4", 20, 1500, 100663296},
                     Expected{"Ascend910B", 20, 1800, 201326592}}) {
    DiagnosticList diags;
    auto library = loadOpLibrary(std::string(ASCENDPREC_TEST_DATA_DIR) + "/Ascend910B", diags,
                                 platformConfigName(e.soc));
    ASSERT_TRUE(library && library->platform) << e.soc << "\n" << diags.format();
    EXPECT_EQ(library->platform->cubeCoreCount, e.cores) << e.soc;
    EXPECT_EQ(library->platform->cubeFreqMHz, e.freq) << e.soc;
    EXPECT_EQ(library->platform->l2Size, e.l2) << e.soc;
    EXPECT_EQ(library->platform->l1ToL0aRate, 512u) << e.soc;
    EXPECT_EQ(library->platform->l1ToL0bRate, 256u) << e.soc;
  }
  // A folder of several files without this SoC's: an error naming them.
  DiagnosticList diags;
  EXPECT_FALSE(loadOpLibrary(std::string(ASCENDPREC_TEST_DATA_DIR) + "/Ascend910B", diags,
                             "Ascend910B9"));
  EXPECT_NE(diags.format().find("has no Ascend910B9.ini; it has Ascend910B1, Ascend910B2"),
            std::string::npos)
      << diags.format();
}

TEST(OpLibrary, OP_4_OpsInfoDirLoadsEveryJsonAndItsPlatform) {
  TempDir dir;
  dir.write("aic-custom-ops-info.json", kMinimalOps);
  dir.write("more.json", R"({"Gelu": {"input0": {"dtype": "float16"},
                                       "output0": {"dtype": "float16"}}})");
  dir.write("impl_mode/all_ops_impl_mode.ini", "Gelu=high_precision\n");
  DiagnosticList diags;
  auto policy = buildPolicy({"--soc_version=Ascend910", "--ops_info_dir=" + dir.str()}, diags);
  ASSERT_TRUE(policy) << diags.format();
  EXPECT_EQ(policy->library.ops.size(), 2u);
  EXPECT_EQ(policy->librarySource, dir.str());
  EXPECT_EQ(policy->listColor("Relu").color, ListColor::Black);
  // A user's library names its file and line as the source.
  EXPECT_EQ(policy->listColor("Relu").why.source.line, 6u);
  // No platform_config/ in the directory: the built-in facts stand in.
  ASSERT_TRUE(policy->library.platform);
  EXPECT_NE(findDiag(diags, "OP-4", "has no platform_config"), nullptr);
}

TEST(OpLibrary, OP_4_MalformedLibraryFilesAreLocatedErrors) {
  struct Case {
    const char *json, *message;
    unsigned line;
  };
  const Case cases[] = {
      {R"({"A": {"input0": {"dtype": "float16,fp99"}, "output0": {"dtype": "float16,float16"}}})",
       "A.input0 lists the unknown dtype 'fp99'", 1},
      {"{\"A\": {\"input0\": {\"dtype\": \"float16\"},\n \"output0\": {\"dtype\": \"float16,float\"}}}",
       "A lists 1 dtypes here but 2 for output0", 1},
      {R"({"A": {"input1": {"dtype": "float16"}, "output0": {"dtype": "float16"}}})",
       "A has input1 but no input0", 1},
      {R"({"A": {"output0": {"dtype": "float16"}, "precision_reduce": {"flag": true}}})",
       "A.precision_reduce must be", 1},
      {R"({"A": {"input0": {"dtype": "float16"}}})", "A declares no output0", 1},
      {R"({"A": [1]})", "op type A must map to an object", 1},
      {R"({"A": {"output0": {"name": "y"}}})", "needs a \"dtype\" string", 1},
  };
  for (const Case &c : cases) {
    OpLibrary library;
    DiagnosticList diags;
    EXPECT_FALSE(parseOpsInfoJson(c.json, "ops.json", library, diags)) << c.json;
    const Diagnostic *d = findDiag(diags, "", c.message);
    ASSERT_NE(d, nullptr) << c.json << "\n" << diags.format();
    EXPECT_EQ(d->loc.file, "ops.json");
    EXPECT_EQ(d->loc.line, c.line);
  }
}

TEST(OpLibrary, OP_4_AiCpuEntriesUseTypeLists) {
  OpLibrary library;
  DiagnosticList diags;
  ASSERT_TRUE(parseOpsInfoJson(R"({"Exp": {
      "input0": {"name": "x", "type": "DT_FLOAT16,DT_FLOAT,DT_DOUBLE"},
      "opInfo": {"engine": "DNN_VM_AICPU"},
      "output0": {"name": "y", "type": "DT_FLOAT16,DT_FLOAT,DT_DOUBLE"}}})",
                               "aicpu.json", library, diags))
      << diags.format();
  const OpInfo *exp = library.find("Exp");
  ASSERT_TRUE(exp && exp->aicpu && !exp->aicore);
  EXPECT_EQ(exp->aicpu->rows.size(), 3u);
}

TEST(OpLibrary, OP_4_DirectoryErrors) {
  DiagnosticList missing;
  EXPECT_FALSE(loadOpLibrary("/nonexistent/ops", missing));
  EXPECT_NE(findDiag(missing, "OP-4", "does not exist"), nullptr);
  TempDir empty;
  DiagnosticList noJson;
  EXPECT_FALSE(loadOpLibrary(empty.str(), noJson));
  EXPECT_NE(findDiag(noJson, "OP-4", "holds no .json"), nullptr);
  TempDir twice;
  twice.write("a.json", kMinimalOps);
  twice.write("b.json", kMinimalOps);
  DiagnosticList duplicate;
  EXPECT_FALSE(loadOpLibrary(twice.str(), duplicate));
  EXPECT_NE(findDiag(duplicate, "OP-4", "has a second AI Core entry"), nullptr);
}

TEST(OpLibrary, OP_4_PlatformConfig) {
  DiagnosticList diags;
  auto info = parsePlatformConfig("[version]\nSoC_version=Ascend910B2\n[SoCInfo]\n"
                                  "ai_core_cnt=24\nvector_core_cnt=48\nmemory_type=\n"
                                  "[AICoreSpec]\ncube_m_size=16\ncube_n_size=16\n"
                                  "cube_k_size=16\nl0_a_size=65536\nl0_b_size=65536\n"
                                  "l0_c_size=131072\nl1_size=524288\nub_size=196608\n",
                                  "Ascend910B2.ini", diags);
  ASSERT_TRUE(info) << diags.format();
  EXPECT_EQ(info->cubeCoreCount, 24u) << "defaults to ai_core_cnt";
  EXPECT_EQ(info->vectorCoreCount, 48u);
  DiagnosticList bad;
  EXPECT_FALSE(parsePlatformConfig("[version]\nSoC_version=X\n[SoCInfo]\nai_core_cnt=many\n",
                                   "x.ini", bad));
  EXPECT_DIAG_AT(bad, "OP-4", "[SoCInfo] ai_core_cnt must be a non-negative integer", 4, 13);
  EXPECT_NE(findDiag(bad, "OP-4", "lacks [AICoreSpec] cube_m_size"), nullptr);
}

} // namespace
