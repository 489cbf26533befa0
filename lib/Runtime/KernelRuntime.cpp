//===- KernelRuntime.cpp - the C functions JIT-compiled kernels call ------===//
//
// Each function implements one akernel op on memref descriptors, with the
// device's rounding (Numerics.h): loads zero-fill past GM's edge, stores
// crop, the fixpipe adds the bias in the accumulator's dtype and rounds
// once, the cube multiplies exactly and accumulates in fp32 (or int32),
// reductions and pooling accumulate in their `acc` dtype, rounding after
// every step.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Runtime/KernelRuntime.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <vector>

using namespace ascendprec::runtime;

namespace {

/// A strided view of an MLIR ranked memref descriptor:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Buffer {
  uint8_t *data = nullptr; ///< aligned + offset, in bytes
  int64_t rank = 0;
  const int64_t *sizes = nullptr;
  const int64_t *strides = nullptr;
  size_t bytes = 1;

  int64_t numElements() const {
    int64_t count = 1;
    for (int64_t d = 0; d < rank; ++d)
      count *= sizes[d];
    return count;
  }
  bool contiguous() const {
    int64_t expected = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (sizes[d] != 1 && strides[d] != expected)
        return false;
      expected *= sizes[d];
    }
    return true;
  }
  uint8_t *at(int64_t linearOffset) const { return data + linearOffset * bytes; }
};

Buffer bufferOf(int64_t rank, void *descriptor, size_t bytes) {
  auto *fields = static_cast<int64_t *>(descriptor);
  Buffer buffer;
  buffer.rank = rank;
  buffer.bytes = bytes;
  int64_t offset = fields[2];
  buffer.data = reinterpret_cast<uint8_t *>(fields[1]) + offset * static_cast<int64_t>(bytes);
  buffer.sizes = fields + 3;
  buffer.strides = fields + 3 + rank;
  return buffer;
}

std::vector<int64_t> int64Values(int64_t rank, void *descriptor) {
  Buffer buffer = bufferOf(rank, descriptor, sizeof(int64_t));
  std::vector<int64_t> values(buffer.rank ? buffer.sizes[0] : 0);
  for (size_t i = 0; i < values.size(); ++i)
    std::memcpy(&values[i], buffer.at(static_cast<int64_t>(i) * buffer.strides[0]),
                sizeof(int64_t));
  return values;
}

ElementType typeOf(int32_t code) { return static_cast<ElementType>(code); }

double readValue(ElementType type, const uint8_t *p) {
  switch (type) {
  case ElementType::F16: { uint16_t v; std::memcpy(&v, p, 2); return halfToDouble(v); }
  case ElementType::BF16: { uint16_t v; std::memcpy(&v, p, 2); return bfloat16ToDouble(v); }
  case ElementType::F32: { float v; std::memcpy(&v, p, 4); return v; }
  case ElementType::F64: { double v; std::memcpy(&v, p, 8); return v; }
  case ElementType::I1: return *p != 0;
  case ElementType::I8: return static_cast<int8_t>(*p);
  case ElementType::U8: return *p;
  case ElementType::I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
  case ElementType::U16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
  case ElementType::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
  case ElementType::U32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
  case ElementType::I64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
  case ElementType::U64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
  }
  return 0;
}

template <typename T> void put(uint8_t *p, T value) { std::memcpy(p, &value, sizeof(T)); }

/// fp32 rounding to nearest even, the common case, without the general
/// rounding code: the host's double-to-float conversion, then saturation.
float nearestFloat(double value, Overflow overflow) {
  float result = static_cast<float>(value);
  if (overflow == Overflow::Saturate && !std::isfinite(result))
    result = std::isnan(result) ? 0.0f
                                : std::copysign(std::numeric_limits<float>::max(), result);
  return result;
}

