//===- ReductionLowering.cpp - reductions, Softmax and LayerNorm ----------===//
//
// Row-wise kernels: the input seen as [outer, reduced, inner] (the reduced
// axes are contiguous), rows of it shared by the vector cores. A row that
// does not fit UB is reduced in chunks: ReduceSum/ReduceMean split the
// chunks over the cores and add the partial sums into GM atomically (the
// order then depends on which core finishes first), unless
// `deterministic=1` (OP-3) asks for a fixed order, when one core per row
// adds its chunks sequentially. 16-bit sums accumulate in fp32.
//
// ReduceL1/SumSquare/L2/LogSum are modelled as a sum with vector steps
// around it: |x| or x*x on the loaded row in the vector compute dtype (bf16
// computes in fp32), the sum in the accumulation dtype, then sqrt or log of
// the sum in that dtype, one rounding to the output.
// ReduceLogSumExp is the stable form, max + log(sum(exp(x - max))): max
// exact in the data's dtype, sub and exp in the compute dtype of exp
// (fp32 for fp16 under high_precision, IM-7), the rest like LogSum.
// ArgMaxV2/ArgMin are a `vreduce "argmax"/"argmin"` comparing exactly in
// the data's dtype and writing the index dtype: first index on ties, the
// first NaN wins (NumPy); select_last_index is the importer's reversal.
// LogSumExp needs whole rows in UB; the arg kernels take rows too long for
// UB in chunks (ArgChunks.cpp).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// Per axis, whether it is reduced (every axis when `axes` is empty).
SmallVector<bool> reducedMask(int64_t rank, ArrayRef<int64_t> axes) {
  SmallVector<bool> reduced(rank, axes.empty());
  for (int64_t axis : axes)
    reduced[axis < 0 ? axis + rank : axis] = true;
  return reduced;
}

/// The runs of reduced axes that are adjacent in memory: axes of size 1
/// (which hold one element) neither break a run nor form one.
SmallVector<SmallVector<int64_t>> reducedRuns(ShapedType type, ArrayRef<int64_t> axes) {
  SmallVector<bool> reduced = reducedMask(type.getRank(), axes);
  SmallVector<SmallVector<int64_t>> runs;
  bool open = false;
  for (int64_t axis = 0; axis < type.getRank(); ++axis) {
    if (type.getDimSize(axis) == 1)
      continue;
    if (!reduced[axis]) {
      open = false;
      continue;
    }
    if (!open)
      runs.emplace_back();
    runs.back().push_back(axis);
    open = true;
  }
  return runs;
}

} // namespace

std::optional<std::array<int64_t, 3>> ascendprec::kernel::rowView(ShapedType type,
                                                                 ArrayRef<int64_t> axes) {
  SmallVector<SmallVector<int64_t>> runs = reducedRuns(type, axes);
  if (runs.size() > 1)
    return std::nullopt;
  std::array<int64_t, 3> view = {1, 1, 1};
  for (int64_t axis = 0; axis < type.getRank(); ++axis) {
    int64_t slot = runs.empty() || axis < runs[0].front() ? 0 : axis <= runs[0].back() ? 1 : 2;
    view[slot] *= type.getDimSize(axis);
  }
  return view;
}

void ascendprec::kernel::splitNonContiguousReductions(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<ascend::ReduceSumOp, ascend::ReduceMeanOp, ascend::ReduceMaxOp, ascend::ReduceMinOp,
            ascend::ReduceProdOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    auto inType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
    if (!inType || !outType || !inType.hasStaticShape() || !axes)
      continue;
    SmallVector<SmallVector<int64_t>> runs = reducedRuns(inType, axes.asArrayRef());
    if (runs.size() < 2)
      continue;
    // The last runs first, each into a keep_dims intermediate; the op then
    // reduces what is left (its later axes are 1 by then). A mean of means
    // over equal groups is the mean.
    OpBuilder builder(op);
    Value input = op->getOperand(0);
    for (const SmallVector<int64_t> &run : llvm::reverse(ArrayRef(runs).drop_front())) {
      SmallVector<int64_t> shape(cast<ShapedType>(input.getType()).getShape());
      for (int64_t axis : run)
        shape[axis] = 1;
      Operation *part = builder.clone(*op);
      part->setOperand(0, input);
      part->setAttr("axes", builder.getDenseI64ArrayAttr(run));
      part->setAttr("keep_dims", builder.getBoolAttr(true));
      part->getResult(0).setType(RankedTensorType::get(shape, outType.getElementType()));
      input = part->getResult(0);
    }
    op->setOperand(0, input);
  }
}

