//===- CubeLoopTest.cpp - the fused cube loop gives the loop's bits -------===//
//
// ascendprec_rt_cube_loop stands for a cube kernel's K loop: load a tile of
// A and of B, mmad them into the accumulator (initialised at k = 0). It
// gathers img2col tiles K-major and keeps the tiles of a read-only B for
// the block run, so these tests run it against the loop itself (the
// runtime's own load and mmad calls) and compare the accumulators bit for
// bit: convolutions with padding, strides, dilations, channels that do not
// fill K and rows past the last output position; matmuls with A plain and
// transposed, and tiles read in place where they lie wholly inside GM; fp32,
// fp16 and bf16, with inf, NaN and -0 among the inputs; packed groups of
// grouped convolutions (block-diagonal filters, multiplied straight from
// the map); convolutions with stride 1 along W (sums across positions from
// padded rows); transposed convolutions (the spread input, multiplied by phase
// class without its zeros); B's tiles reloaded after
// ascendprec_rt_block_begin; the tiles of a remembered constant kept
// across launches until it is forgotten; plain tiles kept for one launch
// only, and read in place past the launch's cap.
//
//===----------------------------------------------------------------------===//

// The runtime's entry points, as the symbol table declares them.
#include "../../lib/Runtime/ConstantTiles.h"
#include "../../lib/Runtime/RuntimeBuffers.h"
#include "RuntimeMemref.h"

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/KernelRuntime.h"
#include "AscendPrec/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

using namespace ascendprec::runtime;
using ascendprec::runtime::testing::Memref;

