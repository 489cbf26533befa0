//===- SparsePatches.cpp - a packed depthwise group straight from the map -===//
//
// A depthwise convolution runs on the cube as CANN runs it: 16 channels
// packed into one cube group with a block-diagonal filter (CubeLowering.cpp),
// so each output channel's column of B holds one channel's window and zeros
// elsewhere. When B's plans list their few nonzeros (RhsPlan's column
// lists) and dropping the zeros changes no bit (no inf, NaN or tiny value
// among the inputs, no -0 in the accumulator; CubeRuntime.cpp says why),
// the cube loop skips the img2col gather. A plain depthwise group (column
// t draws on channel t alone) goes to DepthwiseRows.cpp, each channel's
// sums across output positions. Other packed groups have the input rows a
// tile's windows reach copied into a zero-bordered plane, the channels as
// the fast axis (or one plane per channel when a column draws on several),
// and each nonzero weight multiplies its channel's rows there, every K
// step of the loop in one pass. Every sum still adds its products in K
// order with one rounding each (the padding's products are the zeros they
// are on the device).
//
//===----------------------------------------------------------------------===//

#include "SparsePatches.h"
#include "CacheLineVector.h"
#include "DepthwiseRows.h"
#include "VectorLevel.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#endif

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
  /// The padded input column at plane column 0: a tile within one output
  /// row copies only the columns its windows reach (a 16-position tile of
  /// a 96-wide row copied and transposed six times what it read).
  int64_t firstColumn = 0;
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
                            ow * g.strideW - tile.firstColumn + dw;
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

/// macColumns in the widest vector code this host runs.
void macColumnsOnHost(const PatchPlane &g, const TileGeometry &tile, int64_t m0, int64_t k0,
                      int64_t firstChannel, const float *planes, const RhsPlan &plan, float *acc,
                      int64_t n, float *column) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma:
    return macColumnsAvx512(g, tile, m0, k0, firstChannel, planes, plan, acc, n, column);
  case VectorLevel::Avx2Fma:
    return macColumnsFma(g, tile, m0, k0, firstChannel, planes, plan, acc, n, column);
  case VectorLevel::Plain: break;
  }
#endif
  macColumns(g, tile, m0, k0, firstChannel, planes, plan, acc, n, column);
}

/// The depthwise case: every kept column draws on one input channel, and
/// the kept columns are adjacent in C. The planes are then interleaved,
/// [row][column][t] for kept column t, and so are the weights ([r][t] for
/// window offset r, 0 where the column has none in this tile): one output
/// position's kept columns advance together across the vector, offset by
/// offset, each sum still in K order (a column's entries are its channel's
/// offsets in order; a zero weight adds a +-0 product, which changes no
/// sum without -0).
struct Interleaved {
  int64_t columns;     ///< kept columns, adjacent from `firstColumn`
  int64_t firstColumn; ///< in C
};

/// The lanes an interleaved plane gives `columns` kept columns (at most 64).
inline int64_t laneCount(int64_t columns) {
  return columns <= 8 ? 8 : columns <= 16 ? 16 : columns <= 32 ? 32 : 64;
}

/// kLanes lanes (the kept columns, padded with zero lanes) per position;
/// only the kept columns are read from and written to C. kPositions
/// positions advance together, so that their sums' chains of fused
/// multiply-adds overlap; each sum still adds in window order.
/// `offsets[r]` is window offset r's place in a plane, in floats.
template <int64_t kLanes, int64_t kPositions>
inline __attribute__((always_inline)) void
macPositions(const float *__restrict at, int64_t step, const int64_t *offsets, int64_t window,
             const float *__restrict weights, float *acc, int64_t n, int64_t live) {
  float sums[kPositions][kLanes] = {};
  // (A fixed count when every lane is live: a loop the compiler unrolls,
  // not a call of memcpy.)
  for (int64_t p = 0; p < kPositions; ++p) {
    if (live == kLanes)
      for (int64_t t = 0; t < kLanes; ++t)
        sums[p][t] = acc[p * n + t];
    else
      for (int64_t t = 0; t < live; ++t)
        sums[p][t] = acc[p * n + t];
  }
  for (int64_t r = 0; r < window; ++r) {
    const float *weight = weights + r * kLanes;
    for (int64_t p = 0; p < kPositions; ++p) {
      const float *values = at + p * step + offsets[r];
      for (int64_t t = 0; t < kLanes; ++t)
        sums[p][t] = mac(sums[p][t], values[t], weight[t]);
    }
  }
  for (int64_t p = 0; p < kPositions; ++p) {
    if (live == kLanes)
      for (int64_t t = 0; t < kLanes; ++t)
        acc[p * n + t] = sums[p][t];
    else
      for (int64_t t = 0; t < live; ++t)
        acc[p * n + t] = sums[p][t];
  }
}

