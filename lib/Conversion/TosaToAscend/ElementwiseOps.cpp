//===- ElementwiseOps.cpp - tosa elementwise ops, clamp, cast -> ascend ---===//

#include "AscendPrec/Conversion/TosaToAscend/TosaToAscend.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::tosa_to_ascend;

namespace {

/// One tosa op to one ascend op with the same operands and result types.
template <typename TosaOp>
struct OneToOne : TosaToAscendPattern<TosaOp> {
  OneToOne(MLIRContext *context, TosaNodeNamer &namer, StringRef ascendName,
           unsigned numOperands)
      : TosaToAscendPattern<TosaOp>(context, namer),
        ascendName(ascendName.str()), numOperands(numOperands) {}

  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    this->replaceWithAscendOp(rewriter, op, ascendName,
                              adaptor.getOperands().take_front(numOperands));
    return success();
  }

  std::string ascendName;
  unsigned numOperands;
};

/// tosa.mul with a zero shift is a plain multiply.
struct MulToAscend : TosaToAscendPattern<tosa::MulOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::MulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getShift() && !isZeroConstant(op.getShift()))
      return rewriter.notifyMatchFailure(op, "a non-zero shift is a quantized multiply");
    replaceWithAscendOp(rewriter, op, "ascend.Mul", {adaptor.getInput1(), adaptor.getInput2()});
    return success();
  }
};

/// tosa.negate without zero points is a plain negation.
struct NegateToAscend : TosaToAscendPattern<tosa::NegateOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::NegateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isZeroConstant(op.getInput1Zp()) || !isZeroConstant(op.getOutputZp()))
      return rewriter.notifyMatchFailure(op, "non-zero zero points");
    replaceWithAscendOp(rewriter, op, "ascend.Neg", {adaptor.getInput1()});
    return success();
  }
};

/// tosa.clamp's bounds are attributes; ascend.ClipByValue takes scalar
/// tensors, created as named constants.
struct ClampToAscend : TosaToAscendPattern<tosa::ClampOp> {
  using TosaToAscendPattern::TosaToAscendPattern;
  LogicalResult
  matchAndRewrite(tosa::ClampOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto scalarType = RankedTensorType::get({}, type.getElementType());
    std::string name = namer.nameFor(op);
    auto bound = [&](Attribute value, const char *suffix) -> Value {
      auto typed = cast<TypedAttr>(value);
      if (typed.getType() != type.getElementType())
        return Value();
      return createAscendOp(rewriter, op.getLoc(), "ascend.Const", {}, {scalarType},
                            name + "/" + suffix,
                            {rewriter.getNamedAttr("value",
                                                   DenseElementsAttr::get(scalarType, typed))})
          ->getResult(0);
    };
    Value lo = bound(op.getMinValAttr(), "min");
    Value hi = bound(op.getMaxValAttr(), "max");
    if (!lo || !hi)
      return rewriter.notifyMatchFailure(op, "bounds of another type");
    rewriter.replaceOp(op, createAscendOp(rewriter, op.getLoc(), "ascend.ClipByValue",
                                          {adaptor.getInput(), lo, hi},
                                          op->getResultTypes(), name)
                               ->getResults());
    return success();
  }
};

} // namespace

void ascendprec::populateTosaElementwiseToAscendPatterns(
    RewritePatternSet &patterns, TosaNodeNamer &namer) {
  MLIRContext *context = patterns.getContext();
  patterns.add<OneToOne<tosa::AddOp>>(context, namer, "ascend.Add", 2);
  patterns.add<OneToOne<tosa::SubOp>>(context, namer, "ascend.Sub", 2);
  patterns.add<OneToOne<tosa::MaximumOp>>(context, namer, "ascend.Maximum", 2);
  patterns.add<OneToOne<tosa::MinimumOp>>(context, namer, "ascend.Minimum", 2);
  patterns.add<OneToOne<tosa::PowOp>>(context, namer, "ascend.Pow", 2);
  patterns.add<OneToOne<tosa::AbsOp>>(context, namer, "ascend.Abs", 1);
  patterns.add<OneToOne<tosa::ExpOp>>(context, namer, "ascend.Exp", 1);
  patterns.add<OneToOne<tosa::LogOp>>(context, namer, "ascend.Log", 1);
  patterns.add<OneToOne<tosa::ErfOp>>(context, namer, "ascend.Erf", 1);
  patterns.add<OneToOne<tosa::TanhOp>>(context, namer, "ascend.Tanh", 1);
  patterns.add<OneToOne<tosa::SigmoidOp>>(context, namer, "ascend.Sigmoid", 1);
  patterns.add<OneToOne<tosa::RsqrtOp>>(context, namer, "ascend.Rsqrt", 1);
  patterns.add<OneToOne<tosa::CastOp>>(context, namer, "ascend.Cast", 1);
  patterns.add<MulToAscend, NegateToAscend, ClampToAscend>(context, namer);
}
