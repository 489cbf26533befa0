//===- NormalizationLowering.cpp - Softmax, LayerNorm, InstanceNorm, LRN --===//
//
// Row-wise vector kernels whose rows fit UB (Softmax: SoftmaxLowering.cpp):
// LayerNorm takes the row's mean and
// variance, normalizes with rsqrt and applies gamma and beta; LRN sums
// squares over a channel window (below).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include <map>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// The row view and rows per tile of a softmax-like op; null tiling when a
/// row does not fit UB.
struct RowPlan {
  std::array<int64_t, 3> view = {1, 1, 1};
  VectorTiling rows;
  bool doubleBuffered = true;
};

/// Bytes per row: `full` buffers of a whole row at `bytes` each, plus
/// per-row scalars.
/// Every UB byte a step needs, as the kernel verifier counts it: per
/// element of a row (`bytesPerElement`), per row (`bytesPerRow`: the row's
/// statistics) and once (`fixedBytes`: parameters shared by all rows).
RowPlan planRows(ShapedType type, ArrayRef<int64_t> axes, int64_t bytesPerElement,
                 const LoweringContext &context, int64_t bytesPerRow = 16,
                 int64_t fixedBytes = 0, bool doubleBuffered = true) {
  RowPlan plan;
  std::optional<std::array<int64_t, 3>> view = rowView(type, axes);
  if (!view)
    return plan;
  plan.view = *view;
  plan.doubleBuffered = doubleBuffered;
  int64_t copies = doubleBuffered ? 2 : 1;
  int64_t rowBytes = (*view)[1] * (*view)[2] * bytesPerElement + bytesPerRow * (*view)[2];
  CoreFacts facts = context.facts;
  facts.ub -= copies * fixedBytes;
  if (facts.ub <= 0)
    return plan;
  plan.rows = chooseRowTiling((*view)[0], rowBytes, facts, context.vectorCores, copies);
  return plan;
}

/// Per-row and fixed UB bytes of a LayerNorm / InstanceNorm step: mean,
/// variance and 1/sqrt (fp32) and the mean and variance outputs per row;
/// gamma and beta per row (InstanceNorm) or once per column (LayerNorm).
std::pair<int64_t, int64_t> normOverheads(bool perRowParams, int64_t reduced) {
  int64_t perRow = 3 * 4 + 2 * 4;
  return perRowParams ? std::pair<int64_t, int64_t>{perRow + 2 * 4, 0}
                      : std::pair<int64_t, int64_t>{perRow, 2 * 4 * reduced};
}

/// InstanceNorm's axes: the spatial ones.
SmallVector<int64_t> normAxes(ascend::InstanceNormOp op) {
  int64_t rank = cast<ShapedType>(op.getX().getType()).getRank();
  SmallVector<int64_t> axes;
  for (int64_t axis = 2; axis < rank; ++axis)
    axes.push_back(axis);
  return axes;
}

/// LayerNorm's axes: begin_norm_axis (negative counts from the end) on.
SmallVector<int64_t> normAxes(ascend::LayerNormOp op) {
  int64_t rank = cast<ShapedType>(op.getX().getType()).getRank();
  int64_t begin = op.getBeginNormAxis();
  if (begin < 0)
    begin += rank;
  SmallVector<int64_t> axes;
  for (int64_t axis = begin; axis < rank; ++axis)
    axes.push_back(axis);
  return axes;
}

int64_t layerNormBytes(Type data, Type compute) {
  return 2 * elementBytes(data) + 2 * elementBytes(compute);
}

Value vop(OpBuilder &b, Location loc, StringRef kind, ValueRange inputs, Value out, Type compute) {
  vectorOp(b, loc, kind, inputs, out, compute);
  return out;
}

/// The rows of a LayerNorm or InstanceNorm step.
template <typename NormT>
RowPlan planNorm(NormT op, ShapedType type, int64_t bytesPerElement,
                 const LoweringContext &context) {
  constexpr bool perRowParams = std::is_same_v<NormT, ascend::InstanceNormOp>;
  SmallVector<int64_t> axes = normAxes(op);
  int64_t reduced = 1;
  for (int64_t axis : axes)
    reduced *= type.getDimSize(axis);
  auto [perRow, fixed] = normOverheads(perRowParams, reduced);
  return planRows(type, axes, bytesPerElement, context, perRow, fixed);
}

