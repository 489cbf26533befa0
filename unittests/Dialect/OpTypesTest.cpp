//===- OpTypesTest.cpp - op type classification ---------------------------===//

#include "TestUtils.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using ascendprec::testing::DialectTest;

namespace {

TEST(OpTypesTest, CubeFamiliesAreCube) {
  for (StringRef opType :
       {"Conv2D", "Conv2DBackpropInput", "Conv3D", "DepthwiseConv2D",
        "Deconvolution", "MatMul", "MatMulV2", "MatMulV3", "BatchMatMulV2",
        "GEMM", "FullyConnection"})
    EXPECT_EQ(classifyOpType(opType), ComputeUnit::Cube) << opType.str();
}

TEST(OpTypesTest, EverythingElseIsVector) {
  // ConcatV2 shares a prefix with "Conv" but is data movement.
  for (StringRef opType : {"Relu", "Add", "SoftmaxV2", "LayerNorm", "ConcatV2",
                           "Cast", "ReduceSum", "Xlog1py", "GatherV2"})
    EXPECT_EQ(classifyOpType(opType), ComputeUnit::Vector) << opType.str();
}

TEST(OpTypesTest, WellFormedOpTypes) {
  EXPECT_TRUE(isWellFormedOpType("Conv2D"));
  EXPECT_TRUE(isWellFormedOpType("Custom_Op1"));
  EXPECT_FALSE(isWellFormedOpType(""));
  EXPECT_FALSE(isWellFormedOpType("2D"));
  EXPECT_FALSE(isWellFormedOpType("my op"));
  EXPECT_FALSE(isWellFormedOpType("ascend.Relu"));
}

using DedicatedOpTest = DialectTest;

TEST_F(DedicatedOpTest, DedicatedOpsAreFound) {
  EXPECT_TRUE(hasDedicatedOp(&context, "Conv2D"));
  EXPECT_TRUE(hasDedicatedOp(&context, "ResizeBilinearV2"));
  EXPECT_FALSE(hasDedicatedOp(&context, "Xlog1py"));
  // The generic op's own mnemonic is not an op type.
  EXPECT_FALSE(hasDedicatedOp(&context, "generic"));
}

} // namespace
