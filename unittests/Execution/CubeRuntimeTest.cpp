//===- CubeRuntimeTest.cpp - mmad's zero skipping gives the same bits -----===//
//
// akernel.mmad's runtime drops the products that cannot change a sum
// (padding: a zero column of A or row of B, a zero column of B). These tests
// check it bit for bit against a plain K-order multiply-accumulate, on the
// cases where dropping would be wrong: inf or NaN times zero (NaN), and an
// accumulator holding -0 (adding +0 makes it +0).
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CubeTile.h"

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/KernelRuntime.h"
#include "AscendPrec/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <random>
#include <tuple>
#include <vector>

extern "C" void ascendprec_rt_mmad(int64_t, void *, int64_t, void *, int64_t, void *, int32_t,
                                   int32_t);

using ascendprec::runtime::ElementType;

namespace {

/// A rank-2 memref descriptor of a contiguous [rows, cols] buffer.
std::vector<int64_t> descriptor(void *data, int64_t rows, int64_t cols) {
  auto address = reinterpret_cast<int64_t>(data);
  return {address, address, 0, rows, cols, cols, 1};
}

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

/// The cube's inputs as stored: fp32 as is, fp16 and bf16 as their bits.
struct Tile {
  ElementType type;
  int64_t rows, cols;
  std::vector<float> values;   // exact values (already representable)
  std::vector<uint8_t> stored; // the bytes mmad reads

  Tile(ElementType type, int64_t rows, int64_t cols)
      : type(type), rows(rows), cols(cols), values(rows * cols, 0.0f) {}

  /// Columns [0, usedCols) random, the rest left zero.
  template <typename Random, typename Value>
  void fill(Random &random, Value &value, int64_t usedCols) {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < usedCols; ++j)
        set(i, j, value(random));
  }

  void set(int64_t i, int64_t j, float value) {
    if (type == ElementType::F16)
      value = static_cast<float>(ascendprec::runtime::halfToDouble(
          ascendprec::runtime::roundToHalf(value, ascendprec::runtime::Rounding::Rint,
                                           ascendprec::runtime::Overflow::IEEE)));
    else if (type == ElementType::BF16)
      value = static_cast<float>(ascendprec::runtime::bfloat16ToDouble(
          ascendprec::runtime::roundToBFloat16(value, ascendprec::runtime::Rounding::Rint,
                                               ascendprec::runtime::Overflow::IEEE)));
    values[i * cols + j] = value;
  }

  void *bytes() {
    if (type == ElementType::F32) {
      stored.resize(values.size() * 4);
      std::memcpy(stored.data(), values.data(), stored.size());
      return stored.data();
    }
    stored.resize(values.size() * 2);
    for (size_t i = 0; i < values.size(); ++i) {
      uint16_t bits =
          type == ElementType::F16
              ? ascendprec::runtime::roundToHalf(values[i], ascendprec::runtime::Rounding::Rint,
                                                 ascendprec::runtime::Overflow::IEEE)
              : ascendprec::runtime::roundToBFloat16(values[i],
                                                     ascendprec::runtime::Rounding::Rint,
                                                     ascendprec::runtime::Overflow::IEEE);
      std::memcpy(&stored[2 * i], &bits, 2);
    }
    return stored.data();
  }
};

/// Every exact product added in K order with one rounding (a fused
/// multiply-add, as libm's fmaf computes it) for every input dtype.
std::vector<float> expected(const Tile &a, const Tile &b, std::vector<float> acc) {
  int64_t m = a.rows, k = a.cols, n = b.cols;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        acc[i * n + j] = std::fmaf(a.values[i * k + p], b.values[p * n + j], acc[i * n + j]);
  return acc;
}

std::vector<float> mmad(Tile &a, Tile &b, std::vector<float> acc, bool init) {
  std::vector<int64_t> lhs = descriptor(a.bytes(), a.rows, a.cols);
  std::vector<int64_t> rhs = descriptor(b.bytes(), b.rows, b.cols);
  std::vector<int64_t> out = descriptor(acc.data(), a.rows, b.cols);
  ascendprec_rt_mmad(2, lhs.data(), 2, rhs.data(), 2, out.data(), static_cast<int32_t>(a.type),
                     init);
  return acc;
}

