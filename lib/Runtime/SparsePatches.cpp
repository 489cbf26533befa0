//===- SparsePatches.cpp - a packed depthwise group straight from the map -===//
//
// A depthwise convolution runs on the cube as CANN runs it: 16 channels
// packed into one cube group with a block-diagonal filter (CubeLowering.cpp),
// so each output channel's column of B holds one channel's window and zeros
// elsewhere. When B's plans list their few nonzeros (RhsPlan's column
// lists) and dropping the zeros changes no bit (no inf, NaN or tiny value
// among the inputs, no -0 in the accumulator; CubeRuntime.cpp says why),
// the cube loop skips the img2col gather: the input rows a tile's windows
// reach are copied once into a zero-bordered plane, the channels as the
// fast axis (or one plane per channel when a column draws on several), and
// each nonzero weight multiplies its channel's rows there, every K step of
// the loop in one pass. Every sum still adds its products in K order with
// one rounding each (the padding's products are the zeros they are on the
// device).
//
//===----------------------------------------------------------------------===//

#include "SparsePatches.h"
#include "CacheLineVector.h"
#include "Transpose.h"
#include "VectorLevel.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
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

bool interleavedLayout(const std::vector<SparseStep> &steps, int64_t window,
                       Interleaved &layout, std::vector<int64_t> &channelOf,
                       std::vector<float> &weights);

/// The interleaved layout of a group's steps (interleavedLayout below):
/// whether there is one, and its lanes' channels and weights.
struct InterleavedTable {
  bool interleaved = false;
  Interleaved layout{};
  std::vector<int64_t> channelOf;
  std::vector<float> weights;
};

/// interleavedLayout, kept per thread while `epoch` says a plan's address
/// names its contents (for a launch, or while a model's weights' tiles
/// stay): the tiles of a group and the later launches of its kernel take
/// the same plans, and the table (a division per nonzero weight) took a
/// tenth of a depthwise convolution's time. Read where it is kept (copying
/// its weights out for each tile cost 5% of a chain of 5x5 depthwise
/// convolutions).
const InterleavedTable &keptLayout(const std::vector<SparseStep> &steps, int64_t window,
                                   uint64_t epoch) {
  thread_local std::map<std::vector<int64_t>, InterleavedTable> kept;
  thread_local InterleavedTable unkept;
  thread_local std::vector<int64_t> key;
  if (epoch == 0) {
    unkept.interleaved =
        interleavedLayout(steps, window, unkept.layout, unkept.channelOf, unkept.weights);
    return unkept;
  }
  key.assign({static_cast<int64_t>(epoch), window});
  for (const SparseStep &step : steps) {
    key.push_back(step.k0);
    key.push_back(reinterpret_cast<int64_t>(step.plan));
  }
  auto found = kept.find(key);
  if (found != kept.end())
    return found->second;
  if (kept.size() >= 4096)
    kept.clear(); // old epochs' tables
  InterleavedTable &table = kept[key];
  table.interleaved =
      interleavedLayout(steps, window, table.layout, table.channelOf, table.weights);
  return table;
}

/// An allocator whose resize leaves new floats unset: a plane is written
/// whole (rows, then zeros where no row reaches), and zeroing a rebuilt
/// 270 KB plane first took a tenth of a depthwise convolution's time. Its
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

/// Whole-map planes a thread keeps for the launch (a few groups of
/// channels: a block's tiles go from group to group), each with whether it
/// holds an inf, NaN or tiny value.
struct KeptPlane {
  std::array<int64_t, 12> key{};
  PlaneVector plane;
  bool unusual = false;
  uint64_t used = 0;
};
constexpr size_t kKeptPlanes = 16;
thread_local std::vector<KeptPlane> keptPlanes(kKeptPlanes);
thread_local uint64_t planeUses = 0;

