//===- CubeRuntime.cpp - the cube's multiply-accumulate and the fixpipe ---===//
//
// mmad adds each exact product of its inputs (fp16, bf16 or fp32) to an
// fp32 accumulator along K in index order, one rounding per addition (int8
// in int32); the fixpipe adds the bias in the accumulator's dtype, applies
// ReLU and rounds once on the way out. Built without FP contraction
// (CMakeLists.txt): the only fused operations are the explicit ones.
//
//===----------------------------------------------------------------------===//

#include "CubeTile.h"
#include "RuntimeBuffers.h"
#include "Transpose.h"
#include "VectorLevel.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// C[m,n] += A[m,k] * B[k,n] (row-major, fp32), each exact product added
/// to its accumulator in K order with one rounding: a fused multiply-add,
/// which IEEE 754 defines exactly, so every host gives the same bits (one
/// without FMA instructions through libm's fmaf). For fp16/bf16 inputs the
/// products are exact in fp32 anyway. A block of C stays in registers
/// across K: 6 x 16 in 12 AVX registers of 8 floats, or 8 x 32 in 16
/// AVX-512 registers of 16 (a 1024 x 768 x 3072 matmul: 94 GMAC/s on 2
/// cores, 70 with 6-row blocks). The vector width changes how many sums
/// advance at once, never the order any one sum adds in.
inline __attribute__((always_inline)) float mac(float sum, float a, float b) {
  return __builtin_fmaf(a, b, sum);
}

/// Rows [0, kRows) of C, columns [0, n), kCols at a time; B's rows are
/// `ldb` apart (a tile's width, or GM's when B is read in place), C's `ldc`.
template <int kRows, int64_t kCols>
inline __attribute__((always_inline)) void macRows(const float *a, LhsLayout lhs, const float *b,
                                                   int64_t ldb, float *c, int64_t ldc, int64_t n,
                                                   int64_t k) {
  for (int64_t j0 = 0; j0 < n; j0 += kCols) {
    int64_t width = std::min(kCols, n - j0);
    float sums[kRows][kCols];
    for (int r = 0; r < kRows; ++r)
      for (int64_t j = 0; j < width; ++j)
        sums[r][j] = c[r * ldc + j0 + j];
    for (int64_t p = 0; p < k; ++p) {
      const float *row = b + p * ldb + j0;
      for (int r = 0; r < kRows; ++r) {
        float scale = a[r * lhs.row + p * lhs.step];
        if (width == kCols) {
          for (int64_t j = 0; j < kCols; ++j)
            sums[r][j] = mac(sums[r][j], scale, row[j]);
        } else {
          for (int64_t j = 0; j < width; ++j)
            sums[r][j] = mac(sums[r][j], scale, row[j]);
        }
      }
    }
    for (int r = 0; r < kRows; ++r)
      for (int64_t j = 0; j < width; ++j)
        c[r * ldc + j0 + j] = sums[r][j];
  }
}

/// kRows rows of C (rows `ldc` apart): the columns that fill kCols-wide
/// blocks, then (for the 32-wide kernel) the rest 16 at a time, so that a
/// tile 112 wide runs no narrow remainder loop over its last 16 columns.
/// With kEights, a remainder of 8 to 15 columns goes 8 at a time before the
/// rest (24 filters: 16 + 8). A separate instance: the 8-wide blocks in the
/// same function made the compiler slow down the narrow remainder loop of
/// tiles 1 to 7 wide (a depthwise group's) by half.
template <int kRows, int64_t kCols, bool kEights>
inline __attribute__((always_inline)) void macRowBlock(const float *a, LhsLayout lhs,
                                                       const float *b, int64_t ldb, float *c,
                                                       int64_t ldc, int64_t n, int64_t k) {
  int64_t j = 0;
  if constexpr (kCols > 16) {
    j = n - n % kCols;
    macRows<kRows, kCols>(a, lhs, b, ldb, c, ldc, j, k);
  }
  if constexpr (kEights) {
    int64_t sixteens = (n - j) - (n - j) % 16;
    if (sixteens > 0)
      macRows<kRows, 16>(a, lhs, b + j, ldb, c + j, ldc, sixteens, k);
    j += sixteens;
    int64_t eights = (n - j) - (n - j) % 8;
    if (eights > 0)
      macRows<kRows, 8>(a, lhs, b + j, ldb, c + j, ldc, eights, k);
    j += eights;
  }
  if (j < n)
    macRows<kRows, 16>(a, lhs, b + j, ldb, c + j, ldc, n - j, k);
}

/// One column of C (n = 1, a depthwise convolution's tile once its padding
/// is dropped) from a K-major A: K outer, the rows across the vector, so
/// each sum still adds in K order.
inline __attribute__((always_inline)) void macColumn(const float *__restrict a, int64_t step,
                                                     const float *__restrict b,
                                                     float *__restrict c, int64_t m, int64_t k) {
  for (int64_t p = 0; p < k; ++p) {
    const float *column = a + p * step;
    float weight = b[p];
    for (int64_t i = 0; i < m; ++i)
      c[i] = mac(c[i], column[i], weight);
  }
}

/// C's kept columns from their nonzero weights only (RhsPlan's column
/// lists), A K-major (column p of A at a + p * step): each column of C
/// gathered into `column`, its sums advanced across the vector one nonzero
/// at a time, in K order, and written back.
inline __attribute__((always_inline)) void macSparseColumns(const float *__restrict a,
                                                            int64_t step, const RhsPlan &plan,
                                                            float *c, int64_t n, int64_t m,
                                                            float *__restrict column) {
  for (size_t t = 0; t + 1 < plan.columnStart.size(); ++t) {
    int64_t j = plan.keptN[t];
    for (int64_t i = 0; i < m; ++i)
      column[i] = c[i * n + j];
    for (int64_t e = plan.columnStart[t]; e < plan.columnStart[t + 1]; ++e) {
      const float *values = a + plan.columnRows[e] * step;
      float weight = plan.columnWeights[e];
      for (int64_t i = 0; i < m; ++i)
        column[i] = mac(column[i], values[i], weight);
    }
    for (int64_t i = 0; i < m; ++i)
      c[i * n + j] = column[i];
  }
}

/// One row of C (m = 1: a recurrent step's h x R): 6 blocks of kCols
/// columns advance together, so that their sums' chains of fused
/// multiply-adds overlap as a 6-row block's do; each sum still adds in K
/// order. Returns the columns done (a multiple of 6 * kCols).
template <int64_t kCols>
inline __attribute__((always_inline)) int64_t macOneRow(const float *a, int64_t step,
                                                        const float *b, int64_t ldb, float *c,
                                                        int64_t n, int64_t k) {
  constexpr int64_t kWidth = 6 * kCols;
  int64_t j0 = 0;
  for (; j0 + kWidth <= n; j0 += kWidth) {
    float sums[kWidth];
    for (int64_t j = 0; j < kWidth; ++j)
      sums[j] = c[j0 + j];
    for (int64_t p = 0; p < k; ++p) {
      float scale = a[p * step];
      const float *row = b + p * ldb + j0;
      for (int64_t j = 0; j < kWidth; ++j)
        sums[j] = mac(sums[j], scale, row[j]);
    }
    for (int64_t j = 0; j < kWidth; ++j)
      c[j0 + j] = sums[j];
  }
  return j0;
}

