//===- InterpolationLowering.cpp - resize and grid sampling on the vector -===//
//
// ResizeBilinearV2, ResizeBicubic and GridSampler2D as `akernel.vinterp`
// over whole [H, W] planes in UB, as many per step as fit double-buffered.
// A grid sampler's grid is per image, so its steps never straddle two
// images: the channels per step divide C, and the step loads its image's
// [Ho, Wo, 2] grid beside the planes. 16-bit data is weighed in fp32.
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

int64_t planeElements(ShapedType type) { return type.getDimSize(2) * type.getDimSize(3); }

/// Planes per step for a resize; tile 0 when one plane does not fit.
VectorTiling planResize(Operation *op, const LoweringContext &context) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  int64_t bytes = elementBytes(in);
  return chooseRowTiling(in.getDimSize(0) * in.getDimSize(1),
                         (planeElements(in) + planeElements(out)) * bytes, context.facts,
                         context.vectorCores);
}

/// Channels per step for a grid sampler (a divisor of C), 0 when one plane
/// and the grid do not fit.
int64_t sampleChannelsPerStep(ascend::GridSampler2DOp op, const LoweringContext &context) {
  auto in = cast<ShapedType>(op.getX().getType());
  auto out = cast<ShapedType>(op.getType());
  int64_t bytes = elementBytes(in);
  int64_t gridBytes = planeElements(out) * 2 * bytes;
  int64_t channels = in.getDimSize(1);
  for (int64_t tile = channels; tile >= 1; --tile) {
    if (channels % tile)
      continue;
    int64_t stepBytes = tile * (planeElements(in) + planeElements(out)) * bytes + gridBytes;
    if (2 * stepBytes <= context.facts.ub)
      return tile;
  }
  return 0;
}

StringRef coordinatesOf(bool alignCorners, bool halfPixel) {
  return alignCorners ? "align_corners" : halfPixel ? "half_pixel" : "asymmetric";
}

template <typename ResizeT>
struct ResizeLowering : OpRewritePattern<ResizeT> {
  ResizeLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern<ResizeT>(ctx), context(context) {}

