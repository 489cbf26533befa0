//===- InterpolationLowering.cpp - resize and grid sampling on the vector -===//
//
// ResizeBilinearV2, ResizeBicubic and GridSampler2D as `akernel.vinterp`
// over whole [H, W] planes in UB, as many per step as fit double-buffered.
// A resize whose plane does not fit is cut into windows of output rows
// (then of columns, when one row does not fit), each loading the input rows
// and columns its taps read, as CANN's ResizeBilinearV2 walks one output
// row at a time with W in segments (tbe/impl/dynamic/resize_bilinear_v2.py,
// _function_resize_with_l1_default). A grid sampler's grid is per image,
// so its steps never straddle two images: the channels per step divide C,
// and the step loads its image's [Ho, Wo, 2] grid beside the planes.
// 16-bit data is weighed in fp32.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Runtime/ResizeTaps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

int64_t planeElements(ShapedType type) { return type.getDimSize(2) * type.getDimSize(3); }

runtime::InterpCoordinates coordinatesCode(bool alignCorners, bool halfPixel) {
  return alignCorners ? runtime::InterpCoordinates::AlignCorners
         : halfPixel  ? runtime::InterpCoordinates::HalfPixel
                      : runtime::InterpCoordinates::Asymmetric;
}

/// How one axis of a windowed resize is cut: `out` output positions per
/// window reading `in` input positions from
///   min(max((numerator * o0 + offset) / divisor - 1 - margin, 0), size - in)
/// for the window's first output position o0: the exact floor of its source
/// coordinate (with `offset` making the numerator non-negative), less a
/// margin for the taps before it and for the runtime's rounding.
struct AxisWindows {
  int64_t out = 0, in = 0, windows = 0;
  int64_t numerator = 0, offset = 0, divisor = 1, margin = 0;

  int64_t inputStart(int64_t o0, int64_t size) const {
    int64_t start = std::max<int64_t>((numerator * o0 + offset) / divisor - 1 - margin, 0);
    return std::min(start, size - in);
  }
};

/// Windows of `outPerWindow` output positions along an axis resized from
/// `size` to `outSize`; nullopt if some window's taps would fall outside
/// what it loads (the start formula and the runtime's taps disagree).
std::optional<AxisWindows> cutAxis(runtime::InterpMode mode, runtime::InterpCoordinates coords,
                                   int64_t size, int64_t outSize, int64_t outPerWindow) {
  AxisWindows axis;
  axis.out = outPerWindow;
  axis.windows = ceilDiv(outSize, outPerWindow);
  axis.margin = mode == runtime::InterpMode::Bicubic ? 2 : 1;
  // The source coordinate of o as a fraction (numerator * o + offset') /
  // divisor; `offset` adds one divisor so that it is never negative.
  switch (coords) {
  case runtime::InterpCoordinates::Asymmetric:
    axis.numerator = size, axis.offset = outSize, axis.divisor = outSize;
    break;
  case runtime::InterpCoordinates::HalfPixel: // ((2o + 1) size - out) / (2 out)
    axis.numerator = 2 * size, axis.offset = size + outSize, axis.divisor = 2 * outSize;
    break;
  case runtime::InterpCoordinates::AlignCorners:
    axis.numerator = outSize > 1 ? size - 1 : 0;
    axis.divisor = outSize > 1 ? outSize - 1 : 1;
    axis.offset = axis.divisor;
    break;
  }
  auto tapRange = [&](int64_t o) {
    runtime::ResizeTaps taps = runtime::resizeTaps(mode, coords, o, size, outSize);
    int64_t low = size, high = 0;
    for (int k = 0; k < taps.count; ++k) {
      low = std::min(low, taps.taps[k].index);
      high = std::max(high, taps.taps[k].index);
    }
    return std::make_pair(low, high);
  };
  // Taps grow with o: a window reads from its first position's lowest tap
  // to its last position's highest.
  axis.in = 0;
  for (int64_t w = 0; w < axis.windows; ++w) {
    int64_t o0 = w * outPerWindow, o1 = std::min(outSize, o0 + outPerWindow) - 1;
    int64_t start = std::max<int64_t>(
        (axis.numerator * o0 + axis.offset) / axis.divisor - 1 - axis.margin, 0);
    axis.in = std::max(axis.in, tapRange(o1).second - start + 1);
  }
  axis.in = std::min(axis.in, size);
  for (int64_t w = 0; w < axis.windows; ++w) {
    int64_t o0 = w * outPerWindow, o1 = std::min(outSize, o0 + outPerWindow) - 1;
    int64_t start = axis.inputStart(o0, size);
    if (start < 0 || start > tapRange(o0).first || start + axis.in <= tapRange(o1).second)
      return std::nullopt;
  }
  return axis;
}