template <int64_t kCols = 16, bool kEights = false, int kBlockRows = 6>
inline __attribute__((always_inline)) void macTile(const float *a, LhsLayout lhs, const float *b,
                                                   int64_t ldb, float *c, int64_t ldc, int64_t m,
                                                   int64_t n, int64_t k) {
  if (n == 1 && lhs.row == 1 && ldb == 1 && ldc == 1)
    return macColumn(a, lhs.step, b, c, m, k);
  if (m == 1) {
    int64_t done = macOneRow<kCols>(a, lhs.step, b, ldb, c, n, k);
    if (done < n)
      macRowBlock<1, kCols, kEights>(a, lhs, b + done, ldb, c + done, ldc, n - done, k);
    return;
  }
  int64_t i = 0;
  for (; i + kBlockRows <= m; i += kBlockRows)
    macRowBlock<kBlockRows, kCols, kEights>(a + i * lhs.row, lhs, b, ldb, c + i * ldc, ldc, n,
                                            k);
  for (; kBlockRows > 6 && i + 6 <= m; i += 6)
    macRowBlock<6, kCols, kEights>(a + i * lhs.row, lhs, b, ldb, c + i * ldc, ldc, n, k);
  // The last rows one at a time, 6 column blocks abreast (a single block's
  // two sums made one chain of dependent adds: 2 rows of a 128-row tile
  // took 13% of a matmul's time).
  for (; i < m; ++i) {
    int64_t done = macOneRow<kCols>(a + i * lhs.row, lhs.step, b, ldb, c + i * ldc, n, k);
    if (done < n)
      macRowBlock<1, kCols, kEights>(a + i * lhs.row, lhs, b + done, ldb, c + i * ldc + done,
                                     ldc, n - done, k);
  }
}

/// Columns [0, width) of every row of C (width at most kCols), kRows rows
/// at a time, then 4, 2 and 1.
template <int kRows, int64_t kCols>
inline __attribute__((always_inline)) void macColumnBlock(const float *a, LhsLayout lhs,
                                                          const float *b, int64_t ldb, float *c,
                                                          int64_t ldc, int64_t m, int64_t width,
                                                          int64_t k) {
  int64_t i = 0;
  for (; i + kRows <= m; i += kRows)
    macRows<kRows, kCols>(a + i * lhs.row, lhs, b, ldb, c + i * ldc, ldc, width, k);
  if (i + 4 <= m) {
    macRows<4, kCols>(a + i * lhs.row, lhs, b, ldb, c + i * ldc, ldc, width, k);
    i += 4;
  }
  if (i + 2 <= m) {
    macRows<2, kCols>(a + i * lhs.row, lhs, b, ldb, c + i * ldc, ldc, width, k);
    i += 2;
  }
  if (i < m)
    macRows<1, kCols>(a + i * lhs.row, lhs, b, ldb, c + i * ldc, ldc, width, k);
}

/// A tile at least 48 wide on AVX-512, one block of columns at a time,
/// each down all its rows: 8 rows by 48 columns (24 registers of sums, 3
/// loads of B and 8 of A per 24 fused multiply-adds), one block of 6 rows
/// by 64 where the width is 64 more than a multiple of 48 (64, 112, 256),
/// then the rest 32 and 16 wide. Down the rows, the block's columns of B
/// stay in L1 while A's rows pass. Against 8-row blocks across the whole
/// width (which reload all of B's tile for each block of rows): BERT's
/// 64 x 112 x 72 tiles 10-16% faster, a 1x1 convolution's 64 x 96 x 80
/// ones 17%.
inline __attribute__((always_inline)) void macWideTile(const float *a, LhsLayout lhs,
                                                       const float *b, int64_t ldb, float *c,
                                                       int64_t ldc, int64_t m, int64_t n,
                                                       int64_t k) {
  int64_t j = 0;
  if (n % 48 != 0 && n >= 64 && (n - 64) % 48 == 0) {
    macColumnBlock<6, 64>(a, lhs, b, ldb, c, ldc, m, 64, k);
    j = 64;
  }
  for (; j + 48 <= n; j += 48)
    macColumnBlock<8, 48>(a, lhs, b + j, ldb, c + j, ldc, m, 48, k);
  if (n - j >= 32) {
    macColumnBlock<8, 32>(a, lhs, b + j, ldb, c + j, ldc, m, 32, k);
    j += 32;
  }
  for (; j < n; j += 16)
    macColumnBlock<8, 16>(a, lhs, b + j, ldb, c + j, ldc, m, std::min<int64_t>(16, n - j), k);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx512f,fma"))) void macWideTileAvx512(const float *a, LhsLayout lhs,
                                                             const float *b, int64_t ldb,
                                                             float *c, int64_t ldc, int64_t m,
                                                             int64_t n, int64_t k) {
  macWideTile(a, lhs, b, ldb, c, ldc, m, n, k);
}
__attribute__((target("avx2,fma"))) void macTileFma(const float *a, LhsLayout lhs,
                                                    const float *b, int64_t ldb, float *c,
                                                    int64_t ldc, int64_t m, int64_t n,
                                                    int64_t k) {
  macTile(a, lhs, b, ldb, c, ldc, m, n, k);
}
__attribute__((target("avx2,fma"))) void macTileEightsFma(const float *a, LhsLayout lhs,
                                                          const float *b, int64_t ldb, float *c,
                                                          int64_t ldc, int64_t m, int64_t n,
                                                          int64_t k) {
  macTile<16, true>(a, lhs, b, ldb, c, ldc, m, n, k);
}
__attribute__((target("avx512f,fma"))) void macTileAvx512Fma(const float *a, LhsLayout lhs,
                                                            const float *b, int64_t ldb,
                                                            float *c, int64_t ldc, int64_t m,
                                                            int64_t n, int64_t k) {
  macTile<32, false, 8>(a, lhs, b, ldb, c, ldc, m, n, k);
}
__attribute__((target("avx2,fma"))) void macSparseColumnsFma(const float *a, int64_t step,
                                                             const RhsPlan &plan, float *c,
                                                             int64_t n, int64_t m,
                                                             float *column) {
  macSparseColumns(a, step, plan, c, n, m, column);
}
__attribute__((target("avx512f,fma"))) void macSparseColumnsAvx512(const float *a, int64_t step,
                                                                   const RhsPlan &plan, float *c,
                                                                   int64_t n, int64_t m,
                                                                   float *column) {
  macSparseColumns(a, step, plan, c, n, m, column);
}
#endif

