//===- SoftmaxLowering.cpp - SoftmaxV2 and LogSoftmaxV2 on the vector unit -===//
//
// x - max(x), exp (in fp32 under high_precision, IM-7), a sum in the
// accumulation dtype, then a division (LogSoftmax: a subtraction of
// log(sum)). The input is seen as [outer, reduced, inner] and cut one of
// three ways, the first that fits UB:
// - whole [reduced, inner] slabs, as many per step as fit;
// - columns of the slab: a softmax over NCHW's C of a 1024x1024 map. Each
//   column is its own softmax, so the bits are those of whole slabs;
// - chunks of a reduced axis too long for UB (100,000 classes), in three
//   passes over GM: the maximum, the sum of exp(x - max), then the output,
//   as CANN's kernels split a long reduce axis and carry the row's max and
//   sum across the splits (AscendC's SoftmaxFlash family). The sum adds the
//   chunks' sums in order: the one rounding that differs from a whole row.
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

enum class SoftmaxCut { Slabs, Columns, Chunks };

struct SoftmaxTypes {
  Type data, compute, acc;
};

struct SoftmaxPlan {
  std::array<int64_t, 3> view = {1, 1, 1};
  SoftmaxCut cut = SoftmaxCut::Slabs;
  /// Slabs: rows of `outer` per step; otherwise one row and `columns`
  /// columns per step (tile 0: nothing fits).
  VectorTiling tiling;
  int64_t columns = 0, columnSteps = 1;
  int64_t chunk = 0; ///< Chunks: reduced elements per chunk
  bool doubleBuffered = true;
};

SoftmaxTypes softmaxTypes(Operation *op, Type data) {
  Type compute = vectorCompute(op, "exp", data).first;
  return {data, compute, accumulationType(op, "sum", compute)};
}

SoftmaxPlan planSoftmax(ShapedType type, ArrayRef<int64_t> axes, const SoftmaxTypes &t,
                        const LoweringContext &context) {
  SoftmaxPlan plan;
  std::optional<std::array<int64_t, 3>> view = rowView(type, axes);
  if (!view)
    return plan;
  plan.view = *view;
  auto [outer, reduced, inner] = *view;
  // Per element: the input, x - max, its exp and the output; per column:
  // the max and the sum.
  int64_t perElement = 2 * elementBytes(t.data) + 2 * elementBytes(t.compute);
  int64_t perColumn = elementBytes(t.data) + elementBytes(t.acc);
  int64_t cores = context.vectorCores;
  for (int64_t copies : {2, 1}) {
    plan.tiling = chooseRowTiling(outer, reduced * inner * perElement + inner * perColumn,
                                  context.facts, cores, copies);
    if (plan.tiling.tile != 0) {
      plan.columns = inner;
      plan.doubleBuffered = copies == 2;
      return plan;
    }
  }
  auto columnSteps = [&](int64_t columns) {
    plan.columns = std::min(columns, inner);
    plan.columnSteps = ceilDiv(inner, plan.columns);
    plan.tiling.tile = 1;
    plan.tiling.tiles = outer * plan.columnSteps;
    plan.tiling.blockDim = std::min(plan.tiling.tiles, cores);
  };
  for (int64_t copies : {2, 1}) {
    int64_t columns = context.facts.ub / (copies * (reduced * perElement + perColumn));
    if (columns >= 1) {
      plan.cut = SoftmaxCut::Columns;
      plan.doubleBuffered = copies == 2;
      columnSteps(columns);
      return plan;
    }
  }
  // Chunks: the input, x - max and the output per element (whole chunk and
  // tail); the max, the sum and each chunk's part of them per column. The
  // columns leave room for chunks of at least 128 elements.
  int64_t chunkElement = 2 * elementBytes(t.data) + elementBytes(t.compute);
  int64_t columns = std::max<int64_t>(
      1, std::min(inner, context.facts.ub / (4 * 128 * chunkElement + 4 * perColumn)));
  int64_t chunk =
      chunkThatFits(reduced, chunkElement * columns, 2 * perColumn * columns, context.facts.ub);
  if (chunk == 0)
    return plan;
  plan.cut = SoftmaxCut::Chunks;
  plan.chunk = chunk;
  plan.doubleBuffered = false;
  columnSteps(columns);
  return plan;
}

Value vop(OpBuilder &b, Location loc, StringRef kind, ValueRange inputs, Value out, Type compute) {
  vectorOp(b, loc, kind, inputs, out, compute);
  return out;
}

