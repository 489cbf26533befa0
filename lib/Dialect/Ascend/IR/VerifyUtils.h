//===- VerifyUtils.h - shape checks shared by `ascend` verifiers ----------===//
//
// Every check compares only what is statically known: a dynamic dimension
// (`?`) matches anything.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_DIALECT_ASCEND_VERIFYUTILS_H
#define ASCENDPREC_LIB_DIALECT_ASCEND_VERIFYUTILS_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace ascendprec::ascend::verify {

inline bool isKnown(int64_t dim) { return !ShapedType::isDynamic(dim); }

inline RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Error unless `value` has rank `rank`.
LogicalResult expectRank(Operation *op, StringRef what, Value value,
                         int64_t rank);
/// Error unless `value` has rank `rank` or more.
LogicalResult expectMinRank(Operation *op, StringRef what, Value value,
                            int64_t rank);
/// Error when both sizes are static and differ.
LogicalResult expectDim(Operation *op, const Twine &what, int64_t actual,
                        int64_t expected);
/// Error unless `values` has `size` entries.
LogicalResult expectArraySize(Operation *op, StringRef attr,
                              ArrayRef<int64_t> values, size_t size);
LogicalResult expectAllPositive(Operation *op, StringRef attr,
                                ArrayRef<int64_t> values);
LogicalResult expectAllNonNegative(Operation *op, StringRef attr,
                                   ArrayRef<int64_t> values);
/// Checks `axis` against [-rank, rank) and returns it in [0, rank).
FailureOr<int64_t> normalizeAxis(Operation *op, StringRef attr, int64_t axis,
                                 int64_t rank);
/// Normalizes a list of axes and rejects duplicates.
FailureOr<SmallVector<int64_t>> normalizeAxes(Operation *op, StringRef attr,
                                              ArrayRef<int64_t> axes,
                                              int64_t rank);
/// Error unless both values have the same shape (dynamic dims match).
LogicalResult expectSameShape(Operation *op, StringRef what, Value actual,
                              Value expected);
/// Output size of a sliding window; dynamic when `in` is dynamic, 0 or less
/// when the window does not fit.
int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                         int64_t padBegin, int64_t padEnd, int64_t dilation,
                         bool ceilMode);

} // namespace ascendprec::ascend::verify

#endif // ASCENDPREC_LIB_DIALECT_ASCEND_VERIFYUTILS_H
