//===- KernelRuntime.cpp - the runtime's rounding entry points and symbols ---===//
//
// The exact rounding the generated vector code calls for modes other than
// rint, and the table that binds every `ascendprec_rt_*` declaration of the
// generated code to its C function (TileMovement.cpp, CubeRuntime.cpp,
// ReductionRuntime.cpp).
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

extern "C" {

float ascendprec_rt_round_float(double value, int32_t elementType, int32_t rounding,
                                int32_t overflow) {
  Rounding mode = static_cast<Rounding>(rounding);
  Overflow over = static_cast<Overflow>(overflow);
  switch (typeOf(elementType)) {
  case ElementType::F16: return static_cast<float>(halfToDouble(roundToHalf(value, mode, over)));
  case ElementType::BF16:
    return static_cast<float>(bfloat16ToDouble(roundToBFloat16(value, mode, over)));
  default: return roundToFloat(value, mode, over);
  }
}

/// A float rounded to an integer of `bits` with `rounding`, clamped, NaN -> 0.
int64_t ascendprec_rt_round_int(double value, int32_t bits, int32_t isSigned, int32_t rounding) {
  Rounding mode = static_cast<Rounding>(rounding);
  if (isSigned)
    return roundToSigned(value, static_cast<unsigned>(bits), mode);
  return static_cast<int64_t>(roundToUnsigned(value, static_cast<unsigned>(bits), mode));
}

} // extern "C"

const std::vector<std::pair<std::string, void *>> &ascendprec::runtime::kernelRuntimeSymbols() {
  static const std::vector<std::pair<std::string, void *>> symbols = {
      {"ascendprec_rt_load", reinterpret_cast<void *>(&ascendprec_rt_load)},
      {"ascendprec_rt_store", reinterpret_cast<void *>(&ascendprec_rt_store)},
      {"ascendprec_rt_copy", reinterpret_cast<void *>(&ascendprec_rt_copy)},
      {"ascendprec_rt_fixpipe", reinterpret_cast<void *>(&ascendprec_rt_fixpipe)},
      {"ascendprec_rt_mmad", reinterpret_cast<void *>(&ascendprec_rt_mmad)},
      {"ascendprec_rt_cube_loop", reinterpret_cast<void *>(&ascendprec_rt_cube_loop)},
      {"ascendprec_rt_block_begin", reinterpret_cast<void *>(&ascendprec_rt_block_begin)},
      {"ascendprec_rt_reduce", reinterpret_cast<void *>(&ascendprec_rt_reduce)},
      {"ascendprec_rt_pool", reinterpret_cast<void *>(&ascendprec_rt_pool)},
      {"ascendprec_rt_interp", reinterpret_cast<void *>(&ascendprec_rt_interp)},
      {"ascendprec_rt_topk", reinterpret_cast<void *>(&ascendprec_rt_topk)},
      {"ascendprec_rt_recurrent", reinterpret_cast<void *>(&ascendprec_rt_recurrent)},
      {"ascendprec_rt_round_float", reinterpret_cast<void *>(&ascendprec_rt_round_float)},
      {"ascendprec_rt_round_int", reinterpret_cast<void *>(&ascendprec_rt_round_int)},
  };
  return symbols;
}