/// The chunk of a LayerNorm / InstanceNorm row too long for UB (0 when
/// none fits): per element the input, x - mean, its square and the output,
/// and LayerNorm's gamma and beta; a few statistics per row.
template <typename NormT>
int64_t normChunk(NormT op, ShapedType type, Type compute, const LoweringContext &context) {
  constexpr bool perRowParams = std::is_same_v<NormT, ascend::InstanceNormOp>;
  int64_t reduced = 1;
  for (int64_t axis : normAxes(op))
    reduced *= type.getDimSize(axis);
  int64_t perElement = 2 * elementBytes(type) + 2 * elementBytes(compute) +
                       (perRowParams ? 0 : 2 * elementBytes(op.getGamma().getType()));
  return chunkThatFits(reduced, perElement, 16 * 8, context.facts.ub);
}

/// A LayerNorm or InstanceNorm row too long for UB, one row per step in
/// three passes over its chunks, as CANN's norm kernels split a long reduce
/// axis: the sum (the mean), the sum of squares about the mean (the
/// variance), then the normalized output. The chunks' sums add in order.
template <typename NormT>
void buildChunkedNorm(KernelBuilder &kb, NormT op, std::array<int64_t, 3> view, int64_t chunk,
                      Type data, Type compute, Type acc, const LoweringContext &context) {
  constexpr bool perRowParams = std::is_same_v<NormT, ascend::InstanceNormOp>;
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  int64_t outer = view[0], reduced = view[1];
  kb.setTiling({{"rows", 1}, {"chunk", chunk}, {"tiles", outer}});
  Value x = kb.reshapeGM(kb.arg(0), {outer, reduced});
  Value y = kb.reshapeGM(kb.output(0), {outer, reduced});
  SmallVector<Value> stats = {kb.reshapeGM(kb.output(1), {outer, 1}),
                              kb.reshapeGM(kb.output(2), {outer, 1})};
  auto alloc = [&](ArrayRef<int64_t> shape, Type element) {
    return kb.alloc(shape, getElementTypeOrSelf(element), MemorySpace::UB);
  };
  Type paramType = getElementTypeOrSelf(kb.arg(1).getType());
  int64_t channels = perRowParams ? cast<ShapedType>(op.getX().getType()).getDimSize(1) : reduced;
  Value gamma = kb.reshapeGM(kb.arg(1), {1, channels});
  Value beta = kb.reshapeGM(kb.arg(2), {1, channels});
  Value part = alloc({1, 1}, acc), mean = alloc({1, 1}, acc), variance = alloc({1, 1}, acc);
  Value inverse = alloc({1, 1}, acc);
  Value meanOut = alloc({1, 1}, stats[0].getType()), varianceOut = alloc({1, 1}, stats[1].getType());
  Value rowGamma = perRowParams ? alloc({1, 1}, paramType) : Value();
  Value rowBeta = perRowParams ? alloc({1, 1}, paramType) : Value();
  struct ChunkBuffers {
    Value in, centred, squares, out, gamma, beta;
  };
  std::map<int64_t, ChunkBuffers> buffers;
  auto buffersFor = [&](int64_t size) -> ChunkBuffers & {
    auto [it, added] = buffers.try_emplace(size);
    if (added)
      it->second = {alloc({1, size}, data), alloc({1, size}, compute), alloc({1, size}, compute),
                    alloc({1, size}, y.getType()),
                    perRowParams ? rowGamma : alloc({1, size}, paramType),
                    perRowParams ? rowBeta : alloc({1, size}, paramType)};
    return it->second;
  };
  Value row = kb.openTileLoop(outer, std::min(outer, context.vectorCores));
  if (perRowParams)
    for (auto [source, target] : {std::pair{gamma, rowGamma}, std::pair{beta, rowBeta}})
      loadTile(b, loc, source, ValueRange{row}, target)
          .setBroadcast(ArrayRef<int64_t>{outer / channels, channels});
  auto axis = b.getDenseI64ArrayAttr({1});
  double scale = 1.0 / static_cast<double>(reduced);
  forEachChunk(kb, reduced, chunk, [&](Value offset, int64_t size, Value first) {
    ChunkBuffers &c = buffersFor(size);
    loadTile(b, loc, x, ValueRange{row, offset}, c.in);
    ReduceOp::create(b, loc, "sum", c.in, part, axis, acc, ReduceOrder::Tree);
    accumulateChunk(b, loc, first, "add", part, mean, acc);
  });
  vectorOp(b, loc, "muls", ValueRange{mean}, mean, acc).setParams(ArrayRef<double>{scale});
  forEachChunk(kb, reduced, chunk, [&](Value offset, int64_t size, Value first) {
    ChunkBuffers &c = buffersFor(size);
    loadTile(b, loc, x, ValueRange{row, offset}, c.in);
    vop(b, loc, "sub", {c.in, mean}, c.centred, compute);
    vop(b, loc, "mul", {c.centred, c.centred}, c.squares, compute);
    ReduceOp::create(b, loc, "sum", c.squares, part, axis, acc, ReduceOrder::Tree);
    accumulateChunk(b, loc, first, "add", part, variance, acc);
  });
  vectorOp(b, loc, "muls", ValueRange{variance}, variance, acc).setParams(ArrayRef<double>{scale});
  vectorOp(b, loc, "adds", ValueRange{variance}, inverse, acc)
      .setParams(ArrayRef<double>{paramValue(op.getEpsilon())});
  vop(b, loc, "rsqrt", inverse, inverse, acc);
  forEachChunk(kb, reduced, chunk, [&](Value offset, int64_t size, Value) {
    ChunkBuffers &c = buffersFor(size);
    loadTile(b, loc, x, ValueRange{row, offset}, c.in);
    if (!perRowParams) {
      loadTile(b, loc, gamma, ValueRange{kb.index(0), offset}, c.gamma);
      loadTile(b, loc, beta, ValueRange{kb.index(0), offset}, c.beta);
    }
    vop(b, loc, "sub", {c.in, mean}, c.centred, compute);
    vop(b, loc, "mul", {c.centred, inverse}, c.centred, compute);
    vop(b, loc, "mul", {c.centred, c.gamma}, c.centred, compute);
    vop(b, loc, "add", {c.centred, c.beta}, c.centred, compute);
    convertInto(b, loc, c.centred, c.out);
    storeTile(b, loc, c.out, y, ValueRange{row, offset});
  });
  convertInto(b, loc, mean, meanOut);
  convertInto(b, loc, variance, varianceOut);
  storeTile(b, loc, meanOut, stats[0], ValueRange{row, kb.index(0)});
  storeTile(b, loc, varianceOut, stats[1], ValueRange{row, kb.index(0)});
  kb.closeLoop();
}

