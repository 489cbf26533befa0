//===- TileMovement.cpp - loads, stores and copies between memory spaces ---===//
//
// The MTEs' addressing: a load reads a tile of GM (zero past the edge,
// transposed, broadcast, as img2col patches or a transposed convolution's
// flipped filter), a store writes one back (cropped, transposed, or added
// atomically), a copy moves a tile between local buffers.
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"
#include "Transpose.h"

#include "AscendPrec/Runtime/KernelRuntime.h"
#include <mutex>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// Copies move bits: any dtype of the element's size.
template <typename T> inline void copyElement(T *target, const T *source) {
  std::memcpy(target, source, sizeof(T));
}

/// The axes (of the tile, of GM) a row-by-row copy runs along: the last
/// one of size > 1, since trailing axes of size 1 in both (a [1, n, 1]
/// tile) would make every element a run of its own.
std::pair<int64_t, int64_t> runAxes(const Buffer &tile, const Buffer &gm,
                                    const std::vector<int64_t> &offsets) {
  int64_t tileLast = tile.rank - 1, last = gm.rank - 1;
  while (tileLast > 0 && tile.sizes[tileLast] == 1 && gm.sizes[last] == 1 && offsets[last] == 0) {
    --tileLast;
    --last;
  }
  return {tileLast, last};
}

/// Whether the tile at `offsets` lies wholly inside GM (no element of it
/// is zero-filled).
bool insideGm(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets) {
  int64_t lead = gm.rank - tile.rank;
  for (int64_t d = 0; d < gm.rank; ++d) {
    int64_t extent = d < lead ? 1 : tile.sizes[d - lead];
    if (offsets[d] < 0 || offsets[d] + extent > gm.sizes[d])
      return false;
  }
  return true;
}

void loadPlain(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets) {
  int64_t lead = gm.rank - tile.rank;
  thread_local std::vector<int64_t> tileShape, rows, gmIndex;
  tileShape.assign(tile.sizes, tile.sizes + tile.rank);
  // Only a tile past GM's edge has elements to zero.
  if (!insideGm(gm, tile, offsets))
    std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  if (tile.rank == 0) {
    int64_t at = gmOffset(gm, offsets.data());
    if (at >= 0)
      std::memcpy(tile.data, gm.at(at), gm.bytes);
    return;
  }
  auto [tileLast, last] = runAxes(tile, gm, offsets);
  int64_t width = tileShape[tileLast];
  rows.assign(tileShape.begin(), tileShape.begin() + tileLast);
  gmIndex = offsets;
  int64_t start = offsets[last];
  int64_t run = std::min<int64_t>(width, gm.sizes[last] - start);
  if (start < 0 || run <= 0)
    return;
  forEachIndex(rows, [&](int64_t row, const std::vector<int64_t> &index) {
    for (size_t d = 0; d < index.size(); ++d)
      gmIndex[lead + d] = offsets[lead + d] + index[d];
    gmIndex[last] = start;
    int64_t at = gmOffset(gm, gmIndex.data());
    if (at < 0)
      return;
    uint8_t *target = tile.data + row * width * tile.bytes;
    if (gm.strides[last] == 1) {
      std::memcpy(target, gm.at(at), run * gm.bytes);
      return;
    }
    for (int64_t i = 0; i < run; ++i)
      std::memcpy(target + i * gm.bytes, gm.at(at + i * gm.strides[last]), gm.bytes);
  });
}

