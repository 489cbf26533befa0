//===- PoolingLowering.cpp - 2-D and 3-D pooling onto the vector unit -----===//
//
// The input seen as [N*C planes, H, W] (MaxPool, AvgPool) or [N*C volumes,
// D, H, W] (MaxPool3D, AvgPool3D); whole planes or volumes go to UB, as many
// per step as fit double-buffered, shared by the vector cores, or windows
// of output rows of one plane when a plane does not fit. An average
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

/// One window of a pooling cut along its first spatial axis: `outRows`
/// output rows from output row `outStart`, reading `inRows` input rows
/// from `inStart`; `padTop` of the padding rows lie before them (the first
/// window), and rows the window needs past the input's end are padding too.
struct PoolWindow {
  int64_t outStart = 0, outRows = 0, inStart = 0, inRows = 0, padTop = 0;
  bool sameShape(const PoolWindow &other) const {
    return outRows == other.outRows && inRows == other.inRows && padTop == other.padTop;
  }
};

/// How a pooling is cut into steps: whole planes (or volumes), as many per
/// step as fit UB double-buffered; or, when one does not fit, one plane per
/// step in windows of `rows` output rows (slices of a volume) along its
/// first spatial axis, as CANN's pooling kernels cut H (max_pool_v3,
/// avg_pool: output rows per loop, input rows (rows - 1) * stride + window).
/// The windows at the padded ends differ in shape; the ones between (the
/// regular windows, `regular` = [first, last)) share one, and run in a loop.
struct PoolPlan {
  VectorTiling tiling; ///< over planes
  int64_t rows = 0;    ///< output rows per window; 0: whole planes
  /// The spatial axis cut: the first one longer than 1 (a 1-D pooling
  /// imported as [1, W] is cut along W).
  int64_t axis = 0;
  SmallVector<PoolWindow> windows;
  std::pair<int64_t, int64_t> regular = {0, 0};
};

/// The windows of `rows` output rows along an axis of `size` input rows
/// pooled by `window` / `stride` with `padBegin` leading padding.
SmallVector<PoolWindow> poolWindows(int64_t size, int64_t outSize, int64_t rows, int64_t window,
                                    int64_t stride, int64_t padBegin) {
  SmallVector<PoolWindow> windows;
  for (int64_t outStart = 0; outStart < outSize; outStart += rows) {
    PoolWindow w;
    w.outStart = outStart;
    w.outRows = std::min(rows, outSize - outStart);
    int64_t first = outStart * stride - padBegin;
    int64_t span = (w.outRows - 1) * stride + window;
    if (first >= 0 && first + span <= size) {
      // No padding in reach: the window has the regular shape; a last one
      // computes rows past the output from zeros read past the input's end,
      // and its store crops them.
      w.outRows = rows;
      w.inStart = first;
      w.inRows = (rows - 1) * stride + window;
      windows.push_back(w);
      continue;
    }
    w.inStart = std::max<int64_t>(first, 0);
    w.padTop = w.inStart - first;
    w.inRows = std::max<int64_t>(std::min(first + span, size) - w.inStart, 1);
    windows.push_back(w);
  }
  return windows;
}

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
  auto ksize = op->getAttrOfType<DenseI64ArrayAttr>("ksize");
  auto strides = op->getAttrOfType<DenseI64ArrayAttr>("strides");
  auto pads = op->getAttrOfType<DenseI64ArrayAttr>("pads");
  if (!ksize || !strides || !pads || ksize.empty() || strides.empty() || pads.size() < 2 ||
      outSpatial[0] < 1 || pads.size() != 2 * inSpatial.size())
    return plan;
  int64_t axis = 0;
  while (axis + 1 < static_cast<int64_t>(inSpatial.size()) && inSpatial[axis] == 1 &&
         outSpatial[axis] == 1)
    ++axis;
  int64_t inRowBytes = ShapedType::getNumElements(inSpatial) / inSpatial[axis] * bytes;
  int64_t outRowBytes = ShapedType::getNumElements(outSpatial) / outSpatial[axis] * bytes;
  for (int64_t rows = outSpatial[axis]; rows >= 1; rows = rows == 1 ? 0 : (rows + 1) / 2) {
    SmallVector<PoolWindow> windows = poolWindows(inSpatial[axis], outSpatial[axis], rows,
                                                  ksize[axis], strides[axis], pads[2 * axis]);
    // Every window shape has its buffers, double-buffered.
    SmallVector<PoolWindow> shapes;
    int64_t total = 0;
    for (const PoolWindow &w : windows) {
      if (llvm::any_of(shapes, [&](const PoolWindow &s) { return s.sameShape(w); }))
        continue;
      shapes.push_back(w);
      total += 2 * (w.inRows * inRowBytes + w.outRows * outRowBytes);
    }
    if (total > context.facts.ub)
      continue;
    plan.rows = rows;
    plan.axis = axis;
    plan.windows = windows;
    // The regular windows: the longest run of one shape, in a loop.
    const PoolWindow &middle = windows[windows.size() / 2];
    int64_t first = windows.size() / 2, last = first + 1;
    while (first > 0 && windows[first - 1].sameShape(middle))
      --first;
    while (last < static_cast<int64_t>(windows.size()) && windows[last].sameShape(middle))
      ++last;
    plan.regular = {first, last};
    // Windows of one shape are steps of their own, shared by the cores;
    // with padded windows a step is a plane, its windows in order.
    plan.tiling.tile = 1;
    plan.tiling.tiles = shapes.size() == 1 ? planes * static_cast<int64_t>(windows.size()) : planes;
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

auto withPlanes(int64_t leading, ArrayRef<int64_t> spatial) {
  SmallVector<int64_t> shape = {leading};
  llvm::append_range(shape, spatial);
  return shape;
}

/// A pooling's planes (N*C) and its input's and output's spatial shapes.
struct PoolShapes {
  int64_t planes;
  SmallVector<int64_t> inSpatial, outSpatial;
};

PoolShapes poolShapes(Operation *op) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  return {in.getDimSize(0) * in.getDimSize(1), spatialShape(in), spatialShape(out)};
}

