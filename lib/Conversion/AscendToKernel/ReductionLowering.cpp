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
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

std::optional<std::array<int64_t, 3>> ascendprec::kernel::rowView(ShapedType type,
                                                                 ArrayRef<int64_t> axes) {
  int64_t rank = type.getRank();
  SmallVector<int64_t> sorted;
  for (int64_t axis : axes)
    sorted.push_back(axis < 0 ? axis + rank : axis);
  llvm::sort(sorted);
  if (sorted.empty())
    for (int64_t axis = 0; axis < rank; ++axis)
      sorted.push_back(axis);
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] != sorted[i - 1] + 1)
      return std::nullopt;
  std::array<int64_t, 3> view = {1, 1, 1};
  for (int64_t axis = 0; axis < rank; ++axis) {
    int64_t slot = axis < sorted.front() ? 0 : axis <= sorted.back() ? 1 : 2;
    view[slot] *= type.getDimSize(axis);
  }
  return view;
}

// 16-bit sums, means and products accumulate in fp32 unless the impl mode
// asks for the fast form (super_performance, keep_fp16); max and min are
// exact in the data's dtype.
Type ascendprec::kernel::accumulationType(Operation *op, StringRef kind, Type data) {
  if (kind == "max" || kind == "min" || !(data.isF16() || data.isBF16()))
    return data;
  std::optional<ascend::ImplMode> mode;
  if (auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op))
    mode = ascendOp.getImplModeValue();
  if (mode == ascend::ImplMode::SuperPerformance || mode == ascend::ImplMode::KeepFp16)
    return data;
  return Float32Type::get(op->getContext());
}

namespace {

/// UB bytes of one row of [reduced, inner] elements of `bytes` each, with
/// an accumulator row.
int64_t rowBytes(std::array<int64_t, 3> view, int64_t bytes, int64_t accBytes) {
  return view[1] * view[2] * (bytes + accBytes) + view[2] * accBytes;
}

void scale(OpBuilder &b, Location loc, Value buffer, double factor, Type compute) {
  auto vop = vectorOp(b, loc, "muls", ValueRange{buffer}, buffer, compute);
  vop.setParams(ArrayRef<double>{factor});
}


/// Whole rows in UB: one tree reduction per tile of rows.
void buildRowsInUB(KernelBuilder &kb, Value x, Value y, std::array<int64_t, 3> view,
                   VectorTiling rows, StringRef kind, Type acc) {
  OpBuilder &b = kb.builder();
  Type data = getElementTypeOrSelf(x.getType());
  kb.setStepTiling("rows", rows);
  Value in = kb.alloc({rows.tile, view[1], view[2]}, data, MemorySpace::UB);
  Value out = kb.alloc({rows.tile, 1, view[2]}, data, MemorySpace::UB);
  Value tile = kb.openTileLoop(rows.tiles, rows.blockDim);
  Value row = arith::MulIOp::create(b, kb.loc(), tile, kb.index(rows.tile));
  loadTile(b, kb.loc(), x, ValueRange{row, kb.index(0), kb.index(0)}, in);
  ReduceOp::create(b, kb.loc(), kind, in, out, b.getDenseI64ArrayAttr({1}), acc,
                   ReduceOrder::Tree);
  storeTile(b, kb.loc(), out, y, ValueRange{row, kb.index(0), kb.index(0)});
  kb.closeLoop();
}

/// Rows too long for UB, reduced in chunks: atomically across cores, or
/// sequentially on one core per row (deterministic=1, or max/min/prod).
void buildChunked(KernelBuilder &kb, const LoweringContext &context, Value x, Value y,
                  std::array<int64_t, 3> view, StringRef kind, Type acc,
                  int64_t bytesPerElement) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  Type data = getElementTypeOrSelf(x.getType());
  int64_t chunk = std::max<int64_t>(
      context.facts.ub / (2 * bytesPerElement * std::max<int64_t>(view[2], 1)), 1);
  chunk = std::min(chunk, view[1]);
  int64_t chunks = ceilDiv(view[1], chunk);
  bool atomic = !context.deterministic && (kind == "sum" || kind == "mean") &&
                data == acc;
  Value in = kb.alloc({1, chunk, view[2]}, data, MemorySpace::UB);
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
    ReduceOp::create(b, loc, partKind, in, part, b.getDenseI64ArrayAttr({1}), acc,
                     ReduceOrder::Atomic);
    if (kind == "mean")
      scale(b, loc, part, 1.0 / static_cast<double>(view[1]), acc);
    auto store = storeTile(b, loc, part, y, ValueRange{row, kb.index(0), kb.index(0)});
    store.setAtomic(true);
    kb.closeLoop();
    return;
  }
  // One core per row adds its chunks in order.
  kb.setTiling({{"chunk", chunk}, {"chunks", chunks}, {"tiles", view[0]}});
  Value total = kb.alloc({1, 1, view[2]}, acc, MemorySpace::UB);
  Value out = kb.alloc({1, 1, view[2]}, data, MemorySpace::UB);
  Value row = kb.openTileLoop(view[0], std::min(view[0], context.vectorCores));
  Value c = kb.openLoop(view[1], chunk);
  loadTile(b, loc, x, ValueRange{row, c, kb.index(0)}, in);
  ReduceOp::create(b, loc, partKind, in, part, b.getDenseI64ArrayAttr({1}), acc,
                   ReduceOrder::Sequential);
  StringRef combine = partKind == "sum" ? "add" : partKind == "prod" ? "mul" : partKind;
  // The first chunk starts the total; the others combine into it.
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c, kb.index(0));
  auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    vectorOp(b, loc, "copy", ValueRange{part}, total, acc);
    b.setInsertionPointToStart(ifOp.elseBlock());
    vectorOp(b, loc, combine, ValueRange{total, part}, total, acc);
  }
  kb.closeLoop();
  if (kind == "mean")
    scale(b, loc, total, 1.0 / static_cast<double>(view[1]), acc);
  if (acc != data)
    kernel::CastOp::create(b, loc, total, out, RoundingMode::Rint);
  else
    vectorOp(b, loc, "copy", ValueRange{total}, out, acc);
  storeTile(b, loc, out, y, ValueRange{row, kb.index(0), kb.index(0)});
  kb.closeLoop();
}

} // namespace