#if defined(__x86_64__) && defined(__clang__)
/// kRows rows by kVecs x 16 columns of C (rows `ldc` apart) over every step
/// of K in `tiles`: step s's B rows are tiles[s] + column (rows `ldb`
/// apart), A's columns [s * stepK, (s + 1) * stepK) its columns. The sums
/// stay in registers across the steps, each still adding its products in K
/// order, one fused multiply-add each. Explicit vectors: in the scalar form
/// of macRows, a loop over steps made the compiler keep the sums on the
/// stack.
template <int kRows, int kVecs, bool kKMajor>
inline __attribute__((always_inline)) void macStepsBlock(const float *a, LhsLayout lhs,
                                                         const float *const *tiles,
                                                         int64_t steps, int64_t stepK,
                                                         int64_t lastK, int64_t ldb,
                                                         int64_t column, float *c, int64_t ldc) {
  using Vector = float __attribute__((ext_vector_type(16)));
  Vector sums[kRows][kVecs];
#pragma clang loop unroll(full)
  for (int r = 0; r < kRows; ++r)
#pragma clang loop unroll(full)
    for (int v = 0; v < kVecs; ++v)
      std::memcpy(&sums[r][v], c + r * ldc + v * 16, sizeof(Vector));
  // K-major A (lhs.row 1): a K index's rows are adjacent, read at fixed
  // offsets from one pointer (with the row stride a run-time value, the
  // kernel ran 10% slower).
  const int64_t step = lhs.step, rowStride = kKMajor ? 1 : lhs.row;
  for (int64_t s = 0; s < steps; ++s) {
    const float *rowOfB = tiles[s] + column;
    const float *rowsOfA = a + s * stepK * step;
    int64_t rows = s + 1 == steps ? lastK : stepK;
    for (int64_t p = 0; p < rows; ++p, rowOfB += ldb, rowsOfA += step) {
      Vector row[kVecs];
#pragma clang loop unroll(full)
      for (int v = 0; v < kVecs; ++v)
        std::memcpy(&row[v], rowOfB + v * 16, sizeof(Vector));
#pragma clang loop unroll(full)
      for (int r = 0; r < kRows; ++r) {
        Vector scale = Vector(rowsOfA[r * rowStride]);
#pragma clang loop unroll(full)
        for (int v = 0; v < kVecs; ++v)
          sums[r][v] = __builtin_elementwise_fma(scale, row[v], sums[r][v]);
      }
    }
  }
#pragma clang loop unroll(full)
  for (int r = 0; r < kRows; ++r)
#pragma clang loop unroll(full)
    for (int v = 0; v < kVecs; ++v)
      std::memcpy(c + r * ldc + v * 16, &sums[r][v], sizeof(Vector));
}

/// One chunk of steps of macSteps, for one block of columns.
struct StepsChunk {
  const float *a;
  LhsLayout lhs;
  const float *const *tiles;
  int64_t steps, stepK, lastK, ldb, column;
  float *c;
  int64_t ldc, m;
};

/// Rows [0, m) of C's columns [column, column + kVecs x 16): kRows rows at a
/// time, then one by one.
template <int kRows, int kVecs, bool kKMajor>
inline __attribute__((always_inline)) void macStepsColumns(const StepsChunk &x) {
  int64_t i = 0;
  for (; i + kRows <= x.m; i += kRows)
    macStepsBlock<kRows, kVecs, kKMajor>(x.a + i * x.lhs.row, x.lhs, x.tiles, x.steps, x.stepK,
                                         x.lastK, x.ldb, x.column,
                                         x.c + i * x.ldc + x.column, x.ldc);
  for (; i < x.m; ++i)
    macStepsBlock<1, kVecs, kKMajor>(x.a + i * x.lhs.row, x.lhs, x.tiles, x.steps, x.stepK,
                                     x.lastK, x.ldb, x.column, x.c + i * x.ldc + x.column,
                                     x.ldc);
}

/// C[m, n] += A x B over `steps` tiles of B ([stepK, n] each, rows n
/// apart, n a multiple of 16): blocks of 4 rows by 96 columns or 6 by 64
/// (24 registers of sums), narrower ones 8 rows by 48, 32 or 16. For each
/// block of columns the steps go a few at a time (their rows of the
/// block's B within kChunkBytes, in L1 while the rows of A pass), and the
/// block's sums go through memory once per chunk. Wide blocks read A, which
/// lies in the map a channel's plane apart per K index, fewer times: in
/// the plan (ten 480 -> 480 1x1 convolutions at 6x80) 4 x 96 blocks ran
/// 4-7% faster than 8 x 48 ones, though 3-13% slower on tiles hot in
/// cache; chunks of 8 or 48 KiB of B 2-4% slower than 24; B copied into
/// contiguous panels first 8% slower.
template <bool kKMajor>
inline __attribute__((always_inline)) void macSteps(const float *a, LhsLayout lhs,
                                                    const float *const *tiles, int64_t steps,
                                                    int64_t stepK, int64_t lastK, float *c,
                                                    int64_t m, int64_t n, int64_t ldb) {
  constexpr int64_t kChunkBytes = 24576;
  for (int64_t j = 0; j < n;) {
    // 96 columns where what is left after them still fills wide blocks
    // (96, 144 and up); 64 (6 rows) for 64, 112 and 128; else 48, 32, 16.
    int64_t left = n - j;
    int64_t vecs = left >= 96 && (left % 96 == 0 || left >= 144) ? 6
                   : left == 64 || left == 112 || left == 128   ? 4
                                                                 : std::min<int64_t>(3, left / 16);
    int64_t chunk = std::max<int64_t>(1, kChunkBytes / (vecs * 64) / stepK);
    for (int64_t s = 0; s < steps; s += chunk) {
      int64_t count = std::min(chunk, steps - s);
      StepsChunk x{a + s * stepK * lhs.step,
                   lhs,
                   tiles + s,
                   count,
                   stepK,
                   s + count == steps ? lastK : stepK,
                   ldb,
                   j,
                   c,
                   n,
                   m};
      switch (vecs) {
      case 6: macStepsColumns<4, 6, kKMajor>(x); break;
      case 4: macStepsColumns<6, 4, kKMajor>(x); break;
      case 3: macStepsColumns<8, 3, kKMajor>(x); break;
      case 2: macStepsColumns<8, 2, kKMajor>(x); break;
      default: macStepsColumns<8, 1, kKMajor>(x); break;
      }
    }
    j += vecs * 16;
  }
}

__attribute__((target("avx512f,fma"))) void macStepsAvx512(const float *a, LhsLayout lhs,
                                                           const float *const *tiles,
                                                           int64_t steps, int64_t stepK,
                                                           int64_t lastK, float *c, int64_t m,
                                                           int64_t n, int64_t ldb) {
  if (lhs.row == 1)
    macSteps<true>(a, lhs, tiles, steps, stepK, lastK, c, m, n, ldb);
  else
    macSteps<false>(a, lhs, tiles, steps, stepK, lastK, c, m, n, ldb);
}
#endif

/// C[m, n] += A x B by the plan's column lists (see macSparseColumns).
void multiplySparseColumns(const float *a, int64_t step, const RhsPlan &plan, float *c,
                           int64_t n, int64_t m) {
  thread_local std::vector<float> column;
  column.resize(m);
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma: return macSparseColumnsAvx512(a, step, plan, c, n, m, column.data());
  case VectorLevel::Avx2Fma: return macSparseColumnsFma(a, step, plan, c, n, m, column.data());
  case VectorLevel::Plain: break;
  }
#endif
  macSparseColumns(a, step, plan, c, n, m, column.data());
}

/// C[m, n] += A x B, B's rows `ldb` apart, C's `ldc` (n unless C is the
/// first n columns of a wider accumulator).
void multiplyAccumulate(const float *a, LhsLayout lhs, const float *b, int64_t ldb, float *c,
                        int64_t ldc, int64_t m, int64_t n, int64_t k) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  VectorLevel level = vectorLevel();
  // 32 columns at once only where a tile has them (a depthwise
  // convolution's packed tiles are narrower).
  if (level == VectorLevel::Avx512Fma && n >= 48 && m >= 6)
    return macWideTileAvx512(a, lhs, b, ldb, c, ldc, m, n, k);
  if (level == VectorLevel::Avx512Fma && n >= 32)
    return macTileAvx512Fma(a, lhs, b, ldb, c, ldc, m, n, k);
  if (level != VectorLevel::Plain && n % 16 >= 8)
    return macTileEightsFma(a, lhs, b, ldb, c, ldc, m, n, k);
  if (level != VectorLevel::Plain)
    return macTileFma(a, lhs, b, ldb, c, ldc, m, n, k);
#endif
  macTile(a, lhs, b, ldb, c, ldc, m, n, k);
}

