//===- AscendTensorVerifiers.cpp - verifiers of built and indexed tensors -===//
//
// Fill, Range, BroadcastTo, Tile, OneHot, TopKV2, Size (AscendTensorOps.td),
// GridSampler2D and LRN (AscendImageOps.td), and Einsum.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "VerifyUtils.h"

#include "mlir/Dialect/Traits.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::ascend::verify;

/// A scalar operand: rank 0, or one element.
static LogicalResult expectScalar(Operation *op, StringRef what, Value value) {
  RankedTensorType type = tensorType(value);
  if (type.getRank() == 0 || (type.hasStaticShape() && type.getNumElements() == 1))
    return success();
  return op->emitOpError() << "expects " << what << " to be a scalar, got " << type;
}

/// A 1-D list of dimensions whose length, when static, is `rank`.
static LogicalResult expectDimsList(Operation *op, StringRef what, Value dims,
                                    int64_t rank) {
  if (failed(expectRank(op, what, dims, 1)))
    return failure();
  return expectDim(op, Twine("the length of ") + what, tensorType(dims).getDimSize(0),
                   rank);
}

LogicalResult FillOp::verify() {
  if (failed(expectScalar(*this, "'value'", getValue())) ||
      failed(expectDimsList(*this, "'dims'", getDims(), tensorType(getY()).getRank())))
    return failure();
  if (getElementTypeOrSelf(getValue()) != getElementTypeOrSelf(getY()))
    return emitOpError() << "expects the result's element type to be the value's, "
                         << getValue().getType();
  return success();
}

LogicalResult RangeOp::verify() {
  for (auto [what, value] : {std::pair<StringRef, Value>{"'start'", getStart()},
                             {"'limit'", getLimit()},
                             {"'delta'", getDelta()}})
    if (failed(expectScalar(*this, what, value)))
      return failure();
  return expectRank(*this, "result", getY(), 1);
}

LogicalResult BroadcastToOp::verify() {
  RankedTensorType x = tensorType(getX()), y = tensorType(getY());
  if (failed(expectRank(*this, "'shape'", getShape(), 1)))
    return failure();
  if (x.getElementType() != y.getElementType())
    return emitOpError() << "expects the result's element type to be x's, "
                         << x.getElementType();
  int64_t length = tensorType(getShape()).getDimSize(0);
  if (isKnown(length) && y.getRank() != std::max(length, x.getRank()))
    return emitOpError() << "expects a result of rank max(rank of x, length of shape) = "
                         << std::max(length, x.getRank()) << ", got " << y;
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(x.getShape(), y.getShape(), shape) ||
      static_cast<int64_t>(shape.size()) != y.getRank())
    return emitOpError() << "expects 'x' of type " << x << " to broadcast to the result "
                         << y;
  return success();
}

LogicalResult TileOp::verify() {
  RankedTensorType x = tensorType(getX()), y = tensorType(getY());
  ArrayRef<int64_t> multiples = getMultiples();
  if (failed(expectArraySize(*this, "multiples", multiples, x.getRank())) ||
      failed(expectAllNonNegative(*this, "multiples", multiples)) ||
      failed(expectRank(*this, "result", getY(), x.getRank())))
    return failure();
  for (int64_t d = 0; d < x.getRank(); ++d) {
    int64_t in = x.getDimSize(d), tiled = ShapedType::kDynamic;
    // A mutated model can ask for more elements than an int64 counts.
    if (isKnown(in) && llvm::MulOverflow(in, multiples[d], tiled))
      return emitOpError("tiles dimension ")
             << d << " of " << in << " by " << multiples[d] << ", past 2^63 elements";
    if (failed(expectDim(*this, Twine("result dimension ") + Twine(d), y.getDimSize(d), tiled)))
      return failure();
  }
  return success();
}

