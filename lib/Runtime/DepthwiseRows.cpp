//===- DepthwiseRows.cpp - a packed depthwise group channel by channel ----===//
//
// A depthwise convolution runs on the cube as a packed group: up to 16
// channels in one tile, a block-diagonal filter whose column t holds
// channel t's window (CubeLowering.cpp). When that filter's zeros can be
// dropped (SparsePatches.cpp says when), column t's sums are channel t's
// window products alone, in window order. Here each channel is then
// multiplied as a CPU runs a depthwise convolution: its input rows copied
// once, zero-padded at the sides and split by stride phase (so that every
// window offset reads consecutive elements), and each vector of positions
// of one output row adds the window's products in window order, one fused
// multiply-add each. Window rows past the map's top or bottom are skipped
// (their products are +0, which change no sum). The sums go to the
// accumulator's columns transposed.
//
// The interleaved multiply this replaces for the common case (a group's
// channels across the vector) filled 10 lanes of 16 for a 10-channel
// group, transposed each plane, and multiplied the padding rows that are
// most of a 5x5 window over a 2-row map.
//
//===----------------------------------------------------------------------===//

#include "DepthwiseRows.h"

#include "CubeTile.h"
#include "StridedCopy.h"
#include "Transpose.h"
#include "VectorLanes.h"
#include "VectorLevel.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// Vectors of positions multiplied together: their sums' chains of fused
/// multiply-adds overlap (the FMA units take a new one each half cycle and
/// finish it 4 cycles later).
constexpr int kMaxJobs = 8;

/// One vector of positions in one output row: where window offset (0, 0)
/// of its first position lies in a channel's copied rows (the row part may
/// lie above them: only window rows inside the map are read), and where
/// its sums are.
struct Job {
  int64_t input, sums;
};

/// Consecutive jobs that read window rows [khBegin, khEnd).
struct JobBlock {
  int64_t first, count, khBegin, khEnd;
};

/// A run of the tile's positions within one output row: tile rows
/// [i, i + count) are output row oh's columns [ow, ow + count).
struct Segment {
  int64_t i, oh, ow, count;
};

/// A tile's geometry, the same for each of its channels.
struct RowsLayout {
  int64_t firstRow = 0, mapRows = 0; ///< the map rows copied
  /// The padded columns copied start at firstColumn (a multiple of the
  /// stride); the map's columns [wBegin, wEnd) fall among them.
  int64_t firstColumn = 0, wBegin = 0, wEnd = 0;
  int64_t pitch = 0;         ///< floats per copied row of a phase
  int64_t phaseSize = 0;     ///< floats per stride phase
  int64_t channelFloats = 0; ///< a channel's copy, with a vector's spare
  int64_t firstOutRow = 0;
  int64_t sumsPitch = 0;      ///< floats per output row of a channel's sums
  int64_t sumsPerChannel = 0; ///< floats of a channel's sums
  /// Per window column kw: its phase's offset plus its column in the phase.
  std::vector<int64_t> columnOffset;
  std::vector<Job> jobs;
  std::vector<JobBlock> blocks;
  std::vector<Segment> segments;
};

/// a / b rounded up, for b > 0 and any a.
inline int64_t ceilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }

/// The layout of the tile's `rows` positions from m0, in vectors of `width`.
/// Padded column c (map column c - padLeft) is phase c % strideW's column
/// (c - firstColumn) / strideW, so that output column ow at window column
/// kw reads phase (kw * dilationW) % strideW at (ow * strideW -
/// firstColumn) / strideW + (kw * dilationW) / strideW. A tile within one
/// output row copies only the columns its windows reach (PP-OCR's 16-position
/// tiles of a 96-wide map copied six times what they read).
void layOut(const PatchPlane &g, int64_t m0, int64_t rows, int64_t width, RowsLayout &l) {
  int64_t ohFirst = m0 / g.outW, ohLast = (m0 + rows - 1) / g.outW;
  int64_t top = ohFirst * g.strideH - g.padTop;
  int64_t bottom = ohLast * g.strideH - g.padTop + (g.kernelH - 1) * g.dilationH;
  l.firstRow = std::max<int64_t>(top, 0);
  l.mapRows = std::max<int64_t>(std::min(bottom, g.height - 1) - l.firstRow + 1, 0);
  int64_t owFirst = 0, outColumns = g.outW;
  if (ohFirst == ohLast) {
    owFirst = m0 % g.outW;
    outColumns = rows;
  }
  l.firstColumn = owFirst * g.strideW;
  // A vector from any position's column at the widest offset stays in its
  // row (outColumns + reach columns are read, and a vector past the last).
  int64_t reach = (g.kernelW - 1) * g.dilationW / g.strideW;
  l.pitch = outColumns + reach + width;
  int64_t lastColumn = l.firstColumn + l.pitch * g.strideW - 1;
  l.wBegin = std::clamp<int64_t>(l.firstColumn - g.padLeft, 0, g.width);
  l.wEnd = std::clamp<int64_t>(lastColumn + 1 - g.padLeft, l.wBegin, g.width);
  l.phaseSize = l.mapRows * l.pitch;
  l.channelFloats = g.strideW * l.phaseSize + width;
  l.columnOffset.resize(g.kernelW);
  for (int64_t kw = 0; kw < g.kernelW; ++kw) {
    int64_t column = kw * g.dilationW;
    l.columnOffset[kw] = (column % g.strideW) * l.phaseSize + column / g.strideW;
  }
  l.firstOutRow = ohFirst;
  l.sumsPitch = g.outW + width;
  l.sumsPerChannel = (ohLast - ohFirst + 1) * l.sumsPitch;
  l.jobs.clear();
  l.blocks.clear();
  l.segments.clear();
  for (int64_t i = 0, oh = ohFirst, ow = m0 % g.outW; i < rows; ow = 0, ++oh) {
    int64_t count = std::min(rows - i, g.outW - ow);
    l.segments.push_back({i, oh, ow, count});
    i += count;
    // Window rows kh inside the map: 0 <= start + kh * dilationH < height.
    int64_t start = oh * g.strideH - g.padTop;
    int64_t khBegin = start >= 0 ? 0 : ceilDiv(-start, g.dilationH);
    int64_t khEnd =
        start >= g.height ? 0 : std::min(g.kernelH, (g.height - 1 - start) / g.dilationH + 1);
    if (khBegin >= khEnd)
      continue; // every product +0: the sums stay
    for (int64_t p = 0; p < count; p += width) {
      JobBlock *last = l.blocks.empty() ? nullptr : &l.blocks.back();
      if (last && last->khBegin == khBegin && last->khEnd == khEnd && last->count < kMaxJobs)
        ++last->count;
      else
        l.blocks.push_back({static_cast<int64_t>(l.jobs.size()), 1, khBegin, khEnd});
      l.jobs.push_back({(start - l.firstRow) * l.pitch + ow + p - owFirst,
                        (oh - ohFirst) * l.sumsPitch + ow + p});
    }
  }
}

/// to[i] = from[i] for i < count; returns whether one is inf, NaN or a
/// nonzero under 2^-50. One pass: the copy's loads scan (a scan of its own,
/// a call per row, took as long as the multiply of a 2-row map's 5x5
/// windows).
template <typename V>
inline __attribute__((always_inline)) bool copyScanned(const float *from, float *to,
                                                       int64_t count) {
  typename V::Flags flags = V::noFlags();
  int64_t i = 0;
  for (; i + V::kLanes <= count; i += V::kLanes) {
    typename V::Type v = V::load(from + i);
    V::store(to + i, v);
    flags |= V::unusual(v);
  }
  Scalar::Flags tail = Scalar::noFlags();
  for (; i < count; ++i) {
    to[i] = from[i];
    tail |= Scalar::unusual(from[i]);
  }
  return V::any(flags) || Scalar::any(tail);
}