/// As many whole planes (or volumes) per step as fit.
void buildWholePlanes(KernelBuilder &kb, Operation *op, VectorTiling tiling, Type data, Type acc,
                      bool averageExclusive) {
  PoolShapes shapes = poolShapes(op);
  int64_t planes = shapes.planes;
  const SmallVector<int64_t> &inSpatial = shapes.inSpatial, &outSpatial = shapes.outSpatial;
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  kb.setStepTiling("planes", tiling);
  Value x = kb.reshapeGM(kb.arg(0), withPlanes(planes, inSpatial));
  Value y = kb.reshapeGM(kb.output(), withPlanes(planes, outSpatial));
  Value inTile = kb.alloc(withPlanes(tiling.tile, inSpatial), data, MemorySpace::UB);
  Value outTile = kb.alloc(withPlanes(tiling.tile, outSpatial), data, MemorySpace::UB);
  Value step = kb.openTileLoop(tiling.tiles, tiling.blockDim);
  SmallVector<Value> at = {arith::MulIOp::create(b, loc, step, kb.index(tiling.tile))};
  at.append(inSpatial.size(), kb.index(0));
  loadTile(b, loc, x, at, inTile);
  bool average = isa<ascend::AvgPoolOp, ascend::AvgPool3DOp>(op);
  PoolOp::create(b, loc, average ? "avg" : "max", inTile, outTile,
                 op->getAttrOfType<DenseI64ArrayAttr>("ksize"),
                 op->getAttrOfType<DenseI64ArrayAttr>("strides"),
                 op->getAttrOfType<DenseI64ArrayAttr>("pads"), acc, averageExclusive);
  storeTile(b, loc, outTile, y, at);
  kb.closeLoop();
}