/// C[m, n] (int32) += A[m, k] x B[k, n] (int8): exact, so any order gives
/// the same sums (the cube's int32 accumulation). Rows of C advance a row
/// of B at a time, which the compiler widens and multiplies 8 lanes at once
/// with AVX2 (or 16 with AVX-512).
inline __attribute__((always_inline)) void macInt8(const int8_t *a, LhsLayout lhs,
                                                   const int8_t *b, int64_t ldb, int32_t *c,
                                                   int64_t m, int64_t n, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    int32_t *row = c + i * n;
    for (int64_t p = 0; p < k; ++p) {
      int32_t av = a[i * lhs.row + p * lhs.step];
      if (av == 0)
        continue; // exact: a zero adds nothing to an integer sum
      const int8_t *bRow = b + p * ldb;
      for (int64_t j = 0; j < n; ++j)
        row[j] += av * static_cast<int32_t>(bRow[j]);
    }
  }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) void macInt8Avx2(const int8_t *a, LhsLayout lhs,
                                                 const int8_t *b, int64_t ldb, int32_t *c,
                                                 int64_t m, int64_t n, int64_t k) {
  macInt8(a, lhs, b, ldb, c, m, n, k);
}
__attribute__((target("avx512f,avx512bw"))) void macInt8Avx512(const int8_t *a, LhsLayout lhs,
                                                               const int8_t *b, int64_t ldb,
                                                               int32_t *c, int64_t m, int64_t n,
                                                               int64_t k) {
  macInt8(a, lhs, b, ldb, c, m, n, k);
}
#endif

void multiplyInt8(const int8_t *a, LhsLayout lhs, const int8_t *b, int64_t ldb, int32_t *c,
                  int64_t m, int64_t n, int64_t k) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma: return macInt8Avx512(a, lhs, b, ldb, c, m, n, k);
  case VectorLevel::Avx2Fma: return macInt8Avx2(a, lhs, b, ldb, c, m, n, k);
  case VectorLevel::Plain: break;
  }
#endif
  macInt8(a, lhs, b, ldb, c, m, n, k);
}

/// How the cube reads an input dtype: the magnitude bits of an element
/// (zero for +-0), whether it is inf or NaN, and elements' exact fp32
/// values. The masks are integers, so that the scans vectorize.
struct F32Input {
  using Element = float;
  static uint32_t magnitude(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits & 0x7FFFFFFFu;
  }
  static uint32_t notFinite(float v) { return magnitude(v) >= 0x7F800000u; }
  /// Nonzero and under 2^-50 (see multiplyByPlan).
  static uint32_t tiny(float v) { return magnitude(v) - 1 < 0x26800000u - 1; }
  static void widenAll(const float *in, float *out, int64_t count) {
    widenToFloat(ElementType::F32, reinterpret_cast<const uint8_t *>(in), out, count);
  }
};
/// fp16 and bf16, stored as their bits: inf or NaN when every bit of
/// `kExponent` is set.
template <ElementType kType, uint16_t kExponent, uint16_t kTiny> struct HalfInput {
  using Element = uint16_t;
  static uint32_t magnitude(uint16_t v) { return v & 0x7FFFu; }
  static uint32_t notFinite(uint16_t v) { return (v & kExponent) == kExponent; }
  static uint32_t tiny(uint16_t v) { return kTiny != 0 && magnitude(v) - 1u < kTiny - 1u; }
  static void widenAll(const uint16_t *in, float *out, int64_t count) {
    widenToFloat(kType, reinterpret_cast<const uint8_t *>(in), out, count);
  }
};
/// fp16 values are never tiny (its least is 2^-24, its products 2^-48 and
/// up); bf16 has fp32's exponent range.
using F16Input = HalfInput<ElementType::F16, 0x7C00, 0>;
using BF16Input = HalfInput<ElementType::BF16, 0x7F80, 0x2680>;

/// Calls visit(run, count) over A's elements in contiguous runs: the whole
/// tile when it is packed, else its rows (K steps adjacent) or its columns
/// (rows adjacent, K-major), else element by element.
template <typename T, typename Visit>
void forEachLhsRun(const T *a, LhsLayout lhs, int64_t m, int64_t k, Visit visit) {
  if ((lhs.step == 1 && lhs.row == k) || (lhs.row == 1 && lhs.step == m))
    return visit(a, m * k);
  if (lhs.step == 1) {
    for (int64_t i = 0; i < m; ++i)
      visit(a + i * lhs.row, k);
    return;
  }
  if (lhs.row == 1) {
    for (int64_t p = 0; p < k; ++p)
      visit(a + p * lhs.step, m);
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      visit(a + i * lhs.row + p * lhs.step, 1);
}

/// Nonzero when one of `count` elements is inf, NaN or tiny: what keeps
/// the multiply from dropping B's zeros (see multiplyByPlan).
template <typename Input>
inline __attribute__((always_inline)) uint32_t unusualBody(const typename Input::Element *run,
                                                           int64_t count) {
  uint32_t found = 0;
  for (int64_t i = 0; i < count; ++i)
    found |= Input::notFinite(run[i]) | Input::tiny(run[i]);
  return found;
}
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
template <typename Input>
__attribute__((target("avx2"))) uint32_t unusualAvx2(const typename Input::Element *run,
                                                     int64_t count) {
  return unusualBody<Input>(run, count);
}
template <typename Input>
__attribute__((target("avx512f,avx512bw"))) uint32_t
unusualAvx512(const typename Input::Element *run, int64_t count) {
  return unusualBody<Input>(run, count);
}
#endif
template <typename Input>
uint32_t unusualIn(const typename Input::Element *run, int64_t count) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma: return unusualAvx512<Input>(run, count);
  case VectorLevel::Avx2Fma: return unusualAvx2<Input>(run, count);
  case VectorLevel::Plain: break;
  }
#endif
  return unusualBody<Input>(run, count);
}

/// Whether A holds inf, NaN or a tiny value.
template <typename Input>
bool scanLhs(const typename Input::Element *a, LhsLayout lhs, int64_t m, int64_t k) {
  uint32_t found = 0;
  forEachLhsRun(a, lhs, m, k, [&](const typename Input::Element *run, int64_t count) {
    found |= unusualIn<Input>(run, count);
  });
  return found != 0;
}

/// Whether one of `count` sums is -0, compared as bits so that it
/// vectorizes.
bool holdsNegativeZero(const float *c, int64_t count) {
  uint32_t found = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &c[i], 4);
    found |= bits == 0x80000000u;
  }
  return found != 0;
}

/// A widened to fp32 into `packed` (m x k floats); returns its layout
/// there: K-major stays K-major, anything else becomes row-major.
template <typename Input>
LhsLayout widenLhs(const typename Input::Element *a, LhsLayout lhs, int64_t m, int64_t k,
                   float *packed) {
  bool kMajor = lhs.row == 1;
  LhsLayout layout = kMajor ? LhsLayout{1, m} : LhsLayout{k, 1};
  if (lhs.row == layout.row && lhs.step == layout.step) {
    Input::widenAll(a, packed, m * k);
  } else if (kMajor) {
    for (int64_t p = 0; p < k; ++p)
      Input::widenAll(a + p * lhs.step, packed + p * m, m);
  } else if (lhs.step == 1) {
    for (int64_t i = 0; i < m; ++i)
      Input::widenAll(a + i * lhs.row, packed + i * k, k);
  } else {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        Input::widenAll(a + i * lhs.row + p * lhs.step, packed + i * k + p, 1);
  }
  return layout;
}