/// Calls visit(row, sums, run) for each run of the tile's positions within
/// one output row: `row` the plane at its first position (kLanes floats a
/// position), `sums` its row of C at the first kept column.
template <int64_t kLanes, typename Visit>
inline __attribute__((always_inline)) void
forEachOutputRun(const PatchPlane &g, const TileGeometry &tile, int64_t m0,
                 const Interleaved &layout, const float *planes, float *acc, int64_t n,
                 Visit visit) {
  int64_t i = 0, oh = m0 / g.outW, ow = m0 % g.outW;
  while (i < tile.rows) {
    int64_t run = std::min(tile.rows - i, g.outW - ow);
    visit(planes + ((oh - tile.firstOutRow) * g.strideH * tile.planeWidth + ow * g.strideW -
                    tile.firstColumn) * kLanes,
          acc + i * n + layout.firstColumn, run);
    i += run;
    ow = 0;
    ++oh;
  }
}

template <int64_t kLanes>
inline __attribute__((always_inline)) void
macInterleavedBody(const PatchPlane &g, const TileGeometry &tile, int64_t m0,
                   const Interleaved &layout, const float *__restrict planes,
                   const float *__restrict weights, const int64_t *offsets, float *acc,
                   int64_t n) {
  constexpr int64_t kBlock = 4;
  int64_t live = layout.columns;
  int64_t window = g.kernelH * g.kernelW;
  int64_t step = g.strideW * kLanes;
  // (Inlined, the lambda takes the target its caller is compiled for: as
  // a function of its own it had none, and each fused multiply-add was a
  // call of libm's fmaf.)
  forEachOutputRun<kLanes>(g, tile, m0, layout, planes, acc, n,
                           [&](const float *row, float *sums, int64_t run)
                               __attribute__((always_inline)) {
                             int64_t s = 0;
                             for (; s + kBlock <= run; s += kBlock)
                               macPositions<kLanes, kBlock>(row + s * step, step, offsets,
                                                            window, weights, sums + s * n, n,
                                                            live);
                             for (; s < run; ++s)
                               macPositions<kLanes, 1>(row + s * step, step, offsets, window,
                                                       weights, sums + s * n, n, live);
                           });
}