LogicalResult OneHotOp::verify() {
  RankedTensorType indices = tensorType(getIndices()), y = tensorType(getY());
  if (failed(expectScalar(*this, "'depth'", getDepth())) ||
      failed(expectScalar(*this, "'on_value'", getOnValue())) ||
      failed(expectScalar(*this, "'off_value'", getOffValue())) ||
      failed(expectRank(*this, "result", getY(), indices.getRank() + 1)))
    return failure();
  Type element = y.getElementType();
  if (getElementTypeOrSelf(getOnValue()) != element ||
      getElementTypeOrSelf(getOffValue()) != element)
    return emitOpError() << "expects 'on_value' and 'off_value' of the result's element type "
                         << element;
  FailureOr<int64_t> axis = normalizeAxis(*this, "axis", getAxis(), y.getRank());
  if (failed(axis))
    return failure();
  for (int64_t d = 0, i = 0; d < y.getRank(); ++d) {
    if (d == *axis)
      continue;
    if (failed(expectDim(*this, Twine("result dimension ") + Twine(d), y.getDimSize(d),
                         indices.getDimSize(i++))))
      return failure();
  }
  // A constant depth must be the declared number of classes: a model whose
  // shapes contradict its data is refused here, not inside a kernel.
  auto constant = getDepth().getDefiningOp<ConstOp>();
  auto depth = constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue()) : nullptr;
  if (!y.isDynamicDim(*axis) && depth && depth.getNumElements() == 1) {
    int64_t value = (*depth.value_begin<APInt>()).getSExtValue();
    if (value != y.getDimSize(*axis))
      return emitOpError() << "has the constant depth " << value << ", but its result has "
                           << y.getDimSize(*axis) << " classes along axis " << *axis
                           << ": the model's declared shape contradicts its data";
  }
  return success();
}

LogicalResult TopKV2Op::verify() {
  RankedTensorType x = tensorType(getX()), values = tensorType(getValues());
  if (failed(expectScalar(*this, "'k'", getK())) ||
      failed(expectRank(*this, "'values'", getValues(), x.getRank())) ||
      failed(expectSameShape(*this, "'indices'", getIndices(), getValues())))
    return failure();
  if (values.getElementType() != x.getElementType())
    return emitOpError() << "expects 'values' of x's element type " << x.getElementType();
  FailureOr<int64_t> dim = normalizeAxis(*this, "dim", getDim(), x.getRank());
  if (failed(dim))
    return failure();
  for (int64_t d = 0; d < x.getRank(); ++d)
    if (d != *dim && failed(expectDim(*this, Twine("'values' dimension ") + Twine(d),
                                      values.getDimSize(d), x.getDimSize(d))))
      return failure();
  int64_t in = x.getDimSize(*dim), k = values.getDimSize(*dim);
  if (isKnown(in) && isKnown(k) && k > in)
    return emitOpError() << "expects k (" << k << ") at most the size of dimension " << *dim
                         << " (" << in << ")";
  return success();
}

LogicalResult SizeOp::verify() { return expectRank(*this, "result", getY(), 0); }

LogicalResult GridSampler2DOp::verify() {
  if (failed(expectRank(*this, "input 'x' (NCHW)", getX(), 4)) ||
      failed(expectRank(*this, "'grid' ([N, Ho, Wo, 2])", getGrid(), 4)) ||
      failed(expectRank(*this, "result", getY(), 4)))
    return failure();
  RankedTensorType x = tensorType(getX()), grid = tensorType(getGrid()),
                   y = tensorType(getY());
  if (failed(expectDim(*this, "'grid' dimension 3 (x, y)", grid.getDimSize(3), 2)) ||
      failed(expectDim(*this, "'grid' batch size", grid.getDimSize(0), x.getDimSize(0))))
    return failure();
  int64_t expected[] = {x.getDimSize(0), x.getDimSize(1), grid.getDimSize(1),
                        grid.getDimSize(2)};
  for (int64_t d = 0; d < 4; ++d)
    if (failed(expectDim(*this, Twine("result dimension ") + Twine(d), y.getDimSize(d),
                         expected[d])))
      return failure();
  return success();
}

LogicalResult LRNOp::verify() {
  if (failed(expectRank(*this, "input 'x' (NCHW)", getX(), 4)))
    return failure();
  // I64Attr reads back as uint64_t.
  int64_t radius = static_cast<int64_t>(getDepthRadius());
  if (radius < 0)
    return emitOpError() << "expects 'depth_radius' >= 0, got " << radius;
  return success();
}

/// The letters of one Einsum term, or nothing with `ellipsis` set when it
/// has `...` (any number of broadcast dimensions).
static FailureOr<std::string> einsumTerm(StringRef term, bool &ellipsis) {
  term = term.trim();
  size_t dots = term.find("...");
  ellipsis = dots != StringRef::npos;
  std::string letters =
      ellipsis ? (term.take_front(dots) + term.drop_front(dots + 3)).str() : term.str();
  for (char c : letters)
    if (!llvm::isAlpha(c))
      return failure();
  return letters;
}