/// One plane per step, in windows of output rows along the first spatial
/// axis: the first and last windows (padded) on their own, the regular
/// ones in a loop. A window's pooling sees its rows with `padTop` padding
/// rows before them and the rows past its tile as padding.
void buildWindows(KernelBuilder &kb, Operation *op, const PoolPlan &plan, Type data, Type acc,
                  bool averageExclusive) {
  PoolShapes shapes = poolShapes(op);
  int64_t planes = shapes.planes;
  const SmallVector<int64_t> &inSpatial = shapes.inSpatial, &outSpatial = shapes.outSpatial;
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  kb.setDoubleBuffer();
  kb.setTiling({{"planes", 1}, {"rows", plan.rows}, {"tiles", plan.tiling.tiles}});
  Value x = kb.reshapeGM(kb.arg(0), withPlanes(planes, inSpatial));
  Value y = kb.reshapeGM(kb.output(), withPlanes(planes, outSpatial));
  auto ksize = op->getAttrOfType<DenseI64ArrayAttr>("ksize");
  auto strides = op->getAttrOfType<DenseI64ArrayAttr>("strides");
  SmallVector<int64_t> pads(op->getAttrOfType<DenseI64ArrayAttr>("pads").asArrayRef());
  bool average = isa<ascend::AvgPoolOp, ascend::AvgPool3DOp>(op);
  // Buffers per window shape.
  SmallVector<std::pair<PoolWindow, std::pair<Value, Value>>> tiles;
  auto tilesFor = [&](const PoolWindow &w) {
    for (auto &[shape, buffers] : tiles)
      if (shape.sameShape(w))
        return buffers;
    SmallVector<int64_t> inShape = inSpatial, outShape = outSpatial;
    inShape[plan.axis] = w.inRows;
    outShape[plan.axis] = w.outRows;
    std::pair<Value, Value> buffers = {kb.alloc(withPlanes(1, inShape), data, MemorySpace::UB),
                                       kb.alloc(withPlanes(1, outShape), data, MemorySpace::UB)};
    tiles.push_back({w, buffers});
    return buffers;
  };
  Value step = kb.openTileLoop(plan.tiling.tiles, plan.tiling.blockDim);
  Value plane = step;
  auto emitWindow = [&](const PoolWindow &w, Value inRow, Value outRow) {
    auto [inTile, outTile] = tilesFor(w);
    SmallVector<Value> inAt(1 + inSpatial.size(), kb.index(0));
    SmallVector<Value> outAt(1 + inSpatial.size(), kb.index(0));
    inAt[0] = outAt[0] = plane;
    inAt[1 + plan.axis] = inRow;
    outAt[1 + plan.axis] = outRow;
    loadTile(b, loc, x, inAt, inTile);
    SmallVector<int64_t> windowPads = pads;
    windowPads[2 * plan.axis] = w.padTop;
    windowPads[2 * plan.axis + 1] = 0; // rows past the tile are padding to the pooling
    PoolOp::create(b, loc, average ? "avg" : "max", inTile, outTile, ksize, strides,
                   b.getDenseI64ArrayAttr(windowPads), acc, averageExclusive);
    storeTile(b, loc, outTile, y, outAt);
  };
  auto [first, last] = plan.regular;
  int64_t windows = static_cast<int64_t>(plan.windows.size());
  if (first == 0 && last == windows && windows > 1) {
    // Step = plane * windows + window: every window has the regular shape.
    const PoolWindow &regular = plan.windows[0];
    plane = arith::DivUIOp::create(b, loc, step, kb.index(windows));
    Value i = arith::RemUIOp::create(b, loc, step, kb.index(windows));
    Value outRow = arith::MulIOp::create(b, loc, i, kb.index(plan.rows));
    Value inRow = arith::AddIOp::create(
        b, loc, kb.index(regular.inStart),
        arith::MulIOp::create(b, loc, i, kb.index(plan.rows * strides[plan.axis])));
    emitWindow(regular, inRow, outRow);
    kb.closeLoop();
    return;
  }
  for (int64_t i = 0; i < first; ++i)
    emitWindow(plan.windows[i], kb.index(plan.windows[i].inStart),
               kb.index(plan.windows[i].outStart));
  if (last > first) {
    const PoolWindow &regular = plan.windows[first];
    // Window i of the run starts at output row outStart + i * rows, input
    // row inStart + i * rows * stride.
    Value i = kb.openLoop(last - first, 1);
    Value outRow = arith::AddIOp::create(
        b, loc, kb.index(regular.outStart), arith::MulIOp::create(b, loc, i, kb.index(plan.rows)));
    Value inRow = arith::AddIOp::create(
        b, loc, kb.index(regular.inStart),
        arith::MulIOp::create(b, loc, i, kb.index(plan.rows * strides[plan.axis])));
    emitWindow(regular, inRow, outRow);
    kb.closeLoop();
  }
  for (int64_t i = last; i < static_cast<int64_t>(plan.windows.size()); ++i)
    emitWindow(plan.windows[i], kb.index(plan.windows[i].inStart),
               kb.index(plan.windows[i].outStart));
  kb.closeLoop();
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
    bool exclusive = true;
    if constexpr (average)
      exclusive = op.getExclusive();
    if (plan.rows)
      buildWindows(kb, op, plan, data, acc, average && exclusive);
    else
      buildWholePlanes(kb, op, plan.tiling, data, acc, average && exclusive);
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
    return std::string("pools planes too large for UB even in windows of one output row");
  return std::nullopt;
}

void ascendprec::kernel::populatePoolingLoweringPatterns(RewritePatternSet &patterns,
                                                         LoweringContext &context) {
  patterns.add<PoolLowering<ascend::MaxPoolOp>, PoolLowering<ascend::AvgPoolOp>,
               PoolLowering<ascend::MaxPool3DOp>, PoolLowering<ascend::AvgPool3DOp>>(
      patterns.getContext(), context);
}
