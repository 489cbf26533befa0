//===- NNOps.cpp - tosa matmul, conv2d and pooling -> ascend --------------===//
//
// tosa's conv and pooling are NHWC (weights OHWI); the ascend dialect's are
// NCHW (weights OIHW), so each is wrapped in Transposes, which planning sees
// as gray data movement.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Conversion/TosaToAscend/TosaToAscend.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::tosa_to_ascend;

namespace {

/// `value` (rank 4) permuted by `perm`, as an ascend.Transpose.
Value transpose(ConversionPatternRewriter &rewriter, Location loc, Value value,
                ArrayRef<int64_t> perm, const std::string &name) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return createAscendOp(rewriter, loc, "ascend.Transpose", {value},
                        {RankedTensorType::get(shape, type.getElementType())}, name,
                        {rewriter.getNamedAttr("perm", rewriter.getDenseI64ArrayAttr(perm))})
      ->getResult(0);
}

constexpr int64_t kToNCHW[] = {0, 3, 1, 2};
constexpr int64_t kToNHWC[] = {0, 2, 3, 1};

/// The NCHW type of an NHWC type.
RankedTensorType nchw(Type nhwc) {
  auto type = cast<RankedTensorType>(nhwc);
  return RankedTensorType::get({type.getDimSize(0), type.getDimSize(3),
                                type.getDimSize(1), type.getDimSize(2)},
                               type.getElementType());
}

SmallVector<int64_t> i64(ArrayRef<int64_t> values) { return SmallVector<int64_t>(values); }

struct MatMulToAscend : TosaToAscendPattern<tosa::MatMulOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isZeroConstant(op.getAZp()) || !isZeroConstant(op.getBZp()))
      return rewriter.notifyMatchFailure(op, "non-zero zero points");
    replaceWithAscendOp(rewriter, op, "ascend.BatchMatMulV2", {adaptor.getA(), adaptor.getB()});
    return success();
  }
};

struct Conv2DToAscend : TosaToAscendPattern<tosa::Conv2DOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isZeroConstant(op.getInputZp()) || !isZeroConstant(op.getWeightZp()))
      return rewriter.notifyMatchFailure(op, "non-zero zero points");
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    auto biasType = cast<RankedTensorType>(adaptor.getBias().getType());
    if (biasType.getDimSize(0) != weightType.getDimSize(0))
      return rewriter.notifyMatchFailure(op, "a broadcast bias");
    std::string name = namer.nameFor(op);
    Location loc = op.getLoc();
    Value input = transpose(rewriter, loc, adaptor.getInput(), kToNCHW, name + "/to_nchw");
    Value weight = transpose(rewriter, loc, adaptor.getWeight(), kToNCHW, name + "/weight_oihw");
    Operation *conv = createAscendOp(
        rewriter, loc, "ascend.Conv2D", {input, weight, adaptor.getBias()},
        {nchw(op.getType())}, name,
        {rewriter.getNamedAttr("strides", rewriter.getDenseI64ArrayAttr(i64(op.getStride()))),
         rewriter.getNamedAttr("pads", rewriter.getDenseI64ArrayAttr(i64(op.getPad()))),
         rewriter.getNamedAttr("dilations", rewriter.getDenseI64ArrayAttr(i64(op.getDilation())))});
    rewriter.replaceOp(op, transpose(rewriter, loc, conv->getResult(0), kToNHWC,
                                     name + "/to_nhwc"));
    return success();
  }
};

template <typename TosaOp>
struct PoolToAscend : TosaToAscendPattern<TosaOp> {
  PoolToAscend(MLIRContext *context, TosaNodeNamer &namer, StringRef ascendName)
      : TosaToAscendPattern<TosaOp>(context, namer), ascendName(ascendName.str()) {}
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<TosaOp, tosa::AvgPool2dOp>) {
      if (!isZeroConstant(op.getInputZp()) || !isZeroConstant(op.getOutputZp()))
        return rewriter.notifyMatchFailure(op, "non-zero zero points");
    }
    std::string name = this->namer.nameFor(op);
    Location loc = op.getLoc();
    Value input = transpose(rewriter, loc, adaptor.getInput(), kToNCHW, name + "/to_nchw");
    SmallVector<NamedAttribute> attrs = {
        rewriter.getNamedAttr("ksize", rewriter.getDenseI64ArrayAttr(i64(op.getKernel()))),
        rewriter.getNamedAttr("strides", rewriter.getDenseI64ArrayAttr(i64(op.getStride()))),
        rewriter.getNamedAttr("pads", rewriter.getDenseI64ArrayAttr(i64(op.getPad())))};
    if constexpr (std::is_same_v<TosaOp, tosa::AvgPool2dOp>)
      attrs.push_back(rewriter.getNamedAttr("exclusive", rewriter.getBoolAttr(true)));
    Operation *pool = createAscendOp(rewriter, loc, ascendName, {input},
                                     {nchw(op.getType())}, name, attrs);
    rewriter.replaceOp(op, transpose(rewriter, loc, pool->getResult(0), kToNHWC,
                                     name + "/to_nhwc"));
    return success();
  }
  std::string ascendName;
};

} // namespace

void ascendprec::populateTosaNNToAscendPatterns(RewritePatternSet &patterns,
                                                      TosaNodeNamer &namer) {
  MLIRContext *context = patterns.getContext();
  patterns.add<MatMulToAscend, Conv2DToAscend>(context, namer);
  patterns.add<PoolToAscend<tosa::MaxPool2dOp>>(context, namer, "ascend.MaxPool");
  patterns.add<PoolToAscend<tosa::AvgPool2dOp>>(context, namer, "ascend.AvgPool");
}
