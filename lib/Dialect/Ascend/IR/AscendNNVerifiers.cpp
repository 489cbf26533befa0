//===- AscendNNVerifiers.cpp - verifiers of compute ops -------------------===//
//
// Convolutions, matmuls, normalizations, reductions and pooling.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "VerifyUtils.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::ascend::verify;

//===----------------------------------------------------------------------===//
// Elementwise with broadcast operands
//===----------------------------------------------------------------------===//

/// `operand` must broadcast to `x`, and `y` must have `x`'s shape.
static LogicalResult verifyBroadcastsTo(Operation *op, StringRef what,
                                        Value operand, Value x, Value y) {
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(tensorType(x).getShape(),
                                          tensorType(operand).getShape(),
                                          shape))
    return op->emitOpError() << "expects " << what << " of type "
                             << operand.getType()
                             << " to broadcast to the input " << x.getType();
  if (static_cast<int64_t>(shape.size()) != tensorType(x).getRank())
    return op->emitOpError() << "expects " << what << " of rank at most "
                             << tensorType(x).getRank();
  return expectSameShape(op, "result", y, x);
}

LogicalResult PReluOp::verify() {
  return verifyBroadcastsTo(*this, "'weight'", getWeight(), getX(), getY());
}

LogicalResult ClipByValueOp::verify() {
  if (failed(verifyBroadcastsTo(*this, "'clip_value_min'", getClipValueMin(),
                                getX(), getY())))
    return failure();
  return verifyBroadcastsTo(*this, "'clip_value_max'", getClipValueMax(),
                            getX(), getY());
}

