//===- Numerics.cpp - exact fp16/bf16/fp32 and integer rounding -----------===//
//
// Floating-point narrowing works on the double's bits: split it into sign,
// exponent and a 53-bit integer significand, shift the significand down to
// the target's quantum at that exponent (the subnormal quantum below the
// target's smallest normal exponent), decide the increment from the bits
// shifted out, and re-assemble. The re-assembly adds the rounded significand
// to the biased exponent field, so a carry out of the significand (1.11..1
// rounding up to 10.0) moves into the exponent by itself, including the step
// from the largest subnormal to the smallest normal and from the largest
// finite value to the Inf encoding, which is the overflow test.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Runtime/Numerics.h"

#include <cassert>
#include <cmath>
#include <cstring>

using namespace ascendprec::runtime;

namespace {

constexpr uint64_t kDoubleFractionMask = (uint64_t(1) << 52) - 1;
constexpr uint64_t kDoubleHiddenBit = uint64_t(1) << 52;

inline uint64_t bitsOfDouble(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline double doubleOfBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline float floatOfBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Leading zero bits of a nonzero 64-bit value.
inline int countLeadingZeros(uint64_t value) {
#if defined(__GNUC__)
  return __builtin_clzll(value);
#else
  int count = 0;
  for (uint64_t bit = uint64_t(1) << 63; !(value & bit); bit >>= 1)
    ++count;
  return count;
#endif
}

/// `value` rounded to the binary format with `FractionBits` stored
/// significand bits and `ExponentBits` exponent bits, as its bit pattern.
template <int FractionBits, int ExponentBits, Rounding Mode>
inline uint32_t roundDouble(double value, Overflow overflow) {
  constexpr int kBias = (1 << (ExponentBits - 1)) - 1;
  constexpr int kMinExponent = 1 - kBias; // of the smallest normal
  constexpr uint32_t kInfinity = ((uint32_t(1) << ExponentBits) - 1)
                                 << FractionBits;
  constexpr uint32_t kMaxFinite = kInfinity - 1;
  constexpr uint32_t kQuietBit = uint32_t(1) << (FractionBits - 1);
  constexpr int kSignShift = FractionBits + ExponentBits;

  const uint64_t bits = bitsOfDouble(value);
  const bool negative = (bits >> 63) != 0;
  const uint32_t sign = uint32_t(negative) << kSignShift;
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t significand = bits & kDoubleFractionMask;

  if (biased == 0x7ff) {
    if (significand == 0) // +-Inf
      return sign | (overflow == Overflow::Saturate ? kMaxFinite : kInfinity);
    if (overflow == Overflow::Saturate) // NaN
      return 0;
    return sign | kInfinity | kQuietBit |
           static_cast<uint32_t>(significand >> (52 - FractionBits));
  }

  int exponent; // of the leading significand bit
  if (biased == 0) {
    if (significand == 0) // +-0
      return sign;
    // A double subnormal (far below every target's range): normalise so the
    // leading bit sits at bit 52 like a normal's hidden bit.
    const int normalise = countLeadingZeros(significand) - 11;
    significand <<= normalise;
    exponent = -1022 - normalise;
  } else {
    significand |= kDoubleHiddenBit;
    exponent = biased - 1023;
  }
  // |value| = significand * 2^(exponent - 52), significand in [2^52, 2^53).

  // The target's quantum at this exponent is 2^(quantumExponent); below its
  // smallest normal exponent the quantum stays the subnormal one.
  const int targetExponent = exponent < kMinExponent ? kMinExponent : exponent;
  const int quantumExponent = targetExponent - FractionBits;
  // At least 52 - FractionBits > 0. Past 63 every bit shifted out lies below
  // half a quantum, which a shift of 63 classifies the same way.
  int shift = quantumExponent - (exponent - 52);
  if (shift > 63)
    shift = 63;
  uint64_t kept = significand >> shift;
  const uint64_t remainder = significand & ((uint64_t(1) << shift) - 1);
  const uint64_t half = uint64_t(1) << (shift - 1);
  const bool inexact = remainder != 0;

  // Bitwise rather than short-circuit logic: no data-dependent branches.
  if constexpr (Mode == Rounding::Rint) {
    kept += uint64_t(remainder > half) | (uint64_t(remainder == half) & kept);
  } else if constexpr (Mode == Rounding::Round) {
    kept += uint64_t(remainder >= half);
  } else if constexpr (Mode == Rounding::Floor) {
    kept += (inexact && negative) ? 1 : 0;
  } else if constexpr (Mode == Rounding::Ceil) {
    kept += (inexact && !negative) ? 1 : 0;
  } else if constexpr (Mode == Rounding::Odd) {
    // Never carries: an even significand becomes the odd one above it.
    kept |= inexact ? 1 : 0;
  }
  // Rounding::Trunc keeps `kept` as is.

  // Exponent field above the smallest normal's, plus the significand with
  // its leading bit: the carry of a rounded-up significand lands in the
  // exponent field.
  const uint64_t encoded =
      (uint64_t(targetExponent - kMinExponent) << FractionBits) + kept;
  if (encoded < kInfinity)
    return sign | static_cast<uint32_t>(encoded);

  if (overflow == Overflow::Saturate)
    return sign | kMaxFinite;
  bool toInfinity;
  if constexpr (Mode == Rounding::Rint || Mode == Rounding::Round)
    toInfinity = true;
  else if constexpr (Mode == Rounding::Floor)
    toInfinity = negative;
  else if constexpr (Mode == Rounding::Ceil)
    toInfinity = !negative;
  else // Trunc, Odd
    toInfinity = false;
  return sign | (toInfinity ? kInfinity : kMaxFinite);
}

template <int FractionBits, int ExponentBits>
uint32_t roundDouble(double value, Rounding rounding, Overflow overflow) {
  switch (rounding) {
  case Rounding::Rint:
    break;
  case Rounding::Round:
    return roundDouble<FractionBits, ExponentBits, Rounding::Round>(value,
                                                                    overflow);
  case Rounding::Floor:
    return roundDouble<FractionBits, ExponentBits, Rounding::Floor>(value,
                                                                    overflow);
  case Rounding::Ceil:
    return roundDouble<FractionBits, ExponentBits, Rounding::Ceil>(value,
                                                                   overflow);
  case Rounding::Trunc:
    return roundDouble<FractionBits, ExponentBits, Rounding::Trunc>(value,
                                                                    overflow);
  case Rounding::Odd:
    return roundDouble<FractionBits, ExponentBits, Rounding::Odd>(value,
                                                                  overflow);
  }
  return roundDouble<FractionBits, ExponentBits, Rounding::Rint>(value,
                                                                 overflow);
}

/// The exact value of a bit pattern of the binary format with
/// `FractionBits` stored significand bits and `ExponentBits` exponent bits.
template <int FractionBits, int ExponentBits>
double decodeBits(uint32_t bits) {
  constexpr int kBias = (1 << (ExponentBits - 1)) - 1;
  constexpr uint32_t kExponentMask = (uint32_t(1) << ExponentBits) - 1;
  constexpr uint32_t kFractionMask = (uint32_t(1) << FractionBits) - 1;
  // 2^(1 - bias - FractionBits), the subnormal quantum: a normal double.
  constexpr uint64_t kSubnormalQuantumBits =
      uint64_t(1023 + 1 - kBias - FractionBits) << 52;

  const uint64_t sign = uint64_t((bits >> (FractionBits + ExponentBits)) & 1)
                        << 63;
  const uint32_t exponent = (bits >> FractionBits) & kExponentMask;
  const uint64_t fraction = bits & kFractionMask;
  if (exponent == kExponentMask) // Inf or NaN: keep the payload
    return doubleOfBits(sign | (uint64_t(0x7ff) << 52) |
                        (fraction << (52 - FractionBits)));
  if (exponent == 0) { // zero or subnormal: fraction * quantum, exact
    const double magnitude =
        static_cast<double>(fraction) * doubleOfBits(kSubnormalQuantumBits);
    return sign ? -magnitude : magnitude;
  }
  return doubleOfBits(sign | (uint64_t(exponent - kBias + 1023) << 52) |
                      (fraction << (52 - FractionBits)));
}

/// `value` (not NaN) rounded to an integral double; Inf stays Inf.
inline double roundToIntegral(double value, Rounding rounding) {
  const double magnitude = std::fabs(value);
  if (!(magnitude < 0x1p52)) // already integral (or Inf)
    return value;
  const bool negative = std::signbit(value);
  const double whole = std::trunc(magnitude);
  const double fraction = magnitude - whole; // exact
  // Bitwise rather than short-circuit logic: no data-dependent branches.
  bool up = false;
  switch (rounding) {
  case Rounding::Rint:
    up = (fraction > 0.5) |
         ((fraction == 0.5) & ((static_cast<uint64_t>(whole) & 1) != 0));
    break;
  case Rounding::Round:
    up = fraction >= 0.5;
    break;
  case Rounding::Floor:
    up = negative & (fraction != 0);
    break;
  case Rounding::Ceil:
    up = !negative & (fraction != 0);
    break;
  case Rounding::Trunc:
  case Rounding::Odd: // no integer round-to-odd in CANN: as Trunc
    break;
  }
  // Exact below 2^52; copysign keeps -0 for e.g. -0.3 (harmless: it
  // converts to integer 0).
  return std::copysign(whole + static_cast<double>(up), value);
}

/// 2^exponent for 0 <= exponent <= 64, exactly.
inline double powerOfTwo(unsigned exponent) {
  return doubleOfBits(uint64_t(1023 + exponent) << 52);
}

inline unsigned validBits(unsigned bits) {
  assert(bits >= 1 && bits <= 64 && "integer width out of 1..64");
  return bits >= 1 && bits <= 64 ? bits : 64;
}

inline Rounding toRounding(int32_t rounding) {
  return rounding >= 0 && rounding <= static_cast<int32_t>(Rounding::Odd)
             ? static_cast<Rounding>(rounding)
             : Rounding::Rint;
}

inline Overflow toOverflow(int32_t overflow) {
  return overflow == static_cast<int32_t>(Overflow::Saturate)
             ? Overflow::Saturate
             : Overflow::IEEE;
}

} // namespace

uint16_t ascendprec::runtime::roundToHalf(double value, Rounding rounding,
                                          Overflow overflow) {
  return static_cast<uint16_t>(roundDouble<10, 5>(value, rounding, overflow));
}

uint16_t ascendprec::runtime::roundToBFloat16(double value, Rounding rounding,
                                              Overflow overflow) {
  return static_cast<uint16_t>(roundDouble<7, 8>(value, rounding, overflow));
}

float ascendprec::runtime::roundToFloat(double value, Rounding rounding,
                                        Overflow overflow) {
  return floatOfBits(roundDouble<23, 8>(value, rounding, overflow));
}

double ascendprec::runtime::halfToDouble(uint16_t bits) {
  return decodeBits<10, 5>(bits);
}

double ascendprec::runtime::bfloat16ToDouble(uint16_t bits) {
  return decodeBits<7, 8>(bits);
}

int64_t ascendprec::runtime::roundToSigned(double value, unsigned bits,
                                           Rounding rounding) {
  bits = validBits(bits);
  if (std::isnan(value))
    return 0;
  const double rounded = roundToIntegral(value, rounding);
  // The range is [-2^(bits-1), 2^(bits-1) - 1]; both limits compare exactly
  // as doubles, and every double strictly inside converts without UB.
  const double limit = powerOfTwo(bits - 1);
  const int64_t largest = INT64_MAX >> (64 - bits);
  if (rounded >= limit)
    return largest;
  if (rounded < -limit)
    return -largest - 1;
  return static_cast<int64_t>(rounded);
}

uint64_t ascendprec::runtime::roundToUnsigned(double value, unsigned bits,
                                              Rounding rounding) {
  bits = validBits(bits);
  if (bits == 1) // bool: value != 0, so NaN -> 1
    return value != 0 ? 1 : 0;
  if (std::isnan(value))
    return 0;
  const double rounded = roundToIntegral(value, rounding);
  if (!(rounded > 0)) // negative, or +-0
    return 0;
  if (rounded >= powerOfTwo(bits))
    return UINT64_MAX >> (64 - bits);
  return static_cast<uint64_t>(rounded);
}

extern "C" float ascendprec_round_f16(float value, int32_t rounding,
                                      int32_t overflow) {
  // Every binary16 value is a float: the double narrows exactly.
  return static_cast<float>(halfToDouble(
      roundToHalf(value, toRounding(rounding), toOverflow(overflow))));
}

extern "C" float ascendprec_round_bf16(float value, int32_t rounding,
                                       int32_t overflow) {
  // A bfloat16 is the top half of a binary32.
  const uint16_t bits =
      roundToBFloat16(value, toRounding(rounding), toOverflow(overflow));
  return floatOfBits(uint32_t(bits) << 16);
}

extern "C" float ascendprec_round_f32(double value, int32_t rounding,
                                      int32_t overflow) {
  return roundToFloat(value, toRounding(rounding), toOverflow(overflow));
}

extern "C" int64_t ascendprec_round_int(double value, int32_t bits,
                                        int32_t isSigned, int32_t rounding) {
  const unsigned width =
      bits >= 1 && bits <= 64 ? static_cast<unsigned>(bits) : 64;
  if (isSigned)
    return roundToSigned(value, width, toRounding(rounding));
  const uint64_t result = roundToUnsigned(value, width, toRounding(rounding));
  int64_t pattern;
  std::memcpy(&pattern, &result, sizeof pattern);
  return pattern;
}
