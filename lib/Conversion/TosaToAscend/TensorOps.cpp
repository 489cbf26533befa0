//===- TensorOps.cpp - tosa const, reshape, transpose, concat, reduce -----===//

#include "AscendPrec/Conversion/TosaToAscend/TosaToAscend.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::tosa_to_ascend;

namespace {

struct ConstToAscend : TosaToAscendPattern<tosa::ConstOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::ConstOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    replaceWithAscendOp(rewriter, op, "ascend.Const", {},
                        {rewriter.getNamedAttr("value", op.getValues())});
    return success();
  }
};

struct ReshapeToAscend : TosaToAscendPattern<tosa::ReshapeOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    replaceWithAscendOp(rewriter, op, "ascend.Reshape", {adaptor.getInput1()});
    return success();
  }
};

struct TransposeToAscend : TosaToAscendPattern<tosa::TransposeOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<int64_t> perm(op.getPerms().begin(), op.getPerms().end());
    replaceWithAscendOp(rewriter, op, "ascend.Transpose", {adaptor.getInput1()},
                        {rewriter.getNamedAttr("perm", rewriter.getDenseI64ArrayAttr(perm))});
    return success();
  }
};

struct ConcatToAscend : TosaToAscendPattern<tosa::ConcatOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    replaceWithAscendOp(
        rewriter, op, "ascend.ConcatV2", adaptor.getInput1(),
        {rewriter.getNamedAttr("concat_dim", rewriter.getI64IntegerAttr(op.getAxis()))});
    return success();
  }
};

/// tosa reductions keep the reduced dimension (as size 1).
template <typename TosaOp>
struct ReduceToAscend : TosaToAscendPattern<TosaOp> {
  ReduceToAscend(MLIRContext *context, TosaNodeNamer &namer, StringRef ascendName)
      : TosaToAscendPattern<TosaOp>(context, namer), ascendName(ascendName.str()) {}
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    this->replaceWithAscendOp(
        rewriter, op, ascendName, {adaptor.getInput()},
        {rewriter.getNamedAttr("axes", rewriter.getDenseI64ArrayAttr({op.getAxis()})),
         rewriter.getNamedAttr("keep_dims", rewriter.getBoolAttr(true))});
    return success();
  }
  std::string ascendName;
};

} // namespace

void ascendprec::populateTosaTensorToAscendPatterns(RewritePatternSet &patterns,
                                                          TosaNodeNamer &namer) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ConstToAscend, ReshapeToAscend, TransposeToAscend, ConcatToAscend>(
      context, namer);
  patterns.add<ReduceToAscend<tosa::ReduceSumOp>>(context, namer, "ascend.ReduceSum");
  patterns.add<ReduceToAscend<tosa::ReduceMaxOp>>(context, namer, "ascend.ReduceMax");
}
