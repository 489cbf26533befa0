//===- ResizeTaps.h - which input pixels a resized pixel reads -----------===//
//
// The taps of a ResizeBilinearV2 / ResizeBicubic along one axis, shared by
// the runtime (which weighs them) and the lowering (which cuts planes into
// windows and must load every row and column a window's taps read).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_RUNTIME_RESIZETAPS_H
#define ASCENDPREC_RUNTIME_RESIZETAPS_H

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace ascendprec::runtime {

/// One tap along an axis: the index it reads and its weight.
struct ResizeTap {
  int64_t index;
  double weight;
};

/// Up to four taps (bilinear 2, bicubic 4) of output position `o` of an
/// axis resized from `in` to `out`.
struct ResizeTaps {
  std::array<ResizeTap, 4> taps;
  int count = 0;
};

/// Cubic convolution weights (a = -0.75) of the taps at floor - 1 ..
/// floor + 2 for fraction t.
inline std::array<double, 4> cubicWeights(double t) {
  constexpr double a = -0.75;
  auto near = [](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

/// Ascend IR's mapping: scale in / out, or (in - 1) / (out - 1) aligning
/// corners; half_pixel samples at (o + 0.5) * scale - 0.5; taps past the
/// edge read the edge.
inline ResizeTaps resizeTaps(InterpMode mode, InterpCoordinates coordinates, int64_t o,
                             int64_t in, int64_t out) {
  double scale = coordinates == InterpCoordinates::AlignCorners
                     ? (out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0)
                     : static_cast<double>(in) / static_cast<double>(out);
  double x = coordinates == InterpCoordinates::HalfPixel ? (o + 0.5) * scale - 0.5 : o * scale;
  double first = std::floor(x), t = x - first;
  auto base = static_cast<int64_t>(first);
  auto clamp = [&](int64_t i) { return std::min(std::max<int64_t>(i, 0), in - 1); };
  ResizeTaps result;
  if (mode == InterpMode::Bilinear) {
    result.taps[0] = {clamp(base), 1 - t};
    result.taps[1] = {clamp(base + 1), t};
    result.count = 2;
    return result;
  }
  std::array<double, 4> w = cubicWeights(t);
  for (int k = 0; k < 4; ++k)
    result.taps[k] = {clamp(base - 1 + k), w[k]};
  result.count = 4;
  return result;
}

} // namespace ascendprec::runtime

#endif // ASCENDPREC_RUNTIME_RESIZETAPS_H