// 16-bit sums, means and products accumulate in fp32 unless the impl mode
// asks for the fast form (super_performance, keep_fp16); max and min are
// exact in the data's dtype.
Type ascendprec::kernel::accumulationType(Operation *op, StringRef kind, Type data) {
  if (kind == "max" || kind == "min" || kind == "argmax" || kind == "argmin" ||
      !(data.isF16() || data.isBF16()))
    return data;
  std::optional<ascend::ImplMode> mode;
  if (auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op))
    mode = ascendOp.getImplModeValue();
  if (mode == ascend::ImplMode::SuperPerformance || mode == ascend::ImplMode::KeepFp16)
    return data;
  return Float32Type::get(op->getContext());
}

namespace {

/// UB bytes of one row of [reduced, inner]: the loaded row (`bytes`), a
/// working copy (`workBytes`, 0 without a step before the reduction) and
/// accumulators per element, and the reduced row (`outBytes`) with its
/// accumulator.
int64_t rowBytes(std::array<int64_t, 3> view, int64_t bytes, int64_t workBytes, int64_t accBytes,
                 int64_t outBytes) {
  return view[1] * view[2] * (bytes + workBytes + accBytes) + view[2] * (accBytes + outBytes);
}

void scale(OpBuilder &b, Location loc, Value buffer, double factor, Type compute) {
  auto vop = vectorOp(b, loc, "muls", ValueRange{buffer}, buffer, compute);
  vop.setParams(ArrayRef<double>{factor});
}

/// The vector steps of a row kernel around its `vreduce`: `before` on the
/// loaded row in `compute` ("abs", "square" or none), `after` on the
/// reduced row in the accumulation dtype ("sqrt", "log" or none).
struct RowSteps {
  StringRef reduce;
  StringRef before;
  StringRef after;
  Type compute;
};

/// The steps of a row kind (reductionKindOf) on `data`; log_sum_exp has
/// its own kernel.
RowSteps rowStepsOf(Operation *op, StringRef kind, Type data) {
  RowSteps steps{kind, {}, {}, data};
  if (kind == "l1")
    steps = {"sum", "abs", {}, vectorCompute(op, "abs", data).first};
  else if (kind == "sum_square")
    steps = {"sum", "square", {}, vectorCompute(op, "mul", data).first};
  else if (kind == "l2")
    steps = {"sum", "square", "sqrt", vectorCompute(op, "mul", data).first};
  else if (kind == "log_sum")
    steps = {"sum", {}, "log", data};
  return steps;
}

/// `before` from the loaded `in` into `work`.
void buildBefore(OpBuilder &b, Location loc, const RowSteps &steps, Value in, Value work) {
  if (steps.before == "square")
    vectorOp(b, loc, "mul", ValueRange{in, in}, work, steps.compute);
  else
    vectorOp(b, loc, steps.before, ValueRange{in}, work, steps.compute);
}

/// Whole rows in UB: one tree reduction per tile of rows. With `columns`
/// below the inner size, one row per step and `columns` of its inner axis
/// (a reduction over NCHW's C of a large map): each column reduces alone,
/// so the bits are those of whole rows.
void buildRowsInUB(KernelBuilder &kb, Value x, Value y, std::array<int64_t, 3> view,
                   VectorTiling rows, int64_t columns, const RowSteps &steps, Type acc) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  Type data = getElementTypeOrSelf(x.getType());
  int64_t columnSteps = ceilDiv(view[2], columns);
  if (columnSteps == 1) {
    kb.setStepTiling("rows", rows);
  } else {
    kb.setDoubleBuffer();
    kb.setTiling({{"rows", 1}, {"columns", columns}, {"tiles", rows.tiles}});
  }
  Value in = kb.alloc({rows.tile, view[1], columns}, data, MemorySpace::UB);
  Value work = steps.before.empty()
                   ? in
                   : kb.alloc({rows.tile, view[1], columns}, steps.compute, MemorySpace::UB);
  // The reduced row in the output's dtype (the index dtype of argmax/argmin);
  // a step after the reduction works on it in place when it is `acc`.
  Type outType = getElementTypeOrSelf(y.getType());
  Value out = kb.alloc({rows.tile, 1, columns}, outType, MemorySpace::UB);
  Value total = steps.after.empty() ? Value()
                : outType == acc    ? out
                                    : kb.alloc({rows.tile, 1, columns}, acc, MemorySpace::UB);
  Value tile = kb.openTileLoop(rows.tiles, rows.blockDim);
  Value row = arith::MulIOp::create(b, loc, tile, kb.index(rows.tile));
  Value column = kb.index(0);
  if (columnSteps > 1) {
    row = arith::DivUIOp::create(b, loc, tile, kb.index(columnSteps));
    column = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, tile, kb.index(columnSteps)), kb.index(columns));
  }
  loadTile(b, loc, x, ValueRange{row, kb.index(0), column}, in);
  if (!steps.before.empty())
    buildBefore(b, loc, steps, in, work);
  ReduceOp::create(b, loc, steps.reduce, work, total ? total : out, b.getDenseI64ArrayAttr({1}),
                   acc, ReduceOrder::Tree);
  if (total)
    vectorOp(b, loc, steps.after, ValueRange{total}, total, acc);
  if (total && total != out)
    kernel::CastOp::create(b, loc, total, out, RoundingMode::Rint);
  storeTile(b, loc, out, y, ValueRange{row, kb.index(0), column});
  kb.closeLoop();
}