  LogicalResult matchAndRewrite(ResizeT op, PatternRewriter &rewriter) const override {
    typename ResizeT::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    auto in = cast<ShapedType>(adaptor.getX().getType());
    auto out = cast<ShapedType>(op.getType());
    Type data = in.getElementType();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{in}, TypeRange{out},
                     nodesOf(op));
    VectorTiling tiling = planResize(op, context);
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    kb.setStepTiling("planes", tiling);
    int64_t planes = in.getDimSize(0) * in.getDimSize(1);
    Value x = kb.reshapeGM(kb.arg(0), {planes, in.getDimSize(2), in.getDimSize(3)});
    Value y = kb.reshapeGM(kb.output(), {planes, out.getDimSize(2), out.getDimSize(3)});
    Value inTile =
        kb.alloc({tiling.tile, in.getDimSize(2), in.getDimSize(3)}, data, MemorySpace::UB);
    Value outTile =
        kb.alloc({tiling.tile, out.getDimSize(2), out.getDimSize(3)}, data, MemorySpace::UB);
    Value step = kb.openTileLoop(tiling.tiles, tiling.blockDim);
    Value plane = arith::MulIOp::create(b, loc, step, kb.index(tiling.tile));
    SmallVector<Value> at = {plane, kb.index(0), kb.index(0)};
    loadTile(b, loc, x, at, inTile);
    StringRef mode = std::is_same_v<ResizeT, ascend::ResizeBicubicOp> ? "bicubic" : "bilinear";
    InterpOp::create(b, loc, mode, inTile, Value(), outTile,
                     coordinatesOf(op.getAlignCorners(), op.getHalfPixelCenters()), "border",
                     accumulationType(op, "sum", data));
    storeTile(b, loc, outTile, y, at);
    kb.closeLoop();
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

struct GridSampleLowering : OpRewritePattern<ascend::GridSampler2DOp> {
  GridSampleLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::GridSampler2DOp op, PatternRewriter &rewriter) const override {
    ascend::GridSampler2DOp::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    auto in = cast<ShapedType>(adaptor.getX().getType());
    auto grid = cast<ShapedType>(adaptor.getGrid().getType());
    auto out = cast<ShapedType>(op.getType());
    Type data = in.getElementType();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{in, grid}, TypeRange{out},
                     nodesOf(op));
    int64_t images = in.getDimSize(0), channels = in.getDimSize(1);
    int64_t tile = sampleChannelsPerStep(op, context);
    int64_t chunks = channels / tile;
    int64_t steps = images * chunks;
    int64_t blockDim = std::min<int64_t>(steps, context.vectorCores);
    kb.setDoubleBuffer();
    kb.setTiling({{"planes", tile}, {"tiles", steps}});
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    Value x = kb.reshapeGM(kb.arg(0), {images * channels, in.getDimSize(2), in.getDimSize(3)});
    Value y = kb.reshapeGM(kb.output(), {images * channels, out.getDimSize(2), out.getDimSize(3)});
    Value inTile = kb.alloc({tile, in.getDimSize(2), in.getDimSize(3)}, data, MemorySpace::UB);
    Value gridTile = kb.alloc({out.getDimSize(2), out.getDimSize(3), 2},
                              grid.getElementType(), MemorySpace::UB);
    Value outTile = kb.alloc({tile, out.getDimSize(2), out.getDimSize(3)}, data, MemorySpace::UB);
    Value step = kb.openTileLoop(steps, blockDim);
    // Step = image * chunks + chunk: the planes from image * C + chunk * tile.
    Value image = arith::DivUIOp::create(b, loc, step, kb.index(chunks));
    Value chunk = arith::RemUIOp::create(b, loc, step, kb.index(chunks));
    Value plane = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, image, kb.index(channels)),
        arith::MulIOp::create(b, loc, chunk, kb.index(tile)));
    SmallVector<Value> at = {plane, kb.index(0), kb.index(0)};
    loadTile(b, loc, x, at, inTile);
    loadTile(b, loc, kb.arg(1), ValueRange{image, kb.index(0), kb.index(0), kb.index(0)},
             gridTile);
    InterpOp::create(b, loc, ascend::stringifyInterpolation(op.getInterpolationMode()), inTile,
                     gridTile, outTile, coordinatesOf(op.getAlignCorners(), /*halfPixel=*/true),
                     ascend::stringifySamplePadding(op.getPaddingMode()),
                     accumulationType(op, "sum", data));
    storeTile(b, loc, outTile, y, at);
    kb.closeLoop();
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string>
ascendprec::kernel::whyInterpolationNotLowerable(Operation *op, const LoweringContext &context) {
  if (auto sampler = dyn_cast<ascend::GridSampler2DOp>(op)) {
    if (cast<ShapedType>(sampler.getX().getType()).getRank() != 4)
      return std::string("samples a tensor that is not NCHW");
    if (sampleChannelsPerStep(sampler, context) == 0)
      return std::string("samples planes too large for UB (a plane, its output and the grid "
                         "must fit)");
    return std::nullopt;
  }
  if (!isa<ascend::ResizeBilinearV2Op, ascend::ResizeBicubicOp>(op))
    return std::nullopt;
  if (cast<ShapedType>(op->getOperand(0).getType()).getRank() != 4)
    return std::string("resizes a tensor that is not NCHW");
  if (planResize(op, context).tile == 0)
    return std::string("resizes planes too large for UB (a plane and its output must fit)");
  return std::nullopt;
}

void ascendprec::kernel::populateInterpolationLoweringPatterns(RewritePatternSet &patterns,
                                                               LoweringContext &context) {
  patterns.add<ResizeLowering<ascend::ResizeBilinearV2Op>,
               ResizeLowering<ascend::ResizeBicubicOp>, GridSampleLowering>(
      patterns.getContext(), context);
}