/// The step's first row and column of [outer, reduced, inner].
std::pair<Value, Value> stepOrigin(KernelBuilder &kb, const SoftmaxPlan &plan, Value step) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  if (plan.cut == SoftmaxCut::Slabs)
    return {arith::MulIOp::create(b, loc, step, kb.index(plan.tiling.tile)), kb.index(0)};
  Value steps = kb.index(plan.columnSteps);
  Value row = arith::DivUIOp::create(b, loc, step, steps);
  Value column = arith::MulIOp::create(b, loc, arith::RemUIOp::create(b, loc, step, steps),
                                       kb.index(plan.columns));
  return {row, column};
}

/// Whole slabs or columns: every row's reduced axis in UB at once.
void buildSlabSteps(KernelBuilder &kb, const SoftmaxPlan &plan, const SoftmaxTypes &t, Value x,
                    Value y, bool logSoftmax) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  int64_t rows = plan.tiling.tile, reduced = plan.view[1], columns = plan.columns;
  Value in = kb.alloc({rows, reduced, columns}, t.data, MemorySpace::UB);
  Value work = kb.alloc({rows, reduced, columns}, t.compute, MemorySpace::UB);
  Value exps = kb.alloc({rows, reduced, columns}, t.compute, MemorySpace::UB);
  Value max = kb.alloc({rows, 1, columns}, t.data, MemorySpace::UB);
  Value sum = kb.alloc({rows, 1, columns}, t.acc, MemorySpace::UB);
  Value out = kb.alloc({rows, reduced, columns}, t.data, MemorySpace::UB);
  Value step = kb.openTileLoop(plan.tiling.tiles, plan.tiling.blockDim);
  auto [row, column] = stepOrigin(kb, plan, step);
  SmallVector<Value> at = {row, kb.index(0), column};
  loadTile(b, loc, x, at, in);
  ReduceOp::create(b, loc, "max", in, max, b.getDenseI64ArrayAttr({1}), t.data,
                   ReduceOrder::Tree);
  vop(b, loc, "sub", {in, max}, work, t.compute);
  vop(b, loc, "exp", work, exps, t.compute);
  ReduceOp::create(b, loc, "sum", exps, sum, b.getDenseI64ArrayAttr({1}), t.acc,
                   ReduceOrder::Tree);
  if (logSoftmax) {
    vop(b, loc, "log", sum, sum, t.acc);
    vop(b, loc, "sub", {work, sum}, work, t.compute);
  } else {
    vop(b, loc, "div", {exps, sum}, work, t.compute);
  }
  convertInto(b, loc, work, out);
  storeTile(b, loc, out, y, at);
  kb.closeLoop();
}

/// A reduced axis in chunks: three passes, each chunk loaded again.
void buildChunkedSteps(KernelBuilder &kb, const SoftmaxPlan &plan, const SoftmaxTypes &t,
                       Value x, Value y, bool logSoftmax) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  int64_t reduced = plan.view[1], columns = plan.columns;
  struct ChunkBuffers {
    Value in, work, out;
  };
  std::map<int64_t, ChunkBuffers> buffers;
  auto buffersFor = [&](int64_t size) -> ChunkBuffers & {
    auto [it, added] = buffers.try_emplace(size);
    if (added)
      it->second = {kb.alloc({1, size, columns}, t.data, MemorySpace::UB),
                    kb.alloc({1, size, columns}, t.compute, MemorySpace::UB),
                    kb.alloc({1, size, columns}, t.data, MemorySpace::UB)};
    return it->second;
  };
  Value max = kb.alloc({1, 1, columns}, t.data, MemorySpace::UB);
  Value partMax = kb.alloc({1, 1, columns}, t.data, MemorySpace::UB);
  Value sum = kb.alloc({1, 1, columns}, t.acc, MemorySpace::UB);
  Value partSum = kb.alloc({1, 1, columns}, t.acc, MemorySpace::UB);
  Value step = kb.openTileLoop(plan.tiling.tiles, plan.tiling.blockDim);
  auto [row, column] = stepOrigin(kb, plan, step);
  auto axis = b.getDenseI64ArrayAttr({1});
  forEachChunk(kb, reduced, plan.chunk, [&](Value offset, int64_t size, Value first) {
    ChunkBuffers &chunk = buffersFor(size);
    loadTile(b, loc, x, ValueRange{row, offset, column}, chunk.in);
    ReduceOp::create(b, loc, "max", chunk.in, partMax, axis, t.data, ReduceOrder::Tree);
    accumulateChunk(b, loc, first, "max", partMax, max, t.data);
  });
  forEachChunk(kb, reduced, plan.chunk, [&](Value offset, int64_t size, Value first) {
    ChunkBuffers &chunk = buffersFor(size);
    loadTile(b, loc, x, ValueRange{row, offset, column}, chunk.in);
    vop(b, loc, "sub", {chunk.in, max}, chunk.work, t.compute);
    vop(b, loc, "exp", chunk.work, chunk.work, t.compute);
    ReduceOp::create(b, loc, "sum", chunk.work, partSum, axis, t.acc, ReduceOrder::Tree);
    accumulateChunk(b, loc, first, "add", partSum, sum, t.acc);
  });
  if (logSoftmax)
    vop(b, loc, "log", sum, sum, t.acc);
  forEachChunk(kb, reduced, plan.chunk, [&](Value offset, int64_t size, Value) {
    ChunkBuffers &chunk = buffersFor(size);
    SmallVector<Value> at = {row, offset, column};
    loadTile(b, loc, x, at, chunk.in);
    vop(b, loc, "sub", {chunk.in, max}, chunk.work, t.compute);
    if (logSoftmax) {
      vop(b, loc, "sub", {chunk.work, sum}, chunk.work, t.compute);
    } else {
      vop(b, loc, "exp", chunk.work, chunk.work, t.compute);
      vop(b, loc, "div", {chunk.work, sum}, chunk.work, t.compute);
    }
    convertInto(b, loc, chunk.work, chunk.out);
    storeTile(b, loc, chunk.out, y, at);
  });
  kb.closeLoop();
}

