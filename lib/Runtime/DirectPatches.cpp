//===- DirectPatches.cpp - a convolution's tile straight from the map ----===//
//
// The cube multiplies a convolution as img2col tiles of its map (one row
// per output position, one column per channel and window offset) times
// the filter. On the host, gathering that matrix K step by K step cost as
// much as multiplying it, and the multiply ran across N (24 filters of a
// detector's 3x3 convolutions fill one and a half vectors). For a
// convolution with stride 1 along W the output positions of one output
// row read neighbouring map elements at every window offset, so here the
// vector runs across positions instead: each K index loads one vector of
// a padded copy of the map's rows and adds its products into 16 sums per
// filter. Each sum still adds every product of its row of the tile in K
// order, one fused multiply-add each, as the loop's mmads do (padding and
// rows past the last position read zeros, padded K adds +0), so the
// result is the loop's bits for any values, inf, NaN and -0 included.
//
//===----------------------------------------------------------------------===//

#include "DirectPatches.h"

#include "VectorLanes.h"
#include "VectorLevel.h"

#include <algorithm>
#include <cstring>
#include <map>


using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// Filters per pass: 16 vectors of sums stay in registers (and 8 for the
/// last filters of a multiple of 8).
constexpr int kFilters = 16;

/// The tile's rows of the map, zero-padded: channel c's input row h,
/// column w at panel[(c * rows + h - firstRow) * width + w + padLeft -
/// firstColumn], zero outside the map, every row `width` wide (the widest
/// read, plus a vector). A tile within one output row takes only the
/// columns its windows reach (firstColumn > 0): a 16-position tile of a
/// 1x1 convolution copied 96 columns of 200 channels for 16.
struct PaddedRows {
  std::vector<float> panel;
  /// The rows read: the panel's, or the map itself (an fp32 1x1
  /// convolution's, which needs no padding).
  const float *data = nullptr;
  int64_t firstRow = 0, rows = 0, width = 0, firstColumn = 0;
};

void padRows(ElementType in, const uint8_t *source, const PatchPlane &g, int64_t firstRow,
             int64_t lastRow, int64_t firstColumn, int64_t width, PaddedRows &out) {
  out.firstRow = firstRow;
  out.rows = lastRow - firstRow + 1;
  out.width = width;
  out.firstColumn = firstColumn;
  out.panel.assign(g.channels * out.rows * width, 0.0f);
  out.data = out.panel.data();
  size_t bytes = in == ElementType::F32 ? 4 : 2;
  // Map columns [wBegin, wEnd) fall inside the panel's rows.
  int64_t shift = g.padLeft - firstColumn;
  int64_t wBegin = std::max<int64_t>(0, -shift), wEnd = std::min(g.width, width - shift);
  if (wEnd <= wBegin)
    return;
  thread_local std::vector<uint8_t> line;
  line.resize((wEnd - wBegin) * bytes);
  for (int64_t c = 0; c < g.channels; ++c)
    for (int64_t h = std::max<int64_t>(firstRow, 0); h <= std::min(lastRow, g.height - 1); ++h) {
      const uint8_t *from =
          source + (g.base + c * g.channelStride + h * g.rowStride + wBegin * g.columnStride) *
                       bytes;
      if (g.columnStride != 1) {
        for (int64_t w = 0; w < wEnd - wBegin; ++w)
          std::memcpy(line.data() + w * bytes, from + w * g.columnStride * bytes, bytes);
        from = line.data();
      }
      float *row = out.panel.data() + (c * out.rows + h - firstRow) * width + wBegin + shift;
      widenToFloat(in, from, row, wEnd - wBegin);
    }
}

