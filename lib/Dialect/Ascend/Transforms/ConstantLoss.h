//===- ConstantLoss.h - what converting a constant to fp16/bf16 loses -----===//
//
// Planning converts constants to the dtype their consumer computes in. A
// value that becomes 0 (a Clip bound of 1e-10 in fp16), Inf (a mask of
// -1e9) or flips sign changes what the op computes, not only how exactly:
// MaterializePrecision warns about it, naming the op.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CONSTANTLOSS_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CONSTANTLOSS_H

#include "mlir/IR/BuiltinAttributes.h"

#include <string>

namespace ascendprec::ascend {

/// A description of what converting `before` (float) to `after` loses, or
/// "" when nothing worth a warning: any element that becomes Inf or flips
/// sign; elements that become 0, when the constant is small (at most 16
/// elements: bounds, epsilons, scales) or at least 1% of them do (a weight
/// with a few tiny values is the ordinary cost of fp16).
std::string describeConstantLoss(mlir::ElementsAttr before, mlir::ElementsAttr after);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_CONSTANTLOSS_H