/// Rows too long for UB, reduced in chunks: atomically across cores, or
/// sequentially on one core per row (deterministic=1, max/min/prod, or a
/// step after the sum, which needs the whole sum).
void buildChunked(KernelBuilder &kb, const LoweringContext &context, Value x, Value y,
                  std::array<int64_t, 3> view, const RowSteps &steps, Type acc,
                  int64_t bytesPerElement) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  Type data = getElementTypeOrSelf(x.getType());
  StringRef kind = steps.reduce;
  int64_t bytesPerChunkElement = bytesPerElement * std::max<int64_t>(view[2], 1);
  bool atomic = !context.deterministic && (kind == "sum" || kind == "mean") &&
                data == acc && steps.after.empty();
  // Atomic chunks may run past the row's end (zeros add nothing); the
  // sequential walk gives its tail buffers of their own.
  int64_t chunk = atomic ? std::max<int64_t>(context.facts.ub / (2 * bytesPerChunkElement), 1)
                         : std::max<int64_t>(
                               chunkThatFits(view[1], bytesPerChunkElement, 0,
                                             context.facts.ub / 2), 1);
  chunk = std::min(chunk, view[1]);
  int64_t chunks = ceilDiv(view[1], chunk);
  Value in = kb.alloc({1, chunk, view[2]}, data, MemorySpace::UB);
  Value work = steps.before.empty()
                   ? in
                   : kb.alloc({1, chunk, view[2]}, steps.compute, MemorySpace::UB);
  Value part = kb.alloc({1, 1, view[2]}, acc, MemorySpace::UB);
  StringRef partKind = kind == "mean" ? StringRef("sum") : kind;
  if (atomic) {
    // Every (row, chunk) is a tile; partial sums meet in GM.
    int64_t tiles = view[0] * chunks;
    kb.setTiling({{"chunk", chunk}, {"chunks", chunks}, {"tiles", tiles}});
    Value tile = kb.openTileLoop(tiles, std::min(tiles, context.vectorCores));
    Value row = arith::DivUIOp::create(b, loc, tile, kb.index(chunks));
    Value c = arith::RemUIOp::create(b, loc, tile, kb.index(chunks));
    Value start = arith::MulIOp::create(b, loc, c, kb.index(chunk));
    loadTile(b, loc, x, ValueRange{row, start, kb.index(0)}, in);
    if (!steps.before.empty())
      buildBefore(b, loc, steps, in, work);
    ReduceOp::create(b, loc, partKind, work, part, b.getDenseI64ArrayAttr({1}), acc,
                     ReduceOrder::Atomic);
    if (kind == "mean")
      scale(b, loc, part, 1.0 / static_cast<double>(view[1]), acc);
    auto store = storeTile(b, loc, part, y, ValueRange{row, kb.index(0), kb.index(0)});
    store.setAtomic(true);
    kb.closeLoop();
    return;
  }
  // One core per row adds its chunks in order; the last chunk stops at the
  // row's end (forEachChunk), so no zero enters a max, min or product.
  kb.setTiling({{"chunk", chunk}, {"chunks", chunks}, {"tiles", view[0]}});
  Value total = kb.alloc({1, 1, view[2]}, acc, MemorySpace::UB);
  Value out = kb.alloc({1, 1, view[2]}, data, MemorySpace::UB);
  Value row = kb.openTileLoop(view[0], std::min(view[0], context.vectorCores));
  StringRef combine = partKind == "sum" ? "add" : partKind == "prod" ? "mul" : partKind;
  forEachChunk(kb, view[1], chunk, [&](Value offset, int64_t size, Value first) {
    Value chunkIn = size == chunk ? in : kb.alloc({1, size, view[2]}, data, MemorySpace::UB);
    Value chunkWork =
        steps.before.empty()
            ? chunkIn
            : (size == chunk ? work
                             : kb.alloc({1, size, view[2]}, steps.compute, MemorySpace::UB));
    loadTile(b, loc, x, ValueRange{row, offset, kb.index(0)}, chunkIn);
    if (!steps.before.empty())
      buildBefore(b, loc, steps, chunkIn, chunkWork);
    ReduceOp::create(b, loc, partKind, chunkWork, part, b.getDenseI64ArrayAttr({1}), acc,
                     ReduceOrder::Sequential);
    accumulateChunk(b, loc, first, combine, part, total, acc);
  });
  if (kind == "mean")
    scale(b, loc, total, 1.0 / static_cast<double>(view[1]), acc);
  if (!steps.after.empty())
    vectorOp(b, loc, steps.after, ValueRange{total}, total, acc);
  convertInto(b, loc, total, out);
  storeTile(b, loc, out, y, ValueRange{row, kb.index(0), kb.index(0)});
  kb.closeLoop();
}