void expectSameBits(const std::vector<float> &actual, const std::vector<float> &wanted) {
  ASSERT_EQ(actual.size(), wanted.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(wanted[i]))
      EXPECT_TRUE(std::isnan(actual[i])) << "element " << i << ": " << actual[i];
    else
      EXPECT_EQ(bitsOf(actual[i]), bitsOf(wanted[i]))
          << "element " << i << ": " << actual[i] << " vs " << wanted[i];
  }
}

/// A depthwise convolution's tile: one real channel (K 0..2, N 0) in a
/// padded [5, 8] x [8, 4] product, random values from `seed`.
struct PaddedTiles {
  Tile a, b;
  PaddedTiles(ElementType type, unsigned seed) : a(type, 5, 8), b(type, 8, 4) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t p = 0; p < 3; ++p)
        a.set(i, p, value(random));
    for (int64_t p = 0; p < 3; ++p)
      b.set(p, 0, value(random));
  }
};

class CubeRuntime : public ::testing::TestWithParam<ElementType> {};

TEST_P(CubeRuntime, PaddedTileMatchesDenseProduct) {
  auto [a, b] = PaddedTiles(GetParam(), 7);
  std::vector<float> acc(5 * 4, 0.0f);
  expectSameBits(mmad(a, b, acc, /*init=*/true), expected(a, b, acc));
}

TEST_P(CubeRuntime, InfinityTimesPaddingZeroIsNaN) {
  auto [a, b] = PaddedTiles(GetParam(), 8);
  // A padding column of A holds inf, and B's row there is zero: every
  // output of that row is NaN on the cube, padded columns included.
  a.set(2, 6, INFINITY);
  std::vector<float> acc(5 * 4, 0.0f);
  std::vector<float> wanted = expected(a, b, acc);
  EXPECT_TRUE(std::isnan(wanted[2 * 4 + 0]));
  EXPECT_TRUE(std::isnan(wanted[2 * 4 + 3]));
  expectSameBits(mmad(a, b, acc, /*init=*/true), wanted);
}

TEST_P(CubeRuntime, NaNInPaddingRowOfBReachesEveryRow) {
  auto [a, b] = PaddedTiles(GetParam(), 9);
  b.set(5, 2, NAN); // A's column 5 is zero padding
  std::vector<float> acc(5 * 4, 0.0f);
  std::vector<float> wanted = expected(a, b, acc);
  EXPECT_TRUE(std::isnan(wanted[0 * 4 + 2]));
  expectSameBits(mmad(a, b, acc, /*init=*/true), wanted);
}

TEST_P(CubeRuntime, NegativeZeroAccumulatorBecomesPositiveZero) {
  auto [a, b] = PaddedTiles(GetParam(), 10);
  // A later step of K (no init) onto an accumulator holding -0: the
  // padding's +0 products turn it into +0.
  std::vector<float> acc(5 * 4, -0.0f);
  std::vector<float> wanted = expected(a, b, acc);
  EXPECT_FALSE(std::signbit(wanted[0 * 4 + 1]));
  expectSameBits(mmad(a, b, acc, /*init=*/false), wanted);
}

TEST_P(CubeRuntime, SumsUnderflowingToNegativeZeroAreNotSkipped) {
  // fma(-1e-30, 1e-30, +0) underflows to -0 (fp32 and bf16; fp16 cannot
  // hold these values and rounds them to 0); the padding's next +0
  // product turns the sum back to +0. Dropping the padding would keep -0.
  ElementType type = GetParam();
  Tile a(type, 2, 8), b(type, 8, 4);
  a.set(0, 0, -1e-30f);
  a.set(1, 0, 1e-30f);
  b.set(0, 0, 1e-30f);
  std::vector<float> acc(2 * 4, 0.0f);
  std::vector<float> wanted = expected(a, b, acc);
  EXPECT_FALSE(std::signbit(wanted[0]));
  expectSameBits(mmad(a, b, acc, /*init=*/true), wanted);
}