/// The sums of V::kLanes positions from `at` (a column of the padded rows)
/// and kFilters filters from b's column 0: every K index in order, then
/// (`padK`) the +0 products of K's padding. V is the vector type: explicit
/// vector code, since the compiler vectorized the plain loops across
/// filters, with gathers, and ran 20 times slower. (With GCC, which lacks
/// __builtin_elementwise_fma, the plain lane only.)
template <typename V, int kFilters>
inline __attribute__((always_inline)) void sumBlock(const float *at, const PatchPlane &g,
                                                    int64_t plane, const int64_t *tapRows,
                                                    const float *b, int64_t ldb, bool padK,
                                                    float *sums) {
  typename V::Type acc[kFilters];
#pragma clang loop unroll(full)
  for (int j = 0; j < kFilters; ++j)
    acc[j] = V::zero();
  const float *weights = b;
  for (int64_t c = 0; c < g.channels; ++c) {
    const float *channel = at + c * plane;
    for (int64_t t = 0; t < g.kernelH; ++t) {
      const float *row = channel + tapRows[t];
      for (int64_t q = 0; q < g.kernelW; ++q, weights += ldb) {
        typename V::Type x = V::load(row + q * g.dilationW);
#pragma clang loop unroll(full)
        for (int j = 0; j < kFilters; ++j)
          acc[j] = V::fma(x, weights[j], acc[j]);
      }
    }
  }
#pragma clang loop unroll(full)
  for (int j = 0; j < kFilters; ++j)
    V::store(sums + j * V::kLanes, padK ? V::addZero(acc[j]) : acc[j]);
}

/// Output row segments of the tile: `count` positions of output row `oh`
/// from column `ow`, at tile rows [first, first + count).
template <typename V>
inline __attribute__((always_inline)) void sumSegment(const PatchPlane &g, const PaddedRows &rows,
                                                      int64_t oh, int64_t ow, int64_t count,
                                                      int64_t first, const float *b, int64_t n,
                                                      int64_t live, bool padK, float *acc) {
  int64_t tapRows[64];
  for (int64_t t = 0; t < g.kernelH; ++t)
    tapRows[t] = (oh * g.strideH - g.padTop + t * g.dilationH - rows.firstRow) * rows.width;
  constexpr int kLanes = V::kLanes;
  float sums[kFilters * kLanes];
  int64_t plane = rows.rows * rows.width;
  for (int64_t p = 0; p < count; p += kLanes) {
    int64_t lanes = std::min<int64_t>(kLanes, count - p);
    // Padded column of output column ow + p at window offset 0.
    const float *at = rows.data + (ow + p - rows.firstColumn);
    for (int64_t n0 = 0; n0 < live; n0 += kFilters) {
      int filters = live - n0 >= kFilters ? kFilters : kFilters / 2;
      if (filters == kFilters)
        sumBlock<V, kFilters>(at, g, plane, tapRows, b + n0, n, padK, sums);
      else
        sumBlock<V, kFilters / 2>(at, g, plane, tapRows, b + n0, n, padK, sums);
      for (int64_t l = 0; l < lanes; ++l) {
        float *out = acc + (first + p + l) * n + n0;
        for (int j = 0; j < filters; ++j)
          out[j] = sums[j * kLanes + l];
      }
    }
  }
}

template <typename V>
inline __attribute__((always_inline)) void sumTile(const PatchPlane &g, const PaddedRows &rows,
                                                   int64_t m0, int64_t validRows, const float *b,
                                                   int64_t n, int64_t live, bool padK, float *acc) {
  int64_t r = 0, oh = m0 / g.outW, ow = m0 % g.outW;
  while (r < validRows) {
    int64_t count = std::min(validRows - r, g.outW - ow);
    sumSegment<V>(g, rows, oh, ow, count, r, b, n, live, padK, acc);
    r += count;
    ow = 0;
    ++oh;
  }
}

#if defined(__x86_64__) && defined(__clang__)
__attribute__((target("avx512f,fma"))) void sumTileAvx512(const PatchPlane &g,
                                                          const PaddedRows &rows, int64_t m0,
                                                          int64_t validRows, const float *b,
                                                          int64_t n, int64_t live, bool padK,
                                                          float *acc) {
  sumTile<Avx512>(g, rows, m0, validRows, b, n, live, padK, acc);
}
__attribute__((target("avx2,fma"))) void sumTileAvx2(const PatchPlane &g, const PaddedRows &rows,
                                                     int64_t m0, int64_t validRows,
                                                     const float *b, int64_t n, int64_t live,
                                                     bool padK, float *acc) {
  sumTile<Avx2>(g, rows, m0, validRows, b, n, live, padK, acc);
}
#endif

/// B as fp32 [realK, n], the real K rows of the steps' tiles, and the
/// filters up to its last column with a nonzero (or inf or NaN) entry, a
/// multiple of 8.
struct WidenedB {
  std::vector<float> values;
  int64_t nonzeroFilters = 0;
};