void loadTransposed(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets) {
  int64_t rows = tile.sizes[0], cols = tile.sizes[1];
  int64_t r = gm.rank - 2, c = gm.rank - 1;
  int64_t base = 0;
  for (int64_t d = 0; d < r; ++d)
    base += offsets[d] * gm.strides[d];
  // Tile [i, j] reads GM [offset_r + j, offset_c + i]: the columns of the
  // tile that exist in GM, row by row of GM; the rest is zero.
  int64_t validRows = std::min(rows, gm.sizes[c] - offsets[c]);
  int64_t validCols = std::min(cols, gm.sizes[r] - offsets[r]);
  if (validRows < rows || validCols < cols)
    std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  if (validRows <= 0 || validCols <= 0)
    return;
  if (gm.strides[c] == 1) {
    // GM rows are the tile's columns: transposed in register blocks (a
    // fused convolution's side input, read from NCHW).
    copyTransposed(gm.data + (base + offsets[r] * gm.strides[r] + offsets[c]) * gm.bytes,
                   gm.strides[r], validCols, validRows, tile.data, cols, gm.bytes,
                   /*streaming=*/false);
    return;
  }
  forElementSize(gm.bytes, [&](auto element) {
    using T = decltype(element);
    auto *target = reinterpret_cast<T *>(tile.data);
    for (int64_t j = 0; j < validCols; ++j) {
      const T *source = reinterpret_cast<const T *>(gm.data) + base +
                        (offsets[r] + j) * gm.strides[r] + offsets[c] * gm.strides[c];
      for (int64_t i = 0; i < validRows; ++i)
        copyElement(&target[i * cols + j], &source[i * gm.strides[c]]);
    }
  });
}

void loadBroadcast(const Buffer &gm, const Buffer &tile, int64_t start,
                   const std::vector<int64_t> &broadcastShape) {
  int64_t total = 1;
  for (int64_t dim : broadcastShape)
    total *= dim;
  int64_t fullRank = static_cast<int64_t>(broadcastShape.size());
  int64_t count = std::min<int64_t>(tile.numElements(), total - start);
  if (count < tile.numElements())
    std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  if (count <= 0 || fullRank == 0) {
    if (count > 0)
      std::memcpy(tile.data, gm.data, gm.bytes);
    return;
  }
  // GM's dimensions align with the trailing ones of the shape; a dimension
  // of 1 (or one GM lacks) reads its one element: stride 0. Adjacent
  // dimensions that both repeat, or that are contiguous in GM, are one
  // dimension: a [N, C, 1, 1] scale over [N, C, H, W] repeats runs of H*W.
  thread_local std::vector<int64_t> index, stride, shape;
  shape.clear();
  stride.clear();
  for (int64_t d = 0; d < fullRank; ++d) {
    int64_t g = d - (fullRank - gm.rank);
    int64_t step = g < 0 || gm.sizes[g] == 1 ? 0 : gm.strides[g];
    int64_t size = broadcastShape[d];
    if (!shape.empty() && stride.back() == step * size) {
      shape.back() *= size;
      stride.back() = step;
      continue;
    }
    shape.push_back(size);
    stride.push_back(step);
  }
  int64_t rank = static_cast<int64_t>(shape.size());
  index.assign(rank, 0);
  for (int64_t d = rank - 1, flat = start; d >= 0; --d) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  // Run by run along the last dimension: a broadcast run repeats one
  // element, a contiguous one is copied.
  int64_t last = rank - 1;
  forElementSize(tile.bytes, [&](auto element) {
    using T = decltype(element);
    auto *target = reinterpret_cast<T *>(tile.data);
    const auto *source = reinterpret_cast<const T *>(gm.data);
    for (int64_t t = 0; t < count;) {
      int64_t at = 0;
      for (int64_t d = 0; d < rank; ++d)
        at += index[d] * stride[d];
      int64_t run = std::min(shape[last] - index[last], count - t);
      if (stride[last] == 0)
        std::fill(target + t, target + t + run, source[at]);
      else
        for (int64_t i = 0; i < run; ++i)
          target[t + i] = source[at + i * stride[last]];
      t += run;
      index[last] += run;
      for (int64_t d = last; d > 0 && index[d] == shape[d]; --d) {
        index[d] = 0;
        ++index[d - 1];
      }
    }
  });
}

/// Steps a three-digit counter, the last digit fastest, each digit below
/// its `limit`; false when it wraps to all zeros.
inline bool stepCounter(std::array<int64_t, 3> &digits, const std::array<int64_t, 3> &limit) {
  for (int d = 2; d >= 0; --d) {
    if (++digits[d] < limit[d])
      return true;
    digits[d] = 0;
  }
  return false;
}

