//===- DepthwiseRows.h - a packed depthwise group channel by channel ------===//
//
// Internal to lib/Runtime: the multiply of a packed depthwise group's tile
// with each channel's sums across output positions (DepthwiseRows.cpp),
// for SparsePatches.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_DEPTHWISEROWS_H
#define ASCENDPREC_LIB_RUNTIME_DEPTHWISEROWS_H

#include "PatchPlane.h"

#include "AscendPrec/Runtime/HostTensor.h"

#include <cstdint>

namespace ascendprec::runtime::detail {

/// acc[i, t] = the window products of output position m0 + i of the map
/// `g`, for i < rows and t < channels: channel t's plane starts at
/// `firstPlane` + t channel strides (elements of `in`), and window offset
/// r of column t weighs windows[t * window + r]. Each sum adds its products
/// in window order from +0, one fused multiply-add each, as the cube's
/// steps do from their initial step; acc's rows are n floats apart. The
/// products of rows past the map's edge are skipped and those of columns
/// past it add +0, which is exact when no input is inf, NaN or under
/// 2^-50 (no sum is then -0): returns false, having written nothing, when
/// an input the tile reads is one of those (the caller then multiplies in
/// full).
bool multiplyDepthwiseRows(ElementType in, const uint8_t *firstPlane, const PatchPlane &g,
                           int64_t m0, int64_t rows, int64_t channels, const float *windows,
                           float *acc, int64_t n);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_DEPTHWISEROWS_H