/// A channel's map rows into `out` as `l` lays them out, zeros around
/// (fp16 and bf16 widened through `line`). Returns whether one of the
/// values copied is inf, NaN or under 2^-50.
template <typename V>
inline __attribute__((always_inline)) bool copyChannel(ElementType in, const uint8_t *plane,
                                                       const PatchPlane &g, const RowsLayout &l,
                                                       float *out, float *line) {
  size_t bytes = in == ElementType::F32 ? 4 : 2;
  int64_t columns = l.wEnd - l.wBegin;
  // Where map column wBegin lies in phase 0's row (stride 1).
  int64_t at = l.wBegin + g.padLeft - l.firstColumn;
  bool unusual = false;
  if (g.strideW != 1)
    std::memset(out, 0, l.channelFloats * sizeof(float));
  else
    std::memset(out + l.phaseSize, 0, (l.channelFloats - l.phaseSize) * sizeof(float));
  for (int64_t r = 0; r < l.mapRows; ++r) {
    const uint8_t *from = plane + ((l.firstRow + r) * g.rowStride + l.wBegin) * bytes;
    const float *values = reinterpret_cast<const float *>(from);
    if (in != ElementType::F32) {
      widenToFloat(in, from, line, columns);
      values = line;
    }
    float *row = out + r * l.pitch;
    if (g.strideW == 1) {
      // Zeros, the map's columns, zeros.
      for (int64_t j = 0; j < at; ++j)
        row[j] = 0.0f;
      unusual |= copyScanned<V>(values, row + at, columns);
      for (int64_t j = at + columns; j < l.pitch; ++j)
        row[j] = 0.0f;
      continue;
    }
    unusual |= holdsUnusual(values, columns);
    // Phase p's column j is padded column firstColumn + j * strideW + p.
    for (int64_t p = 0; p < g.strideW; ++p) {
      int64_t first = l.firstColumn + p - g.padLeft; // its map column at j = 0
      int64_t jBegin = std::max<int64_t>(ceilDiv(l.wBegin - first, g.strideW), 0);
      int64_t jEnd = std::min(ceilDiv(l.wEnd - first, g.strideW), l.pitch);
      if (jEnd > jBegin)
        copyStrided(values + first + jBegin * g.strideW - l.wBegin, g.strideW,
                    row + p * l.phaseSize + jBegin, jEnd - jBegin);
    }
  }
  return unusual;
}

/// kJobs vectors of sums of one block: from their values in `sums`, each
/// window offset's products in window order (rows, then columns).
template <typename V, int kJobs>
inline __attribute__((always_inline)) void sumBlock(const float *input, const float *window,
                                                    const RowsLayout &l, int64_t kernelW,
                                                    int64_t rowStep, const JobBlock &block,
                                                    float *sums) {
  const Job *jobs = l.jobs.data() + block.first;
  typename V::Type acc[kJobs];
  int64_t from[kJobs];
#pragma clang loop unroll(full)
  for (int j = 0; j < kJobs; ++j) {
    acc[j] = V::load(sums + jobs[j].sums);
    from[j] = jobs[j].input;
  }
  const int64_t *columns = l.columnOffset.data();
  for (int64_t kh = block.khBegin; kh < block.khEnd; ++kh) {
    const float *row = input + kh * rowStep;
    const float *weights = window + kh * kernelW;
    for (int64_t kw = 0; kw < kernelW; ++kw) {
      const float *at = row + columns[kw];
      float weight = weights[kw];
#pragma clang loop unroll(full)
      for (int j = 0; j < kJobs; ++j)
        acc[j] = V::fma(V::load(at + from[j]), weight, acc[j]);
    }
  }
#pragma clang loop unroll(full)
  for (int j = 0; j < kJobs; ++j)
    V::store(sums + jobs[j].sums, acc[j]);
}

template <typename V>
inline __attribute__((always_inline)) void sumChannel(const float *input, const float *window,
                                                      const RowsLayout &l, const PatchPlane &g,
                                                      float *sums) {
  int64_t rowStep = g.dilationH * l.pitch;
  for (const JobBlock &block : l.blocks) {
    switch (block.count) {
    case 1: sumBlock<V, 1>(input, window, l, g.kernelW, rowStep, block, sums); break;
    case 2: sumBlock<V, 2>(input, window, l, g.kernelW, rowStep, block, sums); break;
    case 3: sumBlock<V, 3>(input, window, l, g.kernelW, rowStep, block, sums); break;
    case 4: sumBlock<V, 4>(input, window, l, g.kernelW, rowStep, block, sums); break;
    case 5: sumBlock<V, 5>(input, window, l, g.kernelW, rowStep, block, sums); break;
    case 6: sumBlock<V, 6>(input, window, l, g.kernelW, rowStep, block, sums); break;
    case 7: sumBlock<V, 7>(input, window, l, g.kernelW, rowStep, block, sums); break;
    default: sumBlock<V, kMaxJobs>(input, window, l, g.kernelW, rowStep, block, sums); break;
    }
  }
}