/// Adds position x along one axis of the (spread-out) map to `at`; false
/// when x is padding or a hole of the spread.
inline bool positionAlong(int64_t x, int64_t spread, int64_t size, int64_t stride, int64_t &at) {
  if (x < 0)
    return false;
  if (spread != 1) {
    if (x % spread)
      return false;
    x /= spread;
  }
  if (x >= size)
    return false;
  at += x * stride;
  return true;
}

/// The convolution's patch matrix (img2col), params as the codegen packs
/// them for n = 2 or 3 spatial axes: kernel[n], strides[n], pads[2n],
/// dilations[n], out[n], c0, input dilations[n]. A 2-D map is read as a
/// volume of depth 1.
void loadImg2Col(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets,
                 const std::vector<int64_t> &p) {
  std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  int64_t axes = (static_cast<int64_t>(p.size()) - 1) / 7;
  // Per axis (depth, height, width; depth 1 for a plane).
  std::array<int64_t, 3> kernel = {1, 1, 1}, stride = {1, 1, 1}, padBegin = {0, 0, 0},
                         dilation = {1, 1, 1}, out = {1, 1, 1}, spread = {1, 1, 1},
                         size = {1, 1, 1}, gmStride = {0, 0, 0};
  int64_t lead = gm.rank - axes - 1;
  for (int64_t a = 0; a < axes; ++a) {
    int64_t slot = 3 - axes + a;
    kernel[slot] = p[a];
    stride[slot] = p[axes + a];
    padBegin[slot] = p[2 * axes + 2 * a];
    dilation[slot] = p[4 * axes + a];
    out[slot] = p[5 * axes + a];
    spread[slot] = p[6 * axes + 1 + a];
    size[slot] = gm.sizes[lead + 1 + a];
    gmStride[slot] = gm.strides[lead + 1 + a];
  }
  int64_t window = kernel[0] * kernel[1] * kernel[2];
  int64_t outCount = out[0] * out[1] * out[2];
  int64_t channels = gm.sizes[lead], strideC = gm.strides[lead];
  int64_t m0 = offsets[lead], k0 = offsets[lead + 1];
  int64_t rows = tile.sizes[0], cols = tile.sizes[1];
  int64_t base = 0;
  for (int64_t d = 0; d < lead; ++d)
    base += offsets[d] * gm.strides[d];
  // Per column: the channel's offset (or -1: a padding column) and the
  // kernel offset along each axis in the spread-out map.
  // Counted up from k0 (a division per element would cost more than the
  // copies of a narrow tile): k = (c * kd + s) * kh * kw + t * kw + q.
  std::vector<int64_t> channelOffset(cols);
  std::vector<std::array<int64_t, 3>> kernelAt(cols);
  {
    int64_t c = k0 / window, r = k0 % window;
    std::array<int64_t, 3> at = {r / (kernel[1] * kernel[2]), (r / kernel[2]) % kernel[1],
                                 r % kernel[2]};
    for (int64_t j = 0; j < cols; ++j) {
      channelOffset[j] = c < channels ? c * strideC : -1;
      kernelAt[j] = {at[0] * dilation[0], at[1] * dilation[1], at[2] * dilation[2]};
      if (!stepCounter(at, kernel))
        ++c;
    }
  }
  size_t bytes = gm.bytes;
  bool volume = axes == 3;
  int64_t validRows = std::max<int64_t>(0, std::min(rows, outCount - m0));
  // Per row: the window's first position along each axis.
  std::vector<std::array<int64_t, 3>> rowStart(validRows);
  if (validRows > 0) {
    std::array<int64_t, 3> at = {m0 / (out[1] * out[2]), (m0 / out[2]) % out[1], m0 % out[2]};
    for (int64_t i = 0; i < validRows; ++i) {
      for (int a = 0; a < 3; ++a)
        rowStart[i][a] = at[a] * stride[a] - padBegin[a];
      // Depth never wraps: rows past the last volume are not valid rows.
      stepCounter(at, {std::numeric_limits<int64_t>::max(), out[1], out[2]});
    }
  }
  if (!volume && spread[1] == 1 && spread[2] == 1) {
    // A plane without input dilation (every convolution but a transposed
    // one): row by row, each element's offset is the row's window start
    // plus the column's offset into the window; a row whose whole window
    // lies inside the map needs no bounds check.
    std::vector<int64_t> columnAt(cols);
    int64_t maxKh = 0, maxKw = 0;
    for (int64_t j = 0; j < cols; ++j) {
      columnAt[j] = channelOffset[j] + kernelAt[j][1] * gmStride[1] + kernelAt[j][2] * gmStride[2];
      maxKh = std::max(maxKh, kernelAt[j][1]);
      maxKw = std::max(maxKw, kernelAt[j][2]);
    }
    // Channels grow with the column, so the padding channels' columns are
    // the last ones: columns [0, realColumns) read the map.
    int64_t realColumns = cols;
    while (realColumns > 0 && channelOffset[realColumns - 1] < 0)
      --realColumns;
    // Rows go in blocks: within a block whose windows all lie inside the
    // map, each column reads its rows' neighbouring positions of one plane
    // (a short contiguous run for stride 1), instead of every row touching
    // as many planes as it has columns.
    constexpr int64_t kBlock = 16;
    auto inside = [&](int64_t i) {
      int64_t h0 = rowStart[i][1], w0 = rowStart[i][2];
      return h0 >= 0 && w0 >= 0 && h0 + maxKh < size[1] && w0 + maxKw < size[2];
    };
    forElementSize(gm.bytes, [&](auto element) {
      using T = decltype(element);
      const T *source = reinterpret_cast<const T *>(gm.data) + base;
      T *rows = reinterpret_cast<T *>(tile.data);
      int64_t rowAt[kBlock];
      for (int64_t i0 = 0; i0 < validRows; i0 += kBlock) {
        int64_t count = std::min(kBlock, validRows - i0);
        bool allInside = true;
        for (int64_t b = 0; b < count; ++b) {
          rowAt[b] = rowStart[i0 + b][1] * gmStride[1] + rowStart[i0 + b][2] * gmStride[2];
          allInside &= inside(i0 + b);
        }
        if (allInside) {
          for (int64_t j = 0; j < realColumns; ++j) {
            const T *column = source + columnAt[j];
            T *target = rows + i0 * cols + j;
            for (int64_t b = 0; b < count; ++b)
              target[b * cols] = column[rowAt[b]];
          }
          continue;
        }
        for (int64_t b = 0; b < count; ++b) {
          int64_t i = i0 + b;
          T *row = rows + i * cols;
          for (int64_t j = 0; j < realColumns; ++j) {
            int64_t h = rowStart[i][1] + kernelAt[j][1], w = rowStart[i][2] + kernelAt[j][2];
            if (h >= 0 && w >= 0 && h < size[1] && w < size[2])
              row[j] = source[rowAt[b] + columnAt[j]];
          }
        }
      }
    });
    return;
  }
  // Column by column: consecutive rows are neighbouring output positions,
  // so the reads walk along an input row.
  for (int64_t j = 0; j < cols; ++j) {
    if (channelOffset[j] < 0)
      continue;
    uint8_t *column = tile.data + j * bytes;
    for (int64_t i = 0; i < validRows; ++i) {
      uint8_t *row = column + i * cols * bytes - j * bytes;
      int64_t at = base + channelOffset[j];
      // The depth axis only for a volume: a plane's inner loop stays as
      // short as the 2-D convolution's.
      if (!positionAlong(rowStart[i][1] + kernelAt[j][1], spread[1], size[1], gmStride[1], at) ||
          !positionAlong(rowStart[i][2] + kernelAt[j][2], spread[2], size[2], gmStride[2], at) ||
          (volume &&
           !positionAlong(rowStart[i][0] + kernelAt[j][0], spread[0], size[0], gmStride[0], at)))
        continue;
      const uint8_t *source = gm.data + at * bytes;
      switch (bytes) {
      case 2: std::memcpy(row + j * 2, source, 2); break;
      case 4: std::memcpy(row + j * 4, source, 4); break;
      default: std::memcpy(row + j * bytes, source, bytes); break;
      }
    }
  }
}