TEST_P(CubeRuntime, RandomTilesWithZeroColumnsMatchDenseProduct) {
  std::mt19937 random(11);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::bernoulli_distribution zeroColumn(0.4);
  for (int round = 0; round < 20; ++round) {
    // n up to 69: the 32-column (AVX-512) kernel where the host has it.
    int64_t m = 1 + round % 13, k = 2 + round % 9, n = 1 + (round * 7) % 70;
    Tile a(GetParam(), m, k), b(GetParam(), k, n);
    std::vector<bool> aZero(k), bZeroRow(k), bZeroColumn(n);
    for (int64_t p = 0; p < k; ++p) {
      aZero[p] = zeroColumn(random);
      bZeroRow[p] = zeroColumn(random);
    }
    for (int64_t j = 0; j < n; ++j)
      bZeroColumn[j] = zeroColumn(random);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        a.set(i, p, aZero[p] ? 0.0f : value(random));
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        b.set(p, j, bZeroRow[p] || bZeroColumn[j] ? (p % 2 ? -0.0f : 0.0f) : value(random));
    std::vector<float> acc(m * n);
    for (float &v : acc)
      v = value(random);
    expectSameBits(mmad(a, b, acc, /*init=*/false), expected(a, b, acc));
  }
}

TEST_P(CubeRuntime, PaddingColumnsAtTheEndAndEveryWidthMatchDenseProduct) {
  // {real columns, tile width}: trailing zero columns of B are padding
  // (filters padded to the tile), multiplied in C's first columns where
  // they are; whole tiles 24, 40 and 56 wide go 16 + 8 at a time; 1 to 7
  // columns through the narrow loop.
  std::mt19937 random(12);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  const std::pair<int64_t, int64_t> widths[] = {{24, 32}, {8, 16}, {40, 64}, {9, 16}, {2, 16},
                                                {1, 16}, {17, 32}, {24, 24}, {40, 40},
                                                {56, 56}, {7, 7}, {3, 3}};
  for (auto [real, n] : widths) {
    int64_t m = 13, k = 37;
    Tile a(GetParam(), m, k), b(GetParam(), k, n);
    a.fill(random, value, k);
    b.fill(random, value, real);
    std::vector<float> acc(m * n);
    for (float &v : acc)
      v = value(random);
    SCOPED_TRACE("real columns " + std::to_string(real) + " of " + std::to_string(n));
    expectSameBits(mmad(a, b, acc, /*init=*/false), expected(a, b, acc));
    expectSameBits(mmad(a, b, acc, /*init=*/true), expected(a, b, std::vector<float>(m * n)));
  }
}

/// Random m x k by k x n tiles added to a random accumulator, for every
/// pair of `rows` and `widths`, against the dense product bit for bit.
void expectTilesMatchDenseProduct(ElementType type, unsigned seed, int64_t k,
                                  std::initializer_list<int64_t> rows,
                                  std::initializer_list<int64_t> widths) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  for (int64_t m : rows)
    for (int64_t n : widths) {
      Tile a(type, m, k), b(type, k, n);
      a.fill(random, value, k);
      b.fill(random, value, n);
      std::vector<float> acc(m * n);
      for (float &v : acc)
        v = value(random);
      SCOPED_TRACE("m " + std::to_string(m) + ", n " + std::to_string(n));
      expectSameBits(mmad(a, b, acc, /*init=*/false), expected(a, b, acc));
    }
}

TEST_P(CubeRuntime, RowBlocksAndLastRowsMatchDenseProduct) {
  // 8-row blocks 32 wide (AVX-512, tiles under 64 columns or under 6
  // rows), a 6-row block and single rows after them, the single rows 6
  // column blocks abreast where the tile is 192 or more wide.
  expectTilesMatchDenseProduct(GetParam(), 14, 45, {8, 13, 15, 22}, {40, 56, 63});
  expectTilesMatchDenseProduct(GetParam(), 16, 45, {3, 5}, {70, 200, 224});
}

TEST_P(CubeRuntime, WideTileColumnBlocksMatchDenseProduct) {
  // Tiles 48 or more wide with 6 rows or more on AVX-512: 48-column blocks
  // down 8 rows, a 64-column one down 6 where the width is 64 more than a
  // multiple of 48, then 32- and 16-wide blocks and a narrow rest, the
  // rows left over 4, 2 and 1 at a time (a BERT matmul's 64 x 112 tile is
  // 64 + 48 columns; a 1x1 convolution's 64 x 96 one 48 + 48).
  expectTilesMatchDenseProduct(GetParam(), 15, 72, {6, 7, 11, 15, 64},
                               {48, 64, 70, 96, 112, 127, 144});
  expectTilesMatchDenseProduct(GetParam(), 17, 45, {13, 22}, {200, 224});
}

