//===- AscendDataVerifiers.cpp - verifiers of data-movement ops -----------===//
//
// Reshape, Transpose, ConcatV2, Split, StridedSlice, GatherV2, Pad, the
// resizes, and the generic op.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/IR/ShapeArithmetic.h"
#include "VerifyUtils.h"

#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::ascend::verify;

LogicalResult ReshapeOp::verify() {
  RankedTensorType x = tensorType(getX()), y = tensorType(getY());
  if (x.getElementType() != y.getElementType())
    return emitOpError() << "expects the result's element type to be x's, "
                         << x.getElementType();
  if (x.hasStaticShape() && y.hasStaticShape() &&
      x.getNumElements() != y.getNumElements())
    return emitOpError() << "cannot reshape " << x.getNumElements()
                         << " elements " << x << " into " << y.getNumElements()
                         << " elements " << y;
  if (getShape() && failed(expectRank(*this, "'shape'", getShape(), 1)))
    return failure();
  if (getShape() && failed(expectDim(*this, "the length of 'shape'",
                                     tensorType(getShape()).getDimSize(0), y.getRank())))
    return failure();
  return success();
}

LogicalResult TransposeOp::verify() {
  RankedTensorType x = tensorType(getX()), y = tensorType(getY());
  ArrayRef<int64_t> perm = getPerm();
  if (failed(expectArraySize(*this, "perm", perm, x.getRank())) ||
      failed(expectRank(*this, "result", getY(), x.getRank())))
    return failure();
  llvm::SmallBitVector seen(x.getRank());
  for (int64_t p : perm) {
    if (p < 0 || p >= x.getRank() || seen[p])
      return emitOpError() << "expects 'perm' to be a permutation of [0, "
                           << x.getRank() << "), got " << p << " out of place";
    seen.set(p);
  }
  for (auto [i, p] : llvm::enumerate(perm))
    if (failed(expectDim(*this, Twine("result dimension ") + Twine(i),
                         y.getDimSize(i), x.getDimSize(p))))
      return failure();
  return success();
}

/// Checks that `pieces` agree with `whole` except along `axis`, and that
/// their sizes along `axis` add up to `whole`'s. Used by ConcatV2 and Split.
static LogicalResult verifyPiecesAlongAxis(Operation *op, StringRef pieceName,
                                           ValueRange pieces, Value whole,
                                           int64_t axis) {
  RankedTensorType wholeType = tensorType(whole);
  int64_t total = 0;
  bool totalKnown = true;
  for (auto [index, piece] : llvm::enumerate(pieces)) {
    RankedTensorType type = tensorType(piece);
    if (type.getRank() != wholeType.getRank())
      return op->emitOpError() << "expects every " << pieceName << " of rank "
                               << wholeType.getRank() << ", got rank "
                               << type.getRank() << " for " << pieceName
                               << " #" << index;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != axis &&
          failed(expectDim(op,
                           Twine(pieceName) + " #" + Twine(index) +
                               " dimension " + Twine(d),
                           type.getDimSize(d), wholeType.getDimSize(d))))
        return failure();
    int64_t size = type.getDimSize(axis);
    totalKnown &= isKnown(size);
    if (isKnown(size))
      total += size;
  }
  if (totalKnown && isKnown(wholeType.getDimSize(axis)) &&
      total != wholeType.getDimSize(axis))
    return op->emitOpError() << "expects the " << pieceName
                             << " sizes along axis " << axis << " to add up to "
                             << wholeType.getDimSize(axis) << ", got " << total;
  return success();
}

LogicalResult ConcatV2Op::verify() {
  // SameOperandsAndResultElementType already requires at least one input.
  FailureOr<int64_t> axis = normalizeAxis(*this, "concat_dim", getConcatDim(),
                                          tensorType(getY()).getRank());
  if (failed(axis))
    return failure();
  return verifyPiecesAlongAxis(*this, "input", getX(), getY(), *axis);
}

LogicalResult SplitOp::verify() {
  if (getY().empty())
    return emitOpError("expects at least one result");
  FailureOr<int64_t> axis =
      normalizeAxis(*this, "axis", getAxis(), tensorType(getX()).getRank());
  if (failed(axis))
    return failure();
  return verifyPiecesAlongAxis(*this, "result", getY(), getX(), *axis);
}

