//===- VectorLowering.cpp - elementwise ops and casts onto the vector unit -===//
//
// One vector kernel per elementwise op: the output split into UB tiles
// over the vector cores, each input loaded (broadcast where its shape is
// smaller), one `akernel.vop` computing in the dtype the impl mode decides
// (IM-7), the tile stored back. Casts become `akernel.vcast` with their
// rounding.
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

/// The dtype a vector op computes in, and whether it adds a Newton step
/// (IM-7): high_precision computes fp16/bf16 data of a costly function in
/// fp32 (reciprocal, rsqrt and div refine with a Newton step instead);
/// high_performance (CANN's default, IM-1), super_performance and keep_fp16
/// compute in the data's dtype. bf16 data always computes in fp32 (the
/// vector unit converts bf16 on the way in).
} // namespace

std::pair<Type, bool> ascendprec::kernel::vectorCompute(Operation *op, StringRef kind,
                                                        Type dataType) {
  MLIRContext *context = op->getContext();
  Type f32 = Float32Type::get(context);
  if (dataType.isBF16())
    return {f32, false};
  if (!dataType.isF16())
    return {dataType, false};
  // TBE's hard_swish casts an fp16 input to fp32, computes and casts back
  // (impl/hard_swish.py, hard_swish_compute), in every impl mode.
  if (kind == "hard_swish")
    return {f32, false};
  std::optional<ascend::ImplMode> mode;
  if (auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op))
    mode = ascendOp.getImplModeValue();
  if (mode != ascend::ImplMode::HighPrecision || !isCostlyVectorKind(kind))
    return {dataType, false};
  if (kind == "reciprocal" || kind == "rsqrt" || kind == "div")
    return {dataType, true};
  return {f32, false};
}

VectorOp ascendprec::kernel::emitElementwise(OpBuilder &b, Location loc, Operation *op,
                                             const ElementwiseKind &kind, ValueRange inputs,
                                             Value out, Type data) {
  auto [compute, newton] = vectorCompute(op, kind.kind, data);
  VectorOp vop = vectorOp(b, loc, kind.kind, inputs, out, compute);
  if (newton)
    vop.setNewton(true);
  if (!kind.params.empty())
    vop.setParams(kind.params);
  return vop;
}

void ascendprec::kernel::emitCast(OpBuilder &b, Location loc, Operation *cast, Value input,
                                  Value out) {
  Type from = getElementTypeOrSelf(cast->getOperand(0).getType());
  Type to = getElementTypeOrSelf(cast->getResult(0).getType());
  if (from == to) {
    vectorOp(b, loc, "copy", input, out, to);
    return;
  }
  // To nearest even between floats and from integers, toward zero from
  // float to integer (ONNX's Cast). The model's own narrowing Cast rounds
  // in the fp32 reference too; an inserted one does not (kernelSignature
  // keeps the two apart).
  RoundingMode rounding =
      isa<FloatType>(from) && isa<IntegerType>(to) ? RoundingMode::Trunc : RoundingMode::Rint;
  bool modelRounding = !cast->hasAttr("ascend.inserted") && (to.isF16() || to.isBF16()) &&
                       isa<FloatType>(from) && from.getIntOrFloatBitWidth() > 16;
  kernel::CastOp::create(b, loc, input, out, rounding, modelRounding);
}

namespace {

/// Bytes of UB one element of the output needs across every buffer of a
/// step: each input, the output, and an fp32 working copy when the unit
/// computes wider than the data.
int64_t bytesPerElement(TypeRange inputs, Type output, Type compute) {
  int64_t bytes = elementBytes(output);
  for (Type input : inputs)
    bytes += elementBytes(input);
  if (elementBytes(compute) > elementBytes(output))
    bytes += 2 * elementBytes(compute);
  return bytes;
}

/// `value`'s GM buffer seen with the output's rank (NumPy broadcasting
/// aligns shapes at the right; BiasAdd puts its 1-D bias on the channel).
Value alignedForBroadcast(KernelBuilder &kb, Value gm, ArrayRef<int64_t> outShape,
                          std::optional<int64_t> channelAxis) {
  auto type = cast<MemRefType>(gm.getType());
  if (type.getRank() == static_cast<int64_t>(outShape.size()))
    return gm;
  SmallVector<int64_t> shape(outShape.size(), 1);
  if (channelAxis && type.getRank() == 1) {
    shape[*channelAxis] = type.getDimSize(0);
  } else {
    int64_t lead = static_cast<int64_t>(outShape.size()) - type.getRank();
    for (int64_t axis = 0; axis < type.getRank(); ++axis)
      shape[lead + axis] = type.getDimSize(axis);
  }
  return kb.reshapeGM(gm, shape);
}

} // namespace

