//===- SpreadPatches.h - a transposed convolution without its zeros -------===//
//
// Internal to lib/Runtime: the cube loop's multiply of a transposed
// convolution's img2col tile (the input spread out by the strides) without
// the products of the inserted zeros (SpreadPatches.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_SPREADPATCHES_H
#define ASCENDPREC_LIB_RUNTIME_SPREADPATCHES_H

#include "PatchPlane.h"

#include "AscendPrec/Runtime/HostTensor.h"

#include <cstdint>
#include <vector>

namespace ascendprec::runtime::detail {

/// acc[m, n] (row-major, fp32) = the img2col tile of `source` (the spread
/// feature map `g` describes) at rows [m0, m0 + m), times B over the K
/// steps in order: step s is B's tile `steps[s]` ([k, n] of `in`,
/// row-major), for K indices [s * k, (s + 1) * k). Each output position
/// multiplies only the window offsets that land on map positions, in K
/// order, through the same multiply as the full tile: the result is the
/// full tile's bits. Returns false, having changed nothing, when dropping
/// the zeros could change a bit (a value of B that is inf, NaN or tiny, an
/// input that is tiny; CubeRuntime.cpp says why): the caller multiplies in
/// full.
bool multiplySpreadPatches(ElementType in, const uint8_t *source, const PatchPlane &g,
                           int64_t m0, int64_t m, int64_t k,
                           const std::vector<const uint8_t *> &steps, float *acc, int64_t n);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_SPREADPATCHES_H