inline __attribute__((always_inline)) void
macInterleaved(const PatchPlane &g, const TileGeometry &tile, int64_t m0,
               const Interleaved &layout, const float *planes, const float *weights,
               const int64_t *offsets, float *acc, int64_t n) {
  switch (laneCount(layout.columns)) {
  case 8: return macInterleavedBody<8>(g, tile, m0, layout, planes, weights, offsets, acc, n);
  case 16: return macInterleavedBody<16>(g, tile, m0, layout, planes, weights, offsets, acc, n);
  case 32: return macInterleavedBody<32>(g, tile, m0, layout, planes, weights, offsets, acc, n);
  default: return macInterleavedBody<64>(g, tile, m0, layout, planes, weights, offsets, acc, n);
  }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
/// kCount positions' 16 lanes in AVX-512 registers, `live` lanes of C.
template <int64_t kCount>
__attribute__((target("avx512f"), always_inline)) inline void
macPositions16(const float *__restrict at, int64_t step, const int64_t *offsets, int64_t window,
               const float *__restrict weights, float *sums, int64_t n, __mmask16 live) {
  __m512 sum[kCount];
  for (int64_t p = 0; p < kCount; ++p)
    sum[p] = _mm512_maskz_loadu_ps(live, sums + p * n);
  for (int64_t r = 0; r < window; ++r) {
    __m512 weight = _mm512_loadu_ps(weights + r * 16);
    const float *values = at + offsets[r];
    for (int64_t p = 0; p < kCount; ++p)
      sum[p] = _mm512_fmadd_ps(_mm512_loadu_ps(values + p * step), weight, sum[p]);
  }
  for (int64_t p = 0; p < kCount; ++p)
    _mm512_mask_storeu_ps(sums + p * n, live, sum[p]);
}

/// macInterleavedBody<16> in AVX-512 registers, a position's 16 lanes one
/// register: 8 positions advance together (8 chains of fused
/// multiply-adds hide their latency; the generic loop's 4 left the FMA
/// units half idle, and the compiler spilled 8), the live lanes of C read
/// and written under a mask. Each sum adds in window order, as there.
__attribute__((target("avx512f"))) void
macInterleaved16Avx512(const PatchPlane &g, const TileGeometry &tile, int64_t m0,
                       const Interleaved &layout, const float *__restrict planes,
                       const float *__restrict weights, const int64_t *offsets, float *acc,
                       int64_t n) {
  constexpr int64_t kLanes = 16, kBlock = 8;
  auto live = static_cast<__mmask16>((uint32_t{1} << layout.columns) - 1);
  int64_t window = g.kernelH * g.kernelW;
  int64_t step = g.strideW * kLanes;
  // (The lambda names its target: it does not take this function's.)
  forEachOutputRun<kLanes>(
      g, tile, m0, layout, planes, acc, n,
      [&](const float *row, float *sums, int64_t run) __attribute__((target("avx512f"))) {
        int64_t s = 0;
        for (; s + kBlock <= run; s += kBlock)
          macPositions16<kBlock>(row + s * step, step, offsets, window, weights, sums + s * n,
                                 n, live);
        for (; s < run; ++s)
          macPositions16<1>(row + s * step, step, offsets, window, weights, sums + s * n, n,
                            live);
      });
}

__attribute__((target("avx2,fma"))) void
macInterleavedFma(const PatchPlane &g, const TileGeometry &tile, int64_t m0,
                  const Interleaved &layout, const float *planes, const float *weights,
                  const int64_t *offsets, float *acc, int64_t n) {
  macInterleaved(g, tile, m0, layout, planes, weights, offsets, acc, n);
}
__attribute__((target("avx512f,fma"))) void
macInterleavedAvx512(const PatchPlane &g, const TileGeometry &tile, int64_t m0,
                     const Interleaved &layout, const float *planes, const float *weights,
                     const int64_t *offsets, float *acc, int64_t n) {
  macInterleaved(g, tile, m0, layout, planes, weights, offsets, acc, n);
}
#endif

/// macInterleaved in the widest vector code this host runs.
void macInterleavedOnHost(const PatchPlane &g, const TileGeometry &tile, int64_t m0,
                          const Interleaved &layout, const float *planes, const float *weights,
                          const int64_t *offsets, float *acc, int64_t n) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma:
    if (laneCount(layout.columns) == 16)
      return macInterleaved16Avx512(g, tile, m0, layout, planes, weights, offsets, acc, n);
    return macInterleavedAvx512(g, tile, m0, layout, planes, weights, offsets, acc, n);
  case VectorLevel::Avx2Fma:
    return macInterleavedFma(g, tile, m0, layout, planes, weights, offsets, acc, n);
  case VectorLevel::Plain: break;
  }
#endif
  macInterleaved(g, tile, m0, layout, planes, weights, offsets, acc, n);
}

