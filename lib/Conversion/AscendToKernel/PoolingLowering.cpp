//===- PoolingLowering.cpp - 2-D and 3-D pooling onto the vector unit -----===//
//
// The input seen as [N*C planes, H, W] (MaxPool, AvgPool) or [N*C volumes,
// D, H, W] (MaxPool3D, AvgPool3D); whole planes or volumes go to UB, as many
// per step as fit double-buffered, shared by the vector cores. An average
// accumulates 16-bit data in fp32 (as reductions do).
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

/// The spatial extent of a pooling's input or output: [H, W] or [D, H, W].
SmallVector<int64_t> spatialShape(ShapedType type) {
  return SmallVector<int64_t>(type.getShape().drop_front(2));
}

/// How a pooling is cut into steps: whole planes (or volumes), as many per
/// step as fit UB double-buffered; or, when one does not fit, one plane per
/// step cut along its first spatial axis into `rows` output rows (slices of
/// a volume), which read `(rows - 1) * stride + window` input rows.
struct PoolPlan {
  VectorTiling tiling; ///< over planes, or over planes x row chunks
  int64_t rows = 0;    ///< output rows per step; 0: whole planes
  int64_t inRows = 0;  ///< input rows per step
  int64_t chunks = 1;  ///< row chunks per plane
};

PoolPlan planPooling(Operation *op, const LoweringContext &context) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  int64_t planes = in.getDimSize(0) * in.getDimSize(1);
  int64_t bytes = elementBytes(in);
  SmallVector<int64_t> inSpatial = spatialShape(in), outSpatial = spatialShape(out);
  PoolPlan plan;
  plan.tiling = chooseRowTiling(planes, (ShapedType::getNumElements(inSpatial) + ShapedType::getNumElements(outSpatial)) * bytes,
                                context.facts, context.vectorCores);
  if (plan.tiling.tile != 0)
    return plan;
  // Cut along the first spatial axis. The padding is read as "outside the
  // image" by the pooling, so only an axis without padding can be cut.
  auto ksize = op->getAttrOfType<DenseI64ArrayAttr>("ksize");
  auto strides = op->getAttrOfType<DenseI64ArrayAttr>("strides");
  auto pads = op->getAttrOfType<DenseI64ArrayAttr>("pads");
  if (!ksize || !strides || !pads || ksize.empty() || strides.empty() || pads.size() < 2 ||
      pads[0] != 0 || pads[1] != 0 || outSpatial[0] < 1)
    return plan;
  int64_t inRowBytes = ShapedType::getNumElements(ArrayRef<int64_t>(inSpatial).drop_front()) * bytes;
  int64_t outRowBytes = ShapedType::getNumElements(ArrayRef<int64_t>(outSpatial).drop_front()) * bytes;
  for (int64_t rows = outSpatial[0]; rows >= 1; rows = rows == 1 ? 0 : (rows + 1) / 2) {
    int64_t inRows = (rows - 1) * strides[0] + ksize[0];
    if (2 * (inRows * inRowBytes + rows * outRowBytes) > context.facts.ub)
      continue;
    plan.rows = rows;
    plan.inRows = inRows;
    plan.chunks = ceilDiv(outSpatial[0], rows);
    plan.tiling.tile = 1;
    plan.tiling.tiles = planes * plan.chunks;
    plan.tiling.blockDim = std::min<int64_t>(plan.tiling.tiles, context.vectorCores);
    return plan;
  }
  return plan;
}

/// A pooling whose window is the whole plane (GlobalAveragePool, or a
/// kernel the size of the input without padding): a reduction of H*W (or
/// D*H*W).
bool isGlobal(Operation *op) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  if (auto global = op->getAttrOfType<BoolAttr>("global_pooling"); global && global.getValue())
    return true;
  auto ksize = op->getAttrOfType<DenseI64ArrayAttr>("ksize");
  auto pads = op->getAttrOfType<DenseI64ArrayAttr>("pads");
  return ksize && ksize.asArrayRef() == ArrayRef<int64_t>(spatialShape(in)) &&
         ShapedType::getNumElements(spatialShape(out)) == 1 &&
         (!pads || llvm::all_of(pads.asArrayRef(), [](int64_t pad) { return pad == 0; }));
}

template <typename PoolT>
struct PoolLowering : OpRewritePattern<PoolT> {
  PoolLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern<PoolT>(ctx), context(context) {}

  static constexpr bool average =
      std::is_same_v<PoolT, ascend::AvgPoolOp> || std::is_same_v<PoolT, ascend::AvgPool3DOp>;