/// How a resize is cut into steps: whole planes, as many per step as fit
/// UB double-buffered; or one plane per step in windows of rows and, when
/// one row does not fit, of columns.
struct ResizePlan {
  VectorTiling tiling; ///< over planes, or planes x row windows x column windows
  std::optional<AxisWindows> rows, columns;
};

ResizePlan planResize(Operation *op, const LoweringContext &context) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  int64_t bytes = elementBytes(in);
  int64_t planes = in.getDimSize(0) * in.getDimSize(1);
  ResizePlan plan;
  plan.tiling = chooseRowTiling(planes, (planeElements(in) + planeElements(out)) * bytes,
                                context.facts, context.vectorCores);
  if (plan.tiling.tile != 0)
    return plan;
  auto mode = isa<ascend::ResizeBicubicOp>(op) ? runtime::InterpMode::Bicubic
                                               : runtime::InterpMode::Bilinear;
  auto alignCorners = op->getAttrOfType<BoolAttr>("align_corners");
  auto halfPixel = op->getAttrOfType<BoolAttr>("half_pixel_centers");
  auto coords = coordinatesCode(alignCorners && alignCorners.getValue(),
                                halfPixel && halfPixel.getValue());
  int64_t height = in.getDimSize(2), width = in.getDimSize(3);
  int64_t outH = out.getDimSize(2), outW = out.getDimSize(3);
  // The widest windows first (whole rows, as CANN's kernel reads them), then
  // the most rows that fit.
  for (int64_t cols = outW; cols >= 1; cols = cols == 1 ? 0 : ceilDiv(cols, 2)) {
    std::optional<AxisWindows> columns = cutAxis(mode, coords, width, outW, cols);
    for (int64_t rowsPer = outH; columns && rowsPer >= 1;
         rowsPer = rowsPer == 1 ? 0 : ceilDiv(rowsPer, 2)) {
      std::optional<AxisWindows> rows = cutAxis(mode, coords, height, outH, rowsPer);
      if (!rows ||
          2 * (rows->in * columns->in + rows->out * columns->out) * bytes > context.facts.ub)
        continue;
      plan.rows = rows;
      plan.columns = columns;
      plan.tiling.tile = 1;
      plan.tiling.tiles = planes * rows->windows * columns->windows;
      plan.tiling.blockDim = std::min<int64_t>(plan.tiling.tiles, context.vectorCores);
      return plan;
    }
  }
  return plan;
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