/// LayerNorm (gamma and beta per column, loaded once) and InstanceNorm
/// (per channel, i.e. per row, loaded with each tile of rows) share one
/// kernel: mean, variance, rsqrt(variance + epsilon), scale and shift.
template <typename NormT>
struct RowNormLowering : OpRewritePattern<NormT> {
  static constexpr bool kPerRowParams = std::is_same_v<NormT, ascend::InstanceNormOp>;

  RowNormLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern<NormT>(ctx), context(context) {}

  LogicalResult matchAndRewrite(NormT op, PatternRewriter &rewriter) const override {
    typename NormT::Adaptor adaptor(op);
    auto type = cast<ShapedType>(adaptor.getX().getType());
    Type data = type.getElementType();
    Type compute = vectorCompute(op, "rsqrt", data).first;
    if (data.isF16() && compute.isF16() && op.getImplMode() == ascend::ImplMode::HighPrecision)
      compute = Float32Type::get(op.getContext());
    Type acc = accumulationType(op, "mean", compute);
    RowPlan plan = planNorm(op, type, layerNormBytes(data, compute), context);
    int64_t outer = plan.view[0], reduced = plan.view[1];
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, adaptor.getOperands().getTypes(),
                     op->getResultTypes(), nodesOf(op));
    if (plan.rows.tile == 0) {
      buildChunkedNorm(kb, op, plan.view, normChunk(op, type, compute, context), data, compute,
                       acc, context);
      kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
      return success();
    }
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    kb.setStepTiling("rows", plan.rows);
    int64_t rows = plan.rows.tile;
    Value x = kb.reshapeGM(kb.arg(0), {outer, reduced});
    SmallVector<Value> outputs = {kb.reshapeGM(kb.output(0), {outer, reduced}),
                                  kb.reshapeGM(kb.output(1), {outer, 1}),
                                  kb.reshapeGM(kb.output(2), {outer, 1})};
    auto alloc = [&](ArrayRef<int64_t> shape, Type element) {
      return kb.alloc(shape, getElementTypeOrSelf(element), MemorySpace::UB);
    };
    Value in = alloc({rows, reduced}, data);
    Value centred = alloc({rows, reduced}, compute);
    Value squares = alloc({rows, reduced}, compute);
    Value mean = alloc({rows, 1}, acc), variance = alloc({rows, 1}, acc);
    Value inverse = alloc({rows, 1}, acc);
    Value out = alloc({rows, reduced}, outputs[0].getType());
    Value meanOut = alloc({rows, 1}, outputs[1].getType());
    Value varianceOut = alloc({rows, 1}, outputs[2].getType());
    // LayerNorm's gamma and beta are the same for every row: loaded once
    // per core. InstanceNorm's are per channel: row r is channel r % C, read
    // with each tile through a broadcast over the images.
    SmallVector<int64_t> paramShape = kPerRowParams ? SmallVector<int64_t>{rows, 1}
                                                    : SmallVector<int64_t>{1, reduced};
    Value gammaUB = alloc(paramShape, kb.arg(1).getType());
    Value betaUB = alloc(paramShape, kb.arg(2).getType());
    int64_t channels = kPerRowParams ? type.getDimSize(1) : reduced;
    Value gamma = kb.reshapeGM(kb.arg(1), {1, channels});
    Value beta = kb.reshapeGM(kb.arg(2), {1, channels});
    if (!kPerRowParams) {
      loadTile(b, loc, gamma, ValueRange{kb.index(0), kb.index(0)}, gammaUB);
      loadTile(b, loc, beta, ValueRange{kb.index(0), kb.index(0)}, betaUB);
    }
    Value tile = kb.openTileLoop(plan.rows.tiles, plan.rows.blockDim);
    Value row = arith::MulIOp::create(b, loc, tile, kb.index(rows));
    SmallVector<Value> at = {row, kb.index(0)};
    if (kPerRowParams)
      for (auto [source, target] : {std::pair{gamma, gammaUB}, std::pair{beta, betaUB}})
        loadTile(b, loc, source, ValueRange{row}, target)
            .setBroadcast(ArrayRef<int64_t>{outer / channels, channels});
    loadTile(b, loc, x, at, in);
    ReduceOp::create(b, loc, "mean", in, mean, b.getDenseI64ArrayAttr({1}), acc,
                     ReduceOrder::Tree);
    vop(b, loc, "sub", {in, mean}, centred, compute);
    vop(b, loc, "mul", {centred, centred}, squares, compute);
    ReduceOp::create(b, loc, "mean", squares, variance, b.getDenseI64ArrayAttr({1}), acc,
                     ReduceOrder::Tree);
    auto addEps = vectorOp(b, loc, "adds", ValueRange{variance}, inverse, acc);
    addEps.setParams(ArrayRef<double>{paramValue(op.getEpsilon())});
    vop(b, loc, "rsqrt", inverse, inverse, acc);
    vop(b, loc, "mul", {centred, inverse}, centred, compute);
    vop(b, loc, "mul", {centred, gammaUB}, centred, compute);
    vop(b, loc, "add", {centred, betaUB}, centred, compute);
    convertInto(b, loc, centred, out);
    convertInto(b, loc, mean, meanOut);
    convertInto(b, loc, variance, varianceOut);
    storeTile(b, loc, out, outputs[0], at);
    storeTile(b, loc, meanOut, outputs[1], at);
    storeTile(b, loc, varianceOut, outputs[2], at);
    kb.closeLoop();
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

/// LRN over whole images: the channel window's sum of squares is an
/// average pooling of x^2 along C (padding counted, times the window) on
/// [images, C, H*W] tiles; then (bias + alpha * sum)^-beta as
/// exp(-beta * log(...)) and the product with x, all in the accumulation
/// dtype (fp32 for 16-bit data), rounded once into the output.
int64_t lrnBytesPerImage(ShapedType type, Type acc) {
  int64_t elements = type.getNumElements() / std::max<int64_t>(type.getDimSize(0), 1);
  return elements * (2 * elementBytes(type) + 2 * elementBytes(acc));
}

struct LRNLowering : OpRewritePattern<ascend::LRNOp> {
  LRNLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::LRNOp op, PatternRewriter &rewriter) const override {
    ascend::LRNOp::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    auto type = cast<ShapedType>(adaptor.getX().getType());
    Type data = type.getElementType();
    Type acc = accumulationType(op, "sum", data);
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{type}, TypeRange{type},
                     nodesOf(op));
    int64_t images = type.getDimSize(0), channels = type.getDimSize(1);
    int64_t pixels = type.getNumElements() / std::max<int64_t>(images * channels, 1);
    VectorTiling tiling = chooseRowTiling(images, lrnBytesPerImage(type, acc), context.facts,
                                          context.vectorCores);
    kb.setStepTiling("images", tiling);
    OpBuilder &b = kb.builder();
    Location loc = kb.loc();
    Value x = kb.reshapeGM(kb.arg(0), {images, channels, pixels});
    Value y = kb.reshapeGM(kb.output(), {images, channels, pixels});
    SmallVector<int64_t> tile = {tiling.tile, channels, pixels};
    Value in = kb.alloc(tile, data, MemorySpace::UB);
    Value squares = kb.alloc(tile, acc, MemorySpace::UB);
    Value window = kb.alloc(tile, acc, MemorySpace::UB);
    Value out = kb.alloc(tile, data, MemorySpace::UB);
    Value step = kb.openTileLoop(tiling.tiles, tiling.blockDim);
    Value image = arith::MulIOp::create(b, loc, step, kb.index(tiling.tile));
    SmallVector<Value> at = {image, kb.index(0), kb.index(0)};
    loadTile(b, loc, x, at, in);
    int64_t radius = op.getDepthRadius(), size = 2 * op.getDepthRadius() + 1;
    vop(b, loc, "mul", {in, in}, squares, acc);
    PoolOp::create(b, loc, "avg", squares, window, ArrayRef<int64_t>{size, 1},
                   ArrayRef<int64_t>{1, 1}, ArrayRef<int64_t>{radius, radius, 0, 0}, acc,
                   /*exclusive=*/false);
    double alpha = paramValue(op.getAlphaAttr().getValue());
    vectorOp(b, loc, "muls", ValueRange{window}, window, acc)
        .setParams(ArrayRef<double>{alpha * static_cast<double>(size)});
    vectorOp(b, loc, "adds", ValueRange{window}, window, acc)
        .setParams(ArrayRef<double>{paramValue(op.getBiasAttr().getValue())});
    vop(b, loc, "log", window, window, acc);
    vectorOp(b, loc, "muls", ValueRange{window}, window, acc)
        .setParams(ArrayRef<double>{-paramValue(op.getBetaAttr().getValue())});
    vop(b, loc, "exp", window, window, acc);
    vop(b, loc, "mul", {in, window}, out, acc);
    storeTile(b, loc, out, y, at);
    kb.closeLoop();
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string>
ascendprec::kernel::whyNormalizationNotLowerable(Operation *op, const LoweringContext &context) {
  if (auto lrn = dyn_cast<ascend::LRNOp>(op)) {
    auto type = cast<ShapedType>(lrn.getX().getType());
    if (type.getRank() < 3)
      return std::string("normalizes a tensor without channels and pixels (rank below 3)");
    Type acc = accumulationType(op, "sum", type.getElementType());
    if (chooseRowTiling(type.getDimSize(0), lrnBytesPerImage(type, acc), context.facts,
                        context.vectorCores)
            .tile == 0)
      return std::string("normalizes images too large for UB (a whole image's channels)");
    return std::nullopt;
  }
  if (auto layerNorm = dyn_cast<ascend::LayerNormOp>(op)) {
    auto type = cast<ShapedType>(layerNorm.getX().getType());
    SmallVector<int64_t> axes = normAxes(layerNorm);
    if (cast<ShapedType>(layerNorm.getGamma().getType()).getNumElements() !=
        ShapedType::getNumElements(type.getShape().take_back(axes.size())))
      return std::string("normalizes over other axes than gamma and beta cover");
    Type compute = Float32Type::get(op->getContext());
    if (planNorm(layerNorm, type, layerNormBytes(type.getElementType(), compute), context)
                .rows.tile == 0 &&
        normChunk(layerNorm, type, compute, context) == 0)
      return std::string("normalizes rows too long for UB even in chunks");
    return std::nullopt;
  }
  if (auto instanceNorm = dyn_cast<ascend::InstanceNormOp>(op)) {
    auto type = cast<ShapedType>(instanceNorm.getX().getType());
    Type compute = Float32Type::get(op->getContext());
    if (type.getRank() < 3)
      return std::string("normalizes a tensor without channels and pixels (rank below 3)");
    if (planNorm(instanceNorm, type, layerNormBytes(type.getElementType(), compute), context)
                .rows.tile == 0 &&
        normChunk(instanceNorm, type, compute, context) == 0)
      return std::string("normalizes planes too large for UB even in chunks");
    return std::nullopt;
  }
  return whySoftmaxNotLowerable(op, context);
}

void ascendprec::kernel::populateNormalizationLoweringPatterns(RewritePatternSet &patterns,
                                                               LoweringContext &context) {
  populateSoftmaxLoweringPatterns(patterns, context);
  patterns.add<RowNormLowering<ascend::LayerNormOp>,
               RowNormLowering<ascend::InstanceNormOp>, LRNLowering>(patterns.getContext(),
                                                                    context);
}
