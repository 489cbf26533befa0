//===- PoolingLowering.cpp - MaxPool and AvgPool onto the vector unit -----===//
//
// The input seen as [N*C planes, H, W]; whole planes go to UB, as many per
// step as fit double-buffered, shared by the vector cores. An average
// accumulates 16-bit data in fp32 (as reductions do).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// Planes per step for a pooling op, 0 when one plane does not fit.
VectorTiling planPlanes(Operation *op, const LoweringContext &context) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  int64_t planes = in.getDimSize(0) * in.getDimSize(1);
  int64_t bytes = elementBytes(in);
  int64_t planeBytes = in.getDimSize(2) * in.getDimSize(3) * bytes +
                       out.getDimSize(2) * out.getDimSize(3) * bytes;
  return chooseRowTiling(planes, planeBytes, context.facts, context.vectorCores);
}

/// A pooling whose window is the whole plane (GlobalAveragePool, or a
/// kernel the size of the input without padding): a reduction of H*W.
bool isGlobal(Operation *op) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  if (op->getAttrOfType<BoolAttr>("global_pooling") &&
      op->getAttrOfType<BoolAttr>("global_pooling").getValue())
    return true;
  auto ksize = op->getAttrOfType<DenseI64ArrayAttr>("ksize");
  auto pads = op->getAttrOfType<DenseI64ArrayAttr>("pads");
  return ksize && ksize.size() == 2 && ksize[0] == in.getDimSize(2) &&
         ksize[1] == in.getDimSize(3) && out.getDimSize(2) == 1 && out.getDimSize(3) == 1 &&
         (!pads || llvm::all_of(pads.asArrayRef(), [](int64_t pad) { return pad == 0; }));
}

template <typename PoolT>
struct PoolLowering : OpConversionPattern<PoolT> {
  PoolLowering(MLIRContext *ctx, LoweringContext &context)
      : OpConversionPattern<PoolT>(ctx), context(context) {}

  LogicalResult matchAndRewrite(PoolT op, typename PoolT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    bool average = std::is_same_v<PoolT, ascend::AvgPoolOp>;
    auto in = cast<ShapedType>(adaptor.getX().getType());
    auto out = cast<ShapedType>(op.getType());
    Type data = in.getElementType();
    Type acc = average ? accumulationType(op, "sum", data) : data;
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{in}, TypeRange{out},
                     nodesOf(op));
    int64_t planes = in.getDimSize(0) * in.getDimSize(1);
    if (isGlobal(op)) {
      // A mean or maximum over each plane, in chunks when a plane does not
      // fit UB.
      std::array<int64_t, 3> view = {planes, in.getDimSize(2) * in.getDimSize(3), 1};
      Value x = kb.reshapeGM(kb.arg(0), {view[0], view[1], view[2]});
      Value y = kb.reshapeGM(kb.output(), {view[0], 1, 1});
      buildRowReduction(kb, context, x, y, view, average ? "mean" : "max", acc);
      kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
      return success();
    }
    VectorTiling tiling = planPlanes(op, context);
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    kb.setStepTiling("planes", tiling);
    Value x = kb.reshapeGM(kb.arg(0), {planes, in.getDimSize(2), in.getDimSize(3)});
    Value y = kb.reshapeGM(kb.output(), {planes, out.getDimSize(2), out.getDimSize(3)});
    Value inTile =
        kb.alloc({tiling.tile, in.getDimSize(2), in.getDimSize(3)}, data, MemorySpace::UB);
    Value outTile =
        kb.alloc({tiling.tile, out.getDimSize(2), out.getDimSize(3)}, data, MemorySpace::UB);
    Value tile = kb.openTileLoop(tiling.tiles, tiling.blockDim);
    Value plane = arith::MulIOp::create(b, loc, tile, kb.index(tiling.tile));
    SmallVector<Value> at = {plane, kb.index(0), kb.index(0)};
    loadTile(b, loc, x, at, inTile);
    // A global pooling's window is the whole plane.
    SmallVector<int64_t> window(op.getKsize());
    if (op.getGlobalPooling())
      window = {in.getDimSize(2), in.getDimSize(3)};
    bool exclusive = true;
    if constexpr (std::is_same_v<PoolT, ascend::AvgPoolOp>)
      exclusive = op.getExclusive();
    PoolOp::create(b, loc, average ? "avg" : "max", inTile, outTile, window, op.getStrides(),
                   op.getPads(), acc, average && exclusive);
    storeTile(b, loc, outTile, y, at);
    kb.closeLoop();
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string> ascendprec::kernel::whyPoolingNotLowerable(Operation *op,
                                                                     const LoweringContext &context) {
  if (!isa<ascend::MaxPoolOp, ascend::AvgPoolOp>(op))
    return std::nullopt;
  if (cast<ShapedType>(op->getOperand(0).getType()).getRank() != 4)
    return std::string("pools a tensor that is not NCHW");
  if (!isGlobal(op) && planPlanes(op, context).tile == 0)
    return std::string("pools planes too large for UB (with a window smaller than the plane)");
  return std::nullopt;
}

void ascendprec::kernel::populatePoolingLoweringPatterns(RewritePatternSet &patterns,
                                                         LoweringContext &context) {
  patterns.add<PoolLowering<ascend::MaxPoolOp>, PoolLowering<ascend::AvgPoolOp>>(
      patterns.getContext(), context);
}