/// acc[m,n] += a[m,k] x b[k,n] for one input dtype, without the products
/// that cannot change a sum: a product is +-0 when one factor is zero and
/// the other finite, and adding +-0 leaves every sum as it is except -0
/// (+0 + -0 is +0), which an accumulator starting from +0 never holds. So
/// when A holds no inf or NaN (inf x 0 is NaN on the cube) and the
/// accumulator no -0, the steps of K whose row of B is zero are dropped,
/// and so are the columns of N whose B entries are all zero (the plan of B
/// lists the rest). That is padding: a depthwise convolution's tile holds
/// one channel in 8 (fp32) or 16 of K and 1 in 16 of N. The result is the
/// same bits either way; only the elements kept are widened.
///
/// "Never holds -0" needs one more condition with fused steps: a sum whose
/// exact value is a negative number too small for fp32 rounds to -0 (fp32
/// or bf16 products of values near 2^-75). When every nonzero factor is at
/// least 2^-50, each product is a multiple of 2^-146 and each sum's exact
/// value a multiple of 2^-149, so a sum is either exactly zero (+0) or at
/// least the smallest subnormal: no -0. A tile with a smaller nonzero
/// value ("tiny") goes through whole.
///
/// Returns whether the accumulator may hold -0 afterwards: not when the
/// products were dropped (no tiny value, none before), else it may.
/// Tiles of at least this many rows copy a strided B before multiplying.
constexpr int64_t kPackRowsFrom = 16;

template <typename Input>
bool multiplyByPlan(const typename Input::Element *a, LhsLayout lhs,
                    const typename Input::Element *b, int64_t ldb, const RhsPlan &plan,
                    float *c, int64_t m, int64_t n, int64_t k, bool mayHoldNegZero) {
  using Element = typename Input::Element;
  constexpr bool kWidened = !std::is_same_v<Element, float>;
  thread_local CacheLineVector<float> packedA, packedB, packedC;
  if (m == 0 || n == 0 || k == 0)
    return mayHoldNegZero;
  // B as fp32 and its row stride: the plan's for a dense plan of 16-bit
  // inputs, else widened row by row.
  auto widenedB = [&]() -> std::pair<const float *, int64_t> {
    if constexpr (!kWidened)
      return {b, ldb};
    if (plan.dense && !plan.packed.empty())
      return {plan.packed.data(), n};
    packedB.resize(k * n);
    if (ldb == n)
      Input::widenAll(b, packedB.data(), k * n);
    else
      for (int64_t p = 0; p < k; ++p)
        Input::widenAll(b + p * ldb, packedB.data() + p * n, n);
    return {packedB.data(), n};
  };
  auto dense = [&] {
    if constexpr (!kWidened) {
      // B read in place has GM's row stride: rows a power of two or so
      // apart fall into a few cache sets, and every row block of C walks
      // them again. Copied once into contiguous rows (a copy per m
      // multiply-adds), a 1024 x 768 x 3072 matmul ran a third faster.
      if (ldb != n && m >= kPackRowsFrom) {
        packedB.resize(k * n);
        for (int64_t p = 0; p < k; ++p)
          std::memcpy(packedB.data() + p * n, b + p * ldb, n * sizeof(float));
        multiplyAccumulate(a, lhs, packedB.data(), n, c, n, m, n, k);
      } else {
        multiplyAccumulate(a, lhs, b, ldb, c, n, m, n, k);
      }
    } else {
      auto [wideB, wideLdb] = widenedB();
      packedA.resize(m * k);
      LhsLayout packedLayout = widenLhs<Input>(a, lhs, m, k, packedA.data());
      multiplyAccumulate(packedA.data(), packedLayout, wideB, wideLdb, c, n, m, n, k);
    }
    return true;
  };
  if (plan.dense)
    return dense();
  // B's zeros make +-0 products only with finite values of A, and change
  // no sum only if none holds -0: otherwise the tile goes through whole.
  if (plan.tiny || scanLhs<Input>(a, lhs, m, k) || (mayHoldNegZero && holdsNegativeZero(c, m * n)))
    return dense();
  int64_t kk = static_cast<int64_t>(plan.keptK.size()), nn = static_cast<int64_t>(plan.keptN.size());
  if (kk == 0 || nn == 0)
    return false;
  bool kMajor = lhs.row == 1;
  if (kMajor && !plan.columnStart.empty()) {
    // Column by column from B's nonzeros; A read where it is (fp32) or
    // its kept columns widened in place in a [k, m] panel.
    if constexpr (!kWidened) {
      multiplySparseColumns(a, lhs.step, plan, c, n, m);
    } else {
      packedA.resize(k * m);
      for (int64_t p : plan.keptK)
        Input::widenAll(a + p * lhs.step, packedA.data() + p * m, m);
      multiplySparseColumns(packedA.data(), m, plan, c, n, m);
    }
    return false;
  }
  // The kept columns of A, K-major ([kk, m]) when A is (a column is then
  // one run), else row-major; fp32 with every column kept is read where it
  // is, 16-bit widened as it lies.
  LhsLayout packedLayout = kMajor ? LhsLayout{1, m} : LhsLayout{kk, 1};
  const float *keptA = packedA.data();
  if (kk == k && !kWidened) {
    keptA = reinterpret_cast<const float *>(a);
    packedLayout = lhs;
  } else if (kk == k) {
    packedA.resize(m * k);
    packedLayout = widenLhs<Input>(a, lhs, m, k, packedA.data());
    keptA = packedA.data();
  } else {
    thread_local std::vector<typename Input::Element> gathered;
    gathered.resize(m * kk);
    packedA.resize(m * kk);
    if (kMajor) {
      for (int64_t q = 0; q < kk; ++q)
        std::memcpy(&gathered[q * m], a + plan.keptK[q] * lhs.step, m * sizeof(gathered[0]));
    } else {
      for (int64_t i = 0; i < m; ++i)
        for (int64_t q = 0; q < kk; ++q)
          gathered[i * kk + q] = a[i * lhs.row + plan.keptK[q] * lhs.step];
    }
    Input::widenAll(gathered.data(), packedA.data(), m * kk);
    keptA = packedA.data();
  }
  // Padding columns sit at the end of N: the kept ones are then C's first
  // nn columns, multiplied where they are (one column is faster gathered:
  // its sums then advance across the vector).
  if (nn > 1 && plan.keptN.back() == nn - 1) {
    multiplyAccumulate(keptA, packedLayout, plan.packed.data(), nn, c, n, m, nn, kk);
    return false;
  }
  packedC.resize(m * nn);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t t = 0; t < nn; ++t)
      packedC[i * nn + t] = c[i * n + plan.keptN[t]];
  multiplyAccumulate(keptA, packedLayout, plan.packed.data(), nn, packedC.data(), nn, m, nn, kk);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t t = 0; t < nn; ++t)
      c[i * n + plan.keptN[t]] = packedC[i * nn + t];
  return false;
}