/// The rows of `view` per step when whole rows of the `steps` kernel fit
/// UB (tile 0 when they do not).
VectorTiling rowsInUB(std::array<int64_t, 3> view, const RowSteps &steps, Type data, Type acc,
                      Type out, const LoweringContext &context) {
  int64_t workBytes = steps.before.empty() ? 0 : elementBytes(steps.compute);
  return chooseRowTiling(view[0],
                         rowBytes(view, elementBytes(data), workBytes, elementBytes(acc),
                                  elementBytes(out)),
                         context.facts, context.vectorCores);
}

/// When whole rows do not fit: the columns of one row's inner axis per step
/// that fit UB double-buffered (0 when not even one column does, or the
/// inner axis is a single column).
int64_t columnsInUB(std::array<int64_t, 3> view, const RowSteps &steps, Type data, Type acc,
                    Type out, const LoweringContext &context) {
  if (view[2] < 2)
    return 0;
  int64_t workBytes = steps.before.empty() ? 0 : elementBytes(steps.compute);
  int64_t perColumn = rowBytes({1, view[1], 1}, elementBytes(data), workBytes, elementBytes(acc),
                               elementBytes(out));
  return std::min(view[2], context.facts.ub / (2 * perColumn));
}

bool isArgKind(StringRef kind) { return kind == "argmax" || kind == "argmin"; }