LogicalResult EinsumOp::verify() {
  StringRef equation = getEquation();
  auto [inputs, output] = equation.split("->");
  if (!equation.contains("->"))
    return emitOpError() << "expects an explicit output ('->') in equation '" << equation
                         << "'";
  SmallVector<StringRef> terms;
  inputs.split(terms, ',');
  if (terms.size() != getX().size())
    return emitOpError() << "expects " << terms.size() << " operands for equation '"
                         << equation << "', got " << getX().size();
  for (auto [i, term] : llvm::enumerate(terms)) {
    bool ellipsis;
    FailureOr<std::string> letters = einsumTerm(term, ellipsis);
    if (failed(letters))
      return emitOpError() << "expects letters and '...' in equation '" << equation << "'";
    int64_t rank = tensorType(getX()[i]).getRank();
    int64_t count = static_cast<int64_t>(letters->size());
    if (ellipsis ? rank < count : rank != count)
      return emitOpError() << "expects operand #" << i << " of rank "
                           << (ellipsis ? "at least " : "") << count << " for term '"
                           << term.trim() << "', got " << getX()[i].getType();
  }
  bool ellipsis;
  FailureOr<std::string> letters = einsumTerm(output, ellipsis);
  if (failed(letters))
    return emitOpError() << "expects letters and '...' in equation '" << equation << "'";
  int64_t rank = tensorType(getY()).getRank(), count = letters->size();
  if (ellipsis ? rank < count : rank != count)
    return emitOpError() << "expects a result of rank " << (ellipsis ? "at least " : "")
                         << count << " for '" << output.trim() << "', got " << getY().getType();
  return success();
}

LogicalResult ReverseSequenceOp::verify() {
  RankedTensorType x = tensorType(getX());
  FailureOr<int64_t> seq = normalizeAxis(*this, "seq_dim", getSeqDim(), x.getRank());
  FailureOr<int64_t> batch = normalizeAxis(*this, "batch_dim", getBatchDim(), x.getRank());
  if (failed(seq) || failed(batch))
    return failure();
  if (*seq == *batch)
    return emitOpError() << "expects different 'seq_dim' and 'batch_dim', got " << *seq
                         << " for both";
  if (failed(expectRank(*this, "'seq_lengths'", getSeqLengths(), 1)))
    return failure();
  return expectDim(*this, "the length of 'seq_lengths' (the batch)",
                   tensorType(getSeqLengths()).getDimSize(0), x.getDimSize(*batch));
}

LogicalResult MatrixDeterminantOp::verify() {
  RankedTensorType x = tensorType(getX()), y = tensorType(getY());
  if (failed(expectMinRank(*this, "'x'", getX(), 2)) ||
      failed(expectDim(*this, "the matrices' column count", x.getDimSize(x.getRank() - 1),
                       x.getDimSize(x.getRank() - 2))))
    return failure();
  if (x.getElementType() != y.getElementType() || y.getRank() != x.getRank() - 2)
    return emitOpError() << "expects a result of x's element type and its leading "
                         << x.getRank() - 2 << " dimensions, got " << y;
  for (int64_t d = 0; d < y.getRank(); ++d)
    if (failed(expectDim(*this, "result dimension " + Twine(d), y.getDimSize(d), x.getDimSize(d))))
      return failure();
  return success();
}

LogicalResult ROIAlignOp::verify() {
  if (failed(expectRank(*this, "'features'", getFeatures(), 4)) ||
      failed(expectRank(*this, "'rois'", getRois(), 2)) ||
      failed(expectRank(*this, "the result", getY(), 4)))
    return failure();
  RankedTensorType x = tensorType(getFeatures()), rois = tensorType(getRois()),
                   y = tensorType(getY());
  if (failed(expectDim(*this, "dimension 1 of 'rois' ([b, x1, y1, x2, y2])", rois.getDimSize(1),
                       5)) ||
      failed(expectDim(*this, "result dimension 0 (the regions)", y.getDimSize(0),
                       rois.getDimSize(0))) ||
      failed(expectDim(*this, "result dimension 1 (the channels)", y.getDimSize(1),
                       x.getDimSize(1))) ||
      failed(expectDim(*this, "result dimension 2", y.getDimSize(2), getPooledHeight())) ||
      failed(expectDim(*this, "result dimension 3", y.getDimSize(3), getPooledWidth())))
    return failure();
  if (getPooledHeight() <= 0 || getPooledWidth() <= 0 || getSampleNum() < 0)
    return emitOpError("expects positive pooled sizes and a sample_num of 0 or more");
  if (getMode() != "avg" && getMode() != "max")
    return emitOpError() << "expects 'mode' avg or max, got '" << getMode() << "'";
  if (x.getElementType() != y.getElementType())
    return emitOpError("expects the result's element type to be the features'");
  return success();
}