  LogicalResult matchAndRewrite(PoolT op, PatternRewriter &rewriter) const override {
    typename PoolT::Adaptor adaptor(op);
    auto in = cast<ShapedType>(adaptor.getX().getType());
    auto out = cast<ShapedType>(op.getType());
    Type data = in.getElementType();
    Type acc = average ? accumulationType(op, "sum", data) : data;
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{in}, TypeRange{out},
                     nodesOf(op));
    int64_t planes = in.getDimSize(0) * in.getDimSize(1);
    SmallVector<int64_t> inSpatial = spatialShape(in), outSpatial = spatialShape(out);
    if (isGlobal(op)) {
      // A mean or maximum over each plane, in chunks when a plane does not
      // fit UB.
      std::array<int64_t, 3> view = {planes, ShapedType::getNumElements(inSpatial), 1};
      Value x = kb.reshapeGM(kb.arg(0), {view[0], view[1], view[2]});
      Value y = kb.reshapeGM(kb.output(), {view[0], 1, 1});
      buildRowReduction(kb, context, x, y, view, average ? "mean" : "max", acc);
      kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
      return success();
    }
    PoolPlan plan = planPooling(op, context);
    VectorTiling tiling = plan.tiling;
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    if (plan.rows) {
      kb.setDoubleBuffer();
      kb.setTiling({{"planes", 1}, {"rows", plan.rows}, {"tiles", tiling.tiles}});
    } else {
      kb.setStepTiling("planes", tiling);
    }
    auto withPlanes = [](int64_t leading, ArrayRef<int64_t> spatial) {
      SmallVector<int64_t> shape = {leading};
      llvm::append_range(shape, spatial);
      return shape;
    };
    Value x = kb.reshapeGM(kb.arg(0), withPlanes(planes, inSpatial));
    Value y = kb.reshapeGM(kb.output(), withPlanes(planes, outSpatial));
    SmallVector<int64_t> inTileSpatial = inSpatial, outTileSpatial = outSpatial;
    if (plan.rows) {
      inTileSpatial[0] = plan.inRows;
      outTileSpatial[0] = plan.rows;
    }
    Value inTile = kb.alloc(withPlanes(tiling.tile, inTileSpatial), data, MemorySpace::UB);
    Value outTile = kb.alloc(withPlanes(tiling.tile, outTileSpatial), data, MemorySpace::UB);
    Value step = kb.openTileLoop(tiling.tiles, tiling.blockDim);
    SmallVector<Value> inAt, outAt;
    if (plan.rows) {
      // Step = plane * chunks + chunk; the last chunk's rows past the
      // output are computed from zeros and cropped by the store.
      Value chunks = kb.index(plan.chunks);
      Value plane = arith::DivUIOp::create(b, loc, step, chunks);
      Value chunk = arith::RemUIOp::create(b, loc, step, chunks);
      Value outRow = arith::MulIOp::create(b, loc, chunk, kb.index(plan.rows));
      Value inRow = arith::MulIOp::create(b, loc, outRow, kb.index(op.getStrides()[0]));
      inAt = {plane, inRow};
      outAt = {plane, outRow};
    } else {
      Value plane = arith::MulIOp::create(b, loc, step, kb.index(tiling.tile));
      inAt = outAt = {plane, kb.index(0)};
    }
    inAt.append(inSpatial.size() - 1, kb.index(0));
    outAt.append(inSpatial.size() - 1, kb.index(0));
    loadTile(b, loc, x, inAt, inTile);
    // (A global_pooling op took the row reduction above.)
    bool exclusive = true;
    if constexpr (average)
      exclusive = op.getExclusive();
    PoolOp::create(b, loc, average ? "avg" : "max", inTile, outTile, op.getKsize(), op.getStrides(),
                   op.getPads(), acc, average && exclusive);
    storeTile(b, loc, outTile, y, outAt);
    kb.closeLoop();
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string> ascendprec::kernel::whyPoolingNotLowerable(Operation *op,
                                                                     const LoweringContext &context) {
  if (!isa<ascend::MaxPoolOp, ascend::AvgPoolOp, ascend::MaxPool3DOp, ascend::AvgPool3DOp>(op))
    return std::nullopt;
  int64_t rank = cast<ShapedType>(op->getOperand(0).getType()).getRank();
  if (isa<ascend::MaxPoolOp, ascend::AvgPoolOp>(op) && rank != 4)
    return std::string("pools a tensor that is not NCHW");
  if (isa<ascend::MaxPool3DOp, ascend::AvgPool3DOp>(op) && rank != 5)
    return std::string("pools a tensor that is not NCDHW");
  if (!isGlobal(op) && planPooling(op, context).tiling.tile == 0)
    return std::string("pools planes too large for UB (with a window smaller than the plane), "
                       "padded along their first spatial axis, which is the axis the "
                       "lowering cuts");
  return std::nullopt;
}

void ascendprec::kernel::populatePoolingLoweringPatterns(RewritePatternSet &patterns,
                                                         LoweringContext &context) {
  patterns.add<PoolLowering<ascend::MaxPoolOp>, PoolLowering<ascend::AvgPoolOp>,
               PoolLowering<ascend::MaxPool3DOp>, PoolLowering<ascend::AvgPool3DOp>>(
      patterns.getContext(), context);
}
