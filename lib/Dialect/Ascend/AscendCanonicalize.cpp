//===- AscendCanonicalize.cpp - folders and canonicalization patterns -----===//
//
// Only rewrites that never change a computed value: a lossy round trip such
// as f32 -> f16 -> f32 is precision planning's decision and stays.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/ConstantConversion.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using namespace mlir::ascend;

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

static bool isUnsignedInt(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && (intType.isUnsigned() || intType.getWidth() == 1);
}

bool mlir::ascend::isLosslessConversion(Type from, Type to) {
  if (from == to)
    return true;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (fromFloat && toFloat)
    return llvm::APFloat::isRepresentableBy(fromFloat.getFloatSemantics(),
                                            toFloat.getFloatSemantics());
  if (fromInt && toFloat)
    return llvm::APFloat::semanticsPrecision(toFloat.getFloatSemantics()) >=
           fromInt.getWidth();
  if (fromInt && toInt) {
    if (isUnsignedInt(from))
      return toInt.getWidth() > fromInt.getWidth() ||
             (isUnsignedInt(to) && toInt.getWidth() >= fromInt.getWidth());
    return !isUnsignedInt(to) && toInt.getWidth() >= fromInt.getWidth();
  }
  return false;
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  // A Cast to the same type does nothing.
  if (getX().getType() == getY().getType())
    return getX();
  // A -> B -> A where A -> B is exact returns the original value.
  if (auto inner = getX().getDefiningOp<CastOp>())
    if (inner.getX().getType() == getY().getType() &&
        isLosslessConversion(getElementTypeOrSelf(inner.getX()),
                             getElementTypeOrSelf(inner.getY())))
      return inner.getX();
  return {};
}

namespace {
/// cast(cast(a : A -> B) : B -> C) -> cast(a : A -> C) when A -> B is exact:
/// converting the exact intermediate gives the same value as converting `a`.
struct MergeExactCastChain : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp cast,
                                PatternRewriter &rewriter) const override {
    auto inner = cast.getX().getDefiningOp<CastOp>();
    if (!inner || !isLosslessConversion(getElementTypeOrSelf(inner.getX()),
                                        getElementTypeOrSelf(inner.getY())))
      return failure();
    rewriter.modifyOpInPlace(cast,
                             [&] { cast.getXMutable().assign(inner.getX()); });
    return success();
  }
};

} // namespace

DenseElementsAttr mlir::ascend::convertElements(DenseElementsAttr value,
                                                Type to) {
  Type from = value.getElementType();
  auto toFloat = dyn_cast<FloatType>(to);
  auto toInt = dyn_cast<IntegerType>(to);
  if (isa<FloatType>(from) && toFloat)
    return value.mapValues(to, [&](const APFloat &element) {
      APFloat converted = element;
      bool losesInfo;
      converted.convert(toFloat.getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
      return converted.bitcastToAPInt();
    });
  if (isa<IntegerType>(from) && toFloat) {
    bool isSigned = !isUnsignedInt(from);
    return value.mapValues(to, [&](const APInt &element) {
      APFloat converted(toFloat.getFloatSemantics());
      converted.convertFromAPInt(element, isSigned,
                                 APFloat::rmNearestTiesToEven);
      return converted.bitcastToAPInt();
    });
  }
  if (isa<FloatType>(from) && toInt) {
    // Float to integer truncates toward zero; refuse to fold NaN or overflow.
    auto toInteger = [&](const APFloat &element, llvm::APSInt &result) {
      bool isExact;
      return element.convertToInteger(result, APFloat::rmTowardZero,
                                       &isExact) != APFloat::opInvalidOp;
    };
    llvm::APSInt scratch(toInt.getWidth(), isUnsignedInt(to));
    for (const APFloat &element : value.getValues<APFloat>())
      if (!toInteger(element, scratch))
        return {};
    return value.mapValues(to, [&](const APFloat &element) {
      llvm::APSInt result(toInt.getWidth(), isUnsignedInt(to));
      toInteger(element, result);
      return APInt(result);
    });
  }
  if (isa<IntegerType>(from) && toInt) {
    bool isSigned = !isUnsignedInt(from);
    unsigned width = toInt.getWidth();
    return value.mapValues(to, [&](const APInt &element) {
      return isSigned ? element.sextOrTrunc(width) : element.zextOrTrunc(width);
    });
  }
  return {};
}

namespace {
/// Cast(Const) -> Const: constants are converted at compile time, never by a
/// runtime Cast. The new constant takes the Cast's node name and lists the
/// original constant's names in `absorbed`, so both stay reachable (FU-3).
struct FoldCastOfConst : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp cast,
                                PatternRewriter &rewriter) const override {
    auto constant = cast.getX().getDefiningOp<ConstOp>();
    if (!constant)
      return failure();
    auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(cast, "constant is not dense");
    DenseElementsAttr converted =
        convertElements(value, getElementTypeOrSelf(cast.getY()));
    if (!converted)
      return rewriter.notifyMatchFailure(cast, "no compile-time conversion");
    SmallVector<Attribute> absorbed;
    for (ArrayAttr names : {cast.getAbsorbedAttr(), constant.getAbsorbedAttr()})
      if (names)
        llvm::append_range(absorbed, names.getValue());
    absorbed.push_back(constant.getNameAttr());
    auto folded = ConstOp::create(rewriter, cast.getLoc(), converted,
                                  cast.getNameAttr(), /*impl_mode=*/nullptr,
                                  /*precision=*/nullptr,
                                  rewriter.getArrayAttr(absorbed));
    rewriter.replaceOp(cast, folded.getOutput());
    return success();
  }
};
} // namespace

void CastOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<MergeExactCastChain, FoldCastOfConst>(context);
}

//===----------------------------------------------------------------------===//
// Reshape and Transpose
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getX().getType() == getY().getType())
    return getX();
  return {};
}

namespace {
/// Reshape(Reshape(x)) -> Reshape(x): only the final shape matters.
struct ReshapeOfReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    auto inner = reshape.getX().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.modifyOpInPlace(
        reshape, [&] { reshape.getXMutable().assign(inner.getX()); });
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<ReshapeOfReshape>(context);
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getPerm()))
    if (static_cast<int64_t>(i) != p)
      return {};
  return getX();
}
