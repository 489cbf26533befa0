//===- TilingTest.cpp - tile choices against hand-computed figures --------===//

#include "AscendPrec/Conversion/AscendToKernel/Tiling.h"

#include <gtest/gtest.h>

#include <algorithm>

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


/// A device tiling as chooseCubeTiling records it, for hostCubeTiling.
CubeTiling deviceTiling(int64_t batch, int64_t mTile, int64_t mPadded, int64_t nTile,
                        int64_t nPadded, int64_t kTile, int64_t kPadded, int64_t cores) {
  CubeTiling t;
  t.mTile = mTile;
  t.nTile = nTile;
  t.kTile = kTile;
  t.mPadded = mPadded;
  t.nPadded = nPadded;
  t.kPadded = kPadded;
  t.kSteps = kPadded / kTile;
  t.tiles = batch * (mPadded / mTile) * (nPadded / nTile);
  t.blockDim = std::min(t.tiles, cores);
  return t;
}

/// The host's M tile and what follows from it; K and N are the device's.
void expectHostTiles(const CubeTiling &host, const CubeTiling &device, int64_t mTile,
                     int64_t mPadded, int64_t tiles, int64_t blockDim) {
  EXPECT_TRUE(host.forHost);
  EXPECT_EQ(host.mTile, mTile);
  EXPECT_EQ(host.mPadded, mPadded);
  EXPECT_EQ(host.tiles, tiles);
  EXPECT_EQ(host.blockDim, blockDim);
  EXPECT_EQ(host.kTile, device.kTile);
  EXPECT_EQ(host.kPadded, device.kPadded);
  EXPECT_EQ(host.kSteps, device.kSteps);
  EXPECT_EQ(host.nTile, device.nTile);
  EXPECT_EQ(host.nPadded, device.nPadded);
}

TEST(HostCubeTiling, MergesATileRowIntoOne) {
  // PP-OCR's 5x5 depthwise convolution on the 910B: 8 packed groups of a
  // 2 x 96 map in tiles of 32 positions (48 tiles); for 8 host blocks, one
  // tile per group covers the map. K is untouched.
  CubeTiling device = deviceTiling(8, 32, 192, 16, 16, 400, 400, 20);
  CubeTiling host = hostCubeTiling(device, {8, 192, 16, 400, 16}, ascend910b(), 8);
  expectHostTiles(host, device, 192, 192, 8, 8);
  EXPECT_EQ(host.kTile, 400);
}

TEST(HostCubeTiling, AccumulatorBoundsTheTile) {
  // 1000 x 64 columns of 8 N tiles: 208 rows (5 M tiles) on the device.
  // x2: 416 rows, 24 tiles; x3: 624, 16 tiles, M padded to 1248; x4: 832,
  // 16 tiles padded to 1664; x5 (8 tiles) needs 1040 x 64 x 4 bytes, over
  // 256 KiB. The fewest tiles, padding least: x3.
  CubeTiling device = deviceTiling(1, 208, 1040, 64, 512, 64, 256, 20);
  CubeTiling host = hostCubeTiling(device, {1, 1000, 512, 256, 16}, ascend910b(), 8);
  expectHostTiles(host, device, 624, 1248, 16, 16);
  EXPECT_EQ(host.band, 2); // the largest divisor of 2 M tiles under sqrt(16)
}

TEST(HostCubeTiling, PanelOfABoundsTheTile) {
  // K = 8192 in one step of fp16: a 32-row panel of A is 512 KiB, a
  // 48-row one more.
  CubeTiling device = deviceTiling(1, 16, 1024, 16, 16, 8192, 8192, 20);
  CubeTiling host = hostCubeTiling(device, {1, 1024, 16, 8192, 16}, ascend910b(), 8);
  expectHostTiles(host, device, 32, 1024, 32, 20);
}

TEST(HostCubeTiling, FewTilesStayTheDevices) {
  // Two tiles already: nothing to merge, and the result is the device's.
  CubeTiling device = deviceTiling(1, 16, 16, 16, 32, 64, 64, 20);
  CubeTiling host = hostCubeTiling(device, {1, 16, 32, 64, 16}, ascend910b(), 8);
  EXPECT_FALSE(host.forHost);
  EXPECT_EQ(host.mTile, 16);
  EXPECT_EQ(host.tiles, 2);
  // Nor with as many tiles as blocks: each would drop below.
  CubeTiling eight = deviceTiling(1, 16, 128, 16, 16, 64, 64, 20);
  EXPECT_FALSE(hostCubeTiling(eight, {1, 128, 16, 64, 16}, ascend910b(), 8).forHost);
}

} // namespace