/// The tile's channels: each one's rows copied (false, at once, when one of
/// them is inf, NaN or tiny), then its sums (`sums`, channel by channel)
/// from its window's weights (`windows`, [channel][offset]).
template <typename V>
inline __attribute__((always_inline)) bool
sumChannels(ElementType in, const uint8_t *firstPlane, const PatchPlane &g, const RowsLayout &l,
            int64_t channels, const float *windows, float *input, float *line, float *sums) {
  size_t bytes = in == ElementType::F32 ? 4 : 2;
  int64_t window = g.kernelH * g.kernelW;
  for (int64_t t = 0; t < channels; ++t) {
    if (copyChannel<V>(in, firstPlane + t * g.channelStride * bytes, g, l, input, line))
      return false;
    sumChannel<V>(input, windows + t * window, l, g, sums + t * l.sumsPerChannel);
  }
  return true;
}

#if defined(__x86_64__) && defined(__clang__)
__attribute__((target("avx512f,avx512bw,fma"))) bool
sumChannelsAvx512(ElementType in, const uint8_t *firstPlane, const PatchPlane &g,
                  const RowsLayout &l, int64_t channels, const float *windows, float *input,
                  float *line, float *sums) {
  return sumChannels<Avx512>(in, firstPlane, g, l, channels, windows, input, line, sums);
}
__attribute__((target("avx2,fma"))) bool sumChannelsAvx2(ElementType in, const uint8_t *firstPlane,
                                                         const PatchPlane &g, const RowsLayout &l,
                                                         int64_t channels, const float *windows,
                                                         float *input, float *line, float *sums) {
  return sumChannels<Avx2>(in, firstPlane, g, l, channels, windows, input, line, sums);
}
#endif

} // namespace

bool ascendprec::runtime::detail::multiplyDepthwiseRows(ElementType in,
                                                        const uint8_t *firstPlane,
                                                        const PatchPlane &g, int64_t m0,
                                                        int64_t rows, int64_t channels,
                                                        const float *windows, float *acc,
                                                        int64_t n) {
  if (rows <= 0 || channels <= 0)
    return true;
  VectorLevel level = vectorLevel();
  int64_t width = 1;
#if defined(__x86_64__) && defined(__clang__)
  width = level == VectorLevel::Avx512Fma ? Avx512::kLanes
          : level == VectorLevel::Avx2Fma ? Avx2::kLanes
                                          : Scalar::kLanes;
#endif
  thread_local RowsLayout l;
  thread_local std::vector<float> input, sums, line;
  layOut(g, m0, rows, width, l);
  input.resize(l.channelFloats);
  line.resize(l.wEnd - l.wBegin);
  // Every sum starts from +0, as the accumulator's.
  sums.assign(channels * l.sumsPerChannel, 0.0f);
  bool usual;
  switch (level) {
#if defined(__x86_64__) && defined(__clang__)
  case VectorLevel::Avx512Fma:
    usual = sumChannelsAvx512(in, firstPlane, g, l, channels, windows, input.data(), line.data(),
                              sums.data());
    break;
  case VectorLevel::Avx2Fma:
    usual = sumChannelsAvx2(in, firstPlane, g, l, channels, windows, input.data(), line.data(),
                            sums.data());
    break;
#endif
  default:
    usual = sumChannels<Scalar>(in, firstPlane, g, l, channels, windows, input.data(),
                                line.data(), sums.data());
    break;
  }
  if (!usual)
    return false;
  for (const Segment &s : l.segments)
    copyTransposed(reinterpret_cast<const uint8_t *>(sums.data() +
                                                     (s.oh - l.firstOutRow) * l.sumsPitch + s.ow),
                   l.sumsPerChannel, channels, s.count, reinterpret_cast<uint8_t *>(acc + s.i * n),
                   n, 4, /*streaming=*/false);
  return true;
}