namespace {

/// Buffers as the cube reads them: fp32 as is, fp16/bf16 as their bits.
struct Stored {
  ElementType type;
  std::vector<uint8_t> bytes;
  Stored(ElementType type, int64_t count)
      : type(type), bytes(count * (type == ElementType::F32 ? 4 : 2)) {}
  int32_t elementBytes() const { return type == ElementType::F32 ? 4 : 2; }
  void set(int64_t i, float value) {
    if (type == ElementType::F32) {
      std::memcpy(&bytes[4 * i], &value, 4);
      return;
    }
    uint16_t bits = type == ElementType::F16
                        ? roundToHalf(value, Rounding::Rint, Overflow::IEEE)
                        : roundToBFloat16(value, Rounding::Rint, Overflow::IEEE);
    std::memcpy(&bytes[2 * i], &bits, 2);
  }
  /// Random values, a tenth of them zero; with `special`, a few inf, NaN
  /// and -0 as well; with `tiny`, a few values under 2^-50 (their products
  /// can round a sum to -0).
  void fill(std::mt19937 &random, bool special, bool tiny = false) {
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    std::uniform_int_distribution<int> pick(0, 99);
    int64_t count = static_cast<int64_t>(bytes.size()) / elementBytes();
    for (int64_t i = 0; i < count; ++i) {
      int roll = pick(random);
      float v = roll < 10 ? 0.0f : value(random);
      if (special && roll == 10)
        v = std::numeric_limits<float>::infinity();
      else if (special && roll == 11)
        v = std::numeric_limits<float>::quiet_NaN();
      else if (special && roll == 12)
        v = -0.0f;
      else if (tiny && roll >= 13 && roll < 16)
        v = (roll == 13 ? -1.0f : 1.0f) * std::ldexp(1.0f, -70 - roll);
      set(i, v);
    }
  }
  void *data() { return bytes.data(); }
};

/// One cube loop: where A and B are read, the tiles, and the K range.
struct LoopCase {
  Memref aGm, bGm;
  std::vector<int64_t> aOffsets, bOffsets, aParams;
  LoadMode aMode, bMode;
  int32_t aSlot, bSlot;
  int64_t m, k, n, kEnd;
  std::vector<int64_t> bParams = {};
};

void runLoopBySteps(LoopCase c, ElementType type, int32_t bytes, std::vector<float> &acc) {
  std::vector<uint8_t> aTile(c.m * c.k * bytes), bTile(c.k * c.n * bytes);
  Memref aT(aTile.data(), {c.m, c.k}), bT(bTile.data(), {c.k, c.n}), accT(acc.data(), {c.m, c.n});
  for (int64_t kAt = 0; kAt < c.kEnd; kAt += c.k) {
    if (c.aSlot >= 0)
      c.aOffsets[c.aSlot] = kAt;
    if (c.bSlot >= 0)
      c.bOffsets[c.bSlot] = kAt;
    Memref aOff(c.aOffsets.data(), {static_cast<int64_t>(c.aOffsets.size())});
    Memref bOff(c.bOffsets.data(), {static_cast<int64_t>(c.bOffsets.size())});
    Memref aPar(c.aParams.data(), {static_cast<int64_t>(c.aParams.size())});
    Memref bPar(c.bParams.data(), {static_cast<int64_t>(c.bParams.size())});
    ascendprec_rt_load(c.aGm.rank, c.aGm.descriptor(), 2, aT.descriptor(), 1, aOff.descriptor(), 1,
                       aPar.descriptor(), bytes, static_cast<int32_t>(c.aMode));
    ascendprec_rt_load(c.bGm.rank, c.bGm.descriptor(), 2, bT.descriptor(), 1, bOff.descriptor(), 1,
                       bPar.descriptor(), bytes, static_cast<int32_t>(c.bMode));
    ascendprec_rt_mmad(2, aT.descriptor(), 2, bT.descriptor(), 2, accT.descriptor(),
                       static_cast<int32_t>(type), kAt == 0);
  }
}

void runFusedLoop(LoopCase c, ElementType type, int32_t bytes, std::vector<float> &acc,
                  bool readOnlyB) {
  std::vector<uint8_t> aTile(c.m * c.k * bytes), bTile(c.k * c.n * bytes);
  Memref aT(aTile.data(), {c.m, c.k}), bT(bTile.data(), {c.k, c.n}), accT(acc.data(), {c.m, c.n});
  Memref aOff(c.aOffsets.data(), {static_cast<int64_t>(c.aOffsets.size())});
  Memref bOff(c.bOffsets.data(), {static_cast<int64_t>(c.bOffsets.size())});
  Memref aPar(c.aParams.data(), {static_cast<int64_t>(c.aParams.size())});
  Memref bPar(c.bParams.data(), {static_cast<int64_t>(c.bParams.size())});
  ascendprec_rt_cube_loop(c.aGm.rank, c.aGm.descriptor(), 1, aOff.descriptor(), 1,
                          aPar.descriptor(), c.bGm.rank, c.bGm.descriptor(), 1, bOff.descriptor(),
                          1, bPar.descriptor(), 2, aT.descriptor(), 2, bT.descriptor(), 2,
                          accT.descriptor(), 0, c.kEnd, c.k, static_cast<int32_t>(c.aMode),
                          c.aSlot, static_cast<int32_t>(c.bMode), c.bSlot,
                          static_cast<int32_t>(type), bytes, /*initAtZero=*/1, readOnlyB);
}

void expectSameBits(const std::vector<float> &actual, const std::vector<float> &wanted,
                    const std::string &what) {
  ASSERT_EQ(actual.size(), wanted.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    uint32_t x, y;
    std::memcpy(&x, &actual[i], 4);
    std::memcpy(&y, &wanted[i], 4);
    ASSERT_EQ(x, y) << what << ", element " << i << ": " << actual[i] << " vs " << wanted[i];
  }
}

/// Both ways over every M tile of a `tiles` x m range, starting from
/// garbage accumulators (the loop initialises them).
void expectSameAsSteps(LoopCase c, ElementType type, int64_t mTiles, int32_t mSlotA,
                       const std::string &what) {
  int32_t bytes = type == ElementType::F32 ? 4 : 2;
  for (bool readOnly : {false, true}) {
    ascendprec_rt_block_begin();
    for (int64_t t = 0; t < mTiles; ++t) {
      c.aOffsets[mSlotA] = t * c.m;
      std::vector<float> bySteps(c.m * c.n, 7.0f), fused(c.m * c.n, -3.0f);
      runLoopBySteps(c, type, bytes, bySteps);
      runFusedLoop(c, type, bytes, fused, readOnly);
      expectSameBits(fused, bySteps,
                     what + ", M tile " + std::to_string(t) + (readOnly ? ", B kept" : ""));
    }
  }
}

struct ConvGeometry {
  int64_t channels, height, width, filters, kernelH, kernelW, strideH, strideW;
  int64_t padTop, padBottom, padLeft, padRight, dilationH, dilationW;
  int64_t outH() const {
    return (height + padTop + padBottom - dilationH * (kernelH - 1) - 1) / strideH + 1;
  }
  int64_t outW() const {
    return (width + padLeft + padRight - dilationW * (kernelW - 1) - 1) / strideW + 1;
  }
};

/// The cube loops of a convolution over x [2, 1, channels, H, W] (batch 1
/// of 2), as the lowering tiles it (img2col tiles of m x k, B read from `w`
/// by `bMode`), each M tile against the loop's own steps.
void expectConvolutionSameAsSteps(const ConvGeometry &g, Stored &x, int64_t channels, Memref w,
                                  LoadMode bMode, std::vector<int64_t> bParams, ElementType type,
                                  int64_t m, int64_t k, int64_t n, const std::string &what) {
  int64_t depth = channels * g.kernelH * g.kernelW;
  LoopCase c{Memref(x.data(), {2, 1, channels, g.height, g.width}),
             std::move(w),
             {1, 0, 0, 0},
             {0, 0, 0},
             {g.kernelH, g.kernelW, g.strideH, g.strideW, g.padTop, g.padBottom, g.padLeft,
              g.padRight, g.dilationH, g.dilationW, g.outH(), g.outW(), 16, 1, 1},
             LoadMode::Img2Col,
             bMode,
             3,
             2,
             m,
             k,
             n,
             (depth + k - 1) / k * k,
             std::move(bParams)};
  int64_t mTiles = (g.outH() * g.outW() + m - 1) / m;
  expectSameAsSteps(c, type, mTiles, 2, what);
}

/// A convolution of x [2, 1, C, H, W] (batch 1 of 2) by w [N, C * kh * kw]
/// as the lowering tiles it: img2col tiles of m x k, transposed filter tiles.
void checkConvolution(const ConvGeometry &g, ElementType type, bool special, unsigned seed,
                      int64_t m, int64_t k, int64_t n, bool specialW = false) {
  std::mt19937 random(seed);
  Stored x(type, 2 * g.channels * g.height * g.width);
  int64_t window = g.channels * g.kernelH * g.kernelW;
  Stored w(type, g.filters * window);
  x.fill(random, special);
  w.fill(random, specialW, /*tiny=*/specialW);
  expectConvolutionSameAsSteps(g, x, g.channels, Memref(w.data(), {1, g.filters, window}),
                               LoadMode::Transpose, {}, type, m, k, n, "convolution");
}

class CubeLoop : public ::testing::TestWithParam<ElementType> {};

TEST_P(CubeLoop, ConvolutionMatchesTheLoop) {
  // 3x3, stride 1, same padding; 5 channels fill 45 of K's 48.
  checkConvolution({5, 7, 9, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), false, 1, 16, 16, 16);
  // Stride 2, dilation 2, uneven padding, a tile wider than a row.
  checkConvolution({3, 11, 10, 20, 3, 2, 2, 2, 2, 0, 1, 3, 2, 2}, GetParam(), false, 2, 24, 8, 32);
  // 1x1, no padding, M tiles past the last output position.
  checkConvolution({8, 5, 5, 4, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), false, 3, 16, 16, 16);
  // 1x1 over whole tiles: the patches are read in the map, then a last
  // tile past the output positions is gathered.
  checkConvolution({32, 8, 8, 24, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), false, 9, 16, 16, 32);
  checkConvolution({32, 6, 6, 24, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), true, 10, 16, 16, 32);
  // ... in one pass over K (mmadSteps) with a last step half past the
  // channels (40 of 48), inf, NaN, -0 and tiny values in map and weights.
  for (bool special : {false, true})
    checkConvolution({40, 8, 8, 40, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), special, 34, 16,
                     16, 48, /*specialW=*/special);
  // A depthwise convolution's group: one channel, one filter; its tile
  // keeps 9 of 16 K steps and 1 of 16 columns (the one-column multiply).
  checkConvolution({1, 9, 11, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), false, 7, 24, 16, 16);
  // Stride 2 across a wide map (PP-OCR's first convolution): output rows
  // of 75 positions, gathered every other input 16 or 32 at a time, with
  // the tail and the padded first column element by element.
  checkConvolution({3, 5, 150, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, GetParam(), false, 35, 96, 16, 16);
  checkConvolution({3, 5, 150, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, GetParam(), true, 36, 96, 16, 16);
}

TEST_P(CubeLoop, RowsPastTheMapMatchTheLoop) {
  // A tile's rows past the last output position multiply zero patches:
  // their sums (0 x B in K order: +0, or NaN where B holds inf or NaN)
  // are worked out once and copied. A squeeze-excitation's 1x1
  // convolution on a 1x1 map (1 row of 16), K in one step and in several
  // read in place; a 3x3 one on a 2x3 map (gathered); inf, NaN, -0 and
  // tiny values in the weights and in the map.
  for (bool special : {false, true}) {
    checkConvolution({48, 1, 1, 32, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), special, 31, 16,
                     48, 32, /*specialW=*/special);
    checkConvolution({64, 1, 1, 48, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), special, 32, 16,
                     16, 48, /*specialW=*/special);
    checkConvolution({4, 2, 3, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), special, 33, 16,
                     16, 16, /*specialW=*/special);
  }
}

TEST_P(CubeLoop, DirectConvolutionMatchesTheLoop) {
  // Stride 1 along W with a read-only B: the sums run across positions from
  // padded rows (DirectPatches.cpp). 24 filters in 32 columns: the zero
  // filters are filled, not multiplied; tiles span several output rows.
  checkConvolution({6, 9, 21, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), false, 11, 48, 16, 32);
  // ... and with inf, NaN and -0 in the map, every filter multiplied.
  checkConvolution({6, 9, 21, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), true, 12, 48, 16, 32);
  // Stride 2 down, 1 across, dilation 2, uneven padding, K in 4 steps with
  // 5 of the last step's columns past the patch (padded K adds +0).
  checkConvolution({5, 12, 13, 16, 3, 3, 2, 1, 2, 1, 2, 2, 2, 2}, GetParam(), false, 13, 16, 12, 16);
  checkConvolution({5, 12, 13, 16, 3, 3, 2, 1, 2, 1, 2, 2, 2, 2}, GetParam(), true, 14, 16, 12, 16);
  // Tiles inside one output row copy only the columns they reach.
  checkConvolution({4, 3, 50, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), false, 17, 16, 16, 16);
  checkConvolution({4, 3, 50, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), true, 18, 16, 16, 16);
  // fp32 1x1 convolutions, N one tile of 16, whose tiles of 16 positions
  // are read in the map itself (32 positions: two such tiles; 40: a last
  // tile of 8 copied): 12 filters (the zero filters filled when the map is
  // finite) and 16, with inf, NaN and -0 in the map and the weights.
  for (bool special : {false, true}) {
    checkConvolution({24, 4, 8, 12, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), special, 19, 16,
                     24, 16, /*specialW=*/special);
    checkConvolution({20, 5, 8, 16, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, GetParam(), special, 20, 16,
                     16, 16, /*specialW=*/special);
  }
  // A padded 1x1 convolution (not read in place) and a 1x7 kernel.
  checkConvolution({4, 5, 6, 16, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1}, GetParam(), false, 15, 16, 16, 16);
  checkConvolution({3, 4, 30, 40, 1, 7, 1, 1, 0, 0, 3, 3, 1, 1}, GetParam(), true, 16, 32, 16, 48);
}

TEST_P(CubeLoop, SpecialValuesMatchTheLoop) {
  checkConvolution({4, 6, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), true, 4, 16, 16, 16);
  checkConvolution({1, 9, 11, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), true, 8, 24, 16, 16);
}

/// A transposed convolution (Conv2DBackpropInput) as the lowering runs it:
/// the convolution, stride 1, of x [2, 1, C, H, W] (batch 1 of 2) spread
/// out by `spread`, with the flipped filter w [1, C, N, window] read through
/// transposed_filter; pads are the equivalent convolution's. With a
/// read-only B the loop multiplies each phase class's live window offsets
/// only (SpreadPatches.cpp).
void checkTransposedConvolution(const ConvGeometry &g, int64_t spreadH, int64_t spreadW,
                                ElementType type, bool specialX, bool specialW, bool tiny,
                                unsigned seed, int64_t m, int64_t k, int64_t n) {
  std::mt19937 random(seed);
  int64_t window = g.kernelH * g.kernelW;
  Stored x(type, 2 * g.channels * g.height * g.width);
  Stored w(type, g.channels * g.filters * window);
  x.fill(random, specialX, tiny);
  w.fill(random, specialW, tiny);
  int64_t outH = (g.height - 1) * spreadH + 1 + g.padTop + g.padBottom - g.dilationH * (g.kernelH - 1);
  int64_t outW = (g.width - 1) * spreadW + 1 + g.padLeft + g.padRight - g.dilationW * (g.kernelW - 1);
  int64_t depth = g.channels * window;
  LoopCase c{Memref(x.data(), {2, 1, g.channels, g.height, g.width}),
             Memref(w.data(), {1, g.channels, g.filters, window}),
             {1, 0, 0, 0},
             {0, 0, 0},
             {g.kernelH, g.kernelW, 1, 1, g.padTop, g.padBottom, g.padLeft, g.padRight,
              g.dilationH, g.dilationW, outH, outW, 16, spreadH, spreadW},
             LoadMode::Img2Col,
             LoadMode::TransposedFilter,
             3,
             1,
             m,
             k,
             n,
             (depth + k - 1) / k * k};
  expectSameAsSteps(c, type, (outH * outW + m - 1) / m, 2, "transposed convolution");
}

TEST_P(CubeLoop, TransposedConvolutionMatchesTheLoop) {
  // ConvTranspose 2x2, stride 2, no padding (the detector's upsampling):
  // equivalent pads 1, one live offset per phase class.
  checkTransposedConvolution({6, 5, 7, 4, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1}, 2, 2, GetParam(), false,
                             false, false, 21, 16, 16, 16);
  // 3x3, stride 2, padding 1 with output padding 1 (equivalent pads 1 and
  // 2): classes with one, two and four live offsets; tiles across rows.
  checkTransposedConvolution({5, 6, 5, 3, 3, 3, 1, 1, 1, 2, 1, 2, 1, 1}, 2, 2, GetParam(), false,
                             false, false, 22, 24, 16, 16);
  // Stride 3 by 2, dilation 2, cropping (negative equivalent padding
  // never reaches here: pads stay >= 0), K in several steps.
  checkTransposedConvolution({20, 4, 6, 18, 3, 2, 1, 1, 2, 0, 1, 1, 2, 2}, 3, 2, GetParam(), false,
                             false, false, 23, 32, 16, 32);
}

TEST_P(CubeLoop, TransposedConvolutionSpecialValuesMatchTheLoop) {
  ConvGeometry upsample{6, 5, 7, 4, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1};
  // inf, NaN and -0 in x: the live products are the loop's.
  checkTransposedConvolution(upsample, 2, 2, GetParam(), true, false, false, 24, 16, 16, 16);
  // ... in w: 0 x inf is NaN, so the loop multiplies in full.
  checkTransposedConvolution(upsample, 2, 2, GetParam(), false, true, false, 25, 16, 16, 16);
  // Tiny values (their products may round a sum to -0): in full too.
  checkTransposedConvolution({5, 6, 5, 3, 3, 3, 1, 1, 1, 2, 1, 2, 1, 1}, 2, 2, GetParam(), false,
                             false, true, 26, 24, 16, 16);
}

/// A packed group of a grouped convolution (CANN's group enlargement):
/// x [2, 1, E * inPerGroup, H, W] (batch 1 of 2), the filter
/// [1, E * outPerGroup, inPerGroup * window] read block-diagonally
/// (grouped_filter), in m x k tiles of all E * outPerGroup columns. With a
/// read-only B the loop multiplies the patches straight from the map.
void checkPackedGroup(const ConvGeometry &g, int64_t enlarge, int64_t inPerGroup,
                      int64_t outPerGroup, ElementType type, bool special, bool tiny,
                      unsigned seed, int64_t m, int64_t k, int64_t zeroFilter = -1,
                      const std::vector<std::pair<int64_t, float>> &planted = {}) {
  std::mt19937 random(seed);
  int64_t channels = enlarge * inPerGroup, filters = enlarge * outPerGroup;
  int64_t window = g.kernelH * g.kernelW;
  Stored x(type, 2 * channels * g.height * g.width);
  Stored w(type, filters * inPerGroup * window);
  x.fill(random, special, tiny);
  w.fill(random, false, tiny);
  // Values put at given places of x (flat indices of batch 1).
  for (auto [at, value] : planted)
    x.set(channels * g.height * g.width + at, value);
  // A filter of zeros: its column of B is all zero, a gap among the rest.
  for (int64_t i = 0; zeroFilter >= 0 && i < inPerGroup * window; ++i)
    w.set(zeroFilter * inPerGroup * window + i, 0.0f);
  expectConvolutionSameAsSteps(g, x, channels,
                               Memref(w.data(), {1, filters, inPerGroup * window}),
                               LoadMode::GroupedFilter, {enlarge, window}, type, m, k, filters,
                               "packed group");
}

TEST_P(CubeLoop, PackedDepthwiseGroupInALaunchMatchesTheLoop) {
  // Within a launch each thread keeps its lists of B's tiles and their
  // sparse layout for the launch's later tiles (CubeLoop.cpp); each check
  // is a launch of its own, as a new map is in production.
  auto inALaunch = [](auto check) {
    setLaunchId(newLaunchId());
    check();
    setLaunchId(0);
  };
  ConvGeometry same{16, 9, 11, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  inALaunch([&] { checkPackedGroup(same, 16, 1, 1, GetParam(), false, false, 31, 24, 48); });
  inALaunch([&] { checkPackedGroup(same, 16, 1, 1, GetParam(), true, false, 32, 24, 144); });
  inALaunch([&] {
    checkPackedGroup({8, 12, 13, 8, 3, 3, 2, 2, 2, 0, 1, 3, 2, 2}, 8, 1, 1, GetParam(), false,
                     false, 33, 16, 32);
  });
  // PP-OCR's classifier's 5x5 windows, stride 2 down, tiles within a row.
  inALaunch([&] {
    checkPackedGroup({16, 3, 96, 16, 5, 5, 2, 1, 2, 2, 2, 2, 1, 1}, 16, 1, 1, GetParam(), false,
                     false, 34, 16, 400);
  });
}

/// A convolution of x [2, 1, g.channels, H, W] by weights given to
/// rememberConstant, each check a launch of its own: kept weights, a later
/// launch, then other weights at the same address once the constant was
/// forgotten (what the runtime kept for them must not be reused).
void checkAcrossForget(const ConvGeometry &g, ElementType type, unsigned seed,
                       std::vector<int64_t> wShape, LoadMode bMode, std::vector<int64_t> bParams,
                       int64_t m, int64_t k, int64_t n) {
  std::mt19937 random(seed);
  Stored x(type, 2 * g.channels * g.height * g.width), w(type, wShape[1] * wShape[2]);
  x.fill(random, false);
  w.fill(random, false);
  auto check = [&](const std::string &what) {
    setLaunchId(newLaunchId());
    expectConvolutionSameAsSteps(g, x, g.channels, Memref(w.data(), wShape), bMode, bParams, type,
                                 m, k, n, what);
  };
  rememberConstant(w.data(), w.bytes.size());
  check("kept weights");
  check("kept weights, a later launch");
  forgetConstant(w.data());
  w.fill(random, false);
  rememberConstant(w.data(), w.bytes.size());
  check("other weights at the same address");
  forgetConstant(w.data());
  setLaunchId(0);
}

TEST_P(CubeLoop, WeightsKeptAcrossLaunchesUntilForgotten) {
  // A packed depthwise group: the lists of its kept tiles and the weight
  // table made from their plans (SparsePatches.cpp).
  checkAcrossForget({16, 9, 11, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), 41, {1, 16, 9},
                    LoadMode::GroupedFilter, {16, 9}, 24, 48, 16);
  // A convolution multiplied directly: its weights widened to fp32
  // (DirectPatches.cpp).
  checkAcrossForget({6, 9, 21, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, GetParam(), 42, {1, 24, 54},
                    LoadMode::Transpose, {}, 48, 16, 32);
}

TEST_P(CubeLoop, PackedDepthwiseGroupMatchesTheLoop) {
  ConvGeometry same{16, 9, 11, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  // 16 depthwise channels, K tiles of 48 that split a channel's window.
  checkPackedGroup(same, 16, 1, 1, GetParam(), false, false, 11, 24, 48);
  // The whole K in one step, a tile wider than the map.
  checkPackedGroup(same, 16, 1, 1, GetParam(), false, false, 12, 112, 144);
  // 12 channels packed (72 depthwise groups): lanes to spare in the plane.
  checkPackedGroup({12, 9, 11, 12, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 12, 1, 1, GetParam(), false,
                   false, 19, 24, 144);
  // Channel 5's filter all zeros: the other columns still interleave.
  checkPackedGroup(same, 16, 1, 1, GetParam(), false, false, 18, 24, 144, 5);
  // Stride 2, dilation 2, uneven padding.
  checkPackedGroup({8, 12, 13, 8, 3, 3, 2, 2, 2, 0, 1, 3, 2, 2}, 8, 1, 1, GetParam(), false,
                   false, 13, 16, 32);
  // Two channels in and out per group, eight groups packed: a column draws
  // on two channels (one plane per channel, not interleaved).
  checkPackedGroup({16, 7, 7, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 8, 2, 2, GetParam(), false,
                   false, 14, 16, 144);
  // Four groups packed: a third of B is nonzero, multiplied as it is.
  checkPackedGroup({8, 7, 7, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 4, 2, 2, GetParam(), false, false,
                   17, 16, 48);
  // PP-OCR's classifier: 10 channels of 5x5 windows over a 2 x 96 map in K
  // tiles of 40, so the seventh tile holds one channel's window alone (a
  // single kept column) and the last three none.
  checkPackedGroup({10, 2, 96, 10, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1}, 10, 1, 1, GetParam(), false,
                   false, 23, 192, 40);
  // PP-OCRv4's recognizer: 3x3 windows, stride 2 across (each channel's
  // rows split by phase), over a 4 x 41 map: tiles of 16 within an output
  // row of 21 (the columns they reach only) and tiles across rows.
  for (int64_t m : {16, 24})
    checkPackedGroup({12, 4, 41, 12, 3, 3, 1, 2, 1, 1, 1, 1, 1, 1}, 12, 1, 1, GetParam(), false,
                     false, 24, m, 48);
  // Stride 3 across with dilation 2 (phases read at an offset), and a
  // 1x1 window whose padding rows and columns read nothing of the map.
  checkPackedGroup({16, 5, 23, 16, 3, 3, 1, 3, 1, 2, 2, 1, 2, 2}, 16, 1, 1, GetParam(), false,
                   false, 25, 16, 48);
  checkPackedGroup({16, 3, 5, 16, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1}, 16, 1, 1, GetParam(), false,
                   false, 26, 24, 16);
}

TEST_P(CubeLoop, PackedGroupSpecialValuesMatchTheLoop) {
  ConvGeometry same{16, 9, 11, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  // inf and NaN spread to the other channels of a packed group (inf x 0
  // is NaN on the cube), -0 inputs.
  checkPackedGroup(same, 16, 1, 1, GetParam(), true, false, 15, 24, 48);
  // Values under 2^-50, whose products can round a sum to -0.
  checkPackedGroup(same, 16, 1, 1, GetParam(), false, true, 16, 24, 48);
  // One such value in an otherwise usual map of rows 40 wide (copied and
  // scanned in vectors of 16 and a tail of 8): in channel 5's row 1, in a
  // vector's columns and in the tail's.
  ConvGeometry wide{16, 3, 40, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  float infinity = std::numeric_limits<float>::infinity();
  for (float value : {infinity, std::numeric_limits<float>::quiet_NaN(), std::ldexp(1.0f, -60)})
    for (int64_t column : {20, 37})
      checkPackedGroup(wide, 16, 1, 1, GetParam(), false, false, 27, 40, 48, -1,
                       {{(5 * 3 + 1) * 40 + column, value}});
}

TEST(GroupedFilterLoad, ReadsTheBlockDiagonal) {
  // Two groups of 2 outputs x 3 inputs, 2-element window: the filter
  // [4, 3 * 2], its packed matrix [K = 6 * 2, N = 4].
  int64_t enlarge = 2, inPerGroup = 3, outPerGroup = 2, window = 2;
  std::vector<float> w(enlarge * outPerGroup * inPerGroup * window);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = static_cast<float>(i + 1);
  std::vector<float> tile(16 * 8, -1.0f);
  Memref gm(w.data(), {1, enlarge * outPerGroup, inPerGroup * window});
  Memref target(tile.data(), {16, 8});
  std::vector<int64_t> offsets = {0, 0, 0}, params = {enlarge, window};
  Memref off(offsets.data(), {3}), par(params.data(), {2});
  ascendprec_rt_load(3, gm.descriptor(), 2, target.descriptor(), 1, off.descriptor(), 1,
                     par.descriptor(), 4, static_cast<int32_t>(LoadMode::GroupedFilter));
  for (int64_t k = 0; k < 16; ++k)
    for (int64_t n = 0; n < 8; ++n) {
      int64_t c = k / window, r = k % window;
      float wanted = 0.0f;
      if (c < enlarge * inPerGroup && n < enlarge * outPerGroup &&
          c / inPerGroup == n / outPerGroup)
        wanted = w[n * inPerGroup * window + (c % inPerGroup) * window + r];
      EXPECT_EQ(tile[k * 8 + n], wanted) << "k " << k << ", n " << n;
    }
}

TEST_P(CubeLoop, MatmulMatchesTheLoop) {
  ElementType type = GetParam();
  std::mt19937 random(5);
  int64_t rows = 40, depth = 50, cols = 24;
  Stored a(type, rows * depth), aT(type, depth * rows), b(type, depth * cols);
  a.fill(random, true);
  aT.fill(random, false);
  b.fill(random, false);
  // A plain [M, K], B plain [K, N]; the K tiles run past K's end.
  LoopCase plain{Memref(a.data(), {rows, depth}), Memref(b.data(), {depth, cols}), {0, 0}, {0, 0},
                 {}, LoadMode::Plain, LoadMode::Plain, 1, 0, 16, 16, 32, 64};
  expectSameAsSteps(plain, type, 3, 0, "plain matmul");
  // A transposed (GM [K, M]).
  LoopCase transposed{Memref(aT.data(), {depth, rows}), Memref(b.data(), {depth, cols}), {0, 0},
                      {0, 0}, {}, LoadMode::Transpose, LoadMode::Plain, 0, 0, 16, 16, 32, 64};
  expectSameAsSteps(transposed, type, 3, 1, "transposed A");
  // Tiles wholly inside GM (read in place, B's rows 48 apart) and at its
  // edges (loaded), with inf, NaN and -0 in A.
  int64_t fitRows = 40, fitDepth = 64, fitCols = 48;
  Stored fitA(type, fitRows * fitDepth), fitB(type, fitDepth * fitCols);
  fitA.fill(random, true);
  fitB.fill(random, false);
  LoopCase inside{Memref(fitA.data(), {fitRows, fitDepth}), Memref(fitB.data(), {fitDepth, fitCols}),
                  {0, 0}, {0, 16}, {}, LoadMode::Plain, LoadMode::Plain, 1, 0, 16, 16, 32, 64};
  expectSameAsSteps(inside, type, 3, 0, "tiles inside GM");
  // With B read-only, the steps whose tile of A is inside GM multiply in
  // one pass (mmadSteps), a last step past K's end (2 of 16 rows) with
  // them: inf, NaN, -0 and tiny values in A and B.
  Stored specialA(type, rows * depth), specialB(type, depth * cols);
  specialA.fill(random, true, true);
  specialB.fill(random, true, true);
  LoopCase special{Memref(specialA.data(), {rows, depth}), Memref(specialB.data(), {depth, cols}),
                   {0, 0}, {0, 0}, {}, LoadMode::Plain, LoadMode::Plain, 1, 0, 16, 16, 32, 64};
  expectSameAsSteps(special, type, 3, 0, "plain matmul, special values");
}

/// A 16 x 16 x 32 matmul whose B a test changes under the kept tiles, to
/// see which tiles a loop used; B transposed (GM [N, K]) or plain ([K, N]).
struct KeptTileCase {
  ElementType type;
  int32_t bytes;
  std::mt19937 random;
  Stored a, b;
  LoopCase loop;
  /// `aRows`: A's rows in GM (the tile multiplies its first 16).
  KeptTileCase(ElementType type, unsigned seed, LoadMode bMode = LoadMode::Transpose,
               int64_t aRows = 16)
      : type(type), bytes(type == ElementType::F32 ? 4 : 2), random(seed), a(type, aRows * 32),
        b(type, 16 * 32),
        loop{Memref(a.data(), {aRows, 32}),
             bMode == LoadMode::Plain ? Memref(b.data(), {32, 16}) : Memref(b.data(), {16, 32}),
             {0, 0},
             {0, 0},
             {},
             LoadMode::Plain,
             bMode,
             1,
             bMode == LoadMode::Plain ? 0 : 1,
             16,
             16,
             16,
             32} {
    a.fill(random, false);
    b.fill(random, false);
  }
  std::vector<float> fused() {
    std::vector<float> acc(16 * 16);
    runFusedLoop(loop, type, bytes, acc, true);
    return acc;
  }
  std::vector<float> bySteps() {
    std::vector<float> acc(16 * 16);
    runLoopBySteps(loop, type, bytes, acc);
    return acc;
  }
};

TEST_P(CubeLoop, KeptTilesOfBLastOneBlockRun) {
  KeptTileCase c(GetParam(), 6);
  ascendprec_rt_block_begin();
  c.fused();
  // The next block run may see other weights at the same address.
  c.b.fill(c.random, false);
  ascendprec_rt_block_begin();
  expectSameBits(c.fused(), c.bySteps(), "after block_begin");
}

/// Within a launch no kernel writes B, so its tiles outlive the block
/// runs; a new launch (or none) starts afresh, and so it does for a
/// remembered constant (`constant`) whose tiles are kept for a launch only.
void expectTilesKeptForOneLaunch(KeptTileCase &c, bool constant) {
  std::vector<float> before = c.bySteps();
  if (constant)
    rememberConstant(c.b.data(), c.b.bytes.size());
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  c.fused();
  c.b.fill(c.random, false); // (a test's breach of the contract shows what was kept)
  ascendprec_rt_block_begin(); // the next block of the same launch
  expectSameBits(c.fused(), before, "a later block of the same launch");
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  expectSameBits(c.fused(), c.bySteps(), "a new launch");
  if (constant)
    forgetConstant(c.b.data());
  setLaunchId(0);
}

TEST_P(CubeLoop, KeptTilesOfBLastOneLaunch) {
  KeptTileCase c(GetParam(), 21);
  expectTilesKeptForOneLaunch(c, /*constant=*/false);
}

/// A remembered constant's tiles are kept across launches until it is
/// forgotten.
void expectTilesKeptAcrossLaunches(KeptTileCase &c) {
  std::vector<float> before = c.bySteps();
  rememberConstant(c.b.data(), c.b.bytes.size());
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  expectSameBits(c.fused(), before, "the first launch");
  c.b.fill(c.random, false); // (a test's breach of the contract shows what was kept)
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  expectSameBits(c.fused(), before, "a later launch");
  forgetConstant(c.b.data());
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  expectSameBits(c.fused(), c.bySteps(), "after forgetConstant");
  setLaunchId(0);
}

TEST_P(CubeLoop, PlainTilesOfBLastOneLaunchEvenForConstants) {
  // Plain tiles of B (a matmul's) are kept for the launch when several
  // tiles of A multiply them (A of 32 rows in tiles of 16); a model's
  // weights read plainly are not kept beyond it (they are the weights
  // again).
  KeptTileCase c(GetParam(), 34, LoadMode::Plain, /*aRows=*/32);
  expectTilesKeptForOneLaunch(c, /*constant=*/true);
}

/// Sets the constant tiles' cap for a scope (0: nothing fits).
struct ConstantTilesCap {
  size_t before;
  explicit ConstantTilesCap(size_t bytes)
      : before(detail::setConstantTilesCap(bytes ? bytes : 1)) {}
  ~ConstantTilesCap() { detail::setConstantTilesCap(before); }
};

TEST_P(CubeLoop, ConstantTilesPastTheCapLastOneLaunch) {
  // With the constant tiles full, a model's weights are kept for the
  // launch only.
  ConstantTilesCap full(0);
  KeptTileCase gathered(GetParam(), 37);
  expectTilesKeptForOneLaunch(gathered, /*constant=*/true);
  // The list of a K loop's tiles is then the launch's too: the next launch
  // reuses their storage for other weights (here the second's), and a list
  // kept past its launch would multiply by them.
  KeptTileCase first(GetParam(), 38);
  KeptTileCase second(GetParam(), 39);
  rememberConstant(first.b.data(), first.b.bytes.size());
  rememberConstant(second.b.data(), second.b.bytes.size());
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  expectSameBits(first.fused(), first.bySteps(), "the first weights");
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  expectSameBits(second.fused(), second.bySteps(), "the second weights, a later launch");
  expectSameBits(first.fused(), first.bySteps(), "the first weights again");
  forgetConstant(first.b.data());
  forgetConstant(second.b.data());
  setLaunchId(0);
}

TEST_P(CubeLoop, PlainFp32BOfOneTileOfAIsReadInGm) {
  // A of one tile's rows: each tile of B is multiplied once in the launch,
  // so an fp32 one is read where it lies, not kept (a later block sees B
  // as it is then); 16-bit tiles are still kept, widened.
  KeptTileCase c(GetParam(), 35, LoadMode::Plain);
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  std::vector<float> first = c.fused();
  expectSameBits(first, c.bySteps(), "the first block");
  c.b.fill(c.random, false);
  ascendprec_rt_block_begin();
  std::vector<float> later = c.fused();
  if (c.type == ElementType::F32)
    expectSameBits(later, c.bySteps(), "a later block, B read in GM");
  else
    expectSameBits(later, first, "a later block, B kept");
  setLaunchId(0);
}

TEST_P(CubeLoop, KeptTilesOfAConstantOutliveLaunches) {
  // Memory given to rememberConstant is never written: its tiles of B are
  // kept across launches until it is forgotten.
  KeptTileCase c(GetParam(), 33);
  expectTilesKeptAcrossLaunches(c);
}

TEST_P(CubeLoop, PlainBPastTheLaunchCapIsReadInPlace) {
  // 20 MB of plain tiles of B in one launch: the first 16 MB are kept, the
  // rest multiply from GM where they lie, each N tile against the loop.
  ElementType type = GetParam();
  int32_t bytes = type == ElementType::F32 ? 4 : 2;
  int64_t cols = 1280, depth = (int64_t(20) << 20) / (cols * bytes);
  std::mt19937 random(35);
  Stored a(type, 16 * depth), b(type, depth * cols);
  a.fill(random, false);
  b.fill(random, false);
  setLaunchId(newLaunchId());
  ascendprec_rt_block_begin();
  for (int64_t n0 = 0; n0 < cols; n0 += 256) {
    LoopCase c{Memref(a.data(), {16, depth}), Memref(b.data(), {depth, cols}), {0, 0}, {0, n0},
               {}, LoadMode::Plain, LoadMode::Plain, 1, 0, 16, 128, 256, depth};
    std::vector<float> bySteps(16 * 256), fused(16 * 256);
    runLoopBySteps(c, type, bytes, bySteps);
    runFusedLoop(c, type, bytes, fused, /*readOnlyB=*/true);
    expectSameBits(fused, bySteps, "N tile at " + std::to_string(n0));
  }
  setLaunchId(0);
}

TEST(ConstantRegions, NestAndCoverWholeBuffers) {
  std::vector<float> weights(64, 1.0f);
  auto remembered = [&](int64_t offset, int64_t count) {
    int64_t sizes[1] = {count}, strides[1] = {1};
    detail::Buffer view;
    view.data = reinterpret_cast<uint8_t *>(weights.data() + offset);
    view.rank = 1;
    view.sizes = sizes;
    view.strides = strides;
    view.bytes = 4;
    return detail::isRememberedConstant(view);
  };
  EXPECT_FALSE(remembered(0, 64));
  rememberConstant(weights.data(), 32 * sizeof(float));
  EXPECT_TRUE(remembered(0, 32));
  EXPECT_TRUE(remembered(8, 24));
  EXPECT_FALSE(remembered(8, 25)) << "a view past the region's end";
  rememberConstant(weights.data(), 32 * sizeof(float));
  forgetConstant(weights.data());
  EXPECT_TRUE(remembered(0, 32)) << "remembered twice, forgotten once";
  forgetConstant(weights.data());
  EXPECT_FALSE(remembered(0, 32));
}

INSTANTIATE_TEST_SUITE_P(Inputs, CubeLoop,
                         ::testing::Values(ElementType::F32, ElementType::F16, ElementType::BF16),
                         [](const ::testing::TestParamInfo<ElementType> &info) {
                           return info.param == ElementType::F32   ? std::string("F32")
                                  : info.param == ElementType::F16 ? std::string("F16")
                                                                   : std::string("BF16");
                         });

} // namespace
