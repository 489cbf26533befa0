//===- CubeRuntime.cpp - the cube's multiply-accumulate and the fixpipe ---===//
//
// mmad multiplies fp16/bf16 tiles exactly in fp32 and accumulates along K
// in index order (int8 in int32); the fixpipe adds the bias in the
// accumulator's dtype, applies ReLU and rounds once on the way out. Built
// without FP contraction (CMakeLists.txt) so every host gives the same bits.
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

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


} // namespace

extern "C" {

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

} // extern "C"