TEST_P(CubeRuntime, StepsOfKInOnePassMatchDenseProduct) {
  // mmadSteps: A K-major with its columns `stride` apart (a 1x1
  // convolution's map read in place), B in separate [k, n] tiles, one per
  // K step, each with its plan; the sums from +0 must be the fused
  // multiply-adds in K order across every step, inf, NaN, -0 and tiny
  // values included (no product may be dropped). With `lastK` under k, the
  // last step's rows from lastK on are K's padding (+0 in A and B): their
  // +0 products turn a -0 sum (tiny products) into +0.
  using ascendprec::runtime::detail::mmadSteps;
  using ascendprec::runtime::detail::planRhs;
  using ascendprec::runtime::detail::RhsPlan;
  ElementType type = GetParam();
  std::mt19937 random(21);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::uniform_int_distribution<int> pick(0, 99);
  auto sample = [&]() {
    switch (pick(random)) {
    case 0: return INFINITY;
    case 1: return NAN;
    case 2: return -0.0f;
    case 3: return 1e-30f; // tiny: fp32 and bf16 (fp16 rounds it to 0)
    case 4: case 5: case 6: return 0.0f;
    default: return value(random);
    }
  };
  for (auto [m, n, steps, k, lastK] :
       {std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>{48, 240, 5, 32, 32},
        {13, 96, 2, 8, 8}, {8, 48, 3, 16, 16}, {5, 112, 4, 32, 32}, {1, 16, 2, 8, 8},
        {16, 32, 7, 32, 32}, {96, 64, 4, 64, 48}, {12, 128, 1, 32, 5}, {7, 80, 3, 16, 1}}) {
    int64_t depth = steps * k, stride = m + 5, real = depth - (k - lastK);
    Tile a(type, m, depth), b(type, depth, n);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < real; ++p)
        a.set(i, p, sample());
    for (int64_t p = 0; p < real; ++p)
      for (int64_t j = 0; j < n; ++j)
        b.set(p, j, sample());
    // Sum [0, 0] is one tiny negative product and -0 ones: -0 in fp32 and
    // bf16, which K's padding (when there is some) turns into +0.
    for (int64_t p = 0; p < real; ++p) {
      a.set(0, p, p == 0 ? 1e-30f : 0.0f);
      b.set(p, 0, p == 0 ? -1e-30f : -0.0f);
    }
    // A stored K-major, `stride` elements per column; B's steps apart.
    Tile column(type, depth, stride);
    for (int64_t p = 0; p < depth; ++p)
      for (int64_t i = 0; i < m; ++i)
        column.set(p, i, a.values[i * depth + p]);
    auto *lhs = static_cast<const uint8_t *>(column.bytes());
    std::vector<Tile> tiles;
    std::vector<RhsPlan> plans(steps);
    std::vector<const uint8_t *> tileBytes;
    std::vector<const RhsPlan *> planOf;
    for (int64_t s = 0; s < steps; ++s) {
      tiles.emplace_back(type, k, n);
      for (int64_t p = 0; p < k; ++p)
        for (int64_t j = 0; j < n; ++j)
          tiles.back().set(p, j, b.values[(s * k + p) * n + j]);
    }
    for (int64_t s = 0; s < steps; ++s) {
      tileBytes.push_back(static_cast<const uint8_t *>(tiles[s].bytes()));
      planRhs(type, tileBytes.back(), n, k, n, plans[s]);
      planOf.push_back(&plans[s]);
    }
    std::vector<float> acc(m * n, 7.0f);
    SCOPED_TRACE("m " + std::to_string(m) + ", n " + std::to_string(n) + ", steps " +
                 std::to_string(steps) + ", last " + std::to_string(lastK));
    if (!mmadSteps(type, lhs, {1, stride}, tileBytes, planOf,
                   reinterpret_cast<uint8_t *>(acc.data()), m, n, k, lastK)) {
      // No such kernel on this host: nothing written.
      EXPECT_EQ(acc, std::vector<float>(m * n, 7.0f));
      continue;
    }
    expectSameBits(acc, expected(a, b, std::vector<float>(m * n, 0.0f)));
  }
  // A width that is not a multiple of 16 has no such kernel.
  Tile narrow(type, 8, 24);
  RhsPlan plan;
  auto *bytes = static_cast<const uint8_t *>(narrow.bytes());
  planRhs(type, bytes, 24, 8, 24, plan);
  std::vector<float> acc(8 * 24, 7.0f);
  EXPECT_FALSE(mmadSteps(type, bytes, {1, 8}, {bytes}, {&plan},
                         reinterpret_cast<uint8_t *>(acc.data()), 8, 24, 8, 8));
}