/// AxisWindows::inputStart in the kernel, for the window at `o0`.
Value emitInputStart(KernelBuilder &kb, const AxisWindows &axis, Value o0, int64_t size) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  Value scaled = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, o0, kb.index(axis.numerator)), kb.index(axis.offset));
  Value floor = arith::DivUIOp::create(b, loc, scaled, kb.index(axis.divisor));
  Value start = arith::SubIOp::create(b, loc, floor, kb.index(1 + axis.margin));
  start = arith::MaxSIOp::create(b, loc, start, kb.index(0));
  return arith::MinSIOp::create(b, loc, start, kb.index(size - axis.in));
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
    ResizePlan plan = planResize(op, context);
    VectorTiling tiling = plan.tiling;
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    int64_t planes = in.getDimSize(0) * in.getDimSize(1);
    int64_t height = in.getDimSize(2), width = in.getDimSize(3);
    int64_t outH = out.getDimSize(2), outW = out.getDimSize(3);
    if (plan.rows) {
      kb.setDoubleBuffer();
      kb.setTiling({{"planes", 1}, {"rows", plan.rows->out}, {"columns", plan.columns->out},
                    {"tiles", tiling.tiles}});
    } else {
      kb.setStepTiling("planes", tiling);
    }
    Value x = kb.reshapeGM(kb.arg(0), {planes, height, width});
    Value y = kb.reshapeGM(kb.output(), {planes, outH, outW});
    int64_t inRows = plan.rows ? plan.rows->in : height, inCols = plan.rows ? plan.columns->in : width;
    int64_t outRows = plan.rows ? plan.rows->out : outH, outCols = plan.rows ? plan.columns->out : outW;
    Value inTile = kb.alloc({tiling.tile, inRows, inCols}, data, MemorySpace::UB);
    Value outTile = kb.alloc({tiling.tile, outRows, outCols}, data, MemorySpace::UB);
    Value step = kb.openTileLoop(tiling.tiles, tiling.blockDim);
    SmallVector<Value> inAt, outAt, origin;
    if (plan.rows) {
      // Step = (plane * row windows + row window) * column windows + column
      // window.
      Value columnWindows = kb.index(plan.columns->windows);
      Value rowWindows = kb.index(plan.rows->windows);
      Value column = arith::RemUIOp::create(b, loc, step, columnWindows);
      Value rest = arith::DivUIOp::create(b, loc, step, columnWindows);
      Value row = arith::RemUIOp::create(b, loc, rest, rowWindows);
      Value plane = arith::DivUIOp::create(b, loc, rest, rowWindows);
      Value outRow = arith::MulIOp::create(b, loc, row, kb.index(outRows));
      Value outCol = arith::MulIOp::create(b, loc, column, kb.index(outCols));
      Value inRow = emitInputStart(kb, *plan.rows, outRow, height);
      Value inCol = emitInputStart(kb, *plan.columns, outCol, width);
      inAt = {plane, inRow, inCol};
      outAt = {plane, outRow, outCol};
      origin = {inRow, inCol, outRow, outCol};
    } else {
      Value plane = arith::MulIOp::create(b, loc, step, kb.index(tiling.tile));
      inAt = outAt = {plane, kb.index(0), kb.index(0)};
    }
    loadTile(b, loc, x, inAt, inTile);
    StringRef mode = std::is_same_v<ResizeT, ascend::ResizeBicubicOp> ? "bicubic" : "bilinear";
    DenseI64ArrayAttr window;
    if (plan.rows)
      window = b.getDenseI64ArrayAttr({height, width, outH, outW});
    InterpOp::create(b, loc, mode, inTile, Value(), origin, outTile,
                     coordinatesOf(op.getAlignCorners(), op.getHalfPixelCenters()), "border",
                     accumulationType(op, "sum", data), window);
    storeTile(b, loc, outTile, y, outAt);
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
                     gridTile, ValueRange(), outTile, coordinatesOf(op.getAlignCorners(), /*halfPixel=*/true),
                     ascend::stringifySamplePadding(op.getPaddingMode()),
                     accumulationType(op, "sum", data), DenseI64ArrayAttr());
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
  if (planResize(op, context).tiling.tile == 0)
    return std::string("resizes planes too large for UB even in windows of one output row "
                       "and column");
  return std::nullopt;
}

void ascendprec::kernel::populateInterpolationLoweringPatterns(RewritePatternSet &patterns,
                                                               LoweringContext &context) {
  patterns.add<ResizeLowering<ascend::ResizeBilinearV2Op>,
               ResizeLowering<ascend::ResizeBicubicOp>, GridSampleLowering>(
      patterns.getContext(), context);
}
