//===- ConstantLoss.h - what converting a constant to fp16/bf16 loses -----===//
//
// Planning converts constants to the dtype their consumer computes in. A
// value that becomes 0 (a Clip bound of 1e-10 in fp16) or Inf (a scale of
// 2^20, a mask of -1e9) changes what the op computes, not only how
// exactly: MaterializePrecision warns about it, naming the op.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CONSTANTLOSS_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CONSTANTLOSS_H

#include "mlir/IR/BuiltinAttributes.h"

#include <string>

namespace ascendprec::ascend {

/// What converting the f32 constant `value` to `to` (f16 or bf16) loses,
/// or "" when nothing worth a warning (other types: ""). Any element that
/// becomes Inf counts; elements that become 0 count when the constant is
/// small (at most 16 elements: bounds, epsilons, scales) or at least 1% of
/// them do, and not when they are far below the constant's largest (a DFT
/// basis's 3e-17 where the exact value is 0). ±FLT_MAX, how importers
/// write an absent bound, bounds nothing as Inf either. Rounding to nearest
/// even cannot flip a sign. One pass over the raw data: weights of
/// hundreds of megabytes are checked in their conversion's time.
std::string describeConstantLoss(mlir::ElementsAttr value, mlir::Type to);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CONSTANTLOSS_H