void writeValue(ElementType type, uint8_t *p, double value, Rounding rounding, Overflow overflow) {
  switch (type) {
  case ElementType::F16: return put(p, roundToHalf(value, rounding, overflow));
  case ElementType::BF16: return put(p, roundToBFloat16(value, rounding, overflow));
  case ElementType::F32:
    return put(p, rounding == Rounding::Rint ? nearestFloat(value, overflow)
                                             : roundToFloat(value, rounding, overflow));
  case ElementType::F64: return put(p, value);
  case ElementType::I1: return put<uint8_t>(p, roundToUnsigned(value, 1, rounding));
  case ElementType::I8: return put<int8_t>(p, roundToSigned(value, 8, rounding));
  case ElementType::U8: return put<uint8_t>(p, roundToUnsigned(value, 8, rounding));
  case ElementType::I16: return put<int16_t>(p, roundToSigned(value, 16, rounding));
  case ElementType::U16: return put<uint16_t>(p, roundToUnsigned(value, 16, rounding));
  case ElementType::I32: return put<int32_t>(p, roundToSigned(value, 32, rounding));
  case ElementType::U32: return put<uint32_t>(p, roundToUnsigned(value, 32, rounding));
  case ElementType::I64: return put<int64_t>(p, roundToSigned(value, 64, rounding));
  case ElementType::U64: return put<uint64_t>(p, roundToUnsigned(value, 64, rounding));
  }
}

/// `value` rounded to what an accumulator of `type` holds.
double roundToAccumulator(double value, ElementType type, Overflow overflow) {
  switch (type) {
  case ElementType::F16: return halfToDouble(roundToHalf(value, Rounding::Rint, overflow));
  case ElementType::BF16:
    return bfloat16ToDouble(roundToBFloat16(value, Rounding::Rint, overflow));
  case ElementType::F32: return nearestFloat(value, overflow);
  default: return value; // f64 and integer accumulators (exact below 2^53)
  }
}

/// Calls `visit(tileIndex, multiIndex)` for every element of `shape`, in
/// row-major order.
template <typename Visit> void forEachIndex(const std::vector<int64_t> &shape, Visit visit) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  if (count == 0)
    return;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    visit(linear, index);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

std::vector<int64_t> shapeOf(const Buffer &buffer) {
  return std::vector<int64_t>(buffer.sizes, buffer.sizes + buffer.rank);
}

/// The GM element at `index` (one per GM dimension), or -1 when it lies
/// outside the buffer.
int64_t gmOffset(const Buffer &gm, const int64_t *index) {
  int64_t offset = 0;
  for (int64_t d = 0; d < gm.rank; ++d) {
    if (index[d] < 0 || index[d] >= gm.sizes[d])
      return -1;
    offset += index[d] * gm.strides[d];
  }
  return offset;
}

// --- loads -----------------------------------------------------------------

/// A plain tile load: the tile covers GM's trailing dimensions from the
/// offsets; rows are copied in runs, what lies past the edge is zero.
void loadPlain(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets) {
  int64_t lead = gm.rank - tile.rank;
  std::vector<int64_t> tileShape = shapeOf(tile);
  std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  if (tile.rank == 0) {
    int64_t at = gmOffset(gm, offsets.data());
    if (at >= 0)
      std::memcpy(tile.data, gm.at(at), gm.bytes);
    return;
  }
  int64_t width = tileShape.back();
  std::vector<int64_t> rows(tileShape.begin(), tileShape.end() - 1);
  std::vector<int64_t> gmIndex(offsets);
  int64_t last = gm.rank - 1;
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
  std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  int64_t rows = tile.sizes[0], cols = tile.sizes[1];
  int64_t r = gm.rank - 2, c = gm.rank - 1;
  int64_t base = 0;
  for (int64_t d = 0; d < r; ++d)
    base += offsets[d] * gm.strides[d];
  // Tile [i, j] reads GM [offset_r + j, offset_c + i]: the columns of the
  // tile that exist in GM, row by row of GM.
  int64_t validRows = std::min(rows, gm.sizes[c] - offsets[c]);
  int64_t validCols = std::min(cols, gm.sizes[r] - offsets[r]);
  size_t bytes = gm.bytes;
  for (int64_t j = 0; j < validCols; ++j) {
    const uint8_t *source =
        gm.data + (base + (offsets[r] + j) * gm.strides[r] + offsets[c] * gm.strides[c]) * bytes;
    for (int64_t i = 0; i < validRows; ++i)
      std::memcpy(tile.data + (i * cols + j) * bytes, source + i * gm.strides[c] * bytes, bytes);
  }
}

