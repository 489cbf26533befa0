//===- AscendIndexVerifiers.cpp - verifiers of element-indexed ops --------===//
//
// GatherElements, ScatterElements, GatherNd, TensorScatterUpdate, Tril, Triu and
// Cumsum (AscendIndexOps.td).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::ascend::verify;

static LogicalResult expectElementOf(Operation *op, StringRef what, Value value, Value like) {
  Type element = tensorType(value).getElementType();
  Type expected = tensorType(like).getElementType();
  if (element != expected)
    return op->emitOpError() << "expects " << what << " of element type " << expected << ", got "
                             << element;
  return success();
}

static LogicalResult expectReduction(Operation *op, StringRef reduction) {
  if (reduction == "none" || reduction == "add" || reduction == "mul" || reduction == "max" ||
      reduction == "min")
    return success();
  return op->emitOpError() << "expects 'reduction' to be none, add, mul, max or min, got '"
                           << reduction << "'";
}

LogicalResult GatherElementsOp::verify() {
  RankedTensorType x = tensorType(getX());
  if (failed(normalizeAxis(*this, "dim", getDim(), x.getRank())) ||
      failed(expectRank(*this, "'index'", getIndex(), x.getRank())) ||
      failed(expectSameShape(*this, "the result", getY(), getIndex())))
    return failure();
  return expectElementOf(*this, "a result", getY(), getX());
}

LogicalResult ScatterElementsOp::verify() {
  RankedTensorType data = tensorType(getData());
  if (failed(normalizeAxis(*this, "axis", getAxis(), data.getRank())) ||
      failed(expectRank(*this, "'indices'", getIndices(), data.getRank())) ||
      failed(expectSameShape(*this, "'updates'", getUpdates(), getIndices())) ||
      failed(expectSameShape(*this, "the result", getY(), getData())) ||
      failed(expectElementOf(*this, "'updates'", getUpdates(), getData())) ||
      failed(expectElementOf(*this, "a result", getY(), getData())))
    return failure();
  return expectReduction(*this, getReduction());
}

/// The shape GatherND / ScatterND address with `indices` into `data`:
/// indices.shape[:-1] + data.shape[batch + k:], or failure.
static FailureOr<SmallVector<int64_t>> tupleSliceShape(Operation *op, RankedTensorType data,
                                                       RankedTensorType indices,
                                                       int64_t batchDims) {
  if (indices.getRank() < 1)
    return op->emitOpError() << "expects index tuples (indices of rank 1 or more)";
  int64_t depth = indices.getShape().back();
  if (ShapedType::isDynamic(depth))
    return op->emitOpError() << "expects the tuple length (the indices' last dimension) to be "
                                "static";
  if (batchDims < 0 || batchDims >= indices.getRank() || depth < 1 ||
      batchDims + depth > data.getRank())
    return op->emitOpError() << "expects tuples of 1 to " << data.getRank() - batchDims
                             << " coordinates after " << batchDims
                             << " batch dimensions, got " << depth;
  for (int64_t d = 0; d < batchDims; ++d)
    if (failed(expectDim(op, Twine("batch dimension ") + Twine(d), indices.getDimSize(d),
                         data.getDimSize(d))))
      return failure();
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, data.getShape().drop_front(batchDims + depth));
  return shape;
}

static LogicalResult expectShape(Operation *op, StringRef what, Value value,
                                 ArrayRef<int64_t> expected) {
  RankedTensorType type = tensorType(value);
  if (type.getRank() != static_cast<int64_t>(expected.size()))
    return op->emitOpError() << "expects " << what << " of rank " << expected.size()
                             << ", got " << type;
  for (auto [i, dim] : llvm::enumerate(expected))
    if (failed(expectDim(op, what + Twine(" dimension ") + Twine(i), type.getDimSize(i), dim)))
      return failure();
  return success();
}

