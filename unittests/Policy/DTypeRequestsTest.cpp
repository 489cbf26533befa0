//===- DTypeRequestsTest.cpp - the planning decision, rule by rule --------===//
//
// planRequests and chooseRow on the built-in operator library, without any
// IR: each test is one rule of precision-semantics.md.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/DTypeRequests.h"
#include "PolicyTestUtils.h"

using namespace ascendprec::policy;
using namespace ascendprec::policy::testing;

namespace {

const DType F16 = DType::Float16, F32 = DType::Float32, BF16 = DType::BFloat16,
            I64 = DType::Int64;

/// An op whose inputs and outputs are all float `origin` (`ins` of them).
OpShape floatOp(const std::string &type, const std::string &name, size_t ins, DType origin,
                size_t outs = 1) {
  OpShape shape;
  shape.query = {type, name, {}, std::vector<DType>(ins, origin),
                 std::vector<DType>(outs, origin)};
  shape.floatInputs.assign(ins, true);
  shape.floatOutputs.assign(outs, true);
  shape.primaryInput = ins ? 0 : -1;
  shape.primaryOutput = 0;
  shape.origin = origin;
  return shape;
}

/// Plans `shape` under `policy` as the planning pass does.
struct Planned {
  RequestPlan plan;
  KernelRowsAnswer rows;
  std::optional<RowChoice> choice;
  DiagnosticList diags;
};
Planned plan(const Policy &policy, const OpShape &shape, bool cube,
             std::optional<DType> followed = std::nullopt) {
  Planned out;
  out.rows = policy.kernelRows(shape.query, {}, out.diags);
  OpSituation situation;
  situation.cube = cube;
  situation.list = policy.listColor(shape.query.opType);
  situation.keep = policy.keepDType(shape.query);
  situation.pin = policy.customizeDTypes(shape.query, out.diags);
  situation.rows = &out.rows;
  situation.followed = followed;
  situation.followedText = "producer";
  out.plan = planRequests(policy, shape, situation, out.diags);
  out.choice = chooseRow(out.plan, out.rows, shape);
  return out;
}

/// The rule that decided and the dtype the op computes in.
void expectPlanned(const Planned &planned, const std::string &rule, DType compute) {
  EXPECT_EQ(planned.plan.why.rule, rule);
  ASSERT_TRUE(planned.choice) << planned.plan.failure;
  EXPECT_EQ(planned.choice->compute, compute);
}

const Policy &mixed910() {
  static const Policy policy =
      mustBuild({"--soc_version=Ascend910", "--precision_mode=allow_mix_precision"});
  return policy;
}

TEST(DTypeRequests, PM_5_ForceFp16ComputesInFp16) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=force_fp16"});
  Planned conv = plan(policy, floatOp("Conv2D", "conv", 3, F32), /*cube=*/true);
  expectPlanned(conv, "PM-5", F16);
  EXPECT_EQ(conv.choice->unit, Unit::AICore);
}

TEST(DTypeRequests, PM_6_ForceFp32FallsBackToFp16WithoutAnFp32Kernel) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=force_fp32"});
  Planned conv = plan(policy, floatOp("Conv2D", "conv", 3, F32), true);
  EXPECT_EQ(conv.plan.why.rule, "PM-6");
  ASSERT_EQ(conv.plan.requests.size(), 2u);
  EXPECT_EQ(conv.plan.requests[0], (Request{F32, std::nullopt, Unit::AICore}));
  ASSERT_TRUE(conv.choice);
  EXPECT_EQ(conv.choice->compute, F16); // Ascend910's Conv2D has no fp32 row
}

TEST(DTypeRequests, PM_7_CubeOpsTakeFp16InFp32Out) {
  Policy policy =
      mustBuild({"--soc_version=Ascend910B", "--precision_mode=cube_fp16in_fp32out"});
  Planned matmul = plan(policy, floatOp("MatMulV2", "fc", 2, F32), true);
  EXPECT_EQ(matmul.plan.why.rule, "PM-7");
  EXPECT_EQ(matmul.plan.requests.front(), (Request{F16, F32, Unit::AICore}));
  // Vector ops are planned as under force_fp32, named PM-7.
  expectPlanned(plan(policy, floatOp("Relu", "relu", 1, F32), false), "PM-7", F32);
}

TEST(DTypeRequests, PM_8_OriginWhereSupportedElseLow) {
  Policy policy = mustBuild({"--soc_version=Ascend910", "--precision_mode=allow_fp32_to_fp16"});
  expectPlanned(plan(policy, floatOp("Relu", "relu", 1, F32), false), "PM-8", F32);
  expectPlanned(plan(policy, floatOp("Conv2D", "conv", 3, F32), true), "PM-8", F16);
}

