//===- CleanupCasts.cpp - prec-cleanup-casts ------------------------------===//
//
// Removes Casts that do not change any value: the Cast canonicalizations of
// the dialect (same type, exact round trip, exact-first chain, Cast of a
// constant) plus merging duplicate Casts of one value to one dtype. Lossy
// round trips stay: the plan put them there.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "PlanningState.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ascendprec::ascend {
#define GEN_PASS_DEF_CLEANUPCASTS
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"
} // namespace ascendprec::ascend

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// A second Cast of the same value to the same type, later in the block, is
/// replaced by the first; the first lists the second's names in `absorbed`.
struct MergeDuplicateCasts : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp cast,
                                PatternRewriter &rewriter) const override {
    for (Operation *user : cast.getX().getUsers()) {
      auto other = dyn_cast<CastOp>(user);
      if (!other || other == cast || other.getType() != cast.getType() ||
          other->getBlock() != cast->getBlock() ||
          !other->isBeforeInBlock(cast))
        continue;
      SmallVector<Attribute> absorbed;
      if (ArrayAttr names = other.getAbsorbedAttr())
        llvm::append_range(absorbed, names.getValue());
      absorbed.push_back(cast.getNameAttr());
      if (ArrayAttr names = cast.getAbsorbedAttr())
        llvm::append_range(absorbed, names.getValue());
      rewriter.modifyOpInPlace(other, [&] {
        other.setAbsorbedAttr(rewriter.getArrayAttr(absorbed));
      });
      rewriter.replaceOp(cast, other.getY());
      return success();
    }
    return failure();
  }
};

struct CleanupCastsPass
    : ascendprec::ascend::impl::CleanupCastsBase<CleanupCastsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto countCasts = [&] {
      int64_t count = 0;
      module.walk([&](CastOp) { ++count; });
      return count;
    };
    int64_t before = countCasts();

    RewritePatternSet patterns(&getContext());
    CastOp::getCanonicalizationPatterns(patterns, &getContext());
    patterns.add<MergeDuplicateCasts>(&getContext());
    SmallVector<Operation *> casts;
    module.walk([&](CastOp cast) { casts.push_back(cast); });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(casts, std::move(patterns), config)))
      return signalPassFailure();

    // Constants no longer used after folding are dead weights.
    SmallVector<ConstOp> dead;
    module.walk([&](ConstOp constant) {
      if (constant->use_empty())
        dead.push_back(constant);
    });
    for (ConstOp constant : dead)
      constant->erase();
    int64_t removed = before - countCasts();
    numCastsRemoved += removed;
    addToCounter(module, kCastsRemovedAttr, removed);
  }
};

} // namespace