TEST_P(CubeRuntime, OneRowMatchesDenseProduct) {
  // m = 1 (a recurrent step's h x R): column blocks advance together.
  std::mt19937 random(13);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  for (int64_t n : {96, 192, 250, 1024}) {
    int64_t k = 67;
    Tile a(GetParam(), 1, k), b(GetParam(), k, n);
    for (int64_t p = 0; p < k; ++p) {
      a.set(0, p, value(random));
      for (int64_t j = 0; j < n; ++j)
        b.set(p, j, value(random));
    }
    std::vector<float> acc(n);
    for (float &v : acc)
      v = value(random);
    SCOPED_TRACE("n " + std::to_string(n));
    expectSameBits(mmad(a, b, acc, /*init=*/false), expected(a, b, acc));
  }
}

TEST(CubeRuntimeInt8, ProductsMatchTheIntegerSums) {
  // int8 x int8 summed in int32: exact, whatever the vector width; zeros
  // in A (skipped) and the widths of every kernel path.
  std::mt19937 random(14);
  std::uniform_int_distribution<int> value(-128, 127);
  for (auto [m, k, n] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {3, 7, 5},
                         {13, 64, 16}, {17, 96, 33}, {8, 128, 256}}) {
    std::vector<int8_t> a(m * k), b(k * n);
    for (int8_t &v : a)
      v = static_cast<int8_t>(value(random) % 3 == 0 ? 0 : value(random));
    for (int8_t &v : b)
      v = static_cast<int8_t>(value(random));
    std::vector<int32_t> acc(m * n), wanted(m * n);
    for (int64_t i = 0; i < m * n; ++i)
      acc[i] = wanted[i] = value(random) * 1000;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t p = 0; p < k; ++p)
          wanted[i * n + j] += int32_t(a[i * k + p]) * int32_t(b[p * n + j]);
    std::vector<int64_t> lhs = descriptor(a.data(), m, k), rhs = descriptor(b.data(), k, n),
                         out = descriptor(acc.data(), m, n);
    ascendprec_rt_mmad(2, lhs.data(), 2, rhs.data(), 2, out.data(),
                       static_cast<int32_t>(ElementType::I8), /*init=*/0);
    EXPECT_EQ(acc, wanted) << m << "x" << k << "x" << n;
  }
}

INSTANTIATE_TEST_SUITE_P(InputDtypes, CubeRuntime,
                         ::testing::Values(ElementType::F32, ElementType::F16,
                                           ElementType::BF16),
                         [](const ::testing::TestParamInfo<ElementType> &info) {
                           switch (info.param) {
                           case ElementType::F32: return std::string("F32");
                           case ElementType::F16: return std::string("F16");
                           default: return std::string("BF16");
                           }
                         });

TEST(RhsPlan, OneKeptColumnIsListed) {
  // The last K tile of a packed depthwise group often holds one channel's
  // window alone: one kept column, its rows all nonzero. Its nonzeros are
  // listed all the same, so that the group's patches multiply straight
  // from the map (SparsePatches.cpp needs every step's lists).
  int64_t k = 40, n = 16;
  std::vector<float> b(k * n, 0.0f);
  for (int64_t p = 0; p < 10; ++p)
    b[p * n + 3] = 0.5f + static_cast<float>(p);
  ascendprec::runtime::detail::RhsPlan plan;
  ascendprec::runtime::detail::planRhs(ElementType::F32, reinterpret_cast<const uint8_t *>(b.data()), n, k, n, plan);
  ASSERT_EQ(plan.columnStart, (std::vector<int64_t>{0, 10}));
  EXPECT_EQ(plan.keptN, (std::vector<int64_t>{3}));
  for (int64_t p = 0; p < 10; ++p) {
    EXPECT_EQ(plan.columnRows[p], p);
    EXPECT_EQ(plan.columnWeights[p], b[p * n + 3]);
  }
}

} // namespace