LogicalResult BiasAddOp::verify() {
  if (failed(expectMinRank(*this, "input 'x'", getX(), 2)) ||
      failed(expectRank(*this, "'bias'", getBias(), 1)))
    return failure();
  RankedTensorType x = tensorType(getX());
  int64_t channelDim = getDataFormat() == DataFormat::NCHW ? 1 : x.getRank() - 1;
  if (failed(expectDim(*this, "'bias' size (the channel count)",
                       tensorType(getBias()).getDimSize(0),
                       x.getDimSize(channelDim))))
    return failure();
  return expectSameShape(*this, "result", getY(), getX());
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// Checks shared by the convolutions of `spatial` (2 or 3) spatial axes and
/// their transposed forms: ranks, attribute sizes and ranges, element types,
/// bias shape.
static LogicalResult verifyConvCommon(Operation *op, int64_t spatial, Value x,
                                      Value filter, Value bias, Value y,
                                      ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> pads,
                                      ArrayRef<int64_t> dilations,
                                      int64_t groups, int64_t outChannels) {
  const char *layout = spatial == 2 ? "input 'x' (NCHW)" : "input 'x' (NCDHW)";
  if (failed(expectRank(op, layout, x, spatial + 2)) ||
      failed(expectRank(op, "'filter'", filter, spatial + 2)) ||
      failed(expectRank(op, "result", y, spatial + 2)) ||
      failed(expectArraySize(op, "strides", strides, spatial)) ||
      failed(expectArraySize(op, "pads", pads, 2 * spatial)) ||
      failed(expectArraySize(op, "dilations", dilations, spatial)) ||
      failed(expectAllPositive(op, "strides", strides)) ||
      failed(expectAllPositive(op, "dilations", dilations)) ||
      failed(expectAllNonNegative(op, "pads", pads)))
    return failure();
  if (groups < 1)
    return op->emitOpError() << "expects 'groups' >= 1, got " << groups;
  Type xType = tensorType(x).getElementType();
  Type filterType = tensorType(filter).getElementType();
  if (xType != filterType)
    return op->emitOpError() << "expects input and filter of one element "
                                "type, got "
                             << xType << " and " << filterType;
  if (bias && (failed(expectRank(op, "'bias'", bias, 1)) ||
               failed(expectDim(op, "'bias' size (output channels)",
                                tensorType(bias).getDimSize(0), outChannels))))
    return failure();
  return expectDim(op, "result batch size", tensorType(y).getDimSize(0),
                   tensorType(x).getDimSize(0));
}

/// Conv2D and Conv3D.
static LogicalResult verifyConv(Operation *op, int64_t spatial, Value xValue,
                                Value filterValue, Value bias, Value yValue,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> pads,
                                ArrayRef<int64_t> dilations, int64_t groups) {
  RankedTensorType x = tensorType(xValue), filter = tensorType(filterValue);
  int64_t outChannels = filter.getRank() == spatial + 2 ? filter.getDimSize(0) : 0;
  if (failed(verifyConvCommon(op, spatial, xValue, filterValue, bias, yValue,
                              strides, pads, dilations, groups, outChannels)))
    return failure();
  int64_t inChannels = x.getDimSize(1), filterChannels = filter.getDimSize(1);
  if (isKnown(inChannels) && isKnown(filterChannels) &&
      inChannels != filterChannels * groups)
    return op->emitOpError() << "expects input channels (" << inChannels
                             << ") to equal filter channels (" << filterChannels
                             << ") times groups (" << groups << ")";
  if (isKnown(outChannels) && outChannels % groups != 0)
    return op->emitOpError() << "expects filter output channels (" << outChannels
                             << ") to be divisible by groups (" << groups << ")";
  RankedTensorType y = tensorType(yValue);
  if (failed(expectDim(op, "result channels", y.getDimSize(1), outChannels)))
    return failure();
  for (int64_t axis = 0; axis < spatial; ++axis) {
    int64_t kernel = filter.getDimSize(2 + axis);
    if (!isKnown(kernel))
      continue;
    int64_t expected = windowOutputSize(
        x.getDimSize(2 + axis), kernel, strides[axis], pads[2 * axis],
        pads[2 * axis + 1], dilations[axis], /*ceilMode=*/false);
    if (isKnown(expected) && expected <= 0)
      return op->emitOpError() << "filter window does not fit the padded input "
                                  "along spatial axis "
                               << axis;
    if (failed(expectDim(op, Twine("result spatial size ") + Twine(axis),
                         y.getDimSize(2 + axis), expected)))
      return failure();
  }
  return success();
}

LogicalResult Conv2DOp::verify() {
  return verifyConv(*this, 2, getX(), getFilter(), getBias(), getY(),
                    getStrides(), getPads(), getDilations(), getGroups());
}
LogicalResult Conv3DOp::verify() {
  return verifyConv(*this, 3, getX(), getFilter(), getBias(), getY(),
                    getStrides(), getPads(), getDilations(), getGroups());
}

/// Conv2DBackpropInput and Conv3DBackpropInput.
static LogicalResult verifyConvTranspose(Operation *op, int64_t spatial,
                                         Value xValue, Value filterValue,
                                         Value bias, Value yValue,
                                         ArrayRef<int64_t> strides,
                                         ArrayRef<int64_t> pads,
                                         ArrayRef<int64_t> dilations,
                                         ArrayRef<int64_t> outPad,
                                         int64_t groups) {
  RankedTensorType x = tensorType(xValue), filter = tensorType(filterValue);
  int64_t outChannels = ShapedType::kDynamic;
  if (filter.getRank() == spatial + 2 && isKnown(filter.getDimSize(1)))
    outChannels = filter.getDimSize(1) * groups;
  if (failed(verifyConvCommon(op, spatial, xValue, filterValue, bias, yValue,
                              strides, pads, dilations, groups, outChannels)) ||
      failed(expectArraySize(op, "output_padding", outPad, spatial)) ||
      failed(expectAllNonNegative(op, "output_padding", outPad)))
    return failure();
  if (failed(expectDim(op, "filter dimension 0 (input channels)",
                       filter.getDimSize(0), x.getDimSize(1))))
    return failure();
  RankedTensorType y = tensorType(yValue);
  if (failed(expectDim(op, "result channels", y.getDimSize(1), outChannels)))
    return failure();
  for (int64_t axis = 0; axis < spatial; ++axis) {
    int64_t in = x.getDimSize(2 + axis), kernel = filter.getDimSize(2 + axis);
    if (!isKnown(in) || !isKnown(kernel))
      continue;
    int64_t expected = (in - 1) * strides[axis] - pads[2 * axis] -
                       pads[2 * axis + 1] + dilations[axis] * (kernel - 1) +
                       outPad[axis] + 1;
    if (failed(expectDim(op, Twine("result spatial size ") + Twine(axis),
                         y.getDimSize(2 + axis), expected)))
      return failure();
  }
  return success();
}

LogicalResult Conv2DBackpropInputOp::verify() {
  return verifyConvTranspose(*this, 2, getX(), getFilter(), getBias(), getY(),
                             getStrides(), getPads(), getDilations(),
                             getOutputPadding(), getGroups());
}
LogicalResult Conv3DBackpropInputOp::verify() {
  return verifyConvTranspose(*this, 3, getX(), getFilter(), getBias(), getY(),
                             getStrides(), getPads(), getDilations(),
                             getOutputPadding(), getGroups());
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

/// Checks the [.., M, K] x [.., K, N] -> [.., M, N] contract of the last two
/// dimensions, and the bias.
static LogicalResult verifyMatrixDims(Operation *op, Value x1, Value x2,
                                      Value bias, Value y, bool transpose1,
                                      bool transpose2) {
  RankedTensorType a = tensorType(x1), b = tensorType(x2), out = tensorType(y);
  if (a.getElementType() != b.getElementType())
    return op->emitOpError() << "expects x1 and x2 of one element type, got "
                             << a.getElementType() << " and "
                             << b.getElementType();
  int64_t ra = a.getRank(), rb = b.getRank(), ry = out.getRank();
  int64_t m = a.getDimSize(transpose1 ? ra - 1 : ra - 2);
  int64_t k1 = a.getDimSize(transpose1 ? ra - 2 : ra - 1);
  int64_t k2 = b.getDimSize(transpose2 ? rb - 1 : rb - 2);
  int64_t n = b.getDimSize(transpose2 ? rb - 2 : rb - 1);
  if (isKnown(k1) && isKnown(k2) && k1 != k2)
    return op->emitOpError() << "expects the contracted dimensions to agree, "
                                "got K = "
                             << k1 << " for x1 and K = " << k2 << " for x2";
  if (failed(expectDim(op, "result rows (M)", out.getDimSize(ry - 2), m)) ||
      failed(expectDim(op, "result columns (N)", out.getDimSize(ry - 1), n)))
    return failure();
  if (bias && (failed(expectRank(op, "'bias'", bias, 1)) ||
               failed(expectDim(op, "'bias' size (N)",
                                tensorType(bias).getDimSize(0), n))))
    return failure();
  return success();
}

LogicalResult MatMulV2Op::verify() {
  if (failed(expectRank(*this, "'x1'", getX1(), 2)) ||
      failed(expectRank(*this, "'x2'", getX2(), 2)) ||
      failed(expectRank(*this, "result", getY(), 2)))
    return failure();
  return verifyMatrixDims(*this, getX1(), getX2(), getBias(), getY(),
                          getTransposeX1(), getTransposeX2());
}

LogicalResult BatchMatMulV2Op::verify() {
  if (failed(expectMinRank(*this, "'x1'", getX1(), 2)) ||
      failed(expectMinRank(*this, "'x2'", getX2(), 2)))
    return failure();
  ArrayRef<int64_t> a = tensorType(getX1()).getShape();
  ArrayRef<int64_t> b = tensorType(getX2()).getShape();
  SmallVector<int64_t> batch;
  if (!OpTrait::util::getBroadcastedShape(a.drop_back(2), b.drop_back(2),
                                          batch))
    return emitOpError() << "expects broadcastable batch dimensions, got "
                         << getX1().getType() << " and " << getX2().getType();
  if (failed(expectRank(*this, "result", getY(),
                        static_cast<int64_t>(batch.size()) + 2)))
    return failure();
  ArrayRef<int64_t> y = tensorType(getY()).getShape();
  for (auto [i, dim] : llvm::enumerate(batch))
    if (failed(expectDim(*this, Twine("result batch dimension ") + Twine(i),
                         y[i], dim)))
      return failure();
  return verifyMatrixDims(*this, getX1(), getX2(), getBias(), getY(),
                          getAdjX1(), getAdjX2());
}

//===----------------------------------------------------------------------===//
// Softmax and normalization
//===----------------------------------------------------------------------===//

static LogicalResult verifySoftmaxAxes(Operation *op, ArrayRef<int64_t> axes,
                                       Value x) {
  if (axes.empty())
    return op->emitOpError("expects at least one axis in 'axes'");
  return normalizeAxes(op, "axes", axes, tensorType(x).getRank());
}

LogicalResult SoftmaxV2Op::verify() {
  return verifySoftmaxAxes(*this, getAxes(), getX());
}
LogicalResult LogSoftmaxV2Op::verify() {
  return verifySoftmaxAxes(*this, getAxes(), getX());
}

/// `stat` (mean or variance) keeps `x`'s dimensions before `firstReduced`
/// and has size 1 from there on.
static LogicalResult verifyStatistic(Operation *op, StringRef what, Value stat,
                                     Value x, int64_t firstReduced) {
  RankedTensorType statType = tensorType(stat), xType = tensorType(x);
  if (failed(expectRank(op, what, stat, xType.getRank())))
    return failure();
  for (int64_t i = 0, e = xType.getRank(); i < e; ++i) {
    int64_t expected = i < firstReduced ? xType.getDimSize(i) : 1;
    if (failed(expectDim(op, Twine(what) + " dimension " + Twine(i),
                         statType.getDimSize(i), expected)))
      return failure();
  }
  return success();
}

/// Per-channel parameter of an NC... input: rank 1 with C entries.
static LogicalResult verifyChannelParam(Operation *op, StringRef what,
                                        Value param, Value x) {
  if (failed(expectRank(op, what, param, 1)))
    return failure();
  return expectDim(op, Twine(what) + " size (channels)",
                   tensorType(param).getDimSize(0),
                   tensorType(x).getDimSize(1));
}

LogicalResult LayerNormOp::verify() {
  int64_t rank = tensorType(getX()).getRank();
  FailureOr<int64_t> normAxis =
      normalizeAxis(*this, "begin_norm_axis", getBeginNormAxis(), rank);
  if (failed(normAxis))
    return failure();
  FailureOr<int64_t> paramsAxis =
      normalizeAxis(*this, "begin_params_axis", getBeginParamsAxis(), rank);
  if (failed(paramsAxis))
    return failure();
  ArrayRef<int64_t> xShape = tensorType(getX()).getShape();
  ArrayRef<int64_t> paramShape = xShape.drop_front(*paramsAxis);
  for (auto [what, param] : {std::pair<StringRef, Value>{"'gamma'", getGamma()},
                             {"'beta'", getBeta()}}) {
    RankedTensorType type = tensorType(param);
    if (type.getRank() != static_cast<int64_t>(paramShape.size()))
      return emitOpError() << "expects " << what << " of rank "
                           << paramShape.size()
                           << " (x's dimensions from begin_params_axis), got "
                              "rank "
                           << type.getRank();
    for (auto [i, dim] : llvm::enumerate(paramShape))
      if (failed(expectDim(*this, Twine(what) + " dimension " + Twine(i),
                           type.getDimSize(i), dim)))
        return failure();
  }
  if (getY().getType() != getX().getType())
    return emitOpError() << "expects result 'y' of the input's type "
                         << getX().getType() << ", got " << getY().getType();
  if (failed(verifyStatistic(*this, "'mean'", getMean(), getX(), *normAxis)))
    return failure();
  return verifyStatistic(*this, "'variance'", getVariance(), getX(), *normAxis);
}

LogicalResult BatchNormOp::verify() {
  if (failed(expectMinRank(*this, "input 'x'", getX(), 2)))
    return failure();
  for (auto [what, param] :
       {std::pair<StringRef, Value>{"'scale'", getScale()},
        {"'offset'", getOffset()},
        {"'mean'", getMean()},
        {"'variance'", getVariance()}})
    if (failed(verifyChannelParam(*this, what, param, getX())))
      return failure();
  if (getY().getType() != getX().getType())
    return emitOpError() << "expects result of the input's type "
                         << getX().getType() << ", got " << getY().getType();
  return success();
}

LogicalResult InstanceNormOp::verify() {
  if (failed(expectMinRank(*this, "input 'x'", getX(), 3)) ||
      failed(verifyChannelParam(*this, "'gamma'", getGamma(), getX())) ||
      failed(verifyChannelParam(*this, "'beta'", getBeta(), getX())))
    return failure();
  if (getY().getType() != getX().getType())
    return emitOpError() << "expects result 'y' of the input's type "
                         << getX().getType() << ", got " << getY().getType();
  if (failed(verifyStatistic(*this, "'mean'", getMean(), getX(), 2)))
    return failure();
  return verifyStatistic(*this, "'variance'", getVariance(), getX(), 2);
}

//===----------------------------------------------------------------------===//
// Reductions and pooling
//===----------------------------------------------------------------------===//

static LogicalResult verifyReduce(Operation *op, Value x, Value y,
                                  ArrayRef<int64_t> axes, bool keepDims) {
  RankedTensorType xType = tensorType(x);
  int64_t rank = xType.getRank();
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeAxes(op, "axes", axes, rank);
  if (failed(normalized))
    return failure();
  llvm::SmallBitVector reduced(rank, normalized->empty());
  for (int64_t axis : *normalized)
    reduced.set(axis);
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      expected.push_back(xType.getDimSize(i));
    else if (keepDims)
      expected.push_back(1);
  }
  RankedTensorType yType = tensorType(y);
  if (yType.getRank() != static_cast<int64_t>(expected.size()))
    return op->emitOpError() << "expects a result of rank " << expected.size()
                             << " (keep_dims = " << (keepDims ? "true" : "false")
                             << "), got rank " << yType.getRank();
  for (auto [i, dim] : llvm::enumerate(expected))
    if (failed(expectDim(op, Twine("result dimension ") + Twine(i),
                         yType.getDimSize(i), dim)))
      return failure();
  return success();
}

// Every reduction checks the same shape rule.
#define ASCEND_REDUCE_VERIFIER(Op)                                             \
  LogicalResult Op::verify() {                                                 \
    return verifyReduce(*this, getX(), getY(), getAxes(), getKeepDims());      \
  }
ASCEND_REDUCE_VERIFIER(ReduceSumOp)
ASCEND_REDUCE_VERIFIER(ReduceMeanOp)
ASCEND_REDUCE_VERIFIER(ReduceMaxOp)
ASCEND_REDUCE_VERIFIER(ReduceMinOp)
ASCEND_REDUCE_VERIFIER(ReduceProdOp)
ASCEND_REDUCE_VERIFIER(ReduceL1Op)
ASCEND_REDUCE_VERIFIER(ReduceL2Op)
ASCEND_REDUCE_VERIFIER(ReduceLogSumOp)
ASCEND_REDUCE_VERIFIER(ReduceLogSumExpOp)
ASCEND_REDUCE_VERIFIER(ReduceSumSquareOp)
#undef ASCEND_REDUCE_VERIFIER

/// ArgMaxV2 / ArgMin: a reduction over one axis with an index result.
static LogicalResult verifyArg(Operation *op, Value x, Value y, int64_t axis, bool keepDims) {
  int64_t axes[] = {axis};
  return verifyReduce(op, x, y, axes, keepDims);
}

LogicalResult ArgMaxV2Op::verify() {
  return verifyArg(*this, getX(), getY(), getAxis(), getKeepDims());
}
LogicalResult ArgMinOp::verify() {
  return verifyArg(*this, getX(), getY(), getAxis(), getKeepDims());
}

/// 2-D (`spatial` = 2) and 3-D pooling.
static LogicalResult verifyPool(Operation *op, int64_t spatial, Value x, Value y,
                                ArrayRef<int64_t> ksize,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> pads, bool ceilMode,
                                bool globalPooling) {
  const char *layout = spatial == 2 ? "input 'x' (NCHW)" : "input 'x' (NCDHW)";
  if (failed(expectRank(op, layout, x, spatial + 2)) ||
      failed(expectRank(op, "result", y, spatial + 2)) ||
      failed(expectArraySize(op, "ksize", ksize, spatial)) ||
      failed(expectArraySize(op, "strides", strides, spatial)) ||
      failed(expectArraySize(op, "pads", pads, 2 * spatial)) ||
      failed(expectAllPositive(op, "ksize", ksize)) ||
      failed(expectAllPositive(op, "strides", strides)) ||
      failed(expectAllNonNegative(op, "pads", pads)))
    return failure();
  RankedTensorType xType = tensorType(x), yType = tensorType(y);
  for (int64_t i = 0; i < 2; ++i)
    if (failed(expectDim(op, Twine("result dimension ") + Twine(i),
                         yType.getDimSize(i), xType.getDimSize(i))))
      return failure();
  for (int64_t axis = 0; axis < spatial; ++axis) {
    int64_t expected =
        globalPooling
            ? 1
            : windowOutputSize(xType.getDimSize(2 + axis), ksize[axis],
                               strides[axis], pads[2 * axis],
                               pads[2 * axis + 1], /*dilation=*/1, ceilMode);
    if (isKnown(expected) && expected <= 0)
      return op->emitOpError() << "pooling window does not fit the padded "
                                  "input along spatial axis "
                               << axis;
    if (failed(expectDim(op, Twine("result spatial size ") + Twine(axis),
                         yType.getDimSize(2 + axis), expected)))
      return failure();
  }
  return success();
}

LogicalResult MaxPoolOp::verify() {
  return verifyPool(*this, 2, getX(), getY(), getKsize(), getStrides(), getPads(),
                    getCeilMode(), getGlobalPooling());
}
LogicalResult AvgPoolOp::verify() {
  return verifyPool(*this, 2, getX(), getY(), getKsize(), getStrides(), getPads(),
                    getCeilMode(), getGlobalPooling());
}
LogicalResult MaxPool3DOp::verify() {
  return verifyPool(*this, 3, getX(), getY(), getKsize(), getStrides(), getPads(),
                    getCeilMode(), /*globalPooling=*/false);
}
LogicalResult AvgPool3DOp::verify() {
  return verifyPool(*this, 3, getX(), getY(), getKsize(), getStrides(), getPads(),
                    getCeilMode(), /*globalPooling=*/false);
}
