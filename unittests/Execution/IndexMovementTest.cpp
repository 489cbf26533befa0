//===- IndexMovementTest.cpp - element-indexed DMA kernels by hand --------===//
//
// gather_elements, scatter_elements, gather_nd, scatter_nd, triangle and
// cumsum (lib/Execution/IndexMovement.cpp) against values worked out by
// hand from ONNX's definitions, including negative, duplicate and
// out-of-range indices and the rounding of fp16 sums.
//
//===----------------------------------------------------------------------===//

#include "DmaTestFixture.h"

using namespace ascendprec::testing;

namespace {

using IndexMovementTest = DmaTest;

TEST_F(IndexMovementTest, GatherElementsAlongEitherAxisWithNegativeIndices) {
  // x = [[1, 2, 3], [4, 5, 6]]
  HostTensor x = tensor(ElementType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  DmaOp rows = dma("gather_elements", {"2x3xf32", "2x2xi64"}, {"2x2xf32"},
                   "{params = {dim = 1 : i64}}");
  EXPECT_EQ(values(run(rows, {x, ints(ElementType::I64, {2, 2}, {0, -1, 2, 1})})[0]),
            (std::vector<double>{1, 3, 6, 5}));
  DmaOp cols = dma("gather_elements", {"2x3xf32", "1x3xi32"}, {"1x3xf32"},
                   "{params = {dim = 0 : i64}}");
  EXPECT_EQ(values(run(cols, {x, ints(ElementType::I32, {1, 3}, {1, 0, 1})})[0]),
            (std::vector<double>{4, 2, 6}));
}

TEST_F(IndexMovementTest, GatherElementsRefusesAnIndexOutOfRange) {
  DmaOp op = dma("gather_elements", {"2x3xf32", "2x1xi64"}, {"2x1xf32"},
                 "{params = {dim = 1 : i64}}");
  std::vector<HostTensor> out = outputsOf(op);
  std::string error;
  EXPECT_FALSE(tryRun(op, {iota(ElementType::F32, {2, 3}), ints(ElementType::I64, {2, 1}, {0, 3})},
                      out, error));
  EXPECT_EQ(error, "gather_elements: invalid data: index 3 (indices element 1) is outside [-3, 3)");
}

TEST_F(IndexMovementTest, ScatterElementsLastWriteWinsAndReductionsRound) {
  HostTensor data = tensor(ElementType::F32, {1, 4}, {1, 2, 3, 4});
  HostTensor indices = ints(ElementType::I64, {1, 3}, {1, 1, -1});
  HostTensor updates = tensor(ElementType::F32, {1, 3}, {10, 20, 30});
  DmaOp none = dma("scatter_elements", {"1x4xf32", "1x3xi64", "1x3xf32"}, {"1x4xf32"},
                   "{params = {axis = 1 : i64}}");
  EXPECT_EQ(values(run(none, {data, indices, updates})[0]), (std::vector<double>{1, 20, 3, 30}));
  DmaOp add = dma("scatter_elements", {"1x4xf32", "1x3xi64", "1x3xf32"}, {"1x4xf32"},
                  "{params = {axis = 1 : i64, reduction = \"add\"}}");
  EXPECT_EQ(values(run(add, {data, indices, updates})[0]), (std::vector<double>{1, 32, 3, 34}));
  // fp16: 2048 + 1 rounds back to 2048 at each step (spacing 2 there).
  DmaOp half = dma("scatter_elements", {"1x1xf16", "1x2xi64", "1x2xf16"}, {"1x1xf16"},
                   "{params = {axis = 1 : i64, reduction = \"add\"}}");
  EXPECT_EQ(values(run(half, {tensor(ElementType::F16, {1, 1}, {2048}),
                              ints(ElementType::I64, {1, 2}, {0, 0}),
                              tensor(ElementType::F16, {1, 2}, {1, 1})})[0]),
            (std::vector<double>{2048}));
}

TEST_F(IndexMovementTest, GatherNdTakesElementsAndSlicesPerBatch) {
  HostTensor x = iota(ElementType::I32, {2, 2, 2}); // [[[0,1],[2,3]],[[4,5],[6,7]]]
  DmaOp elements = dma("gather_nd", {"2x2x2xi32", "2x3xi64"}, {"2xi32"});
  EXPECT_EQ(intValues(run(elements, {x, ints(ElementType::I64, {2, 3}, {0, 1, 1, 1, 0, -2})})[0]),
            (std::vector<int64_t>{3, 4}));
  DmaOp slices = dma("gather_nd", {"2x2x2xi32", "1x1xi64"}, {"1x2x2xi32"});
  EXPECT_EQ(intValues(run(slices, {x, ints(ElementType::I64, {1, 1}, {1})})[0]),
            (std::vector<int64_t>{4, 5, 6, 7}));
  DmaOp batched = dma("gather_nd", {"2x2x2xi32", "2x1xi64"}, {"2x2xi32"},
                      "{params = {batch_dims = 1 : i64}}");
  EXPECT_EQ(intValues(run(batched, {x, ints(ElementType::I64, {2, 1}, {1, 0})})[0]),
            (std::vector<int64_t>{2, 3, 4, 5}));
}

TEST_F(IndexMovementTest, ScatterNdReplacesOrMultipliesSlices) {
  HostTensor data = tensor(ElementType::F32, {3, 2}, {1, 1, 2, 2, 3, 3});
  HostTensor indices = ints(ElementType::I64, {2, 1}, {2, 0});
  HostTensor updates = tensor(ElementType::F32, {2, 2}, {5, 6, 7, 8});
  DmaOp set = dma("scatter_nd", {"3x2xf32", "2x1xi64", "2x2xf32"}, {"3x2xf32"});
  EXPECT_EQ(values(run(set, {data, indices, updates})[0]), (std::vector<double>{7, 8, 2, 2, 5, 6}));
  DmaOp mul = dma("scatter_nd", {"3x2xf32", "2x1xi64", "2x2xf32"}, {"3x2xf32"},
                  "{params = {reduction = \"mul\"}}");
  EXPECT_EQ(values(run(mul, {data, indices, updates})[0]),
            (std::vector<double>{7, 8, 2, 2, 15, 18}));
}

TEST_F(IndexMovementTest, TriangleKeepsEitherSideOfAnyDiagonal) {
  HostTensor x = tensor(ElementType::F32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  DmaOp upper = dma("triangle", {"3x3xf32"}, {"3x3xf32"},
                    "{params = {diagonal = 1 : i64, upper = true}}");
  EXPECT_EQ(values(run(upper, {x})[0]), (std::vector<double>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  DmaOp lower = dma("triangle", {"3x3xf32"}, {"3x3xf32"},
                    "{params = {diagonal = -1 : i64, upper = false}}");
  EXPECT_EQ(values(run(lower, {x})[0]), (std::vector<double>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
  // k read when the kernel runs replaces `diagonal`.
  DmaOp runtimeK = dma("triangle", {"3x3xf32", "i64"}, {"3x3xf32"},
                       "{params = {diagonal = 0 : i64, upper = true}}");
  EXPECT_EQ(values(run(runtimeK, {x, ints(ElementType::I64, {}, {-1})})[0]),
            (std::vector<double>{1, 2, 3, 4, 5, 6, 0, 8, 9}));
}

TEST_F(IndexMovementTest, CumsumExclusiveReverseAndFp16Rounding) {
  HostTensor x = tensor(ElementType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor axis1 = ints(ElementType::I64, {}, {-1});
  DmaOp plain = dma("cumsum", {"2x3xf32", "i64"}, {"2x3xf32"});
  EXPECT_EQ(values(run(plain, {x, axis1})[0]), (std::vector<double>{1, 3, 6, 4, 9, 15}));
  DmaOp both = dma("cumsum", {"2x3xf32", "i64"}, {"2x3xf32"},
                   "{params = {exclusive = true, reverse = true}}");
  EXPECT_EQ(values(run(both, {x, axis1})[0]), (std::vector<double>{5, 3, 0, 11, 6, 0}));
  DmaOp down = dma("cumsum", {"2x3xf32", "i32"}, {"2x3xf32"});
  EXPECT_EQ(values(run(down, {x, ints(ElementType::I32, {}, {0})})[0]),
            (std::vector<double>{1, 2, 3, 5, 7, 9}));
  // fp16 output, fp32 running sum: 2048 + 1 + 1 is 2050 (exact in fp16),
  // where fp16 steps would give 2048.
  DmaOp half = dma("cumsum", {"3xf16", "i64"}, {"3xf16"});
  EXPECT_EQ(values(run(half, {tensor(ElementType::F16, {3}, {2048, 1, 1}),
                              ints(ElementType::I64, {}, {0})})[0]),
            (std::vector<double>{2048, 2048, 2050}));
  std::vector<HostTensor> out = outputsOf(plain);
  std::string error;
  EXPECT_FALSE(tryRun(plain, {x, ints(ElementType::I64, {}, {2})}, out, error));
  EXPECT_EQ(error, "cumsum: invalid data: 'axis' = 2 is outside [-2, 2)");
}

TEST_F(IndexMovementTest, MismatchedBuffersAreRefused) {
  EXPECT_EQ(refusal(dma("gather_elements", {"2x3xf32", "2x2xf32"}, {"2x2xf32"})),
            "gather_elements: its indices are not int32 or int64");
  EXPECT_EQ(refusal(dma("scatter_elements", {"2x3xf32", "2x2xi64", "2x1xf32"}, {"2x3xf32"})),
            "scatter_elements: the updates' shape is [2,1], expected [2,2]");
  EXPECT_EQ(refusal(dma("gather_nd", {"2x3xf32", "4x3xi64"}, {"4xf32"})),
            "gather_nd: its indices [4,3] do not index the data [2,3] with batch_dims 0");
  EXPECT_EQ(refusal(dma("triangle", {"3xf32"}, {"3xf32"})), "triangle: needs a matrix (rank 2 or more)");
  EXPECT_EQ(refusal(dma("scatter_nd", {"3x2xf32", "2x1xi64", "2x2xf32"}, {"3x2xf32"},
                        "{params = {reduction = \"mean\"}}")),
            "scatter_nd: has the reduction 'mean' (none, add, mul, max or min)");
}

} // namespace