LogicalResult StridedSliceOp::verify() {
  RankedTensorType x = tensorType(getX()), y = tensorType(getY());
  int64_t rank = x.getRank();
  if (failed(expectArraySize(*this, "begin", getBegin(), rank)) ||
      failed(expectArraySize(*this, "end", getEnd(), rank)) ||
      failed(expectArraySize(*this, "strides", getStrides(), rank)) ||
      failed(expectRank(*this, "result", getY(), rank)))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t stride = getStrides()[d];
    if (stride == 0)
      return emitOpError() << "expects non-zero 'strides', got 0 for "
                              "dimension "
                           << d;
    if (!isKnown(x.getDimSize(d)))
      continue;
    int64_t expected =
        stridedSliceLength(x.getDimSize(d), getBegin()[d], getEnd()[d], stride);
    if (failed(expectDim(*this, Twine("result dimension ") + Twine(d),
                         y.getDimSize(d), expected)))
      return failure();
  }
  return success();
}

LogicalResult GatherV2Op::verify() {
  RankedTensorType x = tensorType(getX()), indices = tensorType(getIndices());
  FailureOr<int64_t> axis = normalizeAxis(*this, "axis", getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  int64_t batchDims = getBatchDims();
  if (batchDims < 0 || batchDims > *axis || batchDims > indices.getRank())
    return emitOpError() << "expects 0 <= 'batch_dims' <= min(axis, indices "
                            "rank), got "
                         << batchDims;
  SmallVector<int64_t> expected(x.getShape().take_front(*axis));
  llvm::append_range(expected, indices.getShape().drop_front(batchDims));
  llvm::append_range(expected, x.getShape().drop_front(*axis + 1));
  RankedTensorType y = tensorType(getY());
  if (y.getRank() != static_cast<int64_t>(expected.size()))
    return emitOpError() << "expects a result of rank " << expected.size()
                         << ", got rank " << y.getRank();
  for (auto [i, dim] : llvm::enumerate(expected))
    if (failed(expectDim(*this, Twine("result dimension ") + Twine(i),
                         y.getDimSize(i), dim)))
      return failure();
  if (y.getElementType() != x.getElementType())
    return emitOpError() << "expects a result of the input's element type "
                         << x.getElementType() << ", got "
                         << y.getElementType();
  return success();
}

LogicalResult PadOp::verify() {
  RankedTensorType x = tensorType(getX()), y = tensorType(getY());
  if (failed(expectArraySize(*this, "paddings", getPaddings(),
                             2 * x.getRank())) ||
      failed(expectRank(*this, "result", getY(), x.getRank())))
    return failure();
  if (Value values = getConstantValues()) {
    RankedTensorType type = tensorType(values);
    if (type.hasStaticShape() && type.getNumElements() != 1)
      return emitOpError() << "expects 'constant_values' to hold one element, got " << type;
    if (getMode() != PadMode::Constant)
      return emitOpError("takes 'constant_values' only in constant mode");
  }
  for (int64_t d = 0; d < x.getRank(); ++d) {
    if (!isKnown(x.getDimSize(d)))
      continue;
    int64_t expected =
        x.getDimSize(d) + getPaddings()[2 * d] + getPaddings()[2 * d + 1];
    if (expected < 0)
      return emitOpError() << "paddings crop dimension " << d
                           << " below zero elements";
    if (failed(expectDim(*this, Twine("result dimension ") + Twine(d),
                         y.getDimSize(d), expected)))
      return failure();
  }
  return success();
}

static LogicalResult verifyResize(Operation *op, Value x, Value y,
                                  std::optional<ArrayRef<int64_t>> size,
                                  std::optional<ArrayRef<float>> scales,
                                  bool alignCorners, bool halfPixelCenters) {
  if (failed(expectRank(op, "input 'x' (NCHW)", x, 4)) ||
      failed(expectRank(op, "result", y, 4)))
    return failure();
  if (size.has_value() == scales.has_value())
    return op->emitOpError("expects exactly one of 'size' and 'scales'");
  if (size && (failed(expectArraySize(op, "size", *size, 2)) ||
               failed(expectAllPositive(op, "size", *size))))
    return failure();
  if (scales && (scales->size() != 2 || !llvm::all_of(*scales, [](float s) { return s > 0; })))
    return op->emitOpError("expects 'scales' to hold two positive factors");
  if (alignCorners && halfPixelCenters)
    return op->emitOpError("'align_corners' and 'half_pixel_centers' cannot "
                           "both be set");
  RankedTensorType xType = tensorType(x), yType = tensorType(y);
  for (int64_t d = 0; d < 4; ++d) {
    int64_t in = xType.getDimSize(d);
    int64_t expected = d < 2 ? in
                       : size ? (*size)[d - 2]
                       : isKnown(in) ? static_cast<int64_t>(std::floor(in * (*scales)[d - 2]))
                                     : ShapedType::kDynamic;
    if (failed(expectDim(op, Twine("result dimension ") + Twine(d),
                         yType.getDimSize(d), expected)))
      return failure();
  }
  return success();
}

LogicalResult ResizeNearestNeighborV2Op::verify() {
  return verifyResize(*this, getX(), getY(), getSize(), getScales(), getAlignCorners(),
                      getHalfPixelCenters());
}
LogicalResult ResizeBilinearV2Op::verify() {
  return verifyResize(*this, getX(), getY(), getSize(), getScales(), getAlignCorners(),
                      getHalfPixelCenters());
}
LogicalResult ResizeBicubicOp::verify() {
  return verifyResize(*this, getX(), getY(), getSize(), getScales(), getAlignCorners(),
                      getHalfPixelCenters());
}

LogicalResult SelectOp::verify() {
  if (getElementTypeOrSelf(getX1()) != getElementTypeOrSelf(getX2()) ||
      getElementTypeOrSelf(getX1()) != getElementTypeOrSelf(getY()))
    return emitOpError() << "expects x1, x2 and y of one element type, got "
                         << getX1().getType() << ", " << getX2().getType() << " and "
                         << getY().getType();
  return success();
}

/// DepthToSpace / SpaceToDepth on NCHW: the result shape that `block`
/// implies, checked where dimensions are static.
static LogicalResult verifyBlockRearrange(Operation *op, Value x, Value y, int64_t block,
                                          bool toSpace) {
  if (block < 1)
    return op->emitOpError() << "expects block_size >= 1, got " << block;
  RankedTensorType xType = tensorType(x), yType = tensorType(y);
  if (xType.getRank() != 4 || yType.getRank() != 4)
    return op->emitOpError() << "expects NCHW tensors of rank 4";
  int64_t area = block * block;
  int64_t channels = xType.getDimSize(1);
  if (toSpace && !ShapedType::isDynamic(channels) && channels % area != 0)
    return op->emitOpError() << "expects the channels (" << channels
                             << ") to be a multiple of block_size^2 (" << area << ")";
  // Dynamic dimensions stay dynamic; static ones scale by the block.
  auto times = [](int64_t dim, int64_t factor) {
    return ShapedType::isDynamic(dim) ? dim : dim * factor;
  };
  auto divided = [](int64_t dim, int64_t factor) {
    return ShapedType::isDynamic(dim) ? dim : dim / factor;
  };
  int64_t height = xType.getDimSize(2), width = xType.getDimSize(3);
  int64_t expected[] = {xType.getDimSize(0),
                        toSpace ? divided(channels, area) : times(channels, area),
                        toSpace ? times(height, block) : divided(height, block),
                        toSpace ? times(width, block) : divided(width, block)};
  for (auto [i, dim] : llvm::enumerate(expected))
    if (failed(expectDim(op, Twine("result dimension ") + Twine(i), yType.getDimSize(i), dim)))
      return failure();
  return success();
}

LogicalResult DepthToSpaceOp::verify() {
  return verifyBlockRearrange(*this, getX(), getY(), getBlockSize(), true);
}
LogicalResult SpaceToDepthOp::verify() {
  return verifyBlockRearrange(*this, getX(), getY(), getBlockSize(), false);
}

LogicalResult ShapeOp::verify() {
  RankedTensorType y = tensorType(getY());
  if (y.getRank() != 1)
    return emitOpError() << "expects a 1-D result, got " << y;
  return expectDim(*this, "result dimension 0", y.getDimSize(0),
                   tensorType(getX()).getRank());
}

LogicalResult GenericOp::verify() {
  StringRef opType = getOpType();
  if (!isWellFormedOpType(opType))
    return emitOpError() << "expects an Ascend IR op type (a letter, then "
                            "letters, digits or '_'), got '"
                         << opType << "'";
  return success();
}