void ascendprec::kernel::buildElementwiseBody(KernelBuilder &kb, LoweringContext &context, ValueRange inputs,
                          ShapedType outType, Type compute, std::optional<int64_t> channelAxis,
                          function_ref<void(OpBuilder &, ValueRange, Value)> emit,
                          int64_t scratchBytesPerElement) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  int64_t elements = outType.getNumElements();
  SmallVector<Type> inTypes;
  for (Value input : inputs)
    inTypes.push_back(input.getType());
  int64_t align = std::max<int64_t>(32 / elementBytes(outType), 1);
  VectorTiling tiling = chooseVectorTiling(
      elements,
      bytesPerElement(inTypes, outType.getElementType(), compute) + scratchBytesPerElement, align,
      context.facts, context.vectorCores);
  kb.setTiling({{"tile", tiling.tile}, {"tiles", tiling.tiles}});
  kb.setDoubleBuffer();
  Value outFlat = kb.reshapeGM(kb.output(), {elements});
  SmallVector<Value> tileBuffers;
  SmallVector<Value> sources;
  for (Value input : inputs) {
    auto type = cast<MemRefType>(input.getType());
    // A one-element input of a larger output is a scalar operand.
    bool scalar = type.getNumElements() == 1 && elements != 1;
    tileBuffers.push_back(
        kb.alloc({scalar ? 1 : tiling.tile}, type.getElementType(), MemorySpace::UB));
    sources.push_back(scalar || type.getNumElements() == elements
                          ? kb.reshapeGM(input, {type.getNumElements()})
                          : alignedForBroadcast(kb, input, outType.getShape(), channelAxis));
  }
  Value outTile = kb.alloc({tiling.tile}, outType.getElementType(), MemorySpace::UB);
  Value tile = kb.openTileLoop(tiling.tiles, tiling.blockDim);
  Value offset = arith::MulIOp::create(b, loc, tile, kb.index(tiling.tile));
  for (auto [source, buffer] : llvm::zip_equal(sources, tileBuffers)) {
    auto type = cast<MemRefType>(source.getType());
    if (type.getNumElements() == 1 && elements != 1) {
      loadTile(b, loc, source, ValueRange{kb.index(0)}, buffer);
    } else if (type.getNumElements() == elements) {
      loadTile(b, loc, source, ValueRange{offset}, buffer);
    } else {
      auto load = loadTile(b, loc, source, ValueRange{offset}, buffer);
      load.setBroadcast(outType.getShape());
    }
  }
  emit(b, tileBuffers, outTile);
  storeTile(b, loc, outTile, outFlat, ValueRange{offset});
  kb.closeLoop();
}

