//===- DataMovementTest.cpp - host DMA kernels against hand-computed data -===//
//
// Each test parses one `akernel.dma` op (in a func over GM memrefs), runs it
// on host tensors and compares with values worked out by hand from the graph
// op's definition.
//
//===----------------------------------------------------------------------===//

#include "DmaTestFixture.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace ascendprec::testing;

namespace {

using DataMovementTest = DmaTest;

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, Transpose2D) {
  DmaOp op = dma("transpose", {"2x3xf32"}, {"3x2xf32"}, "{params = {perm = array<i64: 1, 0>}}");
  auto y = run(op, {tensor(ElementType::F32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST_F(DataMovementTest, Transpose3DInt64Exact) {
  // y[i, j, k] = x[j, k, i] for perm (2, 0, 1); values beyond 2^53 stay exact.
  DmaOp op = dma("transpose", {"2x2x3xi64"}, {"3x2x2xi64"},
                 "{params = {perm = array<i64: 2, 0, 1>}}");
  const int64_t big = (int64_t(1) << 60) + 1;
  std::vector<int64_t> x;
  for (int64_t i = 0; i < 12; ++i)
    x.push_back(big + i);
  auto y = run(op, {ints(ElementType::I64, {2, 2, 3}, x)});
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t k = 0; k < 2; ++k)
        expected.push_back(big + (j * 2 + k) * 3 + i);
  EXPECT_EQ(intValues(y[0]), expected);
}

TEST_F(DataMovementTest, TransposeFp16BitExact) {
  // NaN with a payload, -0, the smallest subnormal, -Inf and the largest
  // finite value move as bit patterns.
  DmaOp op = dma("transpose", {"2x3xf16"}, {"3x2xf16"}, "{params = {perm = array<i64: 1, 0>}}");
  HostTensor x(ElementType::F16, {2, 3});
  const uint16_t patterns[] = {0x7E01, 0x8000, 0x0001, 0xFC00, 0x7BFF, 0x3C00};
  std::memcpy(x.data(), patterns, sizeof(patterns));
  auto y = run(op, {x});
  EXPECT_EQ(bits16(y[0]),
            (std::vector<uint16_t>{0x7E01, 0xFC00, 0x8000, 0x7BFF, 0x0001, 0x3C00}));
}

TEST_F(DataMovementTest, LargeTransposeIsFastAndRight) {
  // [8, 128, 768] fp16 swapping the last two dimensions: milliseconds.
  DmaOp op = dma("transpose", {"8x128x768xf16"}, {"8x768x128xf16"},
                 "{params = {perm = array<i64: 0, 2, 1>}}");
  HostTensor x(ElementType::F16, {8, 128, 768});
  auto *xBits = reinterpret_cast<uint16_t *>(x.data());
  for (int64_t i = 0; i < x.numElements(); ++i)
    xBits[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
  std::vector<HostTensor> outputs = outputsOf(op);
  std::string error;
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(tryRun(op, {x}, outputs, error)) << error;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count();
  // Generous for sanitizer builds; an element-by-element walk through
  // get/set would take seconds.
  EXPECT_LT(ms, 500.0);
  auto *yBits = reinterpret_cast<const uint16_t *>(outputs[0].data());
  int64_t wrong = 0;
  for (int64_t b = 0; b < 8; ++b)
    for (int64_t j = 0; j < 768; ++j)
      for (int64_t i = 0; i < 128; ++i)
        wrong += yBits[(b * 768 + j) * 128 + i] != xBits[(b * 128 + i) * 768 + j];
  EXPECT_EQ(wrong, 0);
}

TEST_F(DataMovementTest, TransposeNegativePermEntry) {
  DmaOp op = dma("transpose", {"2x3xi32"}, {"3x2xi32"}, "{params = {perm = array<i64: -1, 0>}}");
  auto y = run(op, {iota(ElementType::I32, {2, 3})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

//===----------------------------------------------------------------------===//
// concat, split
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, ConcatNegativeAxis) {
  DmaOp op = dma("concat", {"2x1xf32", "2x2xf32"}, {"2x3xf32"},
                 "{params = {concat_dim = -1 : i64}}");
  auto y = run(op, {tensor(ElementType::F32, {2, 1}, {1, 2}),
                    tensor(ElementType::F32, {2, 2}, {10, 11, 20, 21})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{1, 10, 11, 2, 20, 21}));
}

TEST_F(DataMovementTest, ConcatOuterAxisWithEmptyPiece) {
  DmaOp op = dma("concat", {"1x2xi8", "0x2xi8", "2x2xi8"}, {"3x2xi8"},
                 "{params = {concat_dim = 0 : i64}}");
  auto y = run(op, {ints(ElementType::I8, {1, 2}, {1, 2}), HostTensor(ElementType::I8, {0, 2}),
                    ints(ElementType::I8, {2, 2}, {3, 4, -5, -6})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{1, 2, 3, 4, -5, -6}));
}

TEST_F(DataMovementTest, SplitNegativeAxis) {
  DmaOp op = dma("split", {"3x2xbf16"}, {"1x2xbf16", "2x2xbf16"},
                 "{params = {axis = -2 : i64}}");
  auto y = run(op, {tensor(ElementType::BF16, {3, 2}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(y[1]), (std::vector<double>{3, 4, 5, 6}));
}

TEST_F(DataMovementTest, SplitInnerAxis) {
  DmaOp op = dma("split", {"2x5xi32"}, {"2x2xi32", "2x0xi32", "2x3xi32"},
                 "{params = {axis = 1 : i64}}");
  auto y = run(op, {iota(ElementType::I32, {2, 5})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{0, 1, 5, 6}));
  EXPECT_EQ(y[1].numElements(), 0);
  EXPECT_EQ(intValues(y[2]), (std::vector<int64_t>{2, 3, 4, 7, 8, 9}));
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, SlicePositiveStrides) {
  // x = [[0..7], [8..15]]; [0:2, 2:8:2] -> columns 2, 4, 6.
  DmaOp op = dma("slice", {"2x8xf32"}, {"2x3xf32"},
                 "{params = {begin = array<i64: 0, 2>, end = array<i64: 2, 8>, "
                 "strides = array<i64: 1, 2>}}");
  auto y = run(op, {iota(ElementType::F32, {2, 8})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{2, 4, 6, 10, 12, 14}));
}

TEST_F(DataMovementTest, SliceNegativeStridesAndClamping) {
  // Rows [::-1] (begin -1, end far below: clamps to before the start);
  // columns [6:1:-2] -> 6, 4, 2.
  DmaOp op = dma("slice", {"2x8xi16"}, {"2x3xi16"},
                 "{params = {begin = array<i64: -1, 6>, "
                 "end = array<i64: -9223372036854775808, 1>, strides = array<i64: -1, -2>}}");
  auto y = run(op, {iota(ElementType::I16, {2, 8})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{14, 12, 10, 6, 4, 2}));
}

TEST_F(DataMovementTest, SliceNegativeBeginAndHugeEnd) {
  // [-3:INT64_MAX] of 5 elements -> 2, 3, 4; a begin beyond the end clamps.
  DmaOp op = dma("slice", {"5xi64"}, {"3xi64"},
                 "{params = {begin = array<i64: -3>, end = array<i64: 9223372036854775807>, "
                 "strides = array<i64: 1>}}");
  auto y = run(op, {iota(ElementType::I64, {5})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{2, 3, 4}));
}

TEST_F(DataMovementTest, SliceToNothing) {
  DmaOp op = dma("slice", {"4xf32"}, {"0xf32"},
                 "{params = {begin = array<i64: 3>, end = array<i64: 1>, "
                 "strides = array<i64: 1>}}");
  auto y = run(op, {iota(ElementType::F32, {4})});
  EXPECT_EQ(y[0].numElements(), 0);
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, PadConstantRoundsTheValue) {
  // 0.1 into fp16 is 0x2E66 (round to nearest even); the data keeps its bits.
  DmaOp op = dma("pad", {"2xf16"}, {"5xf16"},
                 "{params = {paddings = array<i64: 1, 2>, constant_value = 0.1 : f32}}");
  HostTensor x(ElementType::F16, {2});
  const uint16_t data[] = {0x7E01, 0x8000};
  std::memcpy(x.data(), data, sizeof(data));
  auto y = run(op, {x});
  EXPECT_EQ(bits16(y[0]), (std::vector<uint16_t>{0x2E66, 0x7E01, 0x8000, 0x2E66, 0x2E66}));
}

TEST_F(DataMovementTest, PadConstantIntegerTiesToEven) {
  // 2.5 stored into int32 rounds to 2 (ties to even); 2-D, both dimensions.
  DmaOp op = dma("pad", {"1x2xi32"}, {"2x3xi32"},
                 "{params = {paddings = array<i64: 1, 0, 0, 1>, "
                 "mode = #ascend.pad_mode<constant>, constant_value = 2.5 : f32}}");
  auto y = run(op, {ints(ElementType::I32, {1, 2}, {7, 8})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{2, 2, 2, 7, 8, 2}));
}

TEST_F(DataMovementTest, PadReflect) {
  // [1, 2, 3] reflect (2, 2) -> [3, 2, 1, 2, 3, 2, 1] (the edge not repeated).
  DmaOp op = dma("pad", {"3xf32"}, {"7xf32"},
                 "{params = {paddings = array<i64: 2, 2>, mode = #ascend.pad_mode<reflect>}}");
  auto y = run(op, {tensor(ElementType::F32, {3}, {1, 2, 3})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{3, 2, 1, 2, 3, 2, 1}));
}

TEST_F(DataMovementTest, PadReflectBeyondOneReflection) {
  // [1, 2] reflect (3, 0): NumPy keeps reflecting -> [2, 1, 2, 1, 2].
  DmaOp op = dma("pad", {"2xi64"}, {"5xi64"},
                 "{params = {paddings = array<i64: 3, 0>, mode = #ascend.pad_mode<reflect>}}");
  auto y = run(op, {ints(ElementType::I64, {2}, {1, 2})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{2, 1, 2, 1, 2}));
}

TEST_F(DataMovementTest, PadEdge2D) {
  // [[1, 2], [3, 4]] edge, rows (1, 0), columns (0, 2).
  DmaOp op = dma("pad", {"2x2xf32"}, {"3x4xf32"},
                 "{params = {paddings = array<i64: 1, 0, 0, 2>, mode = #ascend.pad_mode<edge>}}");
  auto y = run(op, {tensor(ElementType::F32, {2, 2}, {1, 2, 3, 4})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{1, 2, 2, 2, 1, 2, 2, 2, 3, 4, 4, 4}));
}

TEST_F(DataMovementTest, PadNegativeCrops) {
  // [0..5] with (-2, 1): crop two at the start, one constant at the end;
  // edge mode pads with the cropped tensor's edge.
  DmaOp constant = dma("pad", {"6xi32"}, {"5xi32"},
                       "{params = {paddings = array<i64: -2, 1>, constant_value = 9.0 : f32}}");
  EXPECT_EQ(intValues(run(constant, {iota(ElementType::I32, {6})})[0]),
            (std::vector<int64_t>{2, 3, 4, 5, 9}));
  DmaOp edge = dma("pad", {"6xi32"}, {"6xi32"},
                   "{params = {paddings = array<i64: 1, -1>, mode = #ascend.pad_mode<edge>}}");
  EXPECT_EQ(intValues(run(edge, {iota(ElementType::I32, {6})})[0]),
            (std::vector<int64_t>{0, 0, 1, 2, 3, 4}));
  // Reflect about the cropped extent [0, 1]: (2, -2) -> [0, 1, 0, 1].
  DmaOp reflect =
      dma("pad", {"4xi32"}, {"4xi32"},
          "{params = {paddings = array<i64: 2, -2>, mode = #ascend.pad_mode<reflect>}}");
  EXPECT_EQ(intValues(run(reflect, {iota(ElementType::I32, {4})})[0]),
            (std::vector<int64_t>{0, 1, 0, 1}));
}

TEST_F(DataMovementTest, PadEmptyInput) {
  // A 0-element dimension padded with a constant holds only the constant.
  DmaOp op = dma("pad", {"0x2xf32"}, {"2x2xf32"},
                 "{params = {paddings = array<i64: 1, 1, 0, 0>, constant_value = -1.0 : f32}}");
  auto y = run(op, {HostTensor(ElementType::F32, {0, 2})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{-1, -1, -1, -1}));
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, GatherInt32IndicesAxis0) {
  // An embedding lookup: rows 2, 0, 2 of a 3x2 table.
  DmaOp op = dma("gather", {"3x2xf16", "3xi32"}, {"3x2xf16"}, "{params = {axis = 0 : i64}}");
  auto y = run(op, {tensor(ElementType::F16, {3, 2}, {1, 2, 3, 4, 5, 6}),
                    ints(ElementType::I32, {3}, {2, 0, 2})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{5, 6, 1, 2, 5, 6}));
}

TEST_F(DataMovementTest, GatherInt64NegativeIndicesInnerAxis) {
  // x = [[0, 1, 2], [3, 4, 5]]; indices [[-1, 0]] along axis -1 -> y[i, 0, k].
  DmaOp op = dma("gather", {"2x3xi64", "1x2xi64"}, {"2x1x2xi64"},
                 "{params = {axis = -1 : i64}}");
  auto y = run(op, {iota(ElementType::I64, {2, 3}), ints(ElementType::I64, {1, 2}, {-1, 0})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{2, 0, 5, 3}));
}

TEST_F(DataMovementTest, GatherBatchDims) {
  // batch_dims = 1: y[b, k] = x[b, idx[b, k]].
  DmaOp op = dma("gather", {"2x3xi32", "2x2xi32"}, {"2x2xi32"},
                 "{params = {axis = 1 : i64, batch_dims = 1 : i64}}");
  auto y = run(op, {iota(ElementType::I32, {2, 3}), ints(ElementType::I32, {2, 2}, {2, 0, 1, 1})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{2, 0, 4, 4}));
}

TEST_F(DataMovementTest, GatherOutOfRangeWithoutCheckIsAnError) {
  DmaOp op = dma("gather", {"3x2xf32", "2xi64"}, {"2x2xf32"}, "{params = {axis = 0 : i64}}");
  std::vector<HostTensor> outputs = outputsOf(op);
  std::string error;
  EXPECT_FALSE(tryRun(op, {iota(ElementType::F32, {3, 2}), ints(ElementType::I64, {2}, {1, 3})},
                      outputs, error));
  EXPECT_NE(error.find("index 3"), std::string::npos) << error;
  EXPECT_NE(error.find("bounds_check"), std::string::npos) << error;
  // Below -n is out of range too.
  EXPECT_FALSE(tryRun(op, {iota(ElementType::F32, {3, 2}), ints(ElementType::I64, {2}, {-4, 0})},
                      outputs, error));
  EXPECT_NE(error.find("index -4"), std::string::npos) << error;
}

TEST_F(DataMovementTest, GatherOutOfRangeWithCheckReadsZero) {
  DmaOp op = dma("gather", {"3x2xf32", "4xi32"}, {"4x2xf32"},
                 "{bounds_check, params = {axis = 0 : i64}}");
  std::vector<HostTensor> outputs = outputsOf(op);
  // Outputs start non-zero: the zero rows are written, not left over.
  for (int64_t i = 0; i < outputs[0].numElements(); ++i)
    outputs[0].set(i, 99);
  std::string error;
  ASSERT_TRUE(tryRun(op,
                     {tensor(ElementType::F32, {3, 2}, {1, 2, 3, 4, 5, 6}),
                      ints(ElementType::I32, {4}, {1, 3, -1, -7})},
                     outputs, error))
      << error;
  EXPECT_EQ(values(outputs[0]), (std::vector<double>{3, 4, 0, 0, 5, 6, 0, 0}));
}

TEST_F(DataMovementTest, GatherNoIndices) {
  DmaOp op = dma("gather", {"3x2xf32", "0xi32"}, {"0x2xf32"}, "{params = {axis = 0 : i64}}");
  auto y = run(op, {iota(ElementType::F32, {3, 2}), HostTensor(ElementType::I32, {0})});
  EXPECT_EQ(y[0].numElements(), 0);
}

//===----------------------------------------------------------------------===//
// tile, broadcast
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, Tile) {
  // [[1, 2]] tiled (2, 3).
  DmaOp op = dma("tile", {"1x2xi8"}, {"2x6xi8"}, "{params = {multiples = array<i64: 2, 3>}}");
  auto y = run(op, {ints(ElementType::I8, {1, 2}, {1, 2})});
  EXPECT_EQ(intValues(y[0]),
            (std::vector<int64_t>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}));
}

TEST_F(DataMovementTest, TileRowsAndZeroMultiple) {
  DmaOp rows = dma("tile", {"2x2xf32"}, {"4x2xf32"}, "{params = {multiples = array<i64: 2, 1>}}");
  EXPECT_EQ(values(run(rows, {iota(ElementType::F32, {2, 2})})[0]),
            (std::vector<double>{0, 1, 2, 3, 0, 1, 2, 3}));
  DmaOp none = dma("tile", {"2x2xf32"}, {"0x2xf32"}, "{params = {multiples = array<i64: 0, 1>}}");
  EXPECT_EQ(run(none, {iota(ElementType::F32, {2, 2})})[0].numElements(), 0);
}

TEST_F(DataMovementTest, BroadcastWithShapeInput) {
  // [3, 1] against shape [2, 1, 4] -> [2, 3, 4]: y[a, b, c] = x[b].
  DmaOp op = dma("broadcast", {"3x1xf32", "3xi64"}, {"2x3x4xf32"});
  auto y = run(op, {tensor(ElementType::F32, {3, 1}, {7, 8, 9}),
                    ints(ElementType::I64, {3}, {2, 1, 4})});
  std::vector<double> expected;
  for (int a = 0; a < 2; ++a)
    for (double v : {7.0, 8.0, 9.0})
      for (int c = 0; c < 4; ++c)
        expected.push_back(v);
  EXPECT_EQ(values(y[0]), expected);
}

TEST_F(DataMovementTest, BroadcastShapeInputMustAgree) {
  DmaOp op = dma("broadcast", {"3x1xf32", "2xi32"}, {"3x4xf32"});
  std::vector<HostTensor> outputs = outputsOf(op);
  std::string error;
  EXPECT_FALSE(tryRun(op, {iota(ElementType::F32, {3, 1}), ints(ElementType::I32, {2}, {3, 5})},
                      outputs, error));
  EXPECT_NE(error.find("shape input"), std::string::npos) << error;
}

TEST_F(DataMovementTest, BroadcastScalar) {
  DmaOp op = dma("broadcast", {"i32"}, {"2x2xi32"});
  auto y = run(op, {ints(ElementType::I32, {}, {-3})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{-3, -3, -3, -3}));
}

//===----------------------------------------------------------------------===//
// depth_to_space, space_to_depth
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, DepthToSpaceDcrAndCrd) {
  // 8 channels of 1x1, block 2 -> 2 channels of 2x2.
  // DCR: y[c, i, j] = x[(i * 2 + j) * 2 + c]; CRD: y[c, i, j] = x[c * 4 + i * 2 + j].
  DmaOp dcr = dma("depth_to_space", {"1x8x1x1xf32"}, {"1x2x2x2xf32"},
                  "{params = {block_size = 2 : i64, mode = #ascend.block_order<DCR>}}");
  EXPECT_EQ(values(run(dcr, {iota(ElementType::F32, {1, 8, 1, 1})})[0]),
            (std::vector<double>{0, 2, 4, 6, 1, 3, 5, 7}));
  DmaOp crd = dma("depth_to_space", {"1x8x1x1xf32"}, {"1x2x2x2xf32"},
                  "{params = {block_size = 2 : i64, mode = #ascend.block_order<CRD>}}");
  EXPECT_EQ(values(run(crd, {iota(ElementType::F32, {1, 8, 1, 1})})[0]),
            (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
  // No mode: DCR, the op's default.
  DmaOp fallback = dma("depth_to_space", {"1x8x1x1xf32"}, {"1x2x2x2xf32"},
                       "{params = {block_size = 2 : i64}}");
  EXPECT_EQ(values(run(fallback, {iota(ElementType::F32, {1, 8, 1, 1})})[0]),
            (std::vector<double>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST_F(DataMovementTest, DepthToSpaceWithSpatialExtent) {
  // N=2, C=8, H=2, W=3, block 2 (DCR and CRD), against the definition:
  // y[n, c, h*b + i, w*b + j] = x[n, (i*b + j)*C' + c, h, w] (DCR)
  //                           = x[n, c*b*b + i*b + j, h, w]  (CRD).
  for (bool crd : {false, true}) {
    DmaOp op = dma("depth_to_space", {"2x8x2x3xi32"}, {"2x2x4x6xi32"},
                   std::string("{params = {block_size = 2 : i64, mode = #ascend.block_order<") +
                       (crd ? "CRD" : "DCR") + ">}}");
    auto y = run(op, {iota(ElementType::I32, {2, 8, 2, 3})});
    std::vector<int64_t> expected;
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t c = 0; c < 2; ++c)
        for (int64_t oh = 0; oh < 4; ++oh)
          for (int64_t ow = 0; ow < 6; ++ow) {
            int64_t h = oh / 2, i = oh % 2, w = ow / 2, j = ow % 2;
            int64_t channel = crd ? c * 4 + i * 2 + j : (i * 2 + j) * 2 + c;
            expected.push_back(((n * 8 + channel) * 2 + h) * 3 + w);
          }
    EXPECT_EQ(intValues(y[0]), expected) << (crd ? "CRD" : "DCR");
  }
}

TEST_F(DataMovementTest, SpaceToDepth) {
  // x = 2 channels of [[0, 1], [2, 3]] and [[4, 5], [6, 7]], block 2:
  // y[(i*2 + j)*2 + c] = x[c, i, j].
  DmaOp op = dma("space_to_depth", {"1x2x2x2xf16"}, {"1x8x1x1xf16"},
                 "{params = {block_size = 2 : i64, mode = #ascend.block_order<DCR>}}");
  auto y = run(op, {iota(ElementType::F16, {1, 2, 2, 2})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{0, 4, 1, 5, 2, 6, 3, 7}));
}

TEST_F(DataMovementTest, SpaceToDepthUndoesDepthToSpace) {
  DmaOp down = dma("depth_to_space", {"1x12x2x2xi16"}, {"1x3x4x4xi16"},
                   "{params = {block_size = 2 : i64}}");
  DmaOp up = dma("space_to_depth", {"1x3x4x4xi16"}, {"1x12x2x2xi16"},
                 "{params = {block_size = 2 : i64}}");
  HostTensor x = iota(ElementType::I16, {1, 12, 2, 2});
  auto y = run(down, {x});
  auto z = run(up, {y[0]});
  EXPECT_EQ(intValues(z[0]), intValues(x));
}

//===----------------------------------------------------------------------===//
// one_hot, arange, fill (they make values)
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, OneHotNegativeAndOutOfRangeIndices) {
  // -1 counts from depth (-> 3); 5 is out of range: all off.
  DmaOp op = dma("one_hot", {"4xi64", "i64", "f32", "f32"}, {"4x4xf32"},
                 "{params = {axis = -1 : i64}}");
  auto y = run(op, {ints(ElementType::I64, {4}, {0, -1, 3, 5}), ints(ElementType::I64, {}, {4}),
                    tensor(ElementType::F32, {}, {1}), tensor(ElementType::F32, {}, {-1})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{1, -1, -1, -1, -1, -1, -1, 1,  //
                                               -1, -1, -1, 1, -1, -1, -1, -1}));
}

TEST_F(DataMovementTest, OneHotAxis0Int32) {
  // axis 0: y[d, i] = on where indices[i] == d.
  DmaOp op = dma("one_hot", {"3xi32", "i32", "i8", "i8"}, {"2x3xi8"},
                 "{params = {axis = 0 : i64}}");
  auto y = run(op, {ints(ElementType::I32, {3}, {1, -2, 1}), ints(ElementType::I32, {}, {2}),
                    ints(ElementType::I8, {}, {5}), ints(ElementType::I8, {}, {0})});
  EXPECT_EQ(intValues(y[0]), (std::vector<int64_t>{0, 5, 0, 5, 0, 5}));
}

TEST_F(DataMovementTest, OneHotDepthMustMatch) {
  DmaOp op = dma("one_hot", {"2xi64", "i64", "f32", "f32"}, {"2x3xf32"});
  std::vector<HostTensor> outputs = outputsOf(op);
  std::string error;
  EXPECT_FALSE(tryRun(op,
                      {ints(ElementType::I64, {2}, {0, 1}), ints(ElementType::I64, {}, {4}),
                       tensor(ElementType::F32, {}, {1}), tensor(ElementType::F32, {}, {0})},
                      outputs, error));
  EXPECT_NE(error.find("depth"), std::string::npos) << error;
}

TEST_F(DataMovementTest, OneHotRoundsOnValueToOutput) {
  // An fp32 on_value into an fp16 output: 0.1 -> 0x2E66.
  DmaOp op = dma("one_hot", {"1xi32", "i32", "f32", "f32"}, {"1x2xf16"});
  auto y = run(op, {ints(ElementType::I32, {1}, {1}), ints(ElementType::I32, {}, {2}),
                    tensor(ElementType::F32, {}, {0.1}), tensor(ElementType::F32, {}, {0})});
  EXPECT_EQ(bits16(y[0]), (std::vector<uint16_t>{0x0000, 0x2E66}));
}

TEST_F(DataMovementTest, ArangeFloat) {
  DmaOp op = dma("arange", {"f32", "f32", "f32"}, {"4xf32"});
  auto y = run(op, {tensor(ElementType::F32, {}, {1}), tensor(ElementType::F32, {}, {2}),
                    tensor(ElementType::F32, {}, {0.25})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{1, 1.25, 1.5, 1.75}));
}

TEST_F(DataMovementTest, ArangeFp16RoundsEachElementToNearestEven) {
  // start 2048, delta 1 in fp16: 2048 + 1 = 2049 is a tie between 2048 and
  // 2050 (fp16 spacing 2 there) and rounds to even: 2048; 2051 -> 2052.
  DmaOp op = dma("arange", {"f16", "f16", "f16"}, {"4xf16"});
  auto y = run(op, {tensor(ElementType::F16, {}, {2048}), tensor(ElementType::F16, {}, {2052}),
                    tensor(ElementType::F16, {}, {1})});
  EXPECT_EQ(values(y[0]), (std::vector<double>{2048, 2048, 2050, 2052}));
}

TEST_F(DataMovementTest, ArangeIntegers) {
  DmaOp down = dma("arange", {"i32", "i32", "i32"}, {"3xi32"});
  EXPECT_EQ(intValues(run(down, {ints(ElementType::I32, {}, {5}), ints(ElementType::I32, {}, {-1}),
                                 ints(ElementType::I32, {}, {-2})})[0]),
            (std::vector<int64_t>{5, 3, 1}));
  // int64 beyond 2^53 stays exact.
  DmaOp big = dma("arange", {"i64", "i64", "i64"}, {"2xi64"});
  const int64_t start = (int64_t(1) << 60) + 1;
  EXPECT_EQ(intValues(run(big, {ints(ElementType::I64, {}, {start}),
                                ints(ElementType::I64, {}, {start + 4}),
                                ints(ElementType::I64, {}, {3})})[0]),
            (std::vector<int64_t>{start, start + 3}));
}

TEST_F(DataMovementTest, ArangeCountMustMatch) {
  DmaOp op = dma("arange", {"i32", "i32", "i32"}, {"3xi32"});
  std::vector<HostTensor> outputs = outputsOf(op);
  std::string error;
  EXPECT_FALSE(tryRun(op,
                      {ints(ElementType::I32, {}, {0}), ints(ElementType::I32, {}, {10}),
                       ints(ElementType::I32, {}, {1})},
                      outputs, error));
  EXPECT_NE(error.find("10 elements"), std::string::npos) << error;
  EXPECT_FALSE(tryRun(op,
                      {ints(ElementType::I32, {}, {0}), ints(ElementType::I32, {}, {10}),
                       ints(ElementType::I32, {}, {0})},
                      outputs, error));
  EXPECT_NE(error.find("delta is 0"), std::string::npos) << error;
}

TEST_F(DataMovementTest, FillRoundsTheValue) {
  // An fp32 2.5 into int32 ties to even (2); into fp16 exact.
  DmaOp toInt = dma("fill", {"2xi64", "f32"}, {"2x3xi32"});
  EXPECT_EQ(intValues(run(toInt, {ints(ElementType::I64, {2}, {2, 3}),
                                  tensor(ElementType::F32, {}, {2.5})})[0]),
            std::vector<int64_t>(6, 2));
  DmaOp toHalf = dma("fill", {"1xi32", "f32"}, {"3xf16"});
  EXPECT_EQ(bits16(run(toHalf, {ints(ElementType::I32, {1}, {3}),
                                tensor(ElementType::F32, {}, {0.1})})[0]),
            std::vector<uint16_t>(3, 0x2E66));
  // Same dtype: the value's bits (an fp16 NaN payload survives).
  DmaOp same = dma("fill", {"1xi64", "f16"}, {"2xf16"});
  HostTensor nan(ElementType::F16, {});
  const uint16_t payload = 0x7D55;
  std::memcpy(nan.data(), &payload, 2);
  EXPECT_EQ(bits16(run(same, {ints(ElementType::I64, {1}, {2}), nan})[0]),
            (std::vector<uint16_t>{0x7D55, 0x7D55}));
}

TEST_F(DataMovementTest, FillDimsMustMatch) {
  DmaOp op = dma("fill", {"2xi64", "f32"}, {"2x3xf32"});
  std::vector<HostTensor> outputs = outputsOf(op);
  std::string error;
  EXPECT_FALSE(tryRun(op, {ints(ElementType::I64, {2}, {3, 2}), tensor(ElementType::F32, {}, {1})},
                      outputs, error));
  EXPECT_NE(error.find("[3, 2]"), std::string::npos) << error;
}

TEST_F(DataMovementTest, FillEmptyAndScalar) {
  DmaOp empty = dma("fill", {"2xi64", "f32"}, {"0x3xf32"});
  EXPECT_EQ(run(empty, {ints(ElementType::I64, {2}, {0, 3}), tensor(ElementType::F32, {}, {1})})[0]
                .numElements(),
            0);
  DmaOp scalar = dma("fill", {"0xi64", "i64"}, {"i64"});
  EXPECT_EQ(intValues(run(scalar, {HostTensor(ElementType::I64, {0}),
                                   ints(ElementType::I64, {}, {-7})})[0]),
            (std::vector<int64_t>{-7}));
}

//===----------------------------------------------------------------------===//
// resize (nearest)
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, ResizeNearestCoordinateModes) {
  // W 3 -> 5. Legacy: floor(i * 0.6) = 0, 0, 1, 1, 2. align_corners:
  // round(i * 0.5) = 0, 1, 1, 2, 2 (half away from zero). Half-pixel:
  // floor((i + 0.5) * 0.6) = 0, 0, 1, 2, 2.
  HostTensor x = tensor(ElementType::F32, {1, 1, 1, 3}, {10, 20, 30});
  DmaOp legacy = dma("resize", {"1x1x1x3xf32"}, {"1x1x1x5xf32"},
                     "{params = {size = array<i64: 1, 5>}}");
  EXPECT_EQ(values(run(legacy, {x})[0]), (std::vector<double>{10, 10, 20, 20, 30}));
  DmaOp corners = dma("resize", {"1x1x1x3xf32"}, {"1x1x1x5xf32"},
                      "{params = {size = array<i64: 1, 5>, align_corners = true, "
                      "half_pixel_centers = false}}");
  EXPECT_EQ(values(run(corners, {x})[0]), (std::vector<double>{10, 20, 20, 30, 30}));
  DmaOp half = dma("resize", {"1x1x1x3xf32"}, {"1x1x1x5xf32"},
                   "{params = {size = array<i64: 1, 5>, half_pixel_centers = true}}");
  EXPECT_EQ(values(run(half, {x})[0]), (std::vector<double>{10, 10, 20, 30, 30}));
}

TEST_F(DataMovementTest, ResizeNearestUpAndDown2D) {
  // 2x2 -> 4x4 doubles every pixel; 1x5 -> 1x3 half-pixel picks
  // floor((i + 0.5) * 5/3) = 0, 2, 4.
  DmaOp up = dma("resize", {"1x2x2x2xi16"}, {"1x2x4x4xi16"},
                 "{params = {scales = array<f32: 2.0, 2.0>}}");
  auto y = run(up, {iota(ElementType::I16, {1, 2, 2, 2})});
  std::vector<int64_t> expected;
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t h = 0; h < 4; ++h)
      for (int64_t w = 0; w < 4; ++w)
        expected.push_back(c * 4 + (h / 2) * 2 + w / 2);
  EXPECT_EQ(intValues(y[0]), expected);
  DmaOp down = dma("resize", {"1x1x1x5xf32"}, {"1x1x1x3xf32"},
                   "{params = {size = array<i64: 1, 3>, half_pixel_centers = true}}");
  EXPECT_EQ(values(run(down, {iota(ElementType::F32, {1, 1, 1, 5})})[0]),
            (std::vector<double>{0, 2, 4}));
}

//===----------------------------------------------------------------------===//
// copy, reverse, aliasing
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, CopyAndReverse) {
  DmaOp copy = dma("copy", {"2x3xui8"}, {"6xui8"});
  EXPECT_EQ(intValues(run(copy, {iota(ElementType::U8, {2, 3})})[0]),
            (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  DmaOp reverse = dma("reverse", {"2x3xi32"}, {"2x3xi32"},
                      "{params = {axis = array<i64: -1, 0>}}");
  EXPECT_EQ(intValues(run(reverse, {iota(ElementType::I32, {2, 3})})[0]),
            (std::vector<int64_t>{5, 4, 3, 2, 1, 0}));
}

TEST_F(DataMovementTest, OutputSharingTheInputsBytes) {
  // The output is a view of the input's buffer: the input is read from a
  // copy, so the transpose is still right.
  DmaOp op = dma("transpose", {"2x3xi32"}, {"3x2xi32"}, "{params = {perm = array<i64: 1, 0>}}");
  HostTensor x = iota(ElementType::I32, {2, 3});
  HostTensor y = x.view({3, 2});
  std::string error;
  ASSERT_TRUE(runDataMovement(op, {&x}, {&y}, error)) << error;
  EXPECT_EQ(intValues(y), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

TEST_F(DataMovementTest, ZeroSizeTensors) {
  DmaOp transpose = dma("transpose", {"0x3xf16"}, {"3x0xf16"},
                        "{params = {perm = array<i64: 1, 0>}}");
  EXPECT_EQ(run(transpose, {HostTensor(ElementType::F16, {0, 3})})[0].numElements(), 0);
  DmaOp broadcast = dma("broadcast", {"1x3xf32"}, {"0x3xf32"});
  EXPECT_EQ(run(broadcast, {iota(ElementType::F32, {1, 3})})[0].numElements(), 0);
  DmaOp oneHot = dma("one_hot", {"0xi32", "i32", "f32", "f32"}, {"0x4xf32"});
  EXPECT_EQ(run(oneHot, {HostTensor(ElementType::I32, {0}), ints(ElementType::I32, {}, {4}),
                         tensor(ElementType::F32, {}, {1}), tensor(ElementType::F32, {}, {0})})[0]
                .numElements(),
            0);
  DmaOp resize = dma("resize", {"0x1x2x2xf32"}, {"0x1x4x4xf32"},
                     "{params = {size = array<i64: 4, 4>}}");
  EXPECT_EQ(run(resize, {HostTensor(ElementType::F32, {0, 1, 2, 2})})[0].numElements(), 0);
}

//===----------------------------------------------------------------------===//
// Refusals and mismatched tensors
//===----------------------------------------------------------------------===//

TEST_F(DataMovementTest, RefusesUnsupportedParams) {
  auto contains = [](const std::string &why, const char *text) {
    return why.find(text) != std::string::npos;
  };
  std::string why;
  why = refusal(dma("pad", {"3xf32"}, {"5xf32"},
                    "{params = {paddings = array<i64: 1, 1>, mode = \"wrap\"}}"));
  EXPECT_TRUE(contains(why, "mode 'wrap'")) << why;
  why = refusal(dma("pad", {"0xf32"}, {"2xf32"},
                    "{params = {paddings = array<i64: 1, 1>, mode = #ascend.pad_mode<edge>}}"));
  EXPECT_TRUE(contains(why, "holds no element")) << why;
  why = refusal(dma("pad", {"3xf32"}, {"5xf32"}, "{params = {paddings = array<i64: 1, 1, 0>}}"));
  EXPECT_TRUE(contains(why, "two per dimension")) << why;
  why = refusal(dma("transpose", {"2x3xf32"}, {"3x2xf32"}));
  EXPECT_TRUE(contains(why, "lack 'perm'")) << why;
  why = refusal(dma("transpose", {"2x3xf32"}, {"3x2xf32"},
                    "{params = {perm = array<i64: 1, 1>}}"));
  EXPECT_TRUE(contains(why, "not a permutation")) << why;
  why = refusal(dma("transpose", {"2x3xf32"}, {"2x3xf32"},
                    "{params = {perm = array<i64: 1, 0>}}"));
  EXPECT_TRUE(contains(why, "expected [3, 2]")) << why;
  why = refusal(dma("slice", {"4xf32"}, {"2xf32"},
                    "{params = {begin = array<i64: 0>, end = array<i64: 4>, "
                    "strides = array<i64: 0>}}"));
  EXPECT_TRUE(contains(why, "'strides' is 0")) << why;
  why = refusal(dma("space_to_depth", {"1x1x2x2xf32"}, {"1x4x1x1xf32"},
                    "{params = {block_size = 2 : i64, mode = #ascend.block_order<CRD>}}"));
  EXPECT_TRUE(contains(why, "mode 'crd'")) << why;
  why = refusal(dma("depth_to_space", {"1x6x1x1xf32"}, {"1x1x2x3xf32"},
                    "{params = {block_size = 2 : i64}}"));
  EXPECT_TRUE(contains(why, "multiple of block_size")) << why;
  why = refusal(dma("gather", {"3x2xf32", "2xf32"}, {"2x2xf32"}, "{params = {axis = 0 : i64}}"));
  EXPECT_TRUE(contains(why, "not an integer type")) << why;
  why = refusal(dma("gather", {"3x2xf32", "2xi32"}, {"2x2xf32"}, "{params = {axis = 2 : i64}}"));
  EXPECT_TRUE(contains(why, "outside [-2, 2)")) << why;
  why = refusal(dma("resize", {"1x1x2x2xf32"}, {"1x1x4x4xf32"},
                    "{params = {align_corners = true, half_pixel_centers = true}}"));
  EXPECT_TRUE(contains(why, "both set")) << why;
  why = refusal(dma("resize", {"1x1x2x2xf32"}, {"1x1x4x4xf32"},
                    "{params = {size = array<i64: 4, 5>}}"));
  EXPECT_TRUE(contains(why, "'size'")) << why;
  why = refusal(dma("scatter", {"3xf32", "1xi32", "1xf32"}, {"3xf32"}));
  EXPECT_TRUE(contains(why, "not supported")) << why;
  why = refusal(dma("concat", {"2x1xf32", "2x2xf16"}, {"2x3xf32"},
                    "{params = {concat_dim = 1 : i64}}"));
  EXPECT_TRUE(contains(why, "element type f16")) << why;
  why = refusal(dma("tile", {"2xf32"}, {"4xf32"}, "{params = {multiples = array<i64: 3>}}"));
  EXPECT_TRUE(contains(why, "expected [6]")) << why;
  why = refusal(dma("transpose", {"?x3xf32"}, {"3x?xf32"}, "{params = {perm = array<i64: 1, 0>}}"));
  EXPECT_TRUE(contains(why, "dynamic shape")) << why;
  why = refusal(dma("copy", {"4xcomplex<f32>"}, {"4xcomplex<f32>"}));
  EXPECT_TRUE(contains(why, "does not hold")) << why;
  why = refusal(dma("one_hot", {"2xi64", "2xi64", "f32", "f32"}, {"2x3xf32"}));
  EXPECT_TRUE(contains(why, "one element")) << why;
  // Every reason names the kind.
  EXPECT_EQ(why.rfind("one_hot: ", 0), 0u) << why;
}

TEST_F(DataMovementTest, RejectsMismatchedTensors) {
  DmaOp op = dma("transpose", {"2x3xf32"}, {"3x2xf32"}, "{params = {perm = array<i64: 1, 0>}}");
  HostTensor wrongType(ElementType::F16, {2, 3}), wrongCount(ElementType::F32, {2, 2});
  HostTensor y(ElementType::F32, {3, 2});
  std::string error;
  EXPECT_FALSE(runDataMovement(op, {&wrongType}, {&y}, error));
  EXPECT_NE(error.find("f16"), std::string::npos) << error;
  EXPECT_FALSE(runDataMovement(op, {&wrongCount}, {&y}, error));
  EXPECT_NE(error.find("4 elements"), std::string::npos) << error;
  EXPECT_FALSE(runDataMovement(op, {}, {&y}, error));
  EXPECT_NE(error.find("given 0 input(s)"), std::string::npos) << error;
}

} // namespace
