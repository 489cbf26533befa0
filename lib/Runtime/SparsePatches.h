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

/// acc[m, n] (row-major, fp32) += the img2col tile of `source` (the
/// feature map `g` describes) at rows [m0, m0 + m), times B, over the K
/// steps in order (each k columns deep), B as each step's plan lists its
/// nonzeros column by column: each product added in K order with one
/// rounding. The accumulator must hold no -0. Returns false, having
/// changed nothing, when a plan has no column lists or is tiny, or an
/// input the steps cover is inf, NaN or tiny (dropping B's zeros would then
/// change bits): the caller multiplies in full. `launch` names the launch
/// the tile belongs to (0: none); within one, no block writes the map, so a
/// thread keeps the map's transposed plane for the launch's later tiles.
/// While `planEpoch` (0: none) stays the same, a plan's address names its
/// contents, and the weight table made from the steps' plans is kept.
/// `plansListed`: the caller has checked that every plan lists its
/// nonzeros and none is tiny (the plans are then not read again).
bool multiplySparsePatches(ElementType in, const uint8_t *source, const PatchPlane &g,
                           int64_t m0, int64_t m, int64_t k, const std::vector<SparseStep> &steps,
                           float *acc, int64_t n, uint64_t launch, uint64_t planEpoch,
                           bool plansListed = false);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_SPARSEPATCHES_H
