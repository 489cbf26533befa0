//===- SelectionLowering.cpp - TopKV2 onto the vector unit ----------------===//
//
// The input seen as [outer, n, inner] around `dim`; as many whole [n, inner]
// rows per step as fit UB double-buffered with their k values and indices,
// shared by the vector cores. k is the result's size along `dim` (static);
// the k operand is not read by the kernel.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// [outer, n, inner] of the input and [outer, k, inner] of the results.
struct TopKShape {
  std::array<int64_t, 3> in, out;
};

TopKShape topKShape(ascend::TopKV2Op op) {
  auto x = cast<ShapedType>(op.getX().getType());
  auto values = cast<ShapedType>(op.getValues().getType());
  int64_t rank = x.getRank();
  // getDim() reads the I64Attr unsigned: the signed value is the attribute's.
  int64_t dim = op.getDimAttr().getInt();
  if (dim < 0)
    dim += rank;
  int64_t outer = ShapedType::getNumElements(x.getShape().take_front(dim));
  int64_t inner = ShapedType::getNumElements(x.getShape().drop_front(dim + 1));
  return {{outer, x.getDimSize(dim), inner}, {outer, values.getDimSize(dim), inner}};
}

VectorTiling planTopK(ascend::TopKV2Op op, const LoweringContext &context) {
  TopKShape shape = topKShape(op);
  int64_t bytes = elementBytes(cast<ShapedType>(op.getX().getType()));
  int64_t indexBytes = elementBytes(cast<ShapedType>(op.getIndices().getType()));
  int64_t rowBytes = shape.in[1] * shape.in[2] * bytes +
                     shape.out[1] * shape.out[2] * (bytes + indexBytes);
  return chooseRowTiling(shape.in[0], rowBytes, context.facts, context.vectorCores);
}

struct TopKLowering : OpRewritePattern<ascend::TopKV2Op> {
  TopKLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::TopKV2Op op, PatternRewriter &rewriter) const override {
    ascend::TopKV2Op::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, adaptor.getOperands().getTypes(),
                     op->getResultTypes(), nodesOf(op));
    TopKShape shape = topKShape(op);
    VectorTiling tiling = planTopK(op, context);
    kb.setStepTiling("rows", tiling);
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    Type data = getElementTypeOrSelf(op.getX().getType());
    Type index = getElementTypeOrSelf(op.getIndices().getType());
    Value x = kb.reshapeGM(kb.arg(0), shape.in);
    Value values = kb.reshapeGM(kb.output(0), shape.out);
    Value indices = kb.reshapeGM(kb.output(1), shape.out);
    Value in = kb.alloc({tiling.tile, shape.in[1], shape.in[2]}, data, MemorySpace::UB);
    Value valueTile = kb.alloc({tiling.tile, shape.out[1], shape.out[2]}, data, MemorySpace::UB);
    Value indexTile = kb.alloc({tiling.tile, shape.out[1], shape.out[2]}, index, MemorySpace::UB);
    Value step = kb.openTileLoop(tiling.tiles, tiling.blockDim);
    Value row = arith::MulIOp::create(b, loc, step, kb.index(tiling.tile));
    SmallVector<Value> at = {row, kb.index(0), kb.index(0)};
    loadTile(b, loc, x, at, in);
    auto topk = TopKOp::create(b, loc, in, valueTile, indexTile);
    topk.setLargest(op.getLargest());
    storeTile(b, loc, valueTile, values, at);
    storeTile(b, loc, indexTile, indices, at);
    kb.closeLoop();
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string> ascendprec::kernel::whySelectionNotLowerable(Operation *op,
                                                                       const LoweringContext &context) {
  auto topk = dyn_cast<ascend::TopKV2Op>(op);
  if (!topk)
    return std::nullopt;
  if (planTopK(topk, context).tile == 0)
    return std::string("selects along rows too long for UB (a whole row and its k results)");
  return std::nullopt;
}

void ascendprec::kernel::populateSelectionLoweringPatterns(RewritePatternSet &patterns,
                                                           LoweringContext &context) {
  patterns.add<TopKLowering>(patterns.getContext(), context);
}
