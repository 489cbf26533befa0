//===- AscendOpInterfaceTest.cpp - AscendOpInterface answers --------------===//

#include "TestUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using ascendprec::testing::DialectTest;

namespace {

using AscendOpInterfaceTest = DialectTest;

TEST_F(AscendOpInterfaceTest, OpTypeIsTheMnemonicOrTheGenericOpType) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = ascend.SoftmaxV2 %x {name = "sm", axes = array<i64: 0>} : tensor<4xf32>
      %1 = ascend.generic "Xlog1py"(%0, %0) {name = "xl"}
          : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return %1 : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  SmallVector<std::string> opTypes, names;
  module->walk([&](AscendOpInterface op) {
    opTypes.push_back(op.getOpType().str());
    names.push_back(op.getNodeName().str());
  });
  EXPECT_EQ(opTypes, (SmallVector<std::string>{"SoftmaxV2", "Xlog1py"}));
  EXPECT_EQ(names, (SmallVector<std::string>{"sm", "xl"}));
}

TEST_F(AscendOpInterfaceTest, OpKindsAreAnsweredByTheInterface) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %c = ascend.Const dense<1.0> : tensor<4xf32> {name = "one"}
      %0 = ascend.Add %x, %c {name = "add"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %1 = ascend.generic "Xlog1py"(%0, %0) {name = "xl"}
          : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return %1 : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  SmallVector<bool> constantData, dedicated;
  module->walk([&](AscendOpInterface op) {
    constantData.push_back(op.holdsConstantData());
    dedicated.push_back(op.hasDedicatedOp());
  });
  EXPECT_EQ(constantData, (SmallVector<bool>{true, false, false}));
  EXPECT_EQ(dedicated, (SmallVector<bool>{true, true, false}));
}

TEST_F(AscendOpInterfaceTest, ComputeUnitComesFromTheOpType) {
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %0 = ascend.MatMulV2 %a, %a {name = "mm"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      %1 = ascend.Relu %0 {name = "relu"} : tensor<4x4xf32>
      %2 = ascend.generic "Conv3D"(%1) {name = "c3"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
      return %2 : tensor<4x4xf32>
    })mlir");
  ASSERT_TRUE(module);
  SmallVector<ComputeUnit> units;
  module->walk([&](AscendOpInterface op) { units.push_back(op.getComputeUnit()); });
  EXPECT_EQ(units, (SmallVector<ComputeUnit>{ComputeUnit::Cube, ComputeUnit::Vector,
                                             ComputeUnit::Cube}));
}

// ML-4: non-constant producers in index order, then constants.
TEST_F(AscendOpInterfaceTest, ML_4_VisitOrderPutsConstantsLast) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
      %c = ascend.Const dense<1.0> : tensor<4xf32> {name = "c"}
      %r = ascend.Relu %y {name = "r"} : tensor<4xf32>
      %s = ascend.ClipByValue %c, %x, %r {name = "clip"}
          : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return %s : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto clip = cast<AscendOpInterface>(first<ClipByValueOp>(*module).getOperation());
  EXPECT_EQ(clip.getInputVisitOrder(), (SmallVector<unsigned>{1, 2, 0}));
}

TEST_F(AscendOpInterfaceTest, OriginalNamesIncludeAbsorbedNames) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = ascend.Relu %x {name = "conv1", absorbed = ["bn1", "relu1"]} : tensor<4xf32>
      return %0 : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto relu = cast<AscendOpInterface>(first<ReluOp>(*module).getOperation());
  SmallVector<StringRef> names = relu.getOriginalNames();
  EXPECT_EQ(names, (SmallVector<StringRef>{"conv1", "bn1", "relu1"}));
}

TEST_F(AscendOpInterfaceTest, OperandAndResultDTypes) {
  auto module = parse(R"mlir(
    func.func @f(%t: tensor<8x4xf16>, %i: tensor<2xi32>) -> tensor<2x4xf16> {
      %0 = ascend.GatherV2 %t, %i {name = "g", axis = 0 : i64}
          : (tensor<8x4xf16>, tensor<2xi32>) -> tensor<2x4xf16>
      return %0 : tensor<2x4xf16>
    })mlir");
  ASSERT_TRUE(module);
  auto gather = cast<AscendOpInterface>(first<GatherV2Op>(*module).getOperation());
  Builder b(&context);
  EXPECT_EQ(gather.getOperandDType(0), b.getF16Type());
  EXPECT_EQ(gather.getOperandDType(1), b.getI32Type());
  EXPECT_EQ(gather.getResultDType(0), b.getF16Type());
}

TEST_F(AscendOpInterfaceTest, CloneWithElementTypesKeepsShapesAndAttributes) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
      %0 = ascend.LeakyRelu %x {name = "lrelu", negative_slope = 0.2 : f32,
          impl_mode = #ascend.impl_mode<high_precision>} : tensor<2x?xf32>
      return %0 : tensor<2x?xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto lrelu = first<LeakyReluOp>(*module);
  OpBuilder builder(lrelu);
  Type f16 = builder.getF16Type();
  auto input = CastOp::create(builder, lrelu.getLoc(),
                              RankedTensorType::get({2, ShapedType::kDynamic}, f16),
                              lrelu.getX(), builder.getStringAttr("to_f16"),
                              nullptr, nullptr, nullptr, nullptr);
  Operation *clone = cast<AscendOpInterface>(lrelu.getOperation())
                         .cloneWithElementTypes(builder, ValueRange{input}, {f16});
  auto cloned = dyn_cast<LeakyReluOp>(clone);
  ASSERT_TRUE(cloned);
  EXPECT_EQ(cloned.getY().getType(),
            RankedTensorType::get({2, ShapedType::kDynamic}, f16));
  EXPECT_EQ(cloned.getName(), "lrelu");
  EXPECT_FLOAT_EQ(cloned.getNegativeSlope().convertToFloat(), 0.2f);
  EXPECT_EQ(cloned.getImplMode(), ImplMode::HighPrecision);
  EXPECT_TRUE(succeeded(mlir::verify(clone)));
}

TEST_F(AscendOpInterfaceTest, PrecisionDecisionRoundTripsThroughTheInterface) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = ascend.Relu %x {name = "r"} : tensor<4xf32>
      return %0 : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto relu = cast<AscendOpInterface>(first<ReluOp>(*module).getOperation());
  EXPECT_FALSE(relu.getPrecisionDecision());
  EXPECT_FALSE(relu.getImplModeValue().has_value());
  Builder b(&context);
  Type f16 = b.getF16Type();
  auto decision = PrecisionAttr::get(&context, b.getF32Type(), f16, {f16}, {f16},
                                     Engine::AICoreVector, ListColor::Gray,
                                     "ML-4", "built-in");
  relu.setPrecisionDecision(decision);
  EXPECT_EQ(relu.getPrecisionDecision(), decision);
  EXPECT_TRUE(succeeded(mlir::verify(relu.getOperation())));
}

} // namespace
