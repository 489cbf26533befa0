//===- PatchPlane.h - a 2-D convolution's img2col geometry ----------------===//
//
// Shared by the cube loop's K-major gather (CubeLoop.cpp) and its direct
// multiply of sparse patches (SparsePatches.cpp). Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_PATCHPLANE_H
#define ASCENDPREC_LIB_RUNTIME_PATCHPLANE_H

#include "RuntimeBuffers.h"

#include <cstdint>
#include <vector>

namespace ascendprec::runtime::detail {

/// A 2-D convolution's patch geometry, from img2col's params as the codegen
/// packs them: kernel[2], strides[2], pads[4] (begin, end per axis),
/// dilations[2], out[2], c0, input dilations[2]. The input dilations
/// (`spread`, a transposed convolution's strides) are 1 unless the caller
/// asks for them.
struct PatchPlane {
  int64_t kernelH, kernelW, strideH, strideW, padTop, padLeft, dilationH, dilationW;
  int64_t outH, outW;
  int64_t channels, channelStride, height, rowStride, width, columnStride;
  int64_t base; ///< element offset of the leading (batch, group) offsets
  /// A transposed convolution's input spread out by its strides: map
  /// position (h, w) is at (h * spreadH, w * spreadW), zeros between.
  int64_t spreadH = 1, spreadW = 1;
};

inline bool patchPlaneOf(const Buffer &gm, const std::vector<int64_t> &offsets,
                         const std::vector<int64_t> &p, PatchPlane &plane,
                         bool allowSpread = false) {
  if (p.size() != 15 || gm.rank < 3 || p[13] < 1 || p[14] < 1 ||
      (!allowSpread && (p[13] != 1 || p[14] != 1)))
    return false;
  int64_t lead = gm.rank - 3;
  if (static_cast<int64_t>(offsets.size()) < lead + 2)
    return false;
  plane = {p[0], p[1], p[2], p[3], p[4], p[6], p[8], p[9], p[10], p[11],
           gm.sizes[lead], gm.strides[lead], gm.sizes[lead + 1], gm.strides[lead + 1],
           gm.sizes[lead + 2], gm.strides[lead + 2], 0, p[13], p[14]};
  for (int64_t d = 0; d < lead; ++d) {
    if (offsets[d] < 0 || offsets[d] >= gm.sizes[d])
      return false; // the general loader zero-fills such a tile
    plane.base += offsets[d] * gm.strides[d];
  }
  return plane.strideH > 0 && plane.strideW > 0 && plane.outH > 0 && plane.outW > 0 &&
         plane.kernelH > 0 && plane.kernelW > 0;
}

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_PATCHPLANE_H