/// The plan of one tile of B in one input dtype (see RhsPlan).
template <typename Input>
void planRhsOf(const typename Input::Element *b, int64_t ldb, int64_t k, int64_t n,
               RhsPlan &plan) {
  constexpr bool kWidened = !std::is_same_v<typename Input::Element, float>;
  plan.dense = true;
  plan.tiny = false;
  plan.keptK.clear();
  plan.keptN.clear();
  plan.packed.clear();
  plan.columnStart.clear();
  plan.columnRows.clear();
  plan.columnWeights.clear();
  auto widenWhole = [&] {
    if constexpr (kWidened) {
      plan.packed.resize(k * n);
      for (int64_t p = 0; p < k; ++p)
        Input::widenAll(b + p * ldb, plan.packed.data() + p * n, n);
    }
  };
  if (k == 0 || n == 0)
    return;
  // Padding sits at the end of K and N, zero in B (the weights are padded
  // with zeros whichever input is): a tile whose last row and last column
  // of B hold data is dense, without scanning it, unless a corner off the
  // diagonal is zero, as in a packed group's block-diagonal filter.
  uint32_t lastRowB = 0, lastColumnB = 0;
  for (int64_t j = 0; j < n; ++j)
    lastRowB |= Input::magnitude(b[(k - 1) * ldb + j]);
  for (int64_t p = 0; p < k; ++p)
    lastColumnB |= Input::magnitude(b[p * ldb + n - 1]);
  if (lastRowB && lastColumnB && Input::magnitude(b[n - 1]) &&
      Input::magnitude(b[(k - 1) * ldb]))
    return widenWhole();
  uint32_t tiny = 0;
  int64_t nonzeros = 0;
  for (int64_t p = 0; p < k; ++p) {
    uint32_t rowMagnitude = 0;
    for (int64_t j = 0; j < n; ++j) {
      rowMagnitude |= Input::magnitude(b[p * ldb + j]);
      tiny |= Input::tiny(b[p * ldb + j]);
      nonzeros += Input::magnitude(b[p * ldb + j]) != 0;
    }
    if (rowMagnitude)
      plan.keptK.push_back(p);
  }
  plan.tiny = tiny != 0;
  thread_local std::vector<uint32_t> columnMagnitude;
  columnMagnitude.assign(n, 0);
  for (int64_t p : plan.keptK)
    for (int64_t j = 0; j < n; ++j)
      columnMagnitude[j] |= Input::magnitude(b[p * ldb + j]);
  for (int64_t j = 0; j < n; ++j)
    if (columnMagnitude[j])
      plan.keptN.push_back(j);
  int64_t kk = static_cast<int64_t>(plan.keptK.size()), nn = static_cast<int64_t>(plan.keptN.size());
  // Half zeros or more within the kept rows and columns (a packed depthwise
  // group's block diagonal): each column's nonzeros are listed below, and
  // the multiply visits them alone. A single kept column is listed too:
  // the last K tile of a group often holds one channel's window alone,
  // and the direct multiply of a group's patches (SparsePatches.cpp) needs
  // every step's lists.
  bool sparse = nonzeros * 2 <= kk * nn || nn == 1;
  // Dropping a few rows or columns saves less than gathering the rest costs
  // (a convolution's 40 filters padded to 48 columns): under a quarter of
  // the tile, the multiply takes it whole, zeros and all, as the cube does.
  if (!sparse && kk * nn * 4 > k * n * 3) {
    plan.keptK.clear();
    plan.keptN.clear();
    return widenWhole();
  }
  plan.dense = false;
  thread_local std::vector<typename Input::Element> gathered;
  gathered.resize(kk * nn);
  for (int64_t q = 0; q < kk; ++q)
    for (int64_t t = 0; t < nn; ++t)
      gathered[q * nn + t] = b[plan.keptK[q] * ldb + plan.keptN[t]];
  plan.packed.resize(kk * nn);
  Input::widenAll(gathered.data(), plan.packed.data(), kk * nn);
  if (!sparse)
    return;
  plan.columnStart.push_back(0);
  for (int64_t t = 0; t < nn; ++t) {
    for (int64_t q = 0; q < kk; ++q)
      if (float weight = plan.packed[q * nn + t]; weight != 0.0f) {
        plan.columnRows.push_back(plan.keptK[q]);
        plan.columnWeights.push_back(weight);
      }
    plan.columnStart.push_back(static_cast<int64_t>(plan.columnRows.size()));
  }
}

/// The fixpipe's fp32 steps on one row: + bias (in fp32), then ReLU (NaN
/// passes, -0 becomes +0), written branch-free so that it vectorizes.
inline __attribute__((always_inline)) void finishRow(const float *values, const float *bias,
                                                     bool relu, float *out, int64_t count) {
  if (bias) {
    for (int64_t j = 0; j < count; ++j)
      out[j] = values[j] + bias[j];
  } else {
    // 16 at a time inline (a cube tile's row is often 16 wide, where a call
    // of memcpy costs more than the copy), the rest by memcpy.
    int64_t j = 0;
    for (; j + 16 <= count; j += 16)
      std::memcpy(out + j, values + j, 64);
    std::memcpy(out + j, values + j, (count - j) * 4);
  }
  if (relu)
    for (int64_t j = 0; j < count; ++j) {
      float v = out[j];
      out[j] = (v > 0.0f || v != v) ? v : 0.0f;
    }
}

/// finishRow on `rows` rows, `valueStride` and `outStride` floats apart,
/// in the widest vector code the host runs (a cube tile's row is often one
/// vector of 16: the fixpipe of a depthwise convolution's 160 x 16 tiles
/// took a seventh of its time in SSE code).
inline __attribute__((always_inline)) void finishRowsBody(const float *values, int64_t valueStride,
                                                          const float *bias, bool relu,
                                                          float *out, int64_t outStride,
                                                          int64_t rows, int64_t count) {
  for (int64_t i = 0; i < rows; ++i)
    finishRow(values + i * valueStride, bias, relu, out + i * outStride, count);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2,fma"))) void finishRowsAvx2(const float *values, int64_t valueStride,
                                                        const float *bias, bool relu, float *out,
                                                        int64_t outStride, int64_t rows,
                                                        int64_t count) {
  finishRowsBody(values, valueStride, bias, relu, out, outStride, rows, count);
}
__attribute__((target("avx512f,avx512bw,fma"))) void
finishRowsAvx512(const float *values, int64_t valueStride, const float *bias, bool relu,
                 float *out, int64_t outStride, int64_t rows, int64_t count) {
  finishRowsBody(values, valueStride, bias, relu, out, outStride, rows, count);
}
#endif

void finishRows(const float *values, int64_t valueStride, const float *bias, bool relu,
                float *out, int64_t outStride, int64_t rows, int64_t count) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma:
    return finishRowsAvx512(values, valueStride, bias, relu, out, outStride, rows, count);
  case VectorLevel::Avx2Fma:
    return finishRowsAvx2(values, valueStride, bias, relu, out, outStride, rows, count);
  case VectorLevel::Plain: break;
  }
#endif
  finishRowsBody(values, valueStride, bias, relu, out, outStride, rows, count);
}

/// Rows finished at once before a transposed write: each column then goes
/// out as a run of this many elements.
constexpr int64_t kTransposeBlock = 32;

/// The [rows, cols] row-major block `tile` written transposed: element
/// [i, j] to corner[j * columnStride + i] (in elements).
template <typename T>
void storeTransposed(const T *tile, int64_t rows, int64_t cols, uint8_t *corner,
                     int64_t columnStride, bool streaming) {
  copyTransposed(reinterpret_cast<const uint8_t *>(tile), cols, rows, cols, corner, columnStride,
                 sizeof(T), streaming);
}

/// Writes `count` elements to `line`, `stride` elements apart.
template <typename T> void storeRow(const T *row, uint8_t *line, int64_t stride, int64_t count) {
  if (stride == 1) {
    std::memcpy(line, row, count * sizeof(T));
    return;
  }
  for (int64_t j = 0; j < count; ++j)
    std::memcpy(line + j * stride * sizeof(T), &row[j], sizeof(T));
}

} // namespace

bool ascendprec::runtime::detail::holdsUnusual(const float *values, int64_t count) {
  return unusualIn<F32Input>(values, count) != 0;
}