void loadBroadcast(const Buffer &gm, const Buffer &tile, int64_t start,
                   const std::vector<int64_t> &shape) {
  std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  int64_t total = 1;
  for (int64_t dim : shape)
    total *= dim;
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t count = std::min<int64_t>(tile.numElements(), total - start);
  std::vector<int64_t> index(rank);
  for (int64_t t = 0; t < count; ++t) {
    int64_t flat = start + t;
    for (int64_t d = rank - 1; d >= 0; --d) {
      index[d] = flat % shape[d];
      flat /= shape[d];
    }
    // GM's dimensions align with the trailing ones of the shape; a
    // dimension of 1 reads its one element.
    int64_t at = 0;
    for (int64_t d = 0; d < gm.rank; ++d) {
      int64_t i = index[rank - gm.rank + d];
      at += (gm.sizes[d] == 1 ? 0 : i) * gm.strides[d];
    }
    std::memcpy(tile.data + t * tile.bytes, gm.at(at), gm.bytes);
  }
}

/// The convolution's patch matrix (img2col), params as the codegen packs
/// them: kernel h/w, strides, pads t/b/l/r, dilations, out h/w, c0, input
/// dilations h/w.
void loadImg2Col(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets,
                 const std::vector<int64_t> &p) {
  std::memset(tile.data, 0, tile.numElements() * tile.bytes);
  int64_t kh = p[0], kw = p[1], sh = p[2], sw = p[3], pt = p[4], pl = p[6];
  int64_t dh = p[8], dw = p[9], outW = p[11], outCount = p[10] * p[11];
  int64_t idh = p[13], idw = p[14];
  int64_t lead = gm.rank - 3;
  int64_t channels = gm.sizes[lead], height = gm.sizes[lead + 1], width = gm.sizes[lead + 2];
  int64_t strideC = gm.strides[lead], strideH = gm.strides[lead + 1],
          strideW = gm.strides[lead + 2];
  int64_t m0 = offsets[lead], k0 = offsets[lead + 1];
  int64_t rows = tile.sizes[0], cols = tile.sizes[1];
  int64_t base = 0;
  for (int64_t d = 0; d < lead; ++d)
    base += offsets[d] * gm.strides[d];
  // Per column: the channel's offset (or -1: a padding column) and the
  // kernel offset in the spread-out map.
  std::vector<int64_t> channelOffset(cols), kernelH(cols), kernelW(cols);
  for (int64_t j = 0; j < cols; ++j) {
    int64_t k = k0 + j;
    int64_t c = k / (kh * kw);
    channelOffset[j] = c < channels ? c * strideC : -1;
    kernelH[j] = ((k / kw) % kh) * dh;
    kernelW[j] = (k % kw) * dw;
  }
  size_t bytes = gm.bytes;
  bool spread = idh != 1 || idw != 1;
  int64_t validRows = std::max<int64_t>(0, std::min(rows, outCount - m0));
  std::vector<int64_t> rowTop(validRows), rowLeft(validRows);
  for (int64_t i = 0; i < validRows; ++i) {
    rowTop[i] = ((m0 + i) / outW) * sh - pt;
    rowLeft[i] = ((m0 + i) % outW) * sw - pl;
  }
  // Column by column: consecutive rows are neighbouring output positions,
  // so the reads walk along an input row.
  for (int64_t j = 0; j < cols; ++j) {
    if (channelOffset[j] < 0)
      continue;
    uint8_t *column = tile.data + j * bytes;
    for (int64_t i = 0; i < validRows; ++i) {
      uint8_t *row = column + i * cols * bytes - j * bytes;
      int64_t h = rowTop[i] + kernelH[j], w = rowLeft[i] + kernelW[j];
      if (h < 0 || w < 0)
        continue;
      if (spread) {
        if (h % idh || w % idw)
          continue;
        h /= idh;
        w /= idw;
      }
      if (h >= height || w >= width)
        continue;
      const uint8_t *source = gm.data + (base + channelOffset[j] + h * strideH + w * strideW) * bytes;
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

/// fp16 -> fp32 by table (every pattern), bf16 by shifting: the cube's
/// inputs widened exactly.
const float *halfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> values(65536);
    for (uint32_t bits = 0; bits < 65536; ++bits)
      values[bits] = static_cast<float>(halfToDouble(static_cast<uint16_t>(bits)));
    return values;
  }();
  return table.data();
}

void widenToFloat(ElementType type, const uint8_t *source, float *target, int64_t count) {
  if (type == ElementType::F32) {
    std::memcpy(target, source, count * 4);
    return;
  }
  const auto *bits = reinterpret_cast<const uint16_t *>(source);
  if (type == ElementType::F16) {
    const float *table = halfTable();
    for (int64_t i = 0; i < count; ++i)
      target[i] = table[bits[i]];
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    uint32_t wide = static_cast<uint32_t>(bits[i]) << 16;
    std::memcpy(&target[i], &wide, 4);
  }
}

/// C[m,n] += A[m,k] * B[k,n] (row-major, fp32), each product added to its
/// accumulator in K order, never fused (this file is built without FP
/// contraction, so every host gives the same bits). A 6 x 16 block of C
/// stays in registers across K (12 AVX registers).
/// One multiply-accumulate step: fused when `kFused` (only for products that
/// are exact in fp32, fp16 and bf16 inputs, where fusing cannot change the
/// result), else a rounded product then a rounded sum.
template <bool kFused> inline __attribute__((always_inline)) float mac(float sum, float a, float b) {
  if constexpr (kFused)
    return __builtin_fmaf(a, b, sum);
  else
    return sum + a * b;
}

template <int kRows, bool kFused = false>
inline __attribute__((always_inline)) void macRows(const float *a, const float *b, float *c,
                                                   int64_t n, int64_t k) {
  constexpr int64_t kCols = 16;
  for (int64_t j0 = 0; j0 < n; j0 += kCols) {
    int64_t width = std::min(kCols, n - j0);
    float sums[kRows][kCols];
    for (int r = 0; r < kRows; ++r)
      for (int64_t j = 0; j < width; ++j)
        sums[r][j] = c[r * n + j0 + j];
    for (int64_t p = 0; p < k; ++p) {
      const float *row = b + p * n + j0;
      for (int r = 0; r < kRows; ++r) {
        float scale = a[r * k + p];
        if (width == kCols) {
          for (int64_t j = 0; j < kCols; ++j)
            sums[r][j] = mac<kFused>(sums[r][j], scale, row[j]);
        } else {
          for (int64_t j = 0; j < width; ++j)
            sums[r][j] = mac<kFused>(sums[r][j], scale, row[j]);
        }
      }
    }
    for (int r = 0; r < kRows; ++r)
      for (int64_t j = 0; j < width; ++j)
        c[r * n + j0 + j] = sums[r][j];
  }
}

template <bool kFused = false>
inline __attribute__((always_inline)) void macTile(const float *a, const float *b, float *c,
                                                   int64_t m, int64_t n, int64_t k) {
  int64_t i = 0;
  for (; i + 6 <= m; i += 6)
    macRows<6, kFused>(a + i * k, b, c + i * n, n, k);
  for (; i < m; ++i)
    macRows<1, kFused>(a + i * k, b, c + i * n, n, k);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) void macTileAvx2(const float *a, const float *b, float *c,
                                                 int64_t m, int64_t n, int64_t k) {
  macTile(a, b, c, m, n, k);
}
__attribute__((target("avx2,fma"))) void macTileFma(const float *a, const float *b, float *c,
                                                    int64_t m, int64_t n, int64_t k) {
  macTile<true>(a, b, c, m, n, k);
}
#endif

/// `exactProducts`: the inputs were fp16/bf16, whose products fp32 holds
/// exactly, so a fused multiply-add gives the same bits as the two steps.
void multiplyAccumulate(const float *a, const float *b, float *c, int64_t m, int64_t n,
                        int64_t k, bool exactProducts) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  static const bool avx2 = __builtin_cpu_supports("avx2");
  static const bool fma = avx2 && __builtin_cpu_supports("fma");
  if (exactProducts && fma)
    return macTileFma(a, b, c, m, n, k);
  if (avx2)
    return macTileAvx2(a, b, c, m, n, k);
#endif
  macTile(a, b, c, m, n, k);
}

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
double argExtreme(const std::vector<double> &values, bool largest) {
  size_t best = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i]))
      return static_cast<double>(i);
    if (largest ? values[i] > values[best] : values[i] < values[best])
      best = i;
  }
  return static_cast<double>(best);
}

} // namespace

