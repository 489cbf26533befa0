//===- TilingTest.cpp - tile choices against hand-computed figures --------===//

#include "AscendPrec/Conversion/AscendToKernel/Tiling.h"

#include <gtest/gtest.h>

using namespace ascendprec::kernel;

namespace {

/// Ascend910's platform config (data/ops/Ascend910/platform_config).
CoreFacts ascend910() {
  CoreFacts facts;
  facts.cubeCores = facts.vectorCores = 32;
  facts.l1 = 1048576;
  facts.l0a = facts.l0b = 65536;
  facts.l0c = facts.ub = 262144;
  return facts;
}

TEST(CubeTiling, OneFractal) {
  CubeTiling t = chooseCubeTiling({1, 16, 16, 16, 16}, ascend910(), 32);
  EXPECT_EQ(t.mTile, 16);
  EXPECT_EQ(t.nTile, 16);
  EXPECT_EQ(t.kTile, 16);
  EXPECT_EQ(t.tiles, 1);
  EXPECT_EQ(t.blockDim, 1);
}

TEST(CubeTiling, PadsToTheFractal) {
  // 100x72 x 72x80: M pads to 112, K to 80; 16x32 tiles give the busiest
  // of 21 cores one tile.
  CubeTiling t = chooseCubeTiling({1, 100, 80, 72, 16}, ascend910(), 32);
  EXPECT_EQ(t.mPadded, 112);
  EXPECT_EQ(t.kPadded, 80);
  EXPECT_EQ(t.mTile, 16);
  EXPECT_EQ(t.nTile, 32);
  EXPECT_EQ(t.tiles, 21);
  EXPECT_EQ(t.blockDim, 21);
}

TEST(CubeTiling, LargeSquareFillsEveryCore) {
  // 1024^3 fp16: L0C holds two 32768-element fp32 accumulators, so the
  // largest tiles are 128x256 (32 tiles, one per core); L0B then limits the
  // K step to 64 (2 x 64 x 256 x 2 bytes = 64 KiB).
  CubeTiling t = chooseCubeTiling({1, 1024, 1024, 1024, 16}, ascend910(), 32);
  EXPECT_EQ(t.mTile, 128);
  EXPECT_EQ(t.nTile, 256);
  EXPECT_EQ(t.kTile, 64);
  EXPECT_EQ(t.kSteps, 16);
  EXPECT_EQ(t.tiles, 32);
  EXPECT_EQ(t.blockDim, 32);
  // Every buffer fits double-buffered.
  EXPECT_LE(2 * t.mTile * t.nTile * 4, ascend910().l0c);
  EXPECT_LE(2 * t.mTile * t.kTile * 2, ascend910().l0a);
  EXPECT_LE(2 * t.kTile * t.nTile * 2, ascend910().l0b);
}

TEST(CubeTiling, Int8CountsKInThirtyTwos) {
  CubeTiling t = chooseCubeTiling({1, 16, 16, 40, 8}, ascend910(), 32);
  EXPECT_EQ(t.kFractal, 32);
  EXPECT_EQ(t.kPadded, 64);
}

TEST(CubeTiling, FewerCoresMeanMoreTilesEach) {
  // aicore_num=8 (OP-3): the block count follows the cores given.
  CubeTiling t = chooseCubeTiling({1, 1024, 1024, 1024, 16}, ascend910(), 8);
  EXPECT_EQ(t.blockDim, 8);
  EXPECT_EQ(t.tiles % 8, 0);
}

/// Ascend910B's platform config, with its memory rates and L2.
CoreFacts ascend910b() {
  CoreFacts facts;
  facts.cubeCores = 20;
  facts.vectorCores = 40;
  facts.l1 = 524288;
  facts.l0a = facts.l0b = 65536;
  facts.l0c = 131072;
  facts.ub = 196608;
  facts.l2 = 201326592;
  facts.ddrRate = 32;
  facts.l2Rate = 110;
  return facts;
}

TEST(CubeTiling, LoadsCountAgainstSmallTiles) {
  // A BERT-base FFN: 8 x [128, 768] x [768, 3072]. 16x16 tiles would balance
  // the multiplies best but reload the A and B panels 12288 times; the
  // choice weighs those bytes: 128x128 tiles, K in steps of 128.
  CubeTiling t = chooseCubeTiling({8, 128, 3072, 768, 16, 16}, ascend910b(), 20);
  EXPECT_EQ(t.mTile, 128);
  EXPECT_EQ(t.nTile, 128);
  EXPECT_EQ(t.kTile, 128);
  EXPECT_EQ(t.tiles, 192);
  EXPECT_EQ(t.blockDim, 20);
}

TEST(CubeTiling, EpilogueBuffersMustFitUB) {
  // A UB group keeping 12 bytes per output element on UB (fp32 tile, an
  // fp32 result, an fp16 residual and the fp16 exit) cannot take a tile
  // whose double-buffered epilogue exceeds 192 KiB.
  CubeTiling t = chooseCubeTiling({8, 128, 768, 3072, 16, 16, 12}, ascend910b(), 20);
  EXPECT_LE(2 * t.mTile * t.nTile * 12, ascend910b().ub);
}

TEST(GmReads, RereadsComeFromL2) {
  // A core's share of a 1 MiB buffer (of 4 cores: 256 KiB) from DDR at 32
  // B/cycle, the other 768 KiB it reads again from L2 at 110 B/cycle.
  double cycles = gmReadCycles(1048576, 1048576, 4, ascend910b());
  EXPECT_DOUBLE_EQ(cycles, 262144.0 / 32 + 786432.0 / 110);
  // A buffer larger than L2 is read from DDR every time.
  CoreFacts small = ascend910b();
  small.l2 = 1024;
  EXPECT_DOUBLE_EQ(gmReadCycles(1048576, 1048576, 4, small), 1048576.0 / 32);
}

TEST(VectorTiling, SharesElementsOverCores) {
  // 10^6 fp16 elements in, fp16 out: 4 bytes a step per element, 32768
  // fit UB twice; the cores' share (31250 -> 31264, 32-byte aligned) is
  // smaller, so 32 tiles for 32 cores.
  VectorTiling t = chooseVectorTiling(1000000, 4, 16, ascend910(), 32);
  EXPECT_EQ(t.tile, 31264);
  EXPECT_EQ(t.tiles, 32);
  EXPECT_EQ(t.blockDim, 32);
}

TEST(VectorTiling, UBBoundsTheTile) {
  // 10^8 elements: the share would be 3.1M, UB holds 32768.
  VectorTiling t = chooseVectorTiling(100000000, 4, 16, ascend910(), 32);
  EXPECT_EQ(t.tile, 32768);
  EXPECT_EQ(t.tiles, 3052);
}

TEST(RowTiling, RowTooLongForUB) {
  // One row of 100000 fp32 elements (400 KB) does not fit.
  VectorTiling t = chooseRowTiling(8, 400000, ascend910(), 32);
  EXPECT_EQ(t.tile, 0);
  VectorTiling fits = chooseRowTiling(64, 1024, ascend910(), 32);
  EXPECT_EQ(fits.tile, 2);
  EXPECT_EQ(fits.blockDim, 32);
}

TEST(TileBand, RowsWalkedTogetherDivideTheRows) {
  // sqrt(24 cores) = 4 rows of tiles per band, a divisor of the 40 rows.
  EXPECT_EQ(tileBand(40, 160, 24), 4);
  // 30 rows on 20 cores: sqrt gives 4, the largest divisor under it is 3.
  EXPECT_EQ(tileBand(30, 8, 20), 3);
  // A prime number of rows: no whole band but 1.
  EXPECT_EQ(tileBand(7, 3, 21), 1);
  // One row or one column, or one core: row by row.
  EXPECT_EQ(tileBand(1, 64, 24), 1);
  EXPECT_EQ(tileBand(64, 1, 24), 1);
  EXPECT_EQ(tileBand(64, 64, 1), 1);
}

TEST(CubeTiling, LargeProductsWalkTilesInBands) {
  // A 10240^3 fp16 product on the 910B2's 24 cores: bands of 4 rows.
  CubeProblem problem{1, 10240, 10240, 10240, 16, 16};
  CubeTiling tiling = chooseCubeTiling(problem, ascend910b(), 24);
  EXPECT_EQ(tiling.band, tileBand(tiling.mPadded / tiling.mTile, tiling.nPadded / tiling.nTile, 24));
  EXPECT_GT(tiling.band, 1);
}

} // namespace