WidenedB widen(ElementType in, const std::vector<const uint8_t *> &steps, int64_t k, int64_t n,
               int64_t realK) {
  WidenedB b;
  b.values.resize(realK * n);
  size_t bytes = in == ElementType::F32 ? 4 : 2;
  for (int64_t kk = 0; kk < realK; ++kk)
    widenToFloat(in, steps[kk / k] + (kk % k) * n * bytes, b.values.data() + kk * n, n);
  int64_t last = -1;
  for (int64_t kk = 0; kk < realK; ++kk)
    for (int64_t j = n - 1; j > last; --j) {
      uint32_t bits;
      std::memcpy(&bits, b.values.data() + kk * n + j, 4);
      if ((bits & 0x7fffffffu) != 0) {
        last = j;
        break;
      }
    }
  b.nonzeroFilters = (last + 1 + 7) / 8 * 8;
  return b;
}

/// widen(), kept per thread while `epoch` says a step's address names its
/// bytes: every tile of a launch, and every launch of a model's weights,
/// takes the same B (widening it for each 16-position tile took a third of
/// a small 1x1 convolution's time).
const WidenedB &widenedB(ElementType in, const std::vector<const uint8_t *> &steps, int64_t k,
                         int64_t n, int64_t realK, uint64_t epoch) {
  thread_local std::map<std::vector<int64_t>, WidenedB> kept;
  thread_local WidenedB unkept;
  if (epoch == 0) {
    unkept = widen(in, steps, k, n, realK);
    return unkept;
  }
  thread_local std::vector<int64_t> key;
  key.assign({static_cast<int64_t>(epoch), static_cast<int64_t>(in), k, n, realK});
  for (const uint8_t *step : steps)
    key.push_back(reinterpret_cast<int64_t>(step));
  auto found = kept.find(key);
  if (found != kept.end())
    return found->second;
  size_t floats = 0;
  for (const auto &entry : kept)
    floats += entry.second.values.size();
  if (floats > (size_t{1} << 18))
    kept.clear(); // 1 MiB of weights: start again (peak memory counts too)
  return kept.emplace(key, widen(in, steps, k, n, realK)).first->second;
}

/// The filters [0, live) the tile must multiply: those up to B's last
/// nonzero column when every value of the padded rows is finite (a zero
/// filter's sums are then +0); else n.
int64_t liveFilters(const WidenedB &b, int64_t n, const float *values, int64_t runs,
                    int64_t runLength, int64_t runStride) {
  if (b.nonzeroFilters >= n)
    return n;
  uint32_t nonFinite = 0;
  for (int64_t r = 0; r < runs; ++r)
    for (int64_t i = 0; i < runLength; ++i) {
      uint32_t bits;
      std::memcpy(&bits, values + r * runStride + i, 4);
      nonFinite |= (bits & 0x7f800000u) == 0x7f800000u;
    }
  return nonFinite ? n : b.nonzeroFilters;
}

/// Rows past the last output position read zeros: each of their sums adds
/// 0 x b over K (+0, or NaN where b is inf or NaN), the same for every such
/// row. One fused multiply-add per product, as the loop's multiply adds
/// them: a NaN's sign and payload then come out as the loop's (a plain
/// add of 0 x b took the NaN of an inf's product where the fused step
/// keeps a NaN weight's).
inline __attribute__((always_inline)) void sumZeroRowsBody(const float *b, int64_t realK,
                                                           int64_t n, bool padK, float *first) {
  for (int64_t j = 0; j < n; ++j) {
    float sum = 0.0f;
    for (int64_t kk = 0; kk < realK; ++kk)
      sum = __builtin_fmaf(0.0f, b[kk * n + j], sum);
    first[j] = padK ? sum + 0.0f : sum;
  }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
/// With the host's FMA instruction (without it, each step is a call of
/// libm's fmaf: 1% of PP-OCR's classifier).
__attribute__((target("avx2,fma"))) void sumZeroRowsFma(const float *b, int64_t realK,
                                                        int64_t n, bool padK, float *first) {
  sumZeroRowsBody(b, realK, n, padK, first);
}
#endif

void sumZeroRows(const float *b, int64_t realK, int64_t n, bool padK, float *first,
                 int64_t count) {
  if (count <= 0)
    return;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  if (vectorLevel() != VectorLevel::Plain)
    sumZeroRowsFma(b, realK, n, padK, first);
  else
#endif
    sumZeroRowsBody(b, realK, n, padK, first);
  for (int64_t r = 1; r < count; ++r)
    std::memcpy(first + r * n, first, n * sizeof(float));
}

} // namespace

