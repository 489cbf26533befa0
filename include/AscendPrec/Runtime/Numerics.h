//===- Numerics.h - exact fp16/bf16/fp32 and integer rounding -------------===//
//
// The CPU executor's conversions, done on the bits of a double so that every
// result is the one the rounding mode defines (no dependence on the host's
// floating-point environment or on compiler flags). Plain C++17; the C entry
// points at the bottom are what JIT-compiled kernels call.
//
// See docs/numerics.md for what is modelled and where the facts come from.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_RUNTIME_NUMERICS_H
#define ASCENDPREC_RUNTIME_NUMERICS_H

#include <cstdint>

namespace ascendprec::runtime {

/// CANN's conversion round modes (Ascend C RoundMode: CAST_RINT, CAST_ROUND,
/// CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD), spelled as in
/// `#akernel.round<...>`.
enum class Rounding : int32_t {
  Rint = 0,  ///< to nearest, ties to even
  Round = 1, ///< to nearest, ties away from zero
  Floor = 2, ///< toward -inf
  Ceil = 3,  ///< toward +inf
  Trunc = 4, ///< toward zero
  Odd = 5,   ///< to odd: if inexact, the neighbour with an odd last bit
};

/// What a conversion does with a result beyond the target's range.
enum class Overflow : int32_t {
  /// IEEE 754 for the rounding direction: to nearest -> Inf; Trunc -> max
  /// finite; Floor -> -Inf / +max; Ceil -> +Inf / -max; Odd -> max finite.
  /// Inf passes through; NaN stays a quiet NaN with its sign (payload
  /// truncated to the target's width).
  IEEE = 0,
  /// Ascend's saturation mode: a finite result beyond the format's max ->
  /// +-max; Inf input -> +-max; NaN -> +0.
  Saturate = 1,
};

/// `value` rounded to IEEE binary16, as its bit pattern. Subnormals are kept
/// (no flush to zero).
uint16_t roundToHalf(double value, Rounding rounding, Overflow overflow);
/// `value` rounded to bfloat16 (binary32's exponent, 8-bit significand), as
/// its bit pattern. Subnormals are kept.
uint16_t roundToBFloat16(double value, Rounding rounding, Overflow overflow);
/// `value` rounded to binary32. Subnormals are kept.
float roundToFloat(double value, Rounding rounding, Overflow overflow);

/// The exact value of a binary16 bit pattern. NaN patterns keep their sign
/// and payload (a signalling NaN stays signalling in the returned bits).
double halfToDouble(uint16_t bits);
/// The exact value of a bfloat16 bit pattern (NaNs as for halfToDouble).
double bfloat16ToDouble(uint16_t bits);

/// `value` rounded to an integer with `rounding`, then clamped to the range
/// of a `bits`-bit two's-complement integer (bits in 1..64; the executor uses
/// 8, 16, 32, 64); +-Inf clamp like large finite values, NaN -> 0. CANN has no
/// round-to-odd integer conversion: Rounding::Odd is treated as Trunc here.
int64_t roundToSigned(double value, unsigned bits, Rounding rounding);
/// As roundToSigned for a `bits`-bit unsigned integer (bits in 1..64):
/// negative results clamp to 0, NaN -> 0. bits == 1 is bool and ignores
/// `rounding`: ONNX Cast to bool is `value != 0`, so any nonzero value -> 1
/// and NaN -> 1 (NaN != 0, as in C++); +-0 -> 0.
uint64_t roundToUnsigned(double value, unsigned bits, Rounding rounding);

} // namespace ascendprec::runtime

// Entry points for JIT-compiled kernels. `rounding` and `overflow` are the
// integer values of Rounding and Overflow; a value out of range is treated
// as Rint / IEEE. `bits` out of 1..64 is treated as 64.
#if defined(__GNUC__)
#define ASCENDPREC_RUNTIME_EXPORT __attribute__((visibility("default")))
#else
#define ASCENDPREC_RUNTIME_EXPORT
#endif

extern "C" {
/// `value` rounded to binary16, returned as a float (exactly representable).
ASCENDPREC_RUNTIME_EXPORT float
ascendprec_round_f16(float value, int32_t rounding, int32_t overflow);
/// `value` rounded to bfloat16, returned as a float (exactly representable).
ASCENDPREC_RUNTIME_EXPORT float
ascendprec_round_bf16(float value, int32_t rounding, int32_t overflow);
/// `value` rounded to binary32.
ASCENDPREC_RUNTIME_EXPORT float
ascendprec_round_f32(double value, int32_t rounding, int32_t overflow);
/// roundToSigned / roundToUnsigned; unsigned results are returned as their
/// bit pattern (a uint64 above INT64_MAX comes back negative).
ASCENDPREC_RUNTIME_EXPORT int64_t ascendprec_round_int(double value,
                                                       int32_t bits,
                                                       int32_t isSigned,
                                                       int32_t rounding);
}

#endif // ASCENDPREC_RUNTIME_NUMERICS_H