/// A transposed convolution's filter [..., Cin, Cout, kh*kw] read as the
/// equivalent convolution's flipped [K, N] matrix.
void loadTransposedFilter(const Buffer &gm, const Buffer &tile,
                          const std::vector<int64_t> &offsets) {
  std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  int64_t lead = gm.rank - 3;
  int64_t cin = gm.sizes[lead], cout = gm.sizes[lead + 1], window = gm.sizes[lead + 2];
  int64_t k0 = offsets[lead], n0 = offsets[lead + 1];
  std::vector<int64_t> gmIndex(gm.rank, 0);
  for (int64_t d = 0; d < lead; ++d)
    gmIndex[d] = offsets[d];
  int64_t rows = tile.sizes[0], cols = tile.sizes[1];
  for (int64_t i = 0; i < rows; ++i) {
    int64_t k = k0 + i, c = k / window, r = k % window;
    if (c >= cin)
      break;
    for (int64_t j = 0; j < cols && n0 + j < cout; ++j) {
      gmIndex[lead] = c;
      gmIndex[lead + 1] = n0 + j;
      gmIndex[lead + 2] = window - 1 - r;
      std::memcpy(tile.data + (i * cols + j) * tile.bytes, gm.at(gmOffset(gm, gmIndex.data())),
                  gm.bytes);
    }
  }
}

