//===- VectorLanes.h - fp32 vectors for loops written once per width ------===//
//
// The loops that run their vector across output positions (DirectPatches.cpp,
// DepthwiseRows.cpp) are templates over one of these, instantiated in
// functions compiled for AVX-512, AVX2 and plain hosts. Every product is
// one fused multiply-add, whatever the width. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_VECTORLANES_H
#define ASCENDPREC_LIB_RUNTIME_VECTORLANES_H

#include <cstring>

namespace ascendprec::runtime::detail {

#if defined(__x86_64__) && defined(__clang__)
/// kLanes floats as one vector (clang's vector extension): the functions
/// that take them are inlined into the callers compiled for a target,
/// which pick the instructions. (With GCC, which lacks
/// __builtin_elementwise_fma, the plain lane only.)
template <int kWidth> struct Lanes {
  using Type = float __attribute__((ext_vector_type(kWidth)));
  static constexpr int kLanes = kWidth;
  __attribute__((always_inline)) static Type zero() { return Type(0.0f); }
  __attribute__((always_inline)) static Type load(const float *p) {
    Type v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  __attribute__((always_inline)) static Type fma(Type x, float w, Type acc) {
    return __builtin_elementwise_fma(x, Type(w), acc);
  }
  __attribute__((always_inline)) static Type addZero(Type v) { return v + Type(0.0f); }
  __attribute__((always_inline)) static void store(float *p, Type v) {
    std::memcpy(p, &v, sizeof v);
  }
};
using Avx512 = Lanes<16>;
using Avx2 = Lanes<8>;
#endif

/// One lane: fmaf, for hosts without AVX2 and FMA.
struct Scalar {
  using Type = float;
  static constexpr int kLanes = 1;
  static Type zero() { return 0.0f; }
  static Type load(const float *p) { return *p; }
  static Type fma(Type x, float w, Type acc) { return __builtin_fmaf(x, w, acc); }
  static Type addZero(Type v) { return v + 0.0f; }
  static void store(float *p, Type v) { *p = v; }
};

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_VECTORLANES_H
