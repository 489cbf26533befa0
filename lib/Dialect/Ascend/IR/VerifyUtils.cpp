//===- VerifyUtils.cpp - shape checks shared by `ascend` verifiers --------===//

#include "VerifyUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

LogicalResult verify::expectRank(Operation *op, StringRef what, Value value,
                                 int64_t rank) {
  int64_t actual = tensorType(value).getRank();
  if (actual != rank)
    return op->emitOpError() << "expects " << what << " of rank " << rank
                             << ", got rank " << actual;
  return success();
}

LogicalResult verify::expectMinRank(Operation *op, StringRef what, Value value,
                                    int64_t rank) {
  int64_t actual = tensorType(value).getRank();
  if (actual < rank)
    return op->emitOpError() << "expects " << what << " of rank " << rank
                             << " or more, got rank " << actual;
  return success();
}

LogicalResult verify::expectDim(Operation *op, const Twine &what,
                                int64_t actual, int64_t expected) {
  if (isKnown(actual) && isKnown(expected) && actual != expected)
    return op->emitOpError() << "expects " << what << " to be " << expected
                             << ", got " << actual;
  return success();
}

LogicalResult verify::expectArraySize(Operation *op, StringRef attr,
                                      ArrayRef<int64_t> values, size_t size) {
  if (values.size() != size)
    return op->emitOpError() << "expects '" << attr << "' to have " << size
                             << " entries, got " << values.size();
  return success();
}

LogicalResult verify::expectAllPositive(Operation *op, StringRef attr,
                                        ArrayRef<int64_t> values) {
  for (int64_t value : values)
    if (value <= 0)
      return op->emitOpError() << "expects every '" << attr
                               << "' entry to be positive, got " << value;
  return success();
}

LogicalResult verify::expectAllNonNegative(Operation *op, StringRef attr,
                                           ArrayRef<int64_t> values) {
  for (int64_t value : values)
    if (value < 0)
      return op->emitOpError() << "expects every '" << attr
                               << "' entry to be non-negative, got " << value;
  return success();
}

FailureOr<int64_t> verify::normalizeAxis(Operation *op, StringRef attr,
                                         int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    op->emitOpError() << "'" << attr << "' value " << axis
                      << " is out of range [" << -rank << ", " << rank
                      << ") for rank " << rank;
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
verify::normalizeAxes(Operation *op, StringRef attr, ArrayRef<int64_t> axes,
                      int64_t rank) {
  SmallVector<int64_t> normalized;
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t axis : axes) {
    FailureOr<int64_t> value = normalizeAxis(op, attr, axis, rank);
    if (failed(value))
      return failure();
    if (!seen.insert(*value).second) {
      op->emitOpError() << "'" << attr << "' names dimension " << *value
                        << " twice";
      return failure();
    }
    normalized.push_back(*value);
  }
  return normalized;
}

LogicalResult verify::expectSameShape(Operation *op, StringRef what,
                                      Value actual, Value expected) {
  RankedTensorType actualType = tensorType(actual);
  RankedTensorType expectedType = tensorType(expected);
  if (actualType.getRank() != expectedType.getRank())
    return op->emitOpError() << "expects " << what << " of rank "
                             << expectedType.getRank() << ", got rank "
                             << actualType.getRank();
  for (int64_t i = 0, e = actualType.getRank(); i < e; ++i)
    if (failed(expectDim(op, what + " dimension " + Twine(i),
                         actualType.getDimSize(i), expectedType.getDimSize(i))))
      return failure();
  return success();
}

int64_t verify::windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                 int64_t padBegin, int64_t padEnd,
                                 int64_t dilation, bool ceilMode) {
  if (!isKnown(in))
    return ShapedType::kDynamic;
  int64_t span = in + padBegin + padEnd - dilation * (kernel - 1) - 1;
  if (span < 0)
    return 0;
  int64_t out = (ceilMode ? (span + stride - 1) / stride : span / stride) + 1;
  // With ceil mode the last window must still start inside the input or the
  // leading padding (ONNX and CANN agree on this).
  if (ceilMode && (out - 1) * stride >= in + padBegin)
    --out;
  return out;
}
