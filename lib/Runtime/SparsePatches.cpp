//===- SparsePatches.cpp - a packed depthwise group straight from the map -===//
//
// A depthwise convolution runs on the cube as CANN runs it: 16 channels
// packed into one cube group with a block-diagonal filter (CubeLowering.cpp),
// so each output channel's column of B holds one channel's window and zeros
// elsewhere. When B's plan lists its few nonzeros (RhsPlan's column lists)
// and dropping the zeros changes no bit (no inf, NaN or tiny value among
// the inputs, no -0 in the accumulator; CubeRuntime.cpp says why), the
// cube loop skips the img2col gather: each nonzero weight multiplies its
// channel's input rows where they are, widened once per tile into a
// zero-bordered plane. Every sum still adds its products in K order with
// one rounding each (the padding's products are the zeros they are on the
// device).
//
//===----------------------------------------------------------------------===//

#include "SparsePatches.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

inline __attribute__((always_inline)) float mac(float sum, float a, float b) {
  return __builtin_fmaf(a, b, sum);
}

/// column[i] += plane values x weight along one output row's segment: the
/// inputs are every `stride`-th element from `from`.
inline __attribute__((always_inline)) void macSegment(float *__restrict column,
                                                      const float *__restrict from,
                                                      int64_t stride, float weight,
                                                      int64_t count) {
  if (stride == 1) {
    for (int64_t i = 0; i < count; ++i)
      column[i] = mac(column[i], from[i], weight);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    column[i] = mac(column[i], from[i * stride], weight);
}

/// What one tile needs: the planes' layout and the segments of its rows.
struct TileGeometry {
  int64_t rows;        ///< valid output positions in the tile
  int64_t firstOutRow; ///< the output row of the tile's first position
  int64_t planeRows, planeWidth;
};

/// Every kept column of C from the plan's nonzeros, reading the planes.
inline __attribute__((always_inline)) void
macColumns(const PatchPlane &g, const TileGeometry &tile, int64_t m0, int64_t k0,
           int64_t firstChannel, const float *planes, const RhsPlan &plan, float *acc, int64_t n,
           float *__restrict column) {
  int64_t window = g.kernelH * g.kernelW;
  int64_t planeSize = tile.planeRows * tile.planeWidth;
  for (size_t t = 0; t + 1 < plan.columnStart.size(); ++t) {
    int64_t j = plan.keptN[t];
    for (int64_t i = 0; i < tile.rows; ++i)
      column[i] = acc[i * n + j];
    for (int64_t e = plan.columnStart[t]; e < plan.columnStart[t + 1]; ++e) {
      int64_t kAt = k0 + plan.columnRows[e];
      int64_t c = kAt / window, r = kAt % window;
      if (c >= g.channels)
        continue; // A is zero there: the products are +-0
      const float *channel = planes + (c - firstChannel) * planeSize;
      int64_t dh = (r / g.kernelW) * g.dilationH, dw = (r % g.kernelW) * g.dilationW;
      float weight = plan.columnWeights[e];
      int64_t i = 0, oh = m0 / g.outW, ow = m0 % g.outW;
      while (i < tile.rows) {
        int64_t run = std::min(tile.rows - i, g.outW - ow);
        const float *from = channel +
                            ((oh - tile.firstOutRow) * g.strideH + dh) * tile.planeWidth +
                            ow * g.strideW + dw;
        macSegment(column + i, from, g.strideW, weight, run);
        i += run;
        ow = 0;
        ++oh;
      }
    }
    for (int64_t i = 0; i < tile.rows; ++i)
      acc[i * n + j] = column[i];
  }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2,fma"))) void macColumnsFma(const PatchPlane &g,
                                                       const TileGeometry &tile, int64_t m0,
                                                       int64_t k0, int64_t firstChannel,
                                                       const float *planes, const RhsPlan &plan,
                                                       float *acc, int64_t n, float *column) {
  macColumns(g, tile, m0, k0, firstChannel, planes, plan, acc, n, column);
}
__attribute__((target("avx512f,fma"))) void
macColumnsAvx512(const PatchPlane &g, const TileGeometry &tile, int64_t m0, int64_t k0,
                 int64_t firstChannel, const float *planes, const RhsPlan &plan, float *acc,
                 int64_t n, float *column) {
  macColumns(g, tile, m0, k0, firstChannel, planes, plan, acc, n, column);
}
#endif

/// Whether a widened value is inf, NaN or a nonzero under 2^-50.
inline uint32_t unusual(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t magnitude = bits & 0x7FFFFFFFu;
  return static_cast<uint32_t>(magnitude >= 0x7F800000u) |
         static_cast<uint32_t>(magnitude - 1 < 0x26800000u - 1);
}

} // namespace