LogicalResult GatherNdOp::verify() {
  FailureOr<SmallVector<int64_t>> shape =
      tupleSliceShape(*this, tensorType(getX()), tensorType(getIndices()), getBatchDims());
  if (failed(shape) || failed(expectShape(*this, "the result", getY(), *shape)))
    return failure();
  return expectElementOf(*this, "a result", getY(), getX());
}

LogicalResult TensorScatterUpdateOp::verify() {
  FailureOr<SmallVector<int64_t>> shape =
      tupleSliceShape(*this, tensorType(getVar()), tensorType(getIndices()), 0);
  if (failed(shape) || failed(expectShape(*this, "'updates'", getUpdates(), *shape)) ||
      failed(expectSameShape(*this, "the result", getY(), getVar())) ||
      failed(expectElementOf(*this, "'updates'", getUpdates(), getVar())))
    return failure();
  return expectReduction(*this, getReduction());
}

/// A one-element operand read when the kernel runs (Trilu's k, Cumsum's axis).
static LogicalResult expectOneElement(Operation *op, StringRef what, Value value) {
  RankedTensorType type = tensorType(value);
  if (type.getRank() <= 1 && (!type.hasStaticShape() || type.getNumElements() == 1))
    return success();
  return op->emitOpError() << "expects " << what << " to hold one element, got " << type;
}

LogicalResult TrilOp::verify() {
  if (getK() && failed(expectOneElement(*this, "'k'", getK())))
    return failure();
  return expectMinRank(*this, "'x'", getX(), 2);
}
LogicalResult TriuOp::verify() {
  if (getK() && failed(expectOneElement(*this, "'k'", getK())))
    return failure();
  return expectMinRank(*this, "'x'", getX(), 2);
}

LogicalResult CumsumOp::verify() {
  if (failed(expectOneElement(*this, "'axis'", getAxis())))
    return failure();
  if (auto constant = getAxis().getDefiningOp<ConstOp>())
    if (auto values = dyn_cast<DenseIntElementsAttr>(constant.getValue()))
      return normalizeAxis(*this, "axis", (*values.getValues<APInt>().begin()).getSExtValue(),
                           tensorType(getX()).getRank());
  return success();
}

LogicalResult NonZeroOp::verify() {
  RankedTensorType y = tensorType(getY());
  if (y.getRank() != 2)
    return emitOpError() << "expects a result of rank 2 ([rank(x), n]), got " << y;
  return expectDim(*this, "result dimension 0 (the rank of 'x')", y.getDimSize(0),
                   tensorType(getX()).getRank());
}

LogicalResult NonMaxSuppressionV6Op::verify() {
  RankedTensorType boxes = tensorType(getBoxes()), scores = tensorType(getScores());
  if (failed(expectRank(*this, "'boxes'", getBoxes(), 3)) ||
      failed(expectRank(*this, "'scores'", getScores(), 3)) ||
      failed(expectRank(*this, "the result", getY(), 2)))
    return failure();
  if (failed(expectDim(*this, "dimension 2 of 'boxes'", boxes.getDimSize(2), 4)) ||
      failed(expectDim(*this, "dimension 0 of 'scores' (the batch)", scores.getDimSize(0),
                       boxes.getDimSize(0))) ||
      failed(expectDim(*this, "dimension 2 of 'scores' (the boxes)", scores.getDimSize(2),
                       boxes.getDimSize(1))) ||
      failed(expectDim(*this, "result dimension 1", tensorType(getY()).getDimSize(1), 3)))
    return failure();
  for (auto [what, value] : {std::pair<StringRef, Value>{"'max_output_size'", getMaxOutputSize()},
                             {"'iou_threshold'", getIouThreshold()},
                             {"'score_threshold'", getScoreThreshold()}})
    if (RankedTensorType type = tensorType(value);
        type.hasStaticShape() && type.getNumElements() != 1)
      return emitOpError() << "expects " << what << " to hold one element, got " << type;
  if (getCenterPointBox() != 0 && getCenterPointBox() != 1)
    return emitOpError() << "expects 'center_point_box' 0 or 1, got " << getCenterPointBox();
  return success();
}