extern "C" {

void ascendprec_rt_load(int64_t gmRank, void *gmDesc, int64_t tileRank, void *tileDesc,
                        int64_t offRank, void *offDesc, int64_t paramRank, void *paramDesc,
                        int32_t elementBytes, int32_t mode) {
  Buffer gm = bufferOf(gmRank, gmDesc, elementBytes);
  Buffer tile = bufferOf(tileRank, tileDesc, elementBytes);
  std::vector<int64_t> offsets = int64Values(offRank, offDesc);
  std::vector<int64_t> params = int64Values(paramRank, paramDesc);
  switch (static_cast<LoadMode>(mode)) {
  case LoadMode::Plain: return loadPlain(gm, tile, offsets);
  case LoadMode::Transpose: return loadTransposed(gm, tile, offsets);
  case LoadMode::Broadcast: return loadBroadcast(gm, tile, offsets.empty() ? 0 : offsets[0], params);
  case LoadMode::Img2Col: return loadImg2Col(gm, tile, offsets, params);
  case LoadMode::TransposedFilter: return loadTransposedFilter(gm, tile, offsets);
  }
}

void ascendprec_rt_store(int64_t tileRank, void *tileDesc, int64_t gmRank, void *gmDesc,
                         int64_t offRank, void *offDesc, int32_t elementType, int32_t atomic,
                         int32_t transpose, int32_t overflow) {
  ElementType type = typeOf(elementType);
  size_t bytes = elementBytes(type);
  Buffer tile = bufferOf(tileRank, tileDesc, bytes);
  Buffer gm = bufferOf(gmRank, gmDesc, bytes);
  std::vector<int64_t> offsets = int64Values(offRank, offDesc);
  int64_t lead = gm.rank - tile.rank;
  std::vector<int64_t> gmIndex(offsets);
  std::vector<int64_t> tileShape = shapeOf(tile);
  if (!atomic && !transpose && tile.rank > 0 && gm.strides[gm.rank - 1] == 1) {
    // Row by row: the run of each tile row that lies inside GM.
    int64_t width = tileShape.back(), last = gm.rank - 1;
    int64_t start = offsets[last];
    int64_t run = std::min<int64_t>(width, gm.sizes[last] - start);
    if (start < 0 || run <= 0)
      return;
    std::vector<int64_t> rows(tileShape.begin(), tileShape.end() - 1);
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

void ascendprec_rt_fixpipe(int64_t accRank, void *accDesc, int64_t dstRank, void *dstDesc,
                           int64_t offRank, void *offDesc, int64_t biasRank, void *biasDesc,
                           int32_t accType, int32_t dstType, int32_t rounding, int32_t overflow,
                           int32_t flags) {
  bool relu = flags & 1, transpose = flags & 2, hasBias = flags & 4, intoGm = flags & 8;
  ElementType acc = typeOf(accType), out = typeOf(dstType);
  Buffer source = bufferOf(accRank, accDesc, elementBytes(acc));
  Buffer target = bufferOf(dstRank, dstDesc, elementBytes(out));
  Buffer bias = bufferOf(biasRank, biasDesc, elementBytes(acc));
  std::vector<int64_t> offsets = int64Values(offRank, offDesc);
  int64_t rows = source.sizes[0], cols = source.sizes[1];
  Overflow overflowMode = static_cast<Overflow>(overflow);
  Rounding roundingMode = static_cast<Rounding>(rounding);
  std::vector<int64_t> gmIndex(offsets);
  int64_t r = target.rank - 2, c = target.rank - 1;
  if (acc == ElementType::F32 && (out == ElementType::F32 || out == ElementType::F16) &&
      roundingMode == Rounding::Rint && intoGm && !transpose && target.strides[c] == 1 &&
      source.strides[1] == 1) {
    // The common case: fp32 accumulator rows out to GM, cropped.
    int64_t validRows = std::min(rows, target.sizes[r] - offsets[r]);
    int64_t validCols = std::min(cols, target.sizes[c] - offsets[c]);
    for (int64_t i = 0; i < validRows; ++i) {
      gmIndex[r] = offsets[r] + i;
      gmIndex[c] = offsets[c];
      uint8_t *destination = target.at(gmOffset(target, gmIndex.data()));
      const float *values = reinterpret_cast<const float *>(source.data) + i * source.strides[0];
      for (int64_t j = 0; j < validCols; ++j) {
        float value = values[j];
        if (hasBias) {
          float b;
          std::memcpy(&b, bias.at(j * bias.strides[0]), 4);
          value += b;
        }
        if (relu && !(value > 0) && !std::isnan(value))
          value = 0;
        if (out == ElementType::F32)
          put(destination + j * 4, nearestFloat(value, overflowMode));
        else
          put(destination + j * 2, roundToHalf(value, Rounding::Rint, overflowMode));
      }
    }
    return;
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      uint8_t *destination;
      if (intoGm) {
        gmIndex[r] = offsets[r] + (transpose ? j : i);
        gmIndex[c] = offsets[c] + (transpose ? i : j);
        int64_t at = gmOffset(target, gmIndex.data());
        if (at < 0)
          continue;
        destination = target.at(at);
      } else {
        destination = target.data + (i * cols + j) * target.bytes;
      }
      double value = readValue(acc, source.at(i * source.strides[0] + j * source.strides[1]));
      if (hasBias)
        value = roundToAccumulator(value + readValue(acc, bias.at(j * bias.strides[0])), acc,
                                   Overflow::IEEE);
      if (relu && !(value > 0))
        value = std::isnan(value) ? value : 0.0;
      writeValue(out, destination, value, roundingMode, overflowMode);
    }
}

/// acc[M,N] (+)= lhs[M,K] x rhs[K,N]: products exact in fp32 for fp16/bf16
/// inputs, accumulated in fp32 along K in index order (int8: int32).
void ascendprec_rt_mmad(int64_t lhsRank, void *lhsDesc, int64_t rhsRank, void *rhsDesc,
                        int64_t accRank, void *accDesc, int32_t inType, int32_t init) {
  ElementType in = typeOf(inType);
  size_t bytes = elementBytes(in);
  Buffer lhs = bufferOf(lhsRank, lhsDesc, bytes);
  Buffer rhs = bufferOf(rhsRank, rhsDesc, bytes);
  int64_t m = lhs.sizes[0], k = lhs.sizes[1], n = rhs.sizes[1];
  if (in == ElementType::I8) {
    Buffer acc = bufferOf(accRank, accDesc, 4);
    auto *out = reinterpret_cast<int32_t *>(acc.data);
    if (init)
      std::fill(out, out + m * n, 0);
    const auto *a = reinterpret_cast<const int8_t *>(lhs.data);
    const auto *b = reinterpret_cast<const int8_t *>(rhs.data);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) {
        int32_t av = a[i * k + p];
        for (int64_t j = 0; j < n; ++j)
          out[i * n + j] += av * b[p * n + j];
      }
    return;
  }
  Buffer acc = bufferOf(accRank, accDesc, 4);
  auto *out = reinterpret_cast<float *>(acc.data);
  if (init)
    std::fill(out, out + m * n, 0.0f);
  if (in == ElementType::F32) {
    multiplyAccumulate(reinterpret_cast<const float *>(lhs.data),
                       reinterpret_cast<const float *>(rhs.data), out, m, n, k,
                       /*exactProducts=*/false);
    return;
  }
  // The tiles in fp32 (exact for fp16/bf16), in per-thread scratch.
  thread_local std::vector<float> a, b;
  a.resize(m * k);
  b.resize(k * n);
  widenToFloat(in, lhs.data, a.data(), m * k);
  widenToFloat(in, rhs.data, b.data(), k * n);
  multiplyAccumulate(a.data(), b.data(), out, m, n, k, /*exactProducts=*/true);
}

void ascendprec_rt_reduce(int64_t inRank, void *inDesc, int64_t outRank, void *outDesc,
                          int64_t axesRank, void *axesDesc, int32_t kind, int32_t inType,
                          int32_t outType, int32_t accType, int32_t tree, int32_t overflow) {
  ElementType in = typeOf(inType), out = typeOf(outType), acc = typeOf(accType);
  Buffer input = bufferOf(inRank, inDesc, elementBytes(in));
  Buffer output = bufferOf(outRank, outDesc, elementBytes(out));
  std::vector<int64_t> axes = int64Values(axesRank, axesDesc);
  Overflow overflowMode = static_cast<Overflow>(overflow);
  std::vector<bool> reduced(input.rank, false);
  for (int64_t axis : axes)
    reduced[axis] = true;
  std::vector<int64_t> keptShape, reducedShape;
  for (int64_t d = 0; d < input.rank; ++d)
    (reduced[d] ? reducedShape : keptShape).push_back(input.sizes[d]);
  ReduceKind reduceKind = static_cast<ReduceKind>(kind);
  std::vector<int64_t> index(input.rank);
  std::vector<double> values;
  // Reducing the trailing axes of a contiguous input: each output reads one
  // contiguous run.
  bool trailing = input.contiguous();
  for (int64_t d = 0; d < input.rank; ++d)
    if (reduced[d] && d + 1 < input.rank && !reduced[d + 1])
      trailing = false;
  int64_t run = 1;
  for (int64_t dim : reducedShape)
    run *= dim;
  forEachIndex(keptShape, [&](int64_t outLinear, const std::vector<int64_t> &kept) {
    values.clear();
    if (trailing) {
      const uint8_t *start = input.data + outLinear * run * input.bytes;
      values.resize(run);
      if (in == ElementType::F32) {
        const auto *floats = reinterpret_cast<const float *>(start);
        for (int64_t i = 0; i < run; ++i)
          values[i] = floats[i];
      } else {
        for (int64_t i = 0; i < run; ++i)
          values[i] = readValue(in, start + i * input.bytes);
      }
    } else {
      forEachIndex(reducedShape, [&](int64_t, const std::vector<int64_t> &inner) {
        size_t ki = 0, ri = 0;
        for (int64_t d = 0; d < input.rank; ++d)
          index[d] = reduced[d] ? inner[ri++] : kept[ki++];
        values.push_back(readValue(in, input.at(gmOffset(input, index.data()))));
      });
    }
    auto combine = [&](double a, double b) {
      switch (reduceKind) {
      case ReduceKind::Sum:
      case ReduceKind::Mean: return roundToAccumulator(a + b, acc, overflowMode);
      case ReduceKind::Prod: return roundToAccumulator(a * b, acc, overflowMode);
      case ReduceKind::Max: return std::isnan(a) || a > b ? a : b;
      case ReduceKind::Min: return std::isnan(a) || a < b ? a : b;
      case ReduceKind::ArgMax:
      case ReduceKind::ArgMin: break; // argExtreme
      }
      return a;
    };
    double result;
    if (reduceKind == ReduceKind::ArgMax || reduceKind == ReduceKind::ArgMin) {
      result = argExtreme(values, reduceKind == ReduceKind::ArgMax);
    } else if (acc == ElementType::F32 && overflowMode == Overflow::IEEE && !values.empty() &&
        (reduceKind == ReduceKind::Sum || reduceKind == ReduceKind::Mean)) {
      // fp32 sums (the common case) in float arithmetic: the same roundings.
      thread_local std::vector<float> sums;
      sums.assign(values.begin(), values.end());
      size_t count = sums.size();
      if (tree) {
        while (count > 1) {
          size_t half = (count + 1) / 2;
          for (size_t i = 0; i + half < count; ++i)
            sums[i] += sums[i + half];
          count = half;
        }
        result = sums[0];
      } else {
        float total = sums[0];
        for (size_t i = 1; i < count; ++i)
          total += sums[i];
        result = total;
      }
    } else if (values.empty()) {
      result = reduceKind == ReduceKind::Prod ? 1.0
               : reduceKind == ReduceKind::Max ? -INFINITY
               : reduceKind == ReduceKind::Min ? INFINITY
                                               : 0.0;
    } else {
      for (double &value : values)
        value = roundToAccumulator(value, acc, overflowMode);
      if (tree) {
        // Pairwise, as a tree of vector adds halves the row each step.
        size_t count = values.size();
        while (count > 1) {
          size_t half = (count + 1) / 2;
          for (size_t i = 0; i + half < count; ++i)
            values[i] = combine(values[i], values[i + half]);
          count = half;
        }
        result = values[0];
      } else {
        result = values[0];
        for (size_t i = 1; i < values.size(); ++i)
          result = combine(result, values[i]);
      }
    }
    if (reduceKind == ReduceKind::Mean)
      result = roundToAccumulator(result / static_cast<double>(values.size()), acc, overflowMode);
    int64_t at = outLinear;
    if (!output.contiguous()) {
      std::vector<int64_t> outIndex(output.rank);
      int64_t rest = outLinear;
      for (int64_t d = output.rank - 1; d >= 0; --d) {
        outIndex[d] = rest % output.sizes[d];
        rest /= output.sizes[d];
      }
      at = gmOffset(output, outIndex.data());
    }
    writeValue(out, output.at(at), result, Rounding::Rint, overflowMode);
  });
}

void ascendprec_rt_pool(int64_t inRank, void *inDesc, int64_t outRank, void *outDesc,
                        int64_t paramRank, void *paramDesc, int32_t kind, int32_t inType,
                        int32_t outType, int32_t accType, int32_t exclusive, int32_t overflow) {
  ElementType in = typeOf(inType), out = typeOf(outType), acc = typeOf(accType);
  Buffer input = bufferOf(inRank, inDesc, elementBytes(in));
  Buffer output = bufferOf(outRank, outDesc, elementBytes(out));
  std::vector<int64_t> p = int64Values(paramRank, paramDesc);
  int64_t kh = p[0], kw = p[1], sh = p[2], sw = p[3], pt = p[4], pl = p[6];
  int64_t planes = output.sizes[0], outH = output.sizes[1], outW = output.sizes[2];
  int64_t height = input.sizes[1], width = input.sizes[2];
  Overflow overflowMode = static_cast<Overflow>(overflow);
  bool isMax = static_cast<PoolKind>(kind) == PoolKind::Max;
  for (int64_t plane = 0; plane < planes; ++plane)
    for (int64_t oh = 0; oh < outH; ++oh)
      for (int64_t ow = 0; ow < outW; ++ow) {
        double result = isMax ? -INFINITY : 0.0;
        int64_t valid = 0;
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t q = 0; q < kw; ++q) {
            int64_t h = oh * sh - pt + r, w = ow * sw - pl + q;
            if (h < 0 || w < 0 || h >= height || w >= width)
              continue;
            ++valid;
            double value = readValue(
                in, input.at(plane * input.strides[0] + h * input.strides[1] + w * input.strides[2]));
            if (isMax)
              result = std::isnan(value) || value > result ? value : result;
            else
              result = roundToAccumulator(result + roundToAccumulator(value, acc, overflowMode),
                                          acc, overflowMode);
          }
        if (!isMax) {
          int64_t count = exclusive ? std::max<int64_t>(valid, 1) : kh * kw;
          result = roundToAccumulator(result / static_cast<double>(count), acc, overflowMode);
        }
        writeValue(out,
                   output.at(plane * output.strides[0] + oh * output.strides[1] +
                             ow * output.strides[2]),
                   result, Rounding::Rint, overflowMode);
      }
}

/// The rounding of one value to a 16-bit float or to fp32 for vector code,
/// in a mode other than rint (which the generated code does inline).
float ascendprec_rt_round_float(double value, int32_t elementType, int32_t rounding,
                                int32_t overflow) {
  Rounding mode = static_cast<Rounding>(rounding);
  Overflow over = static_cast<Overflow>(overflow);
  switch (typeOf(elementType)) {
  case ElementType::F16: return static_cast<float>(halfToDouble(roundToHalf(value, mode, over)));
  case ElementType::BF16:
    return static_cast<float>(bfloat16ToDouble(roundToBFloat16(value, mode, over)));
  default: return roundToFloat(value, mode, over);
  }
}

/// A float rounded to an integer of `bits` with `rounding`, clamped, NaN -> 0.
int64_t ascendprec_rt_round_int(double value, int32_t bits, int32_t isSigned, int32_t rounding) {
  Rounding mode = static_cast<Rounding>(rounding);
  if (isSigned)
    return roundToSigned(value, static_cast<unsigned>(bits), mode);
  return static_cast<int64_t>(roundToUnsigned(value, static_cast<unsigned>(bits), mode));
}

} // extern "C"

const std::vector<std::pair<std::string, void *>> &ascendprec::runtime::kernelRuntimeSymbols() {
  static const std::vector<std::pair<std::string, void *>> symbols = {
      {"ascendprec_rt_load", reinterpret_cast<void *>(&ascendprec_rt_load)},
      {"ascendprec_rt_store", reinterpret_cast<void *>(&ascendprec_rt_store)},
      {"ascendprec_rt_copy", reinterpret_cast<void *>(&ascendprec_rt_copy)},
      {"ascendprec_rt_fixpipe", reinterpret_cast<void *>(&ascendprec_rt_fixpipe)},
      {"ascendprec_rt_mmad", reinterpret_cast<void *>(&ascendprec_rt_mmad)},
      {"ascendprec_rt_reduce", reinterpret_cast<void *>(&ascendprec_rt_reduce)},
      {"ascendprec_rt_pool", reinterpret_cast<void *>(&ascendprec_rt_pool)},
      {"ascendprec_rt_round_float", reinterpret_cast<void *>(&ascendprec_rt_round_float)},
      {"ascendprec_rt_round_int", reinterpret_cast<void *>(&ascendprec_rt_round_int)},
  };
  return symbols;
}
