//===- CubeTile.h - the cube's multiply-accumulate on one tile ------------===//
//
// Shared by `akernel.mmad`'s entry point and the fused cube loop
// (CubeLoop.cpp). Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_CUBETILE_H
#define ASCENDPREC_LIB_RUNTIME_CUBETILE_H

#include "CacheLineVector.h"

#include "AscendPrec/Runtime/HostTensor.h"

#include <cstdint>
#include <vector>

namespace ascendprec::runtime::detail {

/// Where the left operand's elements are: A[i, p] at a[i * row + p * step].
/// A row-major [m, k] tile is {k, 1}; the cube loop's img2col panels are
/// K-major, {1, m}, so that a patch column is gathered as one run.
struct LhsLayout {
  int64_t row, step;
};

/// What the multiply needs to know of a tile of B, worked out once per
/// tile: whether it has rows (steps of K) or columns (of N) that are all
/// zero, which can be dropped without changing a bit (CubeRuntime.cpp says
/// when), and B as fp32: the kept rows and columns, or (`dense`) the whole
/// tile widened from fp16/bf16 (empty for fp32, read in place).
struct RhsPlan {
  bool dense = true;
  /// B holds a nonzero value under 2^-50, whose products may round a sum
  /// to -0: the rows and columns are not dropped (CubeRuntime.cpp).
  bool tiny = false;
  std::vector<int64_t> keptK, keptN;
  CacheLineVector<float> packed;
  /// When few entries of the kept block are nonzero (a packed depthwise
  /// group's block-diagonal filter: one channel's window per column), the
  /// nonzeros column by column: kept column t's are entries
  /// [columnStart[t], columnStart[t + 1]) of the K indices and fp32
  /// weights below, in K order. Empty otherwise.
  std::vector<int64_t> columnStart, columnRows;
  std::vector<float> columnWeights;
};

/// Whether one of `count` fp32 values is inf, NaN or a nonzero under
/// 2^-50: one that keeps a multiply from dropping products of B's zeros
/// (CubeRuntime.cpp says why).
bool holdsUnusual(const float *values, int64_t count);

/// Whether `count` elements of `in` hold a nonzero value under 2^-50
/// (fp32 and bf16; fp16 has none), whose products may round a sum to -0.
bool holdsTiny(ElementType in, const uint8_t *data, int64_t count);

/// The plan of B, [k, n] of `in` with rows `ldb` elements apart.
void planRhs(ElementType in, const uint8_t *b, int64_t ldb, int64_t k, int64_t n,
             RhsPlan &plan);

/// acc[m, n] (+)= A[m, k] x B[k, n] as the cube computes it: each exact
/// product added to its fp32 accumulator in K order with one rounding, a
/// fused multiply-add (int8: int32, exact). B is [k, n] of `in` with rows
/// `ldb` elements apart (n for a tile, GM's row length when it is read in
/// place), acc row-major [m, n]; `init` starts the sums from +0.
/// `mayHoldNegZero`, when given, says whether the accumulator may hold -0
/// before the step (ignored with `init`; without it, it may) and is set to
/// whether it may after: a caller that keeps it across a K loop spares the
/// multiply a scan of the accumulator per step.
void mmadTile(ElementType in, const uint8_t *a, LhsLayout layout, const uint8_t *b, int64_t ldb,
              uint8_t *accumulator, int64_t m, int64_t n, int64_t k, bool init,
              bool *mayHoldNegZero = nullptr);
/// The same with B's plan made beforehand (for a tile of B used again).
void mmadTile(ElementType in, const uint8_t *a, LhsLayout layout, const uint8_t *b, int64_t ldb,
              const RhsPlan &plan, uint8_t *accumulator, int64_t m, int64_t n, int64_t k,
              bool init, bool *mayHoldNegZero = nullptr);

/// acc[m, n] = A[m, K] x B for K in `tiles.size()` steps of k: step s's
/// rows of B are tiles[s] ([k, n] of `in`, rows `ldb` apart: n when 0,
/// more only for fp32, B read where it lies in GM) with its plan
/// plans[s], A's columns [s * k, (s + 1) * k) its columns (any layout; a
/// K-major one, layout.row 1, runs fastest). The last step has `lastK`
/// real rows: its rows of B from
/// there on must be +0 (K's padding, whose columns of A are +0 and are not
/// read). The sums start from +0 and add each exact product in K order
/// with one rounding: the bits of mmadTile called step by step, with a
/// block of sums kept in registers across steps. False, nothing written,
/// where the host or the shape has no such kernel (the caller then
/// multiplies step by step).
bool mmadSteps(ElementType in, const uint8_t *a, LhsLayout layout,
               const std::vector<const uint8_t *> &tiles,
               const std::vector<const RhsPlan *> &plans, uint8_t *accumulator, int64_t m,
               int64_t n, int64_t k, int64_t lastK, int64_t ldb = 0);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_CUBETILE_H