bool ascendprec::runtime::detail::holdsTiny(ElementType in, const uint8_t *data,
                                            int64_t count) {
  auto scan = [&](auto input, auto element) {
    using Input = decltype(input);
    const auto *values = reinterpret_cast<const decltype(element) *>(data);
    uint32_t tiny = 0;
    for (int64_t i = 0; i < count; ++i)
      tiny |= Input::tiny(values[i]);
    return tiny != 0;
  };
  switch (in) {
  case ElementType::F32: return scan(F32Input{}, float{});
  case ElementType::BF16: return scan(BF16Input{}, uint16_t{});
  default: return false; // fp16 values are never tiny; int8 sums are exact
  }
}

void ascendprec::runtime::detail::planRhs(ElementType in, const uint8_t *rhs, int64_t ldb,
                                          int64_t k, int64_t n, RhsPlan &plan) {
  switch (in) {
  case ElementType::F32:
    return planRhsOf<F32Input>(reinterpret_cast<const float *>(rhs), ldb, k, n, plan);
  case ElementType::F16:
    return planRhsOf<F16Input>(reinterpret_cast<const uint16_t *>(rhs), ldb, k, n, plan);
  case ElementType::BF16:
    return planRhsOf<BF16Input>(reinterpret_cast<const uint16_t *>(rhs), ldb, k, n, plan);
  default: // int8 multiplies densely
    plan = RhsPlan();
    return;
  }
}

void ascendprec::runtime::detail::mmadTile(ElementType in, const uint8_t *lhs, LhsLayout layout,
                                           const uint8_t *rhs, int64_t ldb, const RhsPlan &plan,
                                           uint8_t *accumulator, int64_t m, int64_t n, int64_t k,
                                           bool init, bool *mayHoldNegZero) {
  if (in == ElementType::I8) {
    auto *out = reinterpret_cast<int32_t *>(accumulator);
    if (init)
      std::fill(out, out + m * n, 0);
    multiplyInt8(reinterpret_cast<const int8_t *>(lhs), layout,
                 reinterpret_cast<const int8_t *>(rhs), ldb, out, m, n, k);
    return;
  }
  auto *out = reinterpret_cast<float *>(accumulator);
  if (init)
    std::fill(out, out + m * n, 0.0f);
  // The accumulator never holds -0 when this step initializes it; else the
  // caller may know (a cube loop tracks it), or it may.
  bool negZero = !init && (!mayHoldNegZero || *mayHoldNegZero);
  switch (in) {
  case ElementType::F32:
    negZero = multiplyByPlan<F32Input>(reinterpret_cast<const float *>(lhs), layout,
                                       reinterpret_cast<const float *>(rhs), ldb, plan, out, m,
                                       n, k, negZero);
    break;
  case ElementType::F16:
    negZero = multiplyByPlan<F16Input>(reinterpret_cast<const uint16_t *>(lhs), layout,
                                       reinterpret_cast<const uint16_t *>(rhs), ldb, plan, out,
                                       m, n, k, negZero);
    break;
  default: // BF16, the cube's other 16-bit input
    negZero = multiplyByPlan<BF16Input>(reinterpret_cast<const uint16_t *>(lhs), layout,
                                        reinterpret_cast<const uint16_t *>(rhs), ldb, plan, out,
                                        m, n, k, negZero);
    break;
  }
  if (mayHoldNegZero)
    *mayHoldNegZero = negZero;
}

void ascendprec::runtime::detail::mmadTile(ElementType in, const uint8_t *lhs, LhsLayout layout,
                                           const uint8_t *rhs, int64_t ldb, uint8_t *accumulator,
                                           int64_t m, int64_t n, int64_t k, bool init,
                                           bool *mayHoldNegZero) {
  thread_local RhsPlan plan;
  planRhs(in, rhs, ldb, k, n, plan);
  mmadTile(in, lhs, layout, rhs, ldb, plan, accumulator, m, n, k, init, mayHoldNegZero);
}

bool ascendprec::runtime::detail::mmadSteps(ElementType in, const uint8_t *a, LhsLayout layout,
                                            const std::vector<const uint8_t *> &tiles,
                                            const std::vector<const RhsPlan *> &plans,
                                            uint8_t *accumulator, int64_t m, int64_t n,
                                            int64_t k, int64_t lastK, int64_t ldb) {
#if defined(__x86_64__) && defined(__clang__)
  if (ldb == 0)
    ldb = n;
  if (tiles.empty() || tiles.size() != plans.size() || k <= 0 || m <= 0 || n <= 0 ||
      n % 16 != 0 || lastK <= 0 || lastK > k || ldb < n ||
      (ldb != n && in != ElementType::F32) || vectorLevel() != VectorLevel::Avx512Fma)
    return false;
  auto steps = static_cast<int64_t>(tiles.size());
  int64_t depth = (steps - 1) * k + lastK; // A's columns read
  thread_local std::vector<const float *> rhs;
  thread_local CacheLineVector<float> packedA;
  rhs.clear();
  const float *lhs = reinterpret_cast<const float *>(a);
  LhsLayout lhsLayout = layout;
  // 16-bit B multiplies as its plans' fp32 copies, which only dense plans
  // hold whole; A is widened whole, K-major as it lies.
  auto widenedB = [&]() {
    for (const RhsPlan *plan : plans) {
      if (!plan->dense || plan->packed.empty())
        return false;
      rhs.push_back(plan->packed.data());
    }
    packedA.resize(m * depth);
    lhs = packedA.data();
    return true;
  };
  switch (in) {
  case ElementType::F32:
    for (const uint8_t *tile : tiles)
      rhs.push_back(reinterpret_cast<const float *>(tile));
    break;
  case ElementType::F16:
    if (!widenedB())
      return false;
    lhsLayout = widenLhs<F16Input>(reinterpret_cast<const uint16_t *>(a), layout, m, depth,
                                   packedA.data());
    break;
  case ElementType::BF16:
    if (!widenedB())
      return false;
    lhsLayout = widenLhs<BF16Input>(reinterpret_cast<const uint16_t *>(a), layout, m, depth,
                                    packedA.data());
    break;
  default:
    return false;
  }
  auto *c = reinterpret_cast<float *>(accumulator);
  std::fill(c, c + m * n, 0.0f);
  macStepsAvx512(lhs, lhsLayout, rhs.data(), steps, k, lastK, c, m, n, ldb);
  // K's padding: +0 x +0 products, which leave every sum as it is but -0
  // (+0 then); adding +0 once does the same.
  if (lastK < k)
    for (int64_t i = 0; i < m * n; ++i)
      c[i] = c[i] + 0.0f;
  return true;
#else
  (void)in, (void)a, (void)layout, (void)tiles, (void)plans, (void)accumulator, (void)m, (void)n,
      (void)k, (void)lastK, (void)ldb;
  return false;
#endif
}