namespace {

/// Any op whose kind the elementwise table knows.
struct ElementwiseLowering : OpInterfaceRewritePattern<ascend::AscendOpInterface> {
  ElementwiseLowering(MLIRContext *ctx, LoweringContext &context)
      : OpInterfaceRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendOpInterface op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op->getOperands());
    std::optional<ElementwiseKind> kind = elementwiseKindOf(op);
    if (!kind || op->getNumResults() != 1)
      return failure();
    auto outType = cast<ShapedType>(op->getResult(0).getType());
    Type data = outType.getElementType();
    // Comparisons compute in their inputs' dtype.
    if (!operands.empty())
      data = getElementTypeOrSelf(operands.back().getType());
    if (launchCachedKernel(rewriter, context, op, operands))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, ValueRange(operands).getTypes(),
                     op->getResultTypes(), nodesOf(op));
    SmallVector<Value> inputs;
    for (unsigned i = 0; i < operands.size(); ++i)
      inputs.push_back(kb.arg(i));
    std::optional<int64_t> channelAxis;
    if (auto biasAdd = dyn_cast<ascend::BiasAddOp>(op.getOperation()))
      channelAxis = biasAdd.getDataFormat() == ascend::DataFormat::NCHW ? 1 : outType.getRank() - 1;
    Type compute = vectorCompute(op, kind->kind, data).first;
    buildElementwiseBody(kb, context, inputs, outType, compute, channelAxis,
                         [&](OpBuilder &b, ValueRange tiles, Value out) {
                           emitElementwise(b, kb.loc(), op, *kind, tiles, out, data);
                         });
    kb.replaceWithLaunch(rewriter, op, operands);
    return success();
  }

  LoweringContext &context;
};

struct CastLowering : OpRewritePattern<ascend::CastOp> {
  CastLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::CastOp op, PatternRewriter &rewriter) const override {
    ascend::CastOp::Adaptor adaptor(op);
    auto outType = cast<ShapedType>(op.getType());
    Type to = outType.getElementType();
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{adaptor.getX().getType()},
                     TypeRange{outType}, nodesOf(op));
    buildElementwiseBody(kb, context, ValueRange{kb.arg(0)}, outType, to, std::nullopt,
                         [&](OpBuilder &b, ValueRange tiles, Value out) {
                           emitCast(b, kb.loc(), op, tiles[0], out);
                         });
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

/// BatchNorm in its inference form is elementwise with per-channel
/// statistics: (x - mean) * rsqrt(variance + epsilon) * scale + offset, in
/// the compute dtype (fp32 for fp16 data under high_precision).
struct BatchNormLowering : OpRewritePattern<ascend::BatchNormOp> {
  BatchNormLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::BatchNormOp op, PatternRewriter &rewriter) const override {
    ascend::BatchNormOp::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    auto outType = cast<ShapedType>(op.getType());
    Type compute = vectorCompute(op, "rsqrt", outType.getElementType()).first;
    if (op.getImplMode() == ascend::ImplMode::HighPrecision)
      compute = Float32Type::get(op.getContext());
    KernelBuilder kb(rewriter, context, op, Engine::Vector, adaptor.getOperands().getTypes(),
                     op->getResultTypes(), nodesOf(op));
    SmallVector<Value> inputs;
    for (unsigned i = 0; i < 5; ++i)
      inputs.push_back(kb.arg(i));
    double epsilon = paramValue(op.getEpsilon());
    buildElementwiseBody(kb, context, inputs, outType, compute, /*channelAxis=*/1,
                         [&](OpBuilder &b, ValueRange tiles, Value out) {
                           Location loc = kb.loc();
                           // tiles: x, scale, offset, mean, variance
                           Value work = kb.alloc(cast<ShapedType>(out.getType()).getShape(),
                                                 compute, MemorySpace::UB);
                           Value inverse = kb.alloc(cast<ShapedType>(out.getType()).getShape(),
                                                    compute, MemorySpace::UB);
                           auto addEps = vectorOp(b, loc, "adds", tiles[4], inverse, compute);
                           addEps.setParams(ArrayRef<double>{epsilon});
                           vectorOp(b, loc, "rsqrt", inverse, inverse, compute);
                           vectorOp(b, loc, "sub", {tiles[0], tiles[3]}, work, compute);
                           vectorOp(b, loc, "mul", {work, inverse}, work, compute);
                           vectorOp(b, loc, "mul", {work, tiles[1]}, work, compute);
                           vectorOp(b, loc, "add", {work, tiles[2]}, out, compute);
                         },
                         /*scratchBytesPerElement=*/2 * elementBytes(compute));
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

void ascendprec::kernel::populateVectorLoweringPatterns(RewritePatternSet &patterns,
                                                        LoweringContext &context) {
  patterns.add<ElementwiseLowering, CastLowering, BatchNormLowering>(patterns.getContext(),
                                                                     context);
}
