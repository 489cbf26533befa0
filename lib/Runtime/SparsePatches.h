//===- SparsePatches.h - a packed depthwise group straight from the map ---===//
//
// Internal to lib/Runtime: the cube loop's multiply of an img2col tile by a
// sparse tile of B without gathering the tile (SparsePatches.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_SPARSEPATCHES_H
#define ASCENDPREC_LIB_RUNTIME_SPARSEPATCHES_H

#include "CubeTile.h"
#include "PatchPlane.h"

#include <vector>

namespace ascendprec::runtime::detail {

/// One K step of a cube loop: its first K index and its tile of B's plan.
struct SparseStep {
  int64_t k0;
  const RhsPlan *plan;
};

/// How a packed group's steps of B lay out their nonzeros: when each kept
/// column draws on one channel and the kept columns are adjacent (at most
/// 64; `interleaved`), column t = firstColumn + lane's channel and its
/// weights, [window offset][lane] (0 where it has none). Made once per list
/// of kept tiles by its keeper: the table costs a division per weight.
struct SparseLayout {
  int64_t window = 0; ///< the kernel window it was made for
  bool interleaved = false;
  int64_t columns = 0, firstColumn = 0, lanes = 1;
  std::vector<int64_t> channelOf;
  std::vector<float> weights;
  /// The same weights column by column, [column][window offset] (the
  /// layout DepthwiseRows.cpp reads a channel's window in).
  std::vector<float> windows;
};

/// The layout of `steps` for a kernel window of `window` elements (a
/// column's entries stay in K order, the steps being in K order).
void layOutSparseSteps(const std::vector<SparseStep> &steps, int64_t window,
                       SparseLayout &layout);

/// acc[m, n] (row-major, fp32, +0 on entry: the loop's first step starts
/// from +0) += the img2col tile of `source` (the feature map `g`
/// describes) at rows [m0, m0 + m), times B, over the K steps in order
/// (each k columns deep), B as each step's plan lists its nonzeros column
/// by column (`layout` from layOutSparseSteps): each product added in K
/// order with one rounding. Every plan must list its nonzeros and none be
/// tiny (the caller checks that once per list of tiles: reading each plan
/// again for every tile of A missed the cache once per step). Returns
/// false, having changed nothing, when an input the steps cover is inf,
/// NaN or tiny (dropping B's zeros would then change bits): the caller
/// multiplies in full.
bool multiplySparsePatches(ElementType in, const uint8_t *source, const PatchPlane &g,
                           int64_t m0, int64_t m, int64_t k, const std::vector<SparseStep> &steps,
                           const SparseLayout &layout, float *acc, int64_t n);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_SPARSEPATCHES_H