extern "C" {

void ascendprec_rt_fixpipe(int64_t accRank, void *accDesc, int64_t dstRank, void *dstDesc,
                           int64_t offRank, void *offDesc, int64_t biasRank, void *biasDesc,
                           int32_t accType, int32_t dstType, int32_t rounding, int32_t overflow,
                           int32_t flags) {
  bool relu = flags & 1, transpose = flags & 2, hasBias = flags & 4, intoGm = flags & 8;
  ElementType acc = typeOf(accType), out = typeOf(dstType);
  Buffer source = bufferOf(accRank, accDesc, elementBytes(acc));
  Buffer target = bufferOf(dstRank, dstDesc, elementBytes(out));
  Buffer bias = bufferOf(biasRank, biasDesc, elementBytes(acc));
  thread_local std::vector<int64_t> offsets;
  readInt64s(offRank, offDesc, offsets);
  int64_t rows = source.sizes[0], cols = source.sizes[1];
  Overflow overflowMode = static_cast<Overflow>(overflow);
  Rounding roundingMode = static_cast<Rounding>(rounding);
  int64_t r = target.rank - 2, c = target.rank - 1;
  if (acc == ElementType::F32 &&
      (out == ElementType::F32 || out == ElementType::F16 || out == ElementType::BF16) &&
      roundingMode == Rounding::Rint && source.strides[1] == 1) {
    // The common case, an fp32 accumulator: element [i, j] goes to UB at
    // [i, j], or to GM at [offset_r + i, offset_c + j] ([offset_r + j,
    // offset_c + i] transposed), cropped to GM.
    int64_t iBegin = 0, iEnd = rows, jBegin = 0, jEnd = cols;
    int64_t base = 0, iStride = cols, jStride = 1;
    if (intoGm) {
      for (int64_t d = 0; d < r; ++d) {
        if (offsets[d] < 0 || offsets[d] >= target.sizes[d])
          return;
        base += offsets[d] * target.strides[d];
      }
      int64_t iAxis = transpose ? c : r, jAxis = transpose ? r : c;
      iBegin = std::max<int64_t>(0, -offsets[iAxis]);
      iEnd = std::min(rows, target.sizes[iAxis] - offsets[iAxis]);
      jBegin = std::max<int64_t>(0, -offsets[jAxis]);
      jEnd = std::min(cols, target.sizes[jAxis] - offsets[jAxis]);
      base += offsets[r] * target.strides[r] + offsets[c] * target.strides[c];
      iStride = target.strides[iAxis];
      jStride = target.strides[jAxis];
    }
    int64_t count = std::max<int64_t>(0, jEnd - jBegin);
    if (count == 0 || iBegin >= iEnd)
      return; // cropped away whole
    // The bias of the columns written, contiguous, so that a row's finish
    // is one loop the compiler vectorizes.
    thread_local std::vector<float> biasRow, finished;
    thread_local std::vector<uint16_t> halves;
    if (hasBias) {
      biasRow.resize(count);
      for (int64_t j = jBegin; j < jEnd; ++j)
        std::memcpy(&biasRow[j - jBegin], bias.at(j * bias.strides[0]), 4);
    }
    bool saturate = overflowMode == Overflow::Saturate;
    // Into GM transposed (a convolution's NCHW output), a row of the tile
    // is a column of GM: rows are finished in blocks, then each column's
    // run of the block is written, instead of one element per GM row.
    bool byColumns = jStride != 1 && iStride == 1;
    if (!byColumns && jStride == 1 && out == ElementType::F32 && !saturate) {
      // Row by row into place (a UB tile, or GM rows): no staging.
      const float *values =
          reinterpret_cast<const float *>(source.data) + iBegin * source.strides[0] + jBegin;
      auto *line = reinterpret_cast<float *>(target.at(base + iBegin * iStride + jBegin));
      finishRows(values, source.strides[0], hasBias ? biasRow.data() : nullptr, relu, line,
                 iStride, iEnd - iBegin, count);
      return;
    }
    // Rows of the target whose elements are contiguous (a UB tile) are
    // narrowed straight into place, a block of rows per call: row by row,
    // through a staging row, the copies and calls took 8% of PP-OCR's
    // classifier under force_fp16 (its tiles' rows are 16 wide).
    bool rowsInPlace = !byColumns && jStride == 1;
    int64_t block = byColumns || rowsInPlace ? kTransposeBlock : 1;
    bool streaming = streamsPastCache(target.numElements() * target.bytes);
    finished.resize(block * count);
    halves.resize(block * count);
    auto narrow = [&](const float *from, uint16_t *to, int64_t n) {
      if (out == ElementType::F16)
        narrowToHalf(from, to, n, overflowMode);
      else
        narrowToBFloat16(from, to, n, overflowMode);
    };
    for (int64_t i0 = iBegin; i0 < iEnd; i0 += block) {
      int64_t height = std::min(block, iEnd - i0);
      finishRows(reinterpret_cast<const float *>(source.data) + i0 * source.strides[0] + jBegin,
                 source.strides[0], hasBias ? biasRow.data() : nullptr, relu, finished.data(),
                 count, height, count);
      if (out == ElementType::F32 && saturate)
        for (int64_t j = 0; j < height * count; ++j)
          finished[j] = nearestFloat(finished[j], Overflow::Saturate);
      uint8_t *corner = target.at(base + i0 * iStride + jBegin * jStride);
      if (rowsInPlace) {
        size_t bytes = target.bytes;
        if (iStride == count) {
          // The block's rows follow each other: one run.
          if (out == ElementType::F32)
            std::memcpy(corner, finished.data(), height * count * bytes);
          else
            narrow(finished.data(), reinterpret_cast<uint16_t *>(corner), height * count);
          continue;
        }
        for (int64_t r = 0; r < height; ++r) {
          uint8_t *line = corner + r * iStride * bytes;
          if (out == ElementType::F32)
            std::memcpy(line, finished.data() + r * count, count * bytes);
          else
            narrow(finished.data() + r * count, reinterpret_cast<uint16_t *>(line), count);
        }
      } else if (out != ElementType::F32) {
        narrow(finished.data(), halves.data(), height * count);
        if (byColumns)
          storeTransposed(halves.data(), height, count, corner, jStride, streaming);
        else
          storeRow(halves.data(), corner, jStride, count);
      } else if (byColumns) {
        storeTransposed(finished.data(), height, count, corner, jStride, streaming);
      } else {
        storeRow(finished.data(), corner, jStride, count);
      }
    }
    return;
  }
  std::vector<int64_t> gmIndex(offsets);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      uint8_t *destination;
      if (intoGm) {
        gmIndex[r] = offsets[r] + (transpose ? j : i);
        gmIndex[c] = offsets[c] + (transpose ? i : j);
        int64_t at = gmOffset(target, gmIndex.data());
        if (at < 0)
          continue;
        destination = target.at(at);
      } else {
        destination = target.data + (i * cols + j) * target.bytes;
      }
      double value = readValue(acc, source.at(i * source.strides[0] + j * source.strides[1]));
      if (hasBias)
        value = roundToAccumulator(value + readValue(acc, bias.at(j * bias.strides[0])), acc,
                                   Overflow::IEEE);
      if (relu && !(value > 0))
        value = std::isnan(value) ? value : 0.0;
      writeValue(out, destination, value, roundingMode, overflowMode);
    }
}

/// acc[M,N] (+)= lhs[M,K] x rhs[K,N]: products exact in fp32 for fp16/bf16
/// inputs, accumulated in fp32 along K in index order (int8: int32).
void ascendprec_rt_mmad(int64_t lhsRank, void *lhsDesc, int64_t rhsRank, void *rhsDesc,
                        int64_t accRank, void *accDesc, int32_t inType, int32_t init) {
  ElementType in = typeOf(inType);
  size_t bytes = elementBytes(in);
  Buffer lhs = bufferOf(lhsRank, lhsDesc, bytes);
  Buffer rhs = bufferOf(rhsRank, rhsDesc, bytes);
  Buffer acc = bufferOf(accRank, accDesc, 4);
  int64_t m = lhs.sizes[0], k = lhs.sizes[1], n = rhs.sizes[1];
  mmadTile(in, lhs.data, LhsLayout{k, 1}, rhs.data, n, acc.data, m, n, k, init != 0);
}

} // extern "C"