void buildSteppedReduction(KernelBuilder &kb, const LoweringContext &context, Value x, Value y,
                           std::array<int64_t, 3> view, const RowSteps &steps, Type acc) {
  Type data = getElementTypeOrSelf(x.getType());
  kb.setDoubleBuffer();
  Type out = getElementTypeOrSelf(y.getType());
  VectorTiling rows = rowsInUB(view, steps, data, acc, out, context);
  int64_t workBytes = steps.before.empty() ? 0 : elementBytes(steps.compute);
  int64_t columns = rows.tile > 0 ? 0 : columnsInUB(view, steps, data, acc, out, context);
  if (rows.tile > 0) {
    buildRowsInUB(kb, x, y, view, rows, view[2], steps, acc);
  } else if (columns > 0) {
    VectorTiling oneRow;
    oneRow.tile = 1;
    oneRow.tiles = view[0] * ceilDiv(view[2], columns);
    oneRow.blockDim = std::min(oneRow.tiles, context.vectorCores);
    buildRowsInUB(kb, x, y, view, oneRow, columns, steps, acc);
  } else if (isArgKind(steps.reduce)) {
    buildChunkedArgReduction(kb, context, x, y, view, steps.reduce);
  } else {
    buildChunked(kb, context, x, y, view, steps, acc,
                 elementBytes(data) + workBytes + elementBytes(acc));
  }
}

/// The dtypes of ReduceLogSumExp's steps: sub and exp in the compute dtype
/// of exp, the sum (and log, add) in its accumulation dtype, as Softmax.
std::pair<Type, Type> logSumExpTypes(Operation *op, Type data) {
  Type compute = vectorCompute(op, "exp", data).first;
  return {compute, accumulationType(op, "sum", compute)};
}

/// UB bytes of a ReduceLogSumExp row: the row and its exp, the maximum,
/// sum and output per column.
int64_t logSumExpRowBytes(std::array<int64_t, 3> view, Type data, Type compute, Type acc) {
  return view[1] * view[2] * (elementBytes(data) + elementBytes(compute)) +
         view[2] * (2 * elementBytes(data) + elementBytes(acc));
}

/// ReduceLogSumExp with whole rows in UB: max (exact, data dtype), x - max
/// and exp in `compute`, sum, log and + max in `acc`, one rounding out.
void buildLogSumExp(KernelBuilder &kb, Value x, Value y, std::array<int64_t, 3> view,
                    VectorTiling rows, Type compute, Type acc) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  Type data = getElementTypeOrSelf(x.getType());
  kb.setStepTiling("rows", rows);
  Value in = kb.alloc({rows.tile, view[1], view[2]}, data, MemorySpace::UB);
  Value work = kb.alloc({rows.tile, view[1], view[2]}, compute, MemorySpace::UB);
  Value max = kb.alloc({rows.tile, 1, view[2]}, data, MemorySpace::UB);
  Value out = kb.alloc({rows.tile, 1, view[2]}, data, MemorySpace::UB);
  Value sum = acc == data ? out : kb.alloc({rows.tile, 1, view[2]}, acc, MemorySpace::UB);
  Value tile = kb.openTileLoop(rows.tiles, rows.blockDim);
  Value row = arith::MulIOp::create(b, loc, tile, kb.index(rows.tile));
  SmallVector<Value> at = {row, kb.index(0), kb.index(0)};
  loadTile(b, loc, x, at, in);
  ReduceOp::create(b, loc, "max", in, max, b.getDenseI64ArrayAttr({1}), data, ReduceOrder::Tree);
  vectorOp(b, loc, "sub", ValueRange{in, max}, work, compute);
  vectorOp(b, loc, "exp", ValueRange{work}, work, compute);
  ReduceOp::create(b, loc, "sum", work, sum, b.getDenseI64ArrayAttr({1}), acc, ReduceOrder::Tree);
  vectorOp(b, loc, "log", ValueRange{sum}, sum, acc);
  vectorOp(b, loc, "add", ValueRange{sum, max}, sum, acc);
  if (sum != out)
    kernel::CastOp::create(b, loc, sum, out, RoundingMode::Rint);
  storeTile(b, loc, out, y, at);
  kb.closeLoop();
}

/// The reduced axes of a Reduce* op (`axes`) or an Arg* op (`axis`).
std::optional<SmallVector<int64_t>> reducedAxes(Operation *op) {
  if (auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes"))
    return SmallVector<int64_t>(axes.asArrayRef());
  if (auto axis = op->getAttrOfType<IntegerAttr>("axis"))
    return SmallVector<int64_t>{axis.getInt()};
  return std::nullopt;
}

} // namespace