/// An allocator whose resize leaves new floats unset: a plane is zeroed
/// once, by zeroPlane (resizing a vector zeroes new floats one by one). Its
/// storage starts on a cache line: a position's 16 lanes are then one
/// aligned 64-byte load (from a 16-byte-aligned plane every load of the
/// multiply spanned two lines, and a chain of 5x5 depthwise convolutions
/// ran 8% slower).
template <typename T> struct UnsetAllocator : CacheLineAllocator<T> {
  template <typename U> struct rebind {
    using other = UnsetAllocator<U>;
  };
  UnsetAllocator() = default;
  template <typename U> UnsetAllocator(const UnsetAllocator<U> &) noexcept {}
  template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
};
using PlaneVector = std::vector<float, UnsetAllocator<float>>;

/// Every float of `plane` +0, in one memset: the vector's own assign
/// constructs element by element through the allocator (a scalar loop that
/// took a tenth of a chain of depthwise convolutions).
void zeroPlane(PlaneVector &plane) {
  std::memset(plane.data(), 0, plane.size() * sizeof(float));
}

} // namespace

void ascendprec::runtime::detail::layOutSparseSteps(const std::vector<SparseStep> &steps,
                                                    int64_t window, SparseLayout &layout) {
  layout = SparseLayout();
  layout.window = window;
  int64_t first = INT64_MAX, last = -1;
  for (const SparseStep &step : steps) {
    if (step.plan->keptN.empty())
      continue;
    first = std::min(first, step.plan->keptN.front());
    last = std::max(last, step.plan->keptN.back());
  }
  if (last < 0 || last - first + 1 > 64)
    return;
  layout.columns = last - first + 1;
  layout.firstColumn = first;
  layout.lanes = laneCount(layout.columns);
  layout.channelOf.assign(layout.lanes, -1);
  layout.weights.assign(window * layout.lanes, 0.0f);
  for (const SparseStep &step : steps) {
    const RhsPlan &plan = *step.plan;
    for (size_t t = 0; t + 1 < plan.columnStart.size(); ++t) {
      int64_t lane = plan.keptN[t] - first;
      for (int64_t e = plan.columnStart[t]; e < plan.columnStart[t + 1]; ++e) {
        int64_t kAt = step.k0 + plan.columnRows[e];
        int64_t channel = kAt / window;
        if (layout.channelOf[lane] >= 0 && layout.channelOf[lane] != channel)
          return; // a column draws on two channels: not interleaved
        layout.channelOf[lane] = channel;
        layout.weights[(kAt % window) * layout.lanes + lane] = plan.columnWeights[e];
      }
    }
  }
  layout.windows.resize(layout.columns * window);
  for (int64_t t = 0; t < layout.columns; ++t)
    for (int64_t r = 0; r < window; ++r)
      layout.windows[t * window + r] = layout.weights[r * layout.lanes + t];
  layout.interleaved = true;
}

