//===- AscendCanonicalize.cpp - folders and canonicalization patterns -----===//
//
// Only rewrites that never change a computed value: a lossy round trip such
// as f32 -> f16 -> f32 is precision planning's decision and stays.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/IR/ConstantConversion.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

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
    ElementsAttr converted = convertElements(constant.getValue(),
                                             getElementTypeOrSelf(cast.getY()));
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
                                  rewriter.getArrayAttr(absorbed), /*fused_by=*/nullptr);
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
  // Equal types are the identity only with at most one unknown dimension:
  // `?x?` to `?x?` may swap the sizes.
  auto type = cast<RankedTensorType>(getY().getType());
  if (getX().getType() == type && type.getNumDynamicDims() <= 1)
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