/// The plane kept under `key` (`kept`, with `unusual`), else one to build
/// it in (keepPlane names it once built): a stale one (an earlier launch's)
/// whose storage is large enough, else the least recently used. Past 4 MiB
/// of planes in all, stale planes' storage is given back, the least
/// recently used first. (Giving back every other plane, as this did, made
/// each launch allocate its planes afresh: a third of a depthwise
/// convolution went in zeroing or faulting in new storage.)
PlaneVector &keptPlane(const std::array<int64_t, 12> &key, bool &kept, bool &unusual) {
  int64_t launch = key[0];
  auto stale = [&](const KeptPlane &entry) { return entry.key[0] != launch; };
  for (KeptPlane &entry : keptPlanes)
    if (entry.key == key && launch != 0) {
      entry.used = ++planeUses;
      kept = true;
      unusual = entry.unusual;
      return entry.plane;
    }
  KeptPlane *target = nullptr;
  for (KeptPlane &entry : keptPlanes) {
    bool roomy = stale(entry) && entry.plane.capacity() > 0;
    bool targetRoomy = target && stale(*target) && target->plane.capacity() > 0;
    if (!target || (roomy && !targetRoomy) || (roomy == targetRoomy && entry.used < target->used))
      target = &entry;
  }
  size_t floats = 0;
  for (const KeptPlane &entry : keptPlanes)
    floats += entry.plane.capacity();
  while (floats > (size_t{1} << 20)) {
    KeptPlane *victim = nullptr;
    for (KeptPlane &entry : keptPlanes)
      if (&entry != target && stale(entry) && entry.plane.capacity() > 0 &&
          (!victim || entry.used < victim->used))
        victim = &entry;
    if (!victim)
      break;
    floats -= victim->plane.capacity();
    *victim = KeptPlane();
  }
  kept = false;
  target->key = {};
  target->used = ++planeUses;
  return target->plane;
}

/// Names the plane keptPlane handed out last for building.
void keepPlane(const std::array<int64_t, 12> &key, bool unusual) {
  for (KeptPlane &entry : keptPlanes)
    if (entry.used == planeUses) {
      entry.key = key;
      entry.unusual = unusual;
      return;
    }
}

/// The interleaved layout of the steps' columns when each draws on one
/// channel and together they are adjacent (at most 64): `channelOf` gets
/// each column's channel and `weights` the [window][lanes] weights, every
/// step's in one table (a K index is one step's, so no entry is written
/// twice; a column's entries stay in K order, the steps being in K order).
bool interleavedLayout(const std::vector<SparseStep> &steps, int64_t window,
                       Interleaved &layout, std::vector<int64_t> &channelOf,
                       std::vector<float> &weights) {
  int64_t first = INT64_MAX, last = -1;
  for (const SparseStep &step : steps) {
    if (step.plan->keptN.empty())
      continue;
    first = std::min(first, step.plan->keptN.front());
    last = std::max(last, step.plan->keptN.back());
  }
  if (last < 0 || last - first + 1 > 64)
    return false;
  layout = {last - first + 1, first};
  int64_t lanes = laneCount(layout.columns);
  channelOf.assign(lanes, -1);
  weights.assign(window * lanes, 0.0f);
  for (const SparseStep &step : steps) {
    const RhsPlan &plan = *step.plan;
    for (size_t t = 0; t + 1 < plan.columnStart.size(); ++t) {
      int64_t lane = plan.keptN[t] - first;
      for (int64_t e = plan.columnStart[t]; e < plan.columnStart[t + 1]; ++e) {
        int64_t kAt = step.k0 + plan.columnRows[e];
        int64_t channel = kAt / window;
        if (channelOf[lane] >= 0 && channelOf[lane] != channel)
          return false;
        channelOf[lane] = channel;
        weights[(kAt % window) * lanes + lane] = plan.columnWeights[e];
      }
    }
  }
  return true;
}

/// The input rows a plane covers: rows [hBegin, hEnd) of the map from
/// plane row 0 = map row `top`, map columns [wBegin, wBegin + width) at
/// plane column w + shift.
struct PlaneSpan {
  int64_t top, hBegin, hEnd, shift, wBegin, width;
};