void ascendprec::kernel::buildRowReduction(KernelBuilder &kb, const LoweringContext &context,
                                           Value x, Value y, std::array<int64_t, 3> view,
                                           StringRef kind, Type acc) {
  Type data = getElementTypeOrSelf(x.getType());
  int64_t bytes = elementBytes(data), accBytes = elementBytes(acc);
  kb.setDoubleBuffer();
  VectorTiling rows = chooseRowTiling(view[0], rowBytes(view, bytes, accBytes), context.facts,
                                      context.vectorCores);
  if (rows.tile > 0)
    buildRowsInUB(kb, x, y, view, rows, kind, acc);
  else
    buildChunked(kb, context, x, y, view, kind, acc, bytes + accBytes);
}

namespace {

struct ReduceLowering : OpInterfaceConversionPattern<ascend::AscendOpInterface> {
  ReduceLowering(MLIRContext *ctx, LoweringContext &context)
      : OpInterfaceConversionPattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendOpInterface op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<StringRef> kind = reductionKindOf(op.getOpType());
    auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
    if (!kind || !axes || operands.size() != 1)
      return failure();
    auto inType = cast<ShapedType>(operands[0].getType());
    auto outType = cast<ShapedType>(op->getResult(0).getType());
    std::array<int64_t, 3> view = *rowView(inType, axes.asArrayRef());
    Type acc = accumulationType(op, *kind, inType.getElementType());
    if (launchCachedKernel(rewriter, context, op, operands))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{inType},
                     TypeRange{outType}, nodesOf(op));
    Value x = kb.reshapeGM(kb.arg(0), {view[0], view[1], view[2]});
    Value y = kb.reshapeGM(kb.output(), {view[0], 1, view[2]});
    buildRowReduction(kb, context, x, y, view, *kind, acc);
    kb.replaceWithLaunch(rewriter, op, operands);
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string>
ascendprec::kernel::whyReductionNotLowerable(Operation *op, const LoweringContext &context) {
  auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op);
  if (!ascendOp || !reductionKindOf(ascendOp.getOpType()))
    return std::nullopt;
  auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
  if (!axes || !rowView(cast<ShapedType>(op->getOperand(0).getType()), axes.asArrayRef()))
    return std::string("reduces axes that are not contiguous (transpose them together first)");
  return std::nullopt;
}

void ascendprec::kernel::populateReductionLoweringPatterns(RewritePatternSet &patterns,
                                                           LoweringContext &context) {
  patterns.add<ReduceLowering>(patterns.getContext(), context);
  populateNormalizationLoweringPatterns(patterns, context);
  populatePoolingLoweringPatterns(patterns, context);
}
