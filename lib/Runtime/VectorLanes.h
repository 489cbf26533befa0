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

#include <cstdint>
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
  /// Lanes set where v is inf, NaN or a nonzero under 2^-50 (values that
  /// keep a multiply from dropping products of zeros, CubeRuntime.cpp).
  using Flags = int __attribute__((ext_vector_type(kWidth)));
  __attribute__((always_inline)) static Flags noFlags() { return Flags(0); }
  __attribute__((always_inline)) static Flags unusual(Type v) {
    using Bits = unsigned __attribute__((ext_vector_type(kWidth)));
    Bits magnitude = __builtin_bit_cast(Bits, v) & 0x7FFFFFFFu;
    return (magnitude >= 0x7F800000u) | (magnitude - 1u < 0x26800000u - 1u);
  }
  __attribute__((always_inline)) static bool any(Flags flags) {
    return __builtin_reduce_or(flags) != 0;
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
  using Flags = int;
  static Flags noFlags() { return 0; }
  static Flags unusual(Type v) {
    uint32_t magnitude;
    std::memcpy(&magnitude, &v, 4);
    magnitude &= 0x7FFFFFFFu;
    return (magnitude >= 0x7F800000u) | (magnitude - 1u < 0x26800000u - 1u);
  }
  static bool any(Flags flags) { return flags != 0; }
};

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_VECTORLANES_H