/// The plane of `channels` channels from `firstPlane` in `lanes` lanes (the
/// channels the fast axis): the rows transposed, padding as zeros. Returns
/// whether a value copied is inf, NaN or tiny (scanning the rows read, not
/// the plane: its padding and spare lanes are zeros, two thirds of a 5x5
/// window's plane on a map 2 rows high).
bool fillLanePlane(ElementType in, const uint8_t *firstPlane, const PatchPlane &g,
                   const TileGeometry &tile, const PlaneSpan &span, int64_t channels,
                   int64_t lanes, PlaneVector &planes) {
  thread_local std::vector<uint8_t> raw;
  bool unusual = false;
  int64_t bytes = in == ElementType::F32 ? 4 : 2;
  int64_t planeFloats = tile.planeRows * tile.planeWidth * lanes;
  auto [top, hBegin, hEnd, shift, wBegin, width] = span;
  // Only what the input does not cover is zeroed: padding rows, and the
  // padding columns of the rest; all of it when there are lanes past the
  // channels (12 channels in 16 lanes), which no row fills.
  bool spareLanes = lanes != channels;
  planes.resize(planeFloats);
  if (spareLanes)
    zeroPlane(planes);
  size_t rowBytes = tile.planeWidth * lanes * 4;
  auto *target = reinterpret_cast<uint8_t *>(planes.data());
  for (int64_t r = 0; r < tile.planeRows && !spareLanes; ++r) {
    uint8_t *line = target + r * rowBytes;
    int64_t h = top + r;
    if (h < hBegin || h >= hEnd || width == 0) {
      std::memset(line, 0, rowBytes);
      continue;
    }
    size_t before = (shift + wBegin) * lanes * 4;
    size_t inside = width * lanes * 4;
    std::memset(line, 0, before);
    std::memset(line + before + inside, 0, rowBytes - before - inside);
  }
  // Each input row of the channels, transposed into the lanes: fp32 as
  // it is, fp16/bf16 widened first (the transpose moves 32-bit
  // elements in register blocks).
  raw.resize(in == ElementType::F32 ? 0 : channels * width * 4);
  for (int64_t h = hBegin; h < hEnd && width > 0; ++h) {
    int64_t at = (h - top) * tile.planeWidth + shift + wBegin;
    const uint8_t *rows = firstPlane + (h * g.rowStride + wBegin) * bytes;
    int64_t rowStride = g.channelStride;
    if (in != ElementType::F32) {
      auto *wide = reinterpret_cast<float *>(raw.data());
      for (int64_t c = 0; c < channels; ++c)
        widenToFloat(in, rows + c * g.channelStride * bytes, wide + c * width, width);
      rows = raw.data();
      rowStride = width;
    }
    for (int64_t c = 0; c < channels && !unusual; ++c)
      unusual = holdsUnusual(reinterpret_cast<const float *>(rows) + c * rowStride, width);
    copyTransposed(rows, rowStride, channels, width, target + at * lanes * 4, lanes, 4,
                   /*streaming=*/false);
  }
  return unusual;
}

} // namespace