bool ascendprec::runtime::detail::multiplySparsePatches(ElementType in, const uint8_t *source,
                                                        const PatchPlane &g, int64_t m0,
                                                        int64_t m, int64_t k,
                                                        const std::vector<SparseStep> &steps,
                                                        const SparseLayout &table, float *acc,
                                                        int64_t n) {
  if (steps.empty() || g.columnStride != 1 || table.window != g.kernelH * g.kernelW ||
      (in != ElementType::F32 && in != ElementType::F16 && in != ElementType::BF16))
    return false;
  TileGeometry tile;
  tile.rows = std::clamp<int64_t>(g.outH * g.outW - m0, 0, m);
  if (tile.rows == 0 || k == 0)
    return true; // A is all zeros (rows past the output): +-0 products
  int64_t window = g.kernelH * g.kernelW;
  // Every channel the steps' K covers, whether or not its weights are
  // zero: an inf there makes NaN products on the device.
  int64_t firstChannel = steps.front().k0 / window;
  int64_t lastChannel = std::min((steps.back().k0 + k - 1) / window, g.channels - 1);
  int64_t channels = std::max<int64_t>(lastChannel - firstChannel + 1, 0);
  thread_local PlaneVector planes;
  thread_local std::vector<float> column;
  bool interleaved = table.interleaved;
  Interleaved layout{table.columns, table.firstColumn};
  // The common case: lane t holds channel firstChannel + t, every channel
  // of the K range has its lane. Each channel's sums then run across
  // output positions (DepthwiseRows.cpp).
  bool direct = interleaved && layout.columns == channels;
  for (int64_t t = 0; direct && t < channels; ++t)
    direct = table.channelOf[t] == firstChannel + t;
  int64_t lanes = interleaved ? table.lanes : 1;
  int64_t bytes = in == ElementType::F32 ? 4 : 2;
  const uint8_t *firstPlane = source + (g.base + firstChannel * g.channelStride) * bytes;
  if (direct)
    return multiplyDepthwiseRows(in, firstPlane, g, m0, tile.rows, channels,
                                 table.windows.data(), acc + layout.firstColumn, n);
  // Else the input rows and columns the tile's windows reach, padding
  // included, in planes: one interleaved plane of the lanes, or one plane
  // per channel.
  tile.firstOutRow = m0 / g.outW;
  int64_t lastOutRow = (m0 + tile.rows - 1) / g.outW;
  tile.planeWidth = (g.outW - 1) * g.strideW + (g.kernelW - 1) * g.dilationW + 1;
  tile.planeRows = (lastOutRow - tile.firstOutRow) * g.strideH + (g.kernelH - 1) * g.dilationH + 1;
  if (lastOutRow == tile.firstOutRow) {
    tile.firstColumn = (m0 % g.outW) * g.strideW;
    tile.planeWidth = (tile.rows - 1) * g.strideW + (g.kernelW - 1) * g.dilationW + 1;
  }
  int64_t top = tile.firstOutRow * g.strideH - g.padTop;
  int64_t planeSize = tile.planeRows * tile.planeWidth;
  int64_t planeFloats = (interleaved ? 1 : channels) * planeSize * lanes;
  int64_t hBegin = std::max<int64_t>(top, 0);
  int64_t hEnd = std::min(top + tile.planeRows, g.height);
  // Input column w sits at plane column w + padLeft - firstColumn; columns
  // outside the plane are never read.
  int64_t shift = g.padLeft - tile.firstColumn;
  int64_t wEnd = std::min(g.width, tile.planeWidth - shift);
  int64_t wBegin = std::max<int64_t>(0, -shift);
  int64_t width = std::max<int64_t>(wEnd - wBegin, 0);
  bool found = false;
  planes.resize(planeFloats);
  zeroPlane(planes);
  column.resize(width);
  for (int64_t c = 0; c < channels; ++c) {
    const uint8_t *channel = firstPlane + c * g.channelStride * bytes;
    for (int64_t h = hBegin; h < hEnd && width > 0; ++h) {
      int64_t at = (h - top) * tile.planeWidth + shift + wBegin;
      const uint8_t *line = channel + (h * g.rowStride + wBegin) * bytes;
      float *target = interleaved ? column.data() : planes.data() + c * planeSize + at;
      widenToFloat(in, line, target, width);
      found |= holdsUnusual(target, width);
      // Into the lanes of the columns that draw on this channel.
      for (int64_t t = 0; interleaved && t < layout.columns; ++t)
        if (table.channelOf[t] == firstChannel + c)
          for (int64_t w = 0; w < width; ++w)
            planes[(at + w) * lanes + t] = target[w];
    }
  }
  if (found)
    return false;
  if (interleaved) {
    thread_local std::vector<int64_t> offsets;
    offsets.resize(window);
    for (int64_t r = 0; r < window; ++r)
      offsets[r] = ((r / g.kernelW) * g.dilationH * tile.planeWidth +
                    (r % g.kernelW) * g.dilationW) * lanes;
    macInterleavedOnHost(g, tile, m0, layout, planes.data(), table.weights.data(),
                         offsets.data(), acc, n);
    return true;
  }
  // Step by step, in K order.
  column.resize(tile.rows);
  for (const SparseStep &step : steps)
    macColumnsOnHost(g, tile, m0, step.k0, firstChannel, planes.data(), *step.plan, acc, n,
                     column.data());
  return true;
}
