//===- DirectPatches.h - a convolution's tile straight from the map ------===//
//
// Internal to lib/Runtime: the cube loop's multiply of a stride-1 (along
// W) convolution's img2col tile computed from a padded copy of the map's
// rows, without gathering the patch matrix (DirectPatches.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_DIRECTPATCHES_H
#define ASCENDPREC_LIB_RUNTIME_DIRECTPATCHES_H

#include "PatchPlane.h"

#include "AscendPrec/Runtime/HostTensor.h"

#include <cstdint>
#include <vector>

namespace ascendprec::runtime::detail {

/// acc[m, n] (row-major, fp32) = the img2col tile of `source` (the feature
/// map `g` describes, stride 1 along W) at rows [m0, m0 + m), times B over
/// the K steps in order: step s is B's tile `steps[s]` ([k, n] of `in`,
/// row-major), for K indices [s * k, (s + 1) * k). Every product of the
/// full tile is added, in K order, one fused multiply-add each, as the
/// loop's mmads add them: the result is the loop's bits whatever the
/// values. Returns false, having changed nothing, for a geometry it does
/// not take (strideW > 1, a spread map, n not a multiple of 16, K shorter
/// than the patch, a map too large to copy). While `epoch` (0: none) stays
/// the same, a step's address names its bytes, and B widened to fp32 is
/// kept for later tiles.
bool multiplyDirectPatches(ElementType in, const uint8_t *source, const PatchPlane &g, int64_t m0,
                           int64_t m, int64_t k, const std::vector<const uint8_t *> &steps,
                           float *acc, int64_t n, uint64_t epoch);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_DIRECTPATCHES_H