bool ascendprec::runtime::detail::multiplySparsePatches(ElementType in, const uint8_t *source,
                                                        const PatchPlane &g, int64_t m0,
                                                        int64_t m, int64_t k,
                                                        const std::vector<SparseStep> &steps,
                                                        float *acc, int64_t n, uint64_t launch,
                                                        uint64_t planEpoch, bool plansListed) {
  if (steps.empty() || g.columnStride != 1 ||
      (in != ElementType::F32 && in != ElementType::F16 && in != ElementType::BF16))
    return false;
  for (size_t s = 0; !plansListed && s < steps.size(); ++s)
    if (steps[s].plan->columnStart.empty() || steps[s].plan->tiny)
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
  thread_local PlaneVector tilePlanes;
  thread_local std::vector<float> column;
  const InterleavedTable &table = keptLayout(steps, window, planEpoch);
  bool interleaved = table.interleaved;
  const Interleaved &layout = table.layout;
  const std::vector<int64_t> &channelOf = table.channelOf;
  // The common case: lane t holds channel firstChannel + t, every channel
  // of the K range has its lane. The plane is then the input rows
  // transposed (channels become the fast axis), in the input's dtype,
  // widened in one pass and scanned whole (its zeros are padding).
  bool direct = interleaved && layout.columns == channels;
  for (int64_t t = 0; direct && t < channels; ++t)
    direct = channelOf[t] == firstChannel + t;
  int64_t lanes = interleaved ? laneCount(layout.columns) : 1;
  // The input rows and columns the tile's windows reach, padding included:
  // the whole map's when it is small and a launch names the map (no block
  // of a launch writes it), kept for the launch's later tiles of the same
  // channels; transposing each tile's rows again took a third of a chain
  // of PP-OCR's 5x5 depthwise convolutions.
  tile.firstOutRow = m0 / g.outW;
  int64_t lastOutRow = (m0 + tile.rows - 1) / g.outW;
  tile.planeWidth = (g.outW - 1) * g.strideW + (g.kernelW - 1) * g.dilationW + 1;
  int64_t wholeRows = (g.outH - 1) * g.strideH + (g.kernelH - 1) * g.dilationH + 1;
  // (At most 1 MiB each, kKeptPlanes per thread.)
  bool whole = direct && launch != 0 && wholeRows * tile.planeWidth * lanes <= (int64_t{1} << 18);
  if (whole) {
    tile.firstOutRow = 0;
    tile.planeRows = wholeRows;
  } else {
    tile.planeRows =
        (lastOutRow - tile.firstOutRow) * g.strideH + (g.kernelH - 1) * g.dilationH + 1;
    if (lastOutRow == tile.firstOutRow) {
      tile.firstColumn = (m0 % g.outW) * g.strideW;
      tile.planeWidth = (tile.rows - 1) * g.strideW + (g.kernelW - 1) * g.dilationW + 1;
    }
  }
  int64_t top = tile.firstOutRow * g.strideH - g.padTop;
  int64_t planeSize = tile.planeRows * tile.planeWidth;
  // Interleaved: one plane of laneCount(columns) lanes; else one plane per
  // channel.
  int64_t planeFloats = (interleaved ? 1 : channels) * planeSize * lanes;
  int64_t bytes = in == ElementType::F32 ? 4 : 2;
  int64_t hBegin = std::max<int64_t>(top, 0);
  int64_t hEnd = std::min(top + tile.planeRows, g.height);
  // Input column w sits at plane column w + padLeft - firstColumn; columns
  // outside the plane are never read.
  int64_t shift = g.padLeft - tile.firstColumn;
  int64_t wEnd = std::min(g.width, tile.planeWidth - shift);
  int64_t wBegin = std::max<int64_t>(0, -shift);
  int64_t width = std::max<int64_t>(wEnd - wBegin, 0);
  const uint8_t *firstPlane = source + (g.base + firstChannel * g.channelStride) * bytes;
  bool found = false;
  std::array<int64_t, 12> key = {static_cast<int64_t>(launch),
                                 reinterpret_cast<int64_t>(firstPlane),
                                 static_cast<int64_t>(in),
                                 channels,
                                 lanes,
                                 tile.planeRows,
                                 tile.planeWidth,
                                 g.padTop,
                                 g.padLeft,
                                 g.rowStride,
                                 g.channelStride,
                                 g.width * 65536 + g.height};
  bool kept = false;
  PlaneVector &planes = whole ? keptPlane(key, kept, found) : tilePlanes;
  if (kept) {
    // The launch's plane of these channels, built by an earlier tile.
  } else if (direct) {
    found = fillLanePlane(in, firstPlane, g, tile, {top, hBegin, hEnd, shift, wBegin, width},
                          channels, lanes, planes);
    if (whole)
      keepPlane(key, found);
  } else {
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
          if (channelOf[t] == firstChannel + c)
            for (int64_t w = 0; w < width; ++w)
              planes[(at + w) * lanes + t] = target[w];
      }
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