struct SoftmaxLowering : OpInterfaceRewritePattern<ascend::AscendOpInterface> {
  SoftmaxLowering(MLIRContext *ctx, LoweringContext &context)
      : OpInterfaceRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendOpInterface op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op->getOperands());
    bool logSoftmax = isa<ascend::LogSoftmaxV2Op>(op.getOperation());
    if (!logSoftmax && !isa<ascend::SoftmaxV2Op>(op.getOperation()))
      return failure();
    auto type = cast<ShapedType>(operands[0].getType());
    SoftmaxTypes t = softmaxTypes(op, type.getElementType());
    SoftmaxPlan plan = planSoftmax(
        type, op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef(), t, context);
    if (launchCachedKernel(rewriter, context, op, operands))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{type},
                     op->getResultTypes(), nodesOf(op));
    auto [outer, reduced, inner] = plan.view;
    Value x = kb.reshapeGM(kb.arg(0), {outer, reduced, inner});
    Value y = kb.reshapeGM(kb.output(), {outer, reduced, inner});
    switch (plan.cut) {
    case SoftmaxCut::Slabs:
      kb.setStepTiling("rows", plan.tiling, plan.doubleBuffered);
      break;
    case SoftmaxCut::Columns:
      if (plan.doubleBuffered)
        kb.setDoubleBuffer();
      kb.setTiling({{"rows", 1}, {"columns", plan.columns}, {"tiles", plan.tiling.tiles}});
      break;
    case SoftmaxCut::Chunks:
      kb.setTiling({{"rows", 1}, {"columns", plan.columns}, {"chunk", plan.chunk},
                    {"tiles", plan.tiling.tiles}});
      break;
    }
    if (plan.cut == SoftmaxCut::Chunks)
      buildChunkedSteps(kb, plan, t, x, y, logSoftmax);
    else
      buildSlabSteps(kb, plan, t, x, y, logSoftmax);
    kb.replaceWithLaunch(rewriter, op, operands);
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string> ascendprec::kernel::whySoftmaxNotLowerable(Operation *op,
                                                                     const LoweringContext &context) {
  if (!isa<ascend::SoftmaxV2Op, ascend::LogSoftmaxV2Op>(op))
    return std::nullopt;
  auto type = cast<ShapedType>(op->getOperand(0).getType());
  auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
  if (!rowView(type, axes))
    return std::string("normalizes over axes that are not contiguous");
  // The widest dtypes the op may compute in.
  Type f32 = Float32Type::get(op->getContext());
  if (planSoftmax(type, axes, {type.getElementType(), f32, f32}, context).tiling.tile == 0)
    return std::string("normalizes rows too long for UB even in chunks");
  return std::nullopt;
}

void ascendprec::kernel::populateSoftmaxLoweringPatterns(RewritePatternSet &patterns,
                                                         LoweringContext &context) {
  patterns.add<SoftmaxLowering>(patterns.getContext(), context);
}