TEST(DTypeRequests, PM_9_MustKeepOriginFailsWithoutAnOriginKernel) {
  Policy policy =
      mustBuild({"--soc_version=Ascend910", "--precision_mode=must_keep_origin_dtype"});
  Planned conv = plan(policy, floatOp("Conv2D", "conv", 3, F32), true);
  EXPECT_FALSE(conv.choice);
  EXPECT_EQ(conv.plan.failureRule, "PM-9");
  EXPECT_NE(conv.plan.failure.find("cannot keep its origin dtype float32"), std::string::npos);
  // An fp16 op may go up to fp32, never down.
  expectPlanned(plan(policy, floatOp("Relu", "relu", 1, F16), false), "PM-9", F16);
}

TEST(DTypeRequests, ML_2_WhiteOpsComputeInTheLowDType) {
  expectPlanned(plan(mixed910(), floatOp("Conv2D", "conv", 3, F32), true), "ML-2", F16);
}

TEST(DTypeRequests, ML_3_BlackOpsKeepTheirOrigin) {
  expectPlanned(plan(mixed910(), floatOp("Exp", "exp", 1, F32), false), "ML-3", F32);
}

TEST(DTypeRequests, ML_4_GrayOpsFollowTheirProducer) {
  Planned followsFp16 = plan(mixed910(), floatOp("Relu", "relu", 1, F32), false, F16);
  expectPlanned(followsFp16, "ML-4", F16);
  EXPECT_EQ(followsFp16.plan.why.why, "gray: follows producer");
  // Without a non-constant producer: the origin where supported (PM-8).
  expectPlanned(plan(mixed910(), floatOp("Relu", "relu", 1, F32), false), "ML-4", F32);
}

TEST(DTypeRequests, ML_2_WhiteOpWithoutALowKernelWarnsAndStays) {
  const Policy &policy = mixed910();
  // An invented library state: a white op whose only row is fp32.
  OpShape shape = floatOp("Conv2D", "conv", 3, F32);
  KernelRowsAnswer rows;
  rows.aicore.push_back({{F32, F32, F32}, {F32}});
  OpSituation situation;
  situation.cube = true;
  situation.list = policy.listColor("Conv2D");
  situation.rows = &rows;
  DiagnosticList diags;
  RequestPlan requests = planRequests(policy, shape, situation, diags);
  EXPECT_NE(findDiag(diags, "ML-2", "is in the white list but doesn't support float16"),
            nullptr);
  std::optional<RowChoice> choice = chooseRow(requests, rows, shape);
  ASSERT_TRUE(choice);
  EXPECT_EQ(choice->compute, F32);
}

TEST(DTypeRequests, KD_2_KeepDTypeKeepsTheOriginOrGoesHigher) {
  TempDir dir;
  std::string keep = dir.write("keep.cfg", "conv\n");
  Policy policy = mustBuild({"--soc_version=Ascend910B", "--precision_mode=force_fp16",
                             "--keep_dtype=" + keep});
  expectPlanned(plan(policy, floatOp("Conv2D", "conv", 3, F32), true), "KD-2", F32);
  // A node keep_dtype does not name follows the mode.
  expectPlanned(plan(policy, floatOp("Conv2D", "other", 3, F32), true), "PM-5", F16);
}

TEST(DTypeRequests, RowsPreferUniformDTypes) {
  OpShape shape = floatOp("Add", "add", 2, F32);
  std::vector<KernelRow> rows = {{{F16, F32}, {F16}}, {{F16, F16}, {F16}}};
  const KernelRow *row = pickRow(rows, shape, {F16, std::nullopt, Unit::AICore});
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->inputs, (std::vector<DType>{F16, F16}));
}

TEST(DTypeRequests, IntegerOperandsMustMatchExactly) {
  // GatherV2: float data, int64 indices.
  OpShape shape;
  shape.query = {"GatherV2", "gather", {}, {F32, I64}, {F32}};
  shape.floatInputs = {true, false};
  shape.floatOutputs = {true};
  shape.primaryInput = 0;
  shape.primaryOutput = 0;
  std::vector<KernelRow> rows = {{{F32, DType::Int32}, {F32}}, {{F32, I64}, {F32}}};
  const KernelRow *row = pickRow(rows, shape, {F32, std::nullopt, Unit::AICore});
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->inputs[1], I64);
  EXPECT_EQ(pickRow(rows, shape, {BF16, std::nullopt, Unit::AICore}), nullptr);
}

TEST(DTypeRequests, VariadicRowsServeAnyOperandCount) {
  OpShape shape = floatOp("ConcatV2", "concat", 5, F16);
  std::vector<KernelRow> rows = {{{F16}, {F16}}};
  EXPECT_NE(pickRow(rows, shape, {F16, std::nullopt, Unit::AICore}), nullptr);
}

} // namespace