bool ascendprec::runtime::detail::multiplyDirectPatches(ElementType in, const uint8_t *source,
                                                        const PatchPlane &g, int64_t m0,
                                                        int64_t m, int64_t k,
                                                        const std::vector<const uint8_t *> &steps,
                                                        float *acc, int64_t n, uint64_t epoch) {
  if (g.strideW != 1 || g.spreadH != 1 || g.spreadW != 1 || n % kFilters != 0 || k <= 0 ||
      m <= 0 || g.kernelH > 64)
    return false;
  if (in != ElementType::F32 && in != ElementType::F16 && in != ElementType::BF16)
    return false;
  int64_t kTotal = static_cast<int64_t>(steps.size()) * k;
  int64_t realK = g.channels * g.kernelH * g.kernelW;
  if (kTotal < realK)
    return false;
  int64_t validRows = std::clamp<int64_t>(g.outH * g.outW - m0, 0, m);
  int64_t ohFirst = m0 / g.outW, ohLast = validRows > 0 ? (m0 + validRows - 1) / g.outW : ohFirst;
  int64_t firstRow = ohFirst * g.strideH - g.padTop;
  int64_t lastRow = ohLast * g.strideH - g.padTop + (g.kernelH - 1) * g.dilationH;
  int64_t firstColumn = 0, width = g.outW + (g.kernelW - 1) * g.dilationW + 16;
  if (ohFirst == ohLast && validRows > 0) {
    firstColumn = m0 % g.outW;
    width = validRows + (g.kernelW - 1) * g.dilationW + 16;
  }
  if (g.channels * (lastRow - firstRow + 1) * width > (int64_t{1} << 24))
    return false; // more than 64 MiB of rows: the gathered tiles instead
  const WidenedB &b = widenedB(in, steps, k, n, realK, epoch);
  bool padK = kTotal > realK;
  thread_local PaddedRows rows;
  // An fp32 1x1 convolution (stride 1, unpadded, whole planes) reads its
  // map where it lies, as one row of positions per channel: no rows to
  // copy, when the tile's positions fill whole vectors of the widest
  // width, 16 (a load never reaches past them). Its 16-position tiles
  // spent more in the copy than in the multiply.
  PatchPlane flat = g;
  bool inPlace = in == ElementType::F32 && g.kernelH == 1 && g.kernelW == 1 &&
                 g.strideH == 1 && g.padTop == 0 && g.padLeft == 0 && g.columnStride == 1 &&
                 g.rowStride == g.width && g.outW == g.width && g.outH == g.height &&
                 g.channelStride == g.height * g.width && validRows % 16 == 0;
  int64_t live = n;
  if (inPlace) {
    rows.data = reinterpret_cast<const float *>(source) + g.base;
    rows.firstRow = 0;
    rows.rows = 1;
    rows.width = g.channelStride;
    rows.firstColumn = 0;
    flat.outH = flat.height = 1;
    flat.outW = flat.width = flat.rowStride = g.channelStride;
    live = liveFilters(b, n, rows.data + m0, g.channels, validRows, g.channelStride);
  } else {
    if (validRows > 0)
      padRows(in, source, g, firstRow, lastRow, firstColumn, width, rows);
    live = liveFilters(b, n, rows.panel.data(), 1, static_cast<int64_t>(rows.panel.size()), 0);
  }
  // The filters past `live` are zeros (N's padding): x 0 adds +-0 to each
  // sum, which stays +0 since no product is inf or NaN (liveFilters).
  for (int64_t r = 0; r < validRows && live < n; ++r)
    std::fill(acc + r * n + live, acc + (r + 1) * n, 0.0f);
  switch (vectorLevel()) {
#if defined(__x86_64__) && defined(__clang__)
  case VectorLevel::Avx512Fma:
    sumTileAvx512(flat, rows, m0, validRows, b.values.data(), n, live, padK, acc);
    break;
  case VectorLevel::Avx2Fma:
    sumTileAvx2(flat, rows, m0, validRows, b.values.data(), n, live, padK, acc);
    break;
#endif
  default:
    sumTile<Scalar>(flat, rows, m0, validRows, b.values.data(), n, live, padK, acc);
    break;
  }
  sumZeroRows(b.values.data(), realK, n, padK, acc + validRows * n, m - validRows);
  return true;
}
