//===- Transcendentals.cpp - fp32 functions the vector codegen calls ------===//
//
// glibc's tanhf (Debian 12, glibc 2.36) is the old expm1f-based code: 17 ns
// a call on the bench machine and up to 2.1 ulp off (not correctly rounded
// for one float in 18). The vector unit's tanh is modelled as correctly
// rounded (docs/numerics.md), and a transformer's Gelu spends most of its
// time in it, so fp32 tanh is computed here in double from glibc's exp,
// which is fast and accurate to 1 ulp of double:
//
//   |x| < 2^-12:  tanh(x) = x (1 - x^2/3 + ...) is within x^2/3 < 2^-24/3
//                 of x relative, under half the spacing of floats below
//                 |x|: x is the correctly rounded result.
//   |x| > 9.1:    1 - tanh|x| < 2 e^-18.2 < 2^-25, half the spacing below
//                 1: the result is +-1.
//   otherwise:    e = exp(2|x|), t = (e - 1) / (e + 1), rounded to fp32.
//                 exp's error (2^-52 relative) grows in e - 1 by
//                 e / (e - 1) <= 2^11 (e - 1 >= 2|x| >= 2^-11); with three
//                 more roundings of double, t is within 2^-40.9 of tanh|x|
//                 relative, so the float result is correctly rounded
//                 unless tanh|x| lies that close to a midpoint between
//                 floats, and is never more than 0.5 + 2^-16 ulp off.
//
// NaN stays NaN, +-inf gives +-1, -0 gives -0. unittests/Runtime/
// TranscendentalsTest.cpp checks the result against long double tanhl.
// Compiled kernels reach it by libm's name, tanhf (KernelRuntime.h:
// libmReplacements).
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"

#include <cmath>

extern "C" float ascendprec_rt_tanh_f32(float x) {
  double magnitude = std::fabs(static_cast<double>(x));
  if (!(magnitude >= 0x1p-12)) // also NaN
    return x;
  if (magnitude > 9.1)
    return std::copysign(1.0f, x);
  double e = std::exp(2 * magnitude);
  return std::copysign(static_cast<float>((e - 1) / (e + 1)), x);
}
