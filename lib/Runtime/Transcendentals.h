//===- Transcendentals.h - fp32 tanh and sigmoid over arrays --------------===//
//
// Internal to lib/Runtime: the vector unit's fp32 tanh and sigmoid
// (DoubleExp.h's steps) over arrays, in the host's widest vector code.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_TRANSCENDENTALS_H
#define ASCENDPREC_LIB_RUNTIME_TRANSCENDENTALS_H

#include <cstdint>

namespace ascendprec::runtime::detail {

/// out[i] = tanh(in[i]) (doubleexp::tanhFloat); the arrays do not overlap.
void tanhFloats(const float *in, float *out, int64_t count);

/// out[i] = 1 / (1 + exp(-in[i])) in double, rounded to fp32
/// (doubleexp::sigmoidFloat); the arrays do not overlap.
void sigmoidFloats(const float *in, float *out, int64_t count);

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_TRANSCENDENTALS_H
