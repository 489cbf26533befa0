//===- TensorOps.cpp - tosa const, reshape, transpose, concat, reduce -----===//

#include "AscendPrec/Conversion/TosaToAscend.h"
#include "AscendPrec/Dialect/Ascend/AscendOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace mlir::ascendprec;
using namespace mlir::ascendprec::tosa_to_ascend;

namespace {

template <typename TosaOp>
struct TensorPattern : OpConversionPattern<TosaOp> {
  TensorPattern(MLIRContext *context, TosaNodeNamer &namer)
      : OpConversionPattern<TosaOp>(context), namer(namer) {}
  TosaNodeNamer &namer;
};

struct ConstToAscend : TensorPattern<tosa::ConstOp> {
  using TensorPattern::TensorPattern;
  LogicalResult
  matchAndRewrite(tosa::ConstOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, createAscendOp(rewriter, op.getLoc(), "ascend.Const", {},
                                          op->getResultTypes(), namer.nameFor(op),
                                          {rewriter.getNamedAttr("value", op.getValues())})
                               ->getResults());
    return success();
  }
};

struct ReshapeToAscend : TensorPattern<tosa::ReshapeOp> {
  using TensorPattern::TensorPattern;
  LogicalResult
  matchAndRewrite(tosa::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, createAscendOp(rewriter, op.getLoc(), "ascend.Reshape",
                                          {adaptor.getInput1()}, op->getResultTypes(),
                                          namer.nameFor(op))
                               ->getResults());
    return success();
  }
};

struct TransposeToAscend : TensorPattern<tosa::TransposeOp> {
  using TensorPattern::TensorPattern;
  LogicalResult
  matchAndRewrite(tosa::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<int64_t> perm(op.getPerms().begin(), op.getPerms().end());
    rewriter.replaceOp(op, createAscendOp(rewriter, op.getLoc(), "ascend.Transpose",
                                          {adaptor.getInput1()}, op->getResultTypes(),
                                          namer.nameFor(op),
                                          {rewriter.getNamedAttr(
                                              "perm", rewriter.getDenseI64ArrayAttr(perm))})
                               ->getResults());
    return success();
  }
};

struct ConcatToAscend : TensorPattern<tosa::ConcatOp> {
  using TensorPattern::TensorPattern;
  LogicalResult
  matchAndRewrite(tosa::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, createAscendOp(rewriter, op.getLoc(), "ascend.ConcatV2",
                                          adaptor.getInput1(), op->getResultTypes(),
                                          namer.nameFor(op),
                                          {rewriter.getNamedAttr(
                                              "concat_dim",
                                              rewriter.getI64IntegerAttr(op.getAxis()))})
                               ->getResults());
    return success();
  }
};

/// tosa reductions keep the reduced dimension (as size 1).
template <typename TosaOp>
struct ReduceToAscend : TensorPattern<TosaOp> {
  ReduceToAscend(MLIRContext *context, TosaNodeNamer &namer, StringRef ascendName)
      : TensorPattern<TosaOp>(context, namer), ascendName(ascendName.str()) {}
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createAscendOp(rewriter, op.getLoc(), ascendName, {adaptor.getInput()},
                           op->getResultTypes(), this->namer.nameFor(op),
                           {rewriter.getNamedAttr("axes", rewriter.getDenseI64ArrayAttr(
                                                              {op.getAxis()})),
                            rewriter.getNamedAttr("keep_dims", rewriter.getBoolAttr(true))})
                ->getResults());
    return success();
  }
  std::string ascendName;
};

} // namespace

void mlir::ascendprec::populateTosaTensorToAscendPatterns(RewritePatternSet &patterns,
                                                          TosaNodeNamer &namer) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ConstToAscend, ReshapeToAscend, TransposeToAscend, ConcatToAscend>(
      context, namer);
  patterns.add<ReduceToAscend<tosa::ReduceSumOp>>(context, namer, "ascend.ReduceSum");
  patterns.add<ReduceToAscend<tosa::ReduceMaxOp>>(context, namer, "ascend.ReduceMax");
}