bool ascendprec::runtime::detail::multiplySparsePatches(ElementType in, const uint8_t *source,
                                                        const PatchPlane &g, int64_t m0,
                                                        int64_t k0, int64_t m, int64_t k,
                                                        const RhsPlan &plan, float *acc,
                                                        int64_t n) {
  if (plan.columnStart.empty() || plan.tiny || g.columnStride != 1 ||
      (in != ElementType::F32 && in != ElementType::F16 && in != ElementType::BF16))
    return false;
  TileGeometry tile;
  tile.rows = std::clamp<int64_t>(g.outH * g.outW - m0, 0, m);
  if (tile.rows == 0 || k == 0)
    return true; // A is all zeros (rows past the output): +-0 products
  int64_t window = g.kernelH * g.kernelW;
  // Every channel the tile's K covers, whether or not its weights are
  // zero: an inf there makes NaN products on the device.
  int64_t firstChannel = k0 / window;
  int64_t lastChannel = std::min((k0 + k - 1) / window, g.channels - 1);
  int64_t channels = std::max<int64_t>(lastChannel - firstChannel + 1, 0);
  tile.firstOutRow = m0 / g.outW;
  int64_t lastOutRow = (m0 + tile.rows - 1) / g.outW;
  // The input rows and columns the tile's windows reach, padding included.
  int64_t top = tile.firstOutRow * g.strideH - g.padTop;
  tile.planeRows = (lastOutRow - tile.firstOutRow) * g.strideH + (g.kernelH - 1) * g.dilationH + 1;
  tile.planeWidth = (g.outW - 1) * g.strideW + (g.kernelW - 1) * g.dilationW + 1;
  int64_t planeSize = tile.planeRows * tile.planeWidth;
  thread_local std::vector<float> planes, column;
  planes.assign(channels * planeSize, 0.0f);
  column.resize(tile.rows);
  int64_t bytes = in == ElementType::F32 ? 4 : 2;
  int64_t hBegin = std::max<int64_t>(top, 0);
  int64_t hEnd = std::min(top + tile.planeRows, g.height);
  // Input column w sits at plane column w + padLeft; columns past the
  // plane's width are never read.
  int64_t wEnd = std::min(g.width, tile.planeWidth - g.padLeft);
  int64_t wBegin = std::max<int64_t>(0, -g.padLeft);
  uint32_t found = 0;
  for (int64_t c = 0; c < channels; ++c) {
    const uint8_t *channel = source + (g.base + (firstChannel + c) * g.channelStride) * bytes;
    float *plane = planes.data() + c * planeSize;
    for (int64_t h = hBegin; h < hEnd && wBegin < wEnd; ++h) {
      float *row = plane + (h - top) * tile.planeWidth + g.padLeft + wBegin;
      widenToFloat(in, channel + (h * g.rowStride + wBegin) * bytes, row, wEnd - wBegin);
      for (int64_t w = 0; w < wEnd - wBegin; ++w)
        found |= unusual(row[w]);
    }
  }
  if (found)
    return false;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  static const bool fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  static const bool avx512 = fma && __builtin_cpu_supports("avx512f");
  if (avx512)
    macColumnsAvx512(g, tile, m0, k0, firstChannel, planes.data(), plan, acc, n, column.data());
  else if (fma)
    macColumnsFma(g, tile, m0, k0, firstChannel, planes.data(), plan, acc, n, column.data());
  else
#endif
    macColumns(g, tile, m0, k0, firstChannel, planes.data(), plan, acc, n, column.data());
  return true;
}