void ascendprec::kernel::buildRowReduction(KernelBuilder &kb, const LoweringContext &context,
                                           Value x, Value y, std::array<int64_t, 3> view,
                                           StringRef kind, Type acc) {
  RowSteps steps{kind, {}, {}, getElementTypeOrSelf(x.getType())};
  buildSteppedReduction(kb, context, x, y, view, steps, acc);
}

namespace {

struct ReduceLowering : OpInterfaceRewritePattern<ascend::AscendOpInterface> {
  ReduceLowering(MLIRContext *ctx, LoweringContext &context)
      : OpInterfaceRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendOpInterface op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op->getOperands());
    std::optional<StringRef> kind = reductionKindOf(op.getOpType());
    std::optional<SmallVector<int64_t>> axes = reducedAxes(op);
    if (!kind || !axes || operands.size() != 1)
      return failure();
    auto inType = cast<ShapedType>(operands[0].getType());
    auto outType = cast<ShapedType>(op->getResult(0).getType());
    Type data = inType.getElementType();
    std::array<int64_t, 3> view = *rowView(inType, *axes);
    if (launchCachedKernel(rewriter, context, op, operands))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{inType},
                     TypeRange{outType}, nodesOf(op));
    Value x = kb.reshapeGM(kb.arg(0), {view[0], view[1], view[2]});
    Value y = kb.reshapeGM(kb.output(), {view[0], 1, view[2]});
    if (*kind == "log_sum_exp") {
      auto [compute, acc] = logSumExpTypes(op, data);
      kb.setDoubleBuffer();
      VectorTiling rows = chooseRowTiling(view[0], logSumExpRowBytes(view, data, compute, acc),
                                          context.facts, context.vectorCores);
      buildLogSumExp(kb, x, y, view, rows, compute, acc);
    } else {
      RowSteps steps = rowStepsOf(op, *kind, data);
      buildSteppedReduction(kb, context, x, y, view, steps,
                            accumulationType(op, steps.reduce, steps.compute));
    }
    kb.replaceWithLaunch(rewriter, op, operands);
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string>
ascendprec::kernel::whyReductionNotLowerable(Operation *op, const LoweringContext &context) {
  auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op);
  std::optional<StringRef> kind =
      ascendOp ? reductionKindOf(ascendOp.getOpType()) : std::nullopt;
  if (!kind)
    return std::nullopt;
  auto inType = cast<ShapedType>(op->getOperand(0).getType());
  std::optional<SmallVector<int64_t>> axes = reducedAxes(op);
  std::optional<std::array<int64_t, 3>> view =
      axes ? rowView(inType, *axes) : std::nullopt;
  if (!view)
    return std::string("reduces axes that are not contiguous (a ") +
           std::string(*kind) + " over them is not split into runs; transpose them together "
           "first)";
  Type data = inType.getElementType();
  // sqrt and log have no integer vector form.
  if ((*kind == "l2" || *kind == "log_sum" || *kind == "log_sum_exp") && !isa<FloatType>(data))
    return std::string("takes a sqrt or log of integer data (no vector kernel)");
  Type out = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  if (*kind == "log_sum_exp") {
    auto [compute, acc] = logSumExpTypes(op, data);
    if (chooseRowTiling((*view)[0], logSumExpRowBytes(*view, data, compute, acc), context.facts,
                        context.vectorCores)
            .tile == 0)
      return std::string("reduces rows too long for UB (its max and sum need the whole row)");
  } else if (isArgKind(*kind)) {
    // Chunks would have to carry each partial extreme's value and offset.
    RowSteps steps = rowStepsOf(op, *kind, data);
    if (rowsInUB(*view, steps, data, data, out, context).tile == 0 &&
        columnsInUB(*view, steps, data, data, out, context) == 0 &&
        !canChunkArgReduction(*view, data, out, context))
      return std::string("reduces rows too long for UB even in 64 chunks");
  }
  return std::nullopt;
}

void ascendprec::kernel::populateReductionLoweringPatterns(RewritePatternSet &patterns,
                                                           LoweringContext &context) {
  patterns.add<ReduceLowering>(patterns.getContext(), context);
  populateNormalizationLoweringPatterns(patterns, context);
  populatePoolingLoweringPatterns(patterns, context);
}