/// A grouped convolution's filter, `enlarge` groups packed into one cube
/// group ([..., E * Cout/G, Cin/G * window]), read as the packed group's
/// block-diagonal [K, N] matrix: weights where input and output channel
/// share a group, zeros elsewhere (CANN's group enlargement).
void loadGroupedFilter(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets,
                       const std::vector<int64_t> &params) {
  std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  int64_t lead = gm.rank - 2;
  int64_t enlarge = params[0], window = params[1];
  int64_t outTotal = gm.sizes[lead], columns = gm.sizes[lead + 1];
  int64_t outPerGroup = outTotal / enlarge, inPerGroup = columns / window;
  int64_t n0 = offsets[lead], k0 = offsets[lead + 1];
  std::vector<int64_t> gmIndex(offsets.begin(), offsets.begin() + lead);
  gmIndex.resize(gm.rank, 0);
  int64_t rows = tile.sizes[0], cols = tile.sizes[1];
  for (int64_t i = 0; i < rows; ++i) {
    int64_t k = k0 + i, c = k / window, r = k % window;
    int64_t group = c / inPerGroup;
    if (group >= enlarge)
      break;
    // The output channels of c's group, clipped to the tile.
    int64_t first = std::max(group * outPerGroup, n0);
    int64_t last = std::min({(group + 1) * outPerGroup, n0 + cols, outTotal});
    for (int64_t n = first; n < last; ++n) {
      gmIndex[lead] = n;
      gmIndex[lead + 1] = (c % inPerGroup) * window + r;
      std::memcpy(tile.data + (i * cols + (n - n0)) * tile.bytes,
                  gm.at(gmOffset(gm, gmIndex.data())), gm.bytes);
    }
  }
}

/// fp16 -> fp32 by table (every pattern), bf16 by shifting: the cube's
/// inputs widened exactly.

std::mutex atomicAddMutex;

/// `*p += value` as the device's atomic add into GM: lock-free for fp32
/// (the dtype split reductions use), under a lock otherwise.
void atomicAdd(ElementType type, uint8_t *p, const uint8_t *value, Overflow overflow) {
  if (type == ElementType::F32 && reinterpret_cast<uintptr_t>(p) % alignof(uint32_t) == 0) {
    auto *word = reinterpret_cast<uint32_t *>(p);
    float addend;
    std::memcpy(&addend, value, 4);
    uint32_t expected = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (;;) {
      float current;
      std::memcpy(&current, &expected, 4);
      float sum = current + addend;
      uint32_t desired;
      std::memcpy(&desired, &sum, 4);
      if (__atomic_compare_exchange_n(word, &expected, desired, /*weak=*/true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED))
        return;
    }
  }
  std::lock_guard<std::mutex> lock(atomicAddMutex);
  writeValue(type, p, readValue(type, p) + readValue(type, value), Rounding::Rint, overflow);
}

