//===- VectorLevel.h - which vector code this host runs -------------------===//
//
// The runtime's hot loops are compiled three times (plain, AVX2+FMA,
// AVX-512+FMA) and pick one per host. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_VECTORLEVEL_H
#define ASCENDPREC_LIB_RUNTIME_VECTORLEVEL_H

namespace ascendprec::runtime::detail {

enum class VectorLevel { Plain, Avx2Fma, Avx512Fma };

/// The widest of the levels this host runs, checked once (AVX-512 means
/// F, BW and VL, with AVX2 and FMA).
inline VectorLevel vectorLevel() {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  static const VectorLevel level = [] {
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
      return VectorLevel::Plain;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
      return VectorLevel::Avx512Fma;
    return VectorLevel::Avx2Fma;
  }();
  return level;
#else
  return VectorLevel::Plain;
#endif
}

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_VECTORLEVEL_H
