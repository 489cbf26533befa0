//===- StridedCopy.h - every stride-th element of a row -------------------===//
//
// A convolution with a stride along W reads every stride-th input of a
// row: depthwise rows split by stride phase (DepthwiseRows.cpp) and img2col
// patches gathered K-major (CubeLoop.cpp). Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_STRIDEDCOPY_H
#define ASCENDPREC_LIB_RUNTIME_STRIDEDCOPY_H

#include <cstdint>

namespace ascendprec::runtime::detail {

/// to[j] = from[j * stride] for j < count. Stride 2 as a constant: a loop
/// the compiler vectorizes (element by element, splitting a stride-2
/// convolution's rows took longer than its multiply, and gathering its
/// patches most of its time).
template <typename T>
inline void copyStrided(const T *from, int64_t stride, T *to, int64_t count) {
  if (stride == 2) {
    for (int64_t j = 0; j < count; ++j)
      to[j] = from[2 * j];
    return;
  }
  for (int64_t j = 0; j < count; ++j)
    to[j] = from[j * stride];
}

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_STRIDEDCOPY_H
