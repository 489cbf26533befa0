//===- Float16Conversion.cpp - 16-bit tiles to fp32 and fp32 rows to fp16 -===//
//
// The cube multiplies, and the reductions add, 16-bit inputs as the fp32
// values they hold; the fixpipe rounds fp32 results to fp16. Both go
// through the host's F16C instructions where it has them. Widening is
// exact and F16C's narrowing rounds to nearest even with IEEE overflow, as
// roundToHalf does. NaN payloads are not something to leave to an
// instruction's fine print: a block of 8 holding a NaN takes the scalar
// path (the table, roundToHalf), as does saturation mode.
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"

#include "AscendPrec/Runtime/HostTensor.h"

#include <cmath>
#include <cstring>
#include <vector>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#endif

using namespace ascendprec::runtime;

const float *ascendprec::runtime::halfToFloatTable() {
  static const std::vector<float> table = [] {
    std::vector<float> values(65536);
    for (uint32_t bits = 0; bits < 65536; ++bits)
      values[bits] = static_cast<float>(halfToDouble(static_cast<uint16_t>(bits)));
    return values;
  }();
  return table.data();
}

namespace {

void widenHalfByTable(const uint16_t *bits, float *target, int64_t count) {
  const float *table = halfToFloatTable();
  for (int64_t i = 0; i < count; ++i)
    target[i] = table[bits[i]];
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2,f16c"))) void widenHalfF16C(const uint16_t *bits, float *target,
                                                        int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i *>(bits + i));
    // A NaN: every exponent bit set and a non-zero fraction, i.e.
    // (bits & 0x7FFF) > 0x7C00.
    __m128i magnitude = _mm_and_si128(block, _mm_set1_epi16(0x7FFF));
    __m128i nan = _mm_cmpgt_epi16(magnitude, _mm_set1_epi16(0x7C00));
    if (_mm_movemask_epi8(nan)) {
      widenHalfByTable(bits + i, target + i, 8);
      continue;
    }
    _mm256_storeu_ps(target + i, _mm256_cvtph_ps(block));
  }
  widenHalfByTable(bits + i, target + i, count - i);
}

__attribute__((target("avx2,f16c"))) void narrowToHalfF16C(const float *source, uint16_t *target,
                                                           int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m256 block = _mm256_loadu_ps(source + i);
    if (_mm256_movemask_ps(_mm256_cmp_ps(block, block, _CMP_UNORD_Q))) {
      for (int64_t j = i; j < i + 8; ++j)
        target[j] = roundToHalf(source[j], Rounding::Rint, Overflow::IEEE);
      continue;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i *>(target + i),
                     _mm256_cvtps_ph(block, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  for (; i < count; ++i)
    target[i] = roundToHalf(source[i], Rounding::Rint, Overflow::IEEE);
}

/// `value` (a float in fp16's finite range) rounded to fp16's bits.
__attribute__((target("f16c"))) uint16_t halfOfFloatF16C(float value) {
  return static_cast<uint16_t>(
      _cvtss_sh(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
#endif

} // namespace

double ascendprec::runtime::detail::nearestHalfValue(double value, Overflow overflow) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  static const bool f16c = __builtin_cpu_supports("f16c");
  auto narrow = static_cast<float>(value);
  // Below 65520 nothing rounds to inf or saturates; NaN fails the test.
  if (f16c && static_cast<double>(narrow) == value && std::fabs(narrow) < 65520.0f)
    return halfToFloatTable()[halfOfFloatF16C(narrow)];
#endif
  return halfToDouble(roundToHalf(value, Rounding::Rint, overflow));
}

void ascendprec::runtime::widenToFloat(ElementType type, const uint8_t *source, float *target,
                                       int64_t count) {
  // An empty run may come with null pointers (an empty vector's data()).
  if (count <= 0)
    return;
  if (type == ElementType::F32) {
    std::memcpy(target, source, count * 4);
    return;
  }
  const auto *bits = reinterpret_cast<const uint16_t *>(source);
  if (type == ElementType::F16) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    static const bool f16c = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
    if (f16c)
      return widenHalfF16C(bits, target, count);
#endif
    return widenHalfByTable(bits, target, count);
  }
  for (int64_t i = 0; i < count; ++i) {
    uint32_t wide = static_cast<uint32_t>(bits[i]) << 16;
    std::memcpy(&target[i], &wide, 4);
  }
}

void ascendprec::runtime::narrowToHalf(const float *source, uint16_t *target, int64_t count,
                                       Overflow overflow) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  static const bool f16c = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  if (f16c && overflow == Overflow::IEEE)
    return narrowToHalfF16C(source, target, count);
#endif
  for (int64_t i = 0; i < count; ++i)
    target[i] = roundToHalf(source[i], Rounding::Rint, overflow);
}

void ascendprec::runtime::narrowToBFloat16(const float *source, uint16_t *target, int64_t count,
                                           Overflow overflow) {
  // A finite value rounds to nearest even by integer arithmetic on its bits
  // (a carry into the exponent is the next binade, or inf past the largest
  // bf16, as IEEE mode wants). Blocks holding inf or NaN, and saturation
  // mode, take the general rounding.
  constexpr int64_t kBlock = 16;
  int64_t i = 0;
  if (overflow == Overflow::IEEE) {
    for (; i + kBlock <= count; i += kBlock) {
      uint32_t bits[kBlock];
      std::memcpy(bits, source + i, sizeof bits);
      uint32_t special = 0;
      for (int64_t j = 0; j < kBlock; ++j)
        special |= (bits[j] & 0x7F800000u) == 0x7F800000u;
      if (special) {
        for (int64_t j = 0; j < kBlock; ++j)
          target[i + j] = roundToBFloat16(source[i + j], Rounding::Rint, overflow);
        continue;
      }
      for (int64_t j = 0; j < kBlock; ++j)
        target[i + j] = static_cast<uint16_t>((bits[j] + 0x7FFFu + ((bits[j] >> 16) & 1u)) >> 16);
    }
  }
  for (; i < count; ++i)
    target[i] = roundToBFloat16(source[i], Rounding::Rint, overflow);
}