/// ArgMax/ArgMin of one row: the index of the first largest (smallest)
/// value, or of the first NaN when there is one (NumPy's rule); 0 for an
/// empty row. Values compare exactly in the input's dtype and ties keep the
/// lower index, so the order the vector unit combines in does not matter.

} // namespace

void ascendprec::runtime::detail::loadTile(const Buffer &gm, const Buffer &tile,
                                           const std::vector<int64_t> &offsets,
                                           const std::vector<int64_t> &params, LoadMode mode) {
  switch (mode) {
  case LoadMode::Plain: return loadPlain(gm, tile, offsets);
  case LoadMode::Transpose: return loadTransposed(gm, tile, offsets);
  case LoadMode::Broadcast: return loadBroadcast(gm, tile, offsets.empty() ? 0 : offsets[0], params);
  case LoadMode::Img2Col: return loadImg2Col(gm, tile, offsets, params);
  case LoadMode::TransposedFilter: return loadTransposedFilter(gm, tile, offsets);
  case LoadMode::GroupedFilter: return loadGroupedFilter(gm, tile, offsets, params);
  }
}

extern "C" {

void ascendprec_rt_load(int64_t gmRank, void *gmDesc, int64_t tileRank, void *tileDesc,
                        int64_t offRank, void *offDesc, int64_t paramRank, void *paramDesc,
                        int32_t elementBytes, int32_t mode) {
  Buffer gm = bufferOf(gmRank, gmDesc, elementBytes);
  Buffer tile = bufferOf(tileRank, tileDesc, elementBytes);
  thread_local std::vector<int64_t> offsets, params;
  readInt64s(offRank, offDesc, offsets);
  readInt64s(paramRank, paramDesc, params);
  loadTile(gm, tile, offsets, params, static_cast<LoadMode>(mode));
}

void ascendprec_rt_store(int64_t tileRank, void *tileDesc, int64_t gmRank, void *gmDesc,
                         int64_t offRank, void *offDesc, int32_t elementType, int32_t atomic,
                         int32_t transpose, int32_t overflow) {
  ElementType type = typeOf(elementType);
  size_t bytes = elementBytes(type);
  Buffer tile = bufferOf(tileRank, tileDesc, bytes);
  Buffer gm = bufferOf(gmRank, gmDesc, bytes);
  thread_local std::vector<int64_t> offsets, gmIndex, tileShape;
  readInt64s(offRank, offDesc, offsets);
  int64_t lead = gm.rank - tile.rank;
  gmIndex = offsets;
  tileShape.assign(tile.sizes, tile.sizes + tile.rank);
  // Row by row: the run of each tile row that lies inside GM.
  auto [tileLast, last] = runAxes(tile, gm, offsets);
  if (!atomic && !transpose && tile.rank > 0 && gm.strides[last] == 1) {
    int64_t width = tileShape[tileLast];
    int64_t start = offsets[last];
    int64_t run = std::min<int64_t>(width, gm.sizes[last] - start);
    if (start < 0 || run <= 0)
      return;
    std::vector<int64_t> rows(tileShape.begin(), tileShape.begin() + tileLast);
    forEachIndex(rows, [&](int64_t row, const std::vector<int64_t> &index) {
      for (size_t d = 0; d < index.size(); ++d)
        gmIndex[lead + d] = offsets[lead + d] + index[d];
      gmIndex[last] = start;
      int64_t at = gmOffset(gm, gmIndex.data());
      if (at >= 0)
        std::memcpy(gm.at(at), tile.data + row * width * bytes, run * bytes);
    });
    return;
  }
  if (!atomic && transpose && tile.rank == 2 && tile.strides[1] == 1) {
    // A [rows, cols] tile into GM's last two axes swapped (a cube result in
    // NCHW): tile [i, j] to GM [offset_r + j, offset_c + i], cropped.
    int64_t r = gm.rank - 2, c = gm.rank - 1;
    int64_t base = 0;
    for (int64_t d = 0; d < lead; ++d) {
      if (offsets[d] < 0 || offsets[d] >= gm.sizes[d])
        return;
      base += offsets[d] * gm.strides[d];
    }
    int64_t rows = tile.sizes[0], cols = tile.sizes[1];
    int64_t iBegin = std::max<int64_t>(0, -offsets[c]);
    int64_t iEnd = std::min(rows, gm.sizes[c] - offsets[c]);
    int64_t jBegin = std::max<int64_t>(0, -offsets[r]);
    int64_t jEnd = std::min(cols, gm.sizes[r] - offsets[r]);
    if (iBegin >= iEnd || jBegin >= jEnd)
      return;
    if (gm.strides[c] == 1) {
      // Each tile column is one run of GM: blocked transposition.
      copyTransposed(tile.at(iBegin * tile.strides[0] + jBegin), tile.strides[0], iEnd - iBegin,
                     jEnd - jBegin,
                     gm.at(base + (offsets[r] + jBegin) * gm.strides[r] + offsets[c] + iBegin),
                     gm.strides[r], bytes, streamsPastCache(gm.numElements() * bytes));
      return;
    }
    forElementSize(bytes, [&](auto element) {
      using T = decltype(element);
      const T *source = reinterpret_cast<const T *>(tile.data);
      for (int64_t j = jBegin; j < jEnd; ++j) {
        T *target = reinterpret_cast<T *>(gm.data) + base + (offsets[r] + j) * gm.strides[r] +
                    offsets[c] * gm.strides[c];
        for (int64_t i = iBegin; i < iEnd; ++i)
          copyElement(&target[i * gm.strides[c]], &source[i * tile.strides[0] + j]);
      }
    });
    return;
  }
  forEachIndex(tileShape, [&](int64_t linear, const std::vector<int64_t> &index) {
    if (transpose) {
      gmIndex[lead] = offsets[lead] + index[1];
      gmIndex[lead + 1] = offsets[lead + 1] + index[0];
    } else {
      for (size_t d = 0; d < index.size(); ++d)
        gmIndex[lead + d] = offsets[lead + d] + index[d];
    }
    int64_t at = gmOffset(gm, gmIndex.data());
    if (at < 0)
      return;
    const uint8_t *source = tile.data + linear * bytes;
    if (atomic)
      atomicAdd(type, gm.at(at), source, static_cast<Overflow>(overflow));
    else
      std::memcpy(gm.at(at), source, bytes);
  });
}

void ascendprec_rt_copy(int64_t srcRank, void *srcDesc, int64_t dstRank, void *dstDesc,
                        int32_t elementBytes) {
  Buffer source = bufferOf(srcRank, srcDesc, elementBytes);
  Buffer target = bufferOf(dstRank, dstDesc, elementBytes);
  int64_t count = std::min(source.numElements(), target.numElements());
  if (source.contiguous() && target.contiguous()) {
    std::memmove(target.data, source.data, count * elementBytes);
    return;
  }
  // Row-major element order on both sides.
  std::vector<uint8_t> staged(count * elementBytes);
  std::vector<int64_t> shape = shapeOf(source);
  forEachIndex(shape, [&](int64_t linear, const std::vector<int64_t> &index) {
    if (linear < count)
      std::memcpy(&staged[linear * elementBytes], source.at(gmOffset(source, index.data())),
                  elementBytes);
  });
  shape = shapeOf(target);
  forEachIndex(shape, [&](int64_t linear, const std::vector<int64_t> &index) {
    if (linear < count)
      std::memcpy(target.at(gmOffset(target, index.data())), &staged[linear * elementBytes],
                  elementBytes);
  });
}

} // extern "C"
