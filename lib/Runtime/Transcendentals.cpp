//===- Transcendentals.cpp - fp32 tanh and sigmoid for the runtime --------===//
//
// glibc's tanhf (Debian 12, glibc 2.36) is the old expm1f-based code: 17 ns
// a call on the bench machine and up to 2.1 ulp off (not correctly rounded
// for one float in 18). The vector unit's tanh is modelled as correctly
// rounded (docs/numerics.md), so fp32 tanh is computed in double from
// DoubleExp.h's exp, which is accurate to about 1 ulp of double
// (doubleexp::tanhFloat; the JIT's vector code emits the same steps):
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
// Each function is compiled for the host's widest vector level, where the
// exp's fused multiply-adds are instructions rather than libm calls.
//
//===----------------------------------------------------------------------===//

#include "Transcendentals.h"
#include "RuntimeBuffers.h"
#include "VectorLevel.h"

#include "AscendPrec/Runtime/DoubleExp.h"

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

template <typename Function>
inline __attribute__((always_inline)) void applyEach(const float *in, float *out, int64_t count,
                                                     Function function) {
  for (int64_t i = 0; i < count; ++i)
    out[i] = function(in[i]);
}

inline __attribute__((always_inline)) void tanhEach(const float *in, float *out, int64_t count) {
  applyEach(in, out, count, doubleexp::tanhFloat);
}

inline __attribute__((always_inline)) void sigmoidEach(const float *in, float *out,
                                                       int64_t count) {
  applyEach(in, out, count, doubleexp::sigmoidFloat);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2,fma"))) void tanhEachFma(const float *in, float *out, int64_t n) {
  tanhEach(in, out, n);
}
__attribute__((target("avx512f,avx512bw,fma"))) void tanhEachAvx512(const float *in, float *out,
                                                                    int64_t n) {
  tanhEach(in, out, n);
}
__attribute__((target("avx2,fma"))) void sigmoidEachFma(const float *in, float *out,
                                                        int64_t n) {
  sigmoidEach(in, out, n);
}
__attribute__((target("avx512f,avx512bw,fma"))) void
sigmoidEachAvx512(const float *in, float *out, int64_t n) {
  sigmoidEach(in, out, n);
}
#endif

} // namespace

void ascendprec::runtime::detail::tanhFloats(const float *in, float *out, int64_t count) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma: return tanhEachAvx512(in, out, count);
  case VectorLevel::Avx2Fma: return tanhEachFma(in, out, count);
  case VectorLevel::Plain: break;
  }
#endif
  tanhEach(in, out, count);
}

void ascendprec::runtime::detail::sigmoidFloats(const float *in, float *out, int64_t count) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  switch (vectorLevel()) {
  case VectorLevel::Avx512Fma: return sigmoidEachAvx512(in, out, count);
  case VectorLevel::Avx2Fma: return sigmoidEachFma(in, out, count);
  case VectorLevel::Plain: break;
  }
#endif
  sigmoidEach(in, out, count);
}

extern "C" float ascendprec_rt_tanh_f32(float x) {
  float result;
  tanhFloats(&x, &result, 1);
  return result;
}
