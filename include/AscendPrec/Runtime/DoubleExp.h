//===- DoubleExp.h - exp in double, the same steps on the host and the JIT -===//
//
// The vector unit's exp is modelled as correctly rounded (docs/numerics.md).
// fp32 exp, sigmoid, tanh and the composites built on them are computed in
// double and rounded once to fp32, so the result is the correctly rounded
// one unless the true value lies within about 2^-51 (relative) of a midpoint
// between floats.
//
// libm's exp would do, but a call per element keeps an element loop scalar
// (a transformer's softmax and Gelu spent 15% of their run in it). This is
// the same function as straight-line code that LLVM vectorizes: the JIT's
// vector codegen emits exactly these steps (VectorCodegen.cpp, expInDouble)
// and host code calls expFloat, expDouble, tanhFloat and sigmoidFloat, so
// the two give the same bits:
//
//   c = x clamped to [-745.2, 709.8] (exp is 0 below, inf above in double),
//       or to [-104, 89] for an fp32 result (0 and inf there); NaN stays
//       NaN: both comparisons are false
//   k = round-to-nearest-even(c / ln 2), through the 1.5 * 2^52 shifter
//   r = c - k ln2, in two fused multiply-adds (ln 2 as hi + lo), |r| <= 0.35
//   p = sum r^i / i!, i <= 13, by Horner's rule in fused multiply-adds: the
//       truncation error is below 0.35^14 / 14! < 2^-57 relative
//   exp(c) = p * 2^(k/2) * 2^(k - k/2) (two powers of two keep every factor
//       a normal double, down to the subnormal results); a NaN input is
//       returned as it is
//
// The error is within about 1 ulp of double (checked against long double
// expl in unittests/Runtime/TranscendentalsTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_RUNTIME_DOUBLEEXP_H
#define ASCENDPREC_RUNTIME_DOUBLEEXP_H

#include <array>
#include <cstdint>
#include <cstring>

namespace ascendprec::runtime::doubleexp {

/// Inputs below give +0 and above give +inf, in double.
inline constexpr double kLowest = -745.2;
inline constexpr double kHighest = 709.8;
/// For an fp32 result: exp(-104) < 2^-150 rounds to +0 and exp(89) to inf,
/// so clamping there changes no fp32 result, and no step ever meets a
/// subnormal double (a multiply that makes one costs a microcode assist:
/// a masked softmax, half its inputs near -10000, ran 8 times slower).
inline constexpr double kLowestForFloat = -104.0;
inline constexpr double kHighestForFloat = 89.0;
inline constexpr double kInverseLn2 = 0x1.71547652b82fep0;
/// 1.5 * 2^52: adding it rounds a value below 2^51 to an integer, which is
/// then the low bits of the sum's representation.
inline constexpr double kShifter = 0x1.8p52;
/// ln 2 = kLn2High + kLn2Low, to 106 bits.
inline constexpr double kLn2High = 0x1.62e42fefa39efp-1;
inline constexpr double kLn2Low = 0x1.abc9e3b39803fp-56;
inline constexpr int kDegree = 13;

/// 1 / i! for i <= kDegree, each from the previous by one division (the
/// values both the host and the generated code use).
inline constexpr std::array<double, kDegree + 1> kCoefficients = [] {
  std::array<double, kDegree + 1> c{};
  c[0] = 1.0;
  for (int i = 1; i <= kDegree; ++i)
    c[i] = c[i - 1] / i;
  return c;
}();

/// 2^e for e in [-1022, 1023].
inline double powerOfTwo(int64_t e) {
  uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// x clamped to [lowest, highest]; NaN passes through (both comparisons
/// are false).
inline double clamped(double x, double lowest, double highest) {
  double c = x < lowest ? lowest : x;
  return c > highest ? highest : c;
}

/// exp(c) for c in [kLowest, kHighest] or NaN: the reduction, polynomial
/// and scaling steps the file comment lists, within about 1 ulp.
inline double expOfClamped(double c) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  double scaled = c * kInverseLn2;
  double shifted = scaled + kShifter;
  double k = shifted - kShifter;
  double r = __builtin_fma(-k, kLn2High, c);
  r = __builtin_fma(-k, kLn2Low, r);
  double p = kCoefficients[kDegree];
  for (int i = kDegree - 1; i >= 0; --i)
    p = __builtin_fma(p, r, kCoefficients[i]);
  uint64_t shiftedBits, shifterBits;
  std::memcpy(&shiftedBits, &shifted, sizeof shiftedBits);
  std::memcpy(&shifterBits, &kShifter, sizeof shifterBits);
  // k as an integer (garbage for NaN, which p carries through anyway).
  auto n = static_cast<int64_t>(shiftedBits - shifterBits);
  int64_t half = n >> 1;
  double scaledOnce = p * powerOfTwo(half);
  double result = scaledOnce * powerOfTwo(n - half);
  return c != c ? c : result; // NaN as it came (the steps may flip its sign)
}

/// exp(x) in double, within about 1 ulp.
inline double expDouble(double x) { return expOfClamped(clamped(x, kLowest, kHighest)); }

/// fp32 exp: exp(x) in double, rounded once.
inline float expFloat(float x) {
  return static_cast<float>(expOfClamped(clamped(x, kLowestForFloat, kHighestForFloat)));
}

/// The vector unit's fp32 tanh, modelled as correctly rounded, in double
/// (lib/Runtime/Transcendentals.cpp has the error analysis):
///   |x| < 2^-12 (and NaN): x;  |x| > 9.1: +-1;
///   otherwise e = exp(2|x|), (e - 1) / (e + 1) rounded to fp32, x's sign.
inline float tanhFloat(float x) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  double wide = x;
  double magnitude = wide < 0 ? -wide : wide;
  double e = expDouble(2 * magnitude);
  auto t = static_cast<float>((e - 1) / (e + 1));
  float result = magnitude > 9.1 ? 1.0f : t;
  result = wide < 0 ? -result : result;
  return magnitude >= 0x1p-12 ? result : x;
}

/// fp32 sigmoid as the per-element paths compute it: 1 / (1 + exp(-x)) in
/// double, rounded once to fp32.
/// Clamping -x to +-104 changes no fp32 result (1 + e^-104 is 1 in double;
/// e^-104 rounds to +0) and keeps every step off subnormal doubles.
inline float sigmoidFloat(float x) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  double e = expOfClamped(clamped(-static_cast<double>(x), kLowestForFloat, -kLowestForFloat));
  return static_cast<float>(1 / (1 + e));
}

} // namespace ascendprec::runtime::doubleexp

#endif // ASCENDPREC_RUNTIME_DOUBLEEXP_H
