//===- QuantLowering.cpp - AscendQuant, AscendDequant, AscendAntiQuant ----===//
//
// The three quantization ops are elementwise vector kernels that compute in
// the dtypes CANN's kernels use (docs/quantization.md):
//  - AscendQuant converts fp32 input to fp16, multiplies by the fp16 scale,
//    adds the fp16 offset and converts to int8 with saturation;
//  - AscendDequant multiplies the int32 accumulator by its scale: in fp16
//    after an int32 -> fp16 conversion on Ascend910 (the v100 vector
//    dequant), in fp32 with one rounding to the output elsewhere (the
//    fixpipe of Ascend910B, the v200 deq_cast of Ascend310P);
//  - AscendAntiQuant adds the offset and multiplies by the scale in fp16.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// The conversion AscendQuant's round_mode names. TBE's kernel converts
/// with the vector unit's default (to nearest, ties to even) for "Round".
RoundingMode quantRounding(StringRef mode) {
  if (mode == "Floor")
    return RoundingMode::Floor;
  if (mode == "Ceil")
    return RoundingMode::Ceil;
  if (mode == "Trunc")
    return RoundingMode::Trunc;
  return RoundingMode::Rint;
}

/// Whether the SoC dequantizes in fp16 (the v100 vector unit of the
/// Ascend910 and Ascend310): int32 -> fp16, then an fp16 multiply.
bool dequantizesInHalf(TargetAttr target) {
  StringRef soc = target.getSoc().getValue();
  return (soc.starts_with("Ascend910") && !soc.starts_with("Ascend910B") &&
          !soc.starts_with("Ascend910_93")) ||
         (soc.starts_with("Ascend310") && !soc.starts_with("Ascend310P") &&
          !soc.starts_with("Ascend310B"));
}

ArrayRef<int64_t> tileShape(Value tile) { return cast<ShapedType>(tile.getType()).getShape(); }

/// `scale` times `x` in `compute`, twice with sqrt_mode, into `out`.
void scaleBy(OpBuilder &b, Location loc, Value x, Value out, double scale, bool twice,
             Type compute) {
  vectorOp(b, loc, "muls", x, out, compute).setParams(ArrayRef<double>{scale});
  if (twice)
    vectorOp(b, loc, "muls", out, out, compute).setParams(ArrayRef<double>{scale});
}

/// A one-input kernel that works in an fp16 tile: `emit(b, loc, x, work,
/// out)` computes the output tile from the input tile `x` through `work`.
LogicalResult lowerHalfKernel(Operation *op, Value input, PatternRewriter &rewriter,
                              LoweringContext &context,
                              function_ref<void(OpBuilder &, Location, Value, Value, Value)> emit) {
  if (launchCachedKernel(rewriter, context, op, ValueRange{input}))
    return success();
  auto outType = cast<ShapedType>(op->getResult(0).getType());
  Type half = Float16Type::get(op->getContext());
  KernelBuilder kb(rewriter, context, op, Engine::Vector, TypeRange{input.getType()},
                   op->getResultTypes(), nodesOf(op));
  buildElementwiseBody(
      kb, context, ValueRange{kb.arg(0)}, outType, half, std::nullopt,
      [&](OpBuilder &b, ValueRange tiles, Value out) {
        Value work = kb.alloc(tileShape(out), half, MemorySpace::UB);
        emit(b, kb.loc(), tiles[0], work, out);
      },
      /*scratchBytesPerElement=*/2);
  kb.replaceWithLaunch(rewriter, op, ValueRange{input});
  return success();
}

struct QuantLowering : OpRewritePattern<ascend::AscendQuantOp> {
  QuantLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendQuantOp op, PatternRewriter &rewriter) const override {
    Type half = Float16Type::get(op.getContext());
    bool fromFloat = getElementTypeOrSelf(op.getX().getType()).isF32();
    double scale = paramValue(op.getScale()), offset = paramValue(op.getOffset());
    bool twice = op.getSqrtMode();
    RoundingMode rounding = quantRounding(op.getRoundMode());
    return lowerHalfKernel(op, op.getX(), rewriter, context,
                           [&](OpBuilder &b, Location loc, Value x, Value work, Value out) {
                             if (fromFloat) {
                               kernel::CastOp::create(b, loc, x, work, RoundingMode::Rint);
                               x = work;
                             }
                             scaleBy(b, loc, x, work, scale, twice, half);
                             if (offset != 0.0)
                               vectorOp(b, loc, "adds", work, work, half)
                                   .setParams(ArrayRef<double>{offset});
                             kernel::CastOp::create(b, loc, work, out, rounding);
                           });
  }

  LoweringContext &context;
};

struct DequantLowering : OpRewritePattern<ascend::AscendDequantOp> {
  DequantLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendDequantOp op,
                                PatternRewriter &rewriter) const override {
    ascend::AscendDequantOp::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    auto outType = cast<ShapedType>(op.getType());
    Type compute = dequantizesInHalf(context.target) ? Type(Float16Type::get(op.getContext()))
                                                     : Type(Float32Type::get(op.getContext()));
    bool relu = op.getReluFlag();
    int64_t axis = op.getChannelAxis();
    if (axis < 0)
      axis += outType.getRank();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, adaptor.getOperands().getTypes(),
                     op->getResultTypes(), nodesOf(op));
    buildElementwiseBody(
        kb, context, ValueRange{kb.arg(0), kb.arg(1)}, outType, compute, axis,
        [&](OpBuilder &b, ValueRange tiles, Value out) {
          Location loc = kb.loc();
          Value accumulator = kb.alloc(tileShape(out), compute, MemorySpace::UB);
          kernel::CastOp::create(b, loc, tiles[0], accumulator, RoundingMode::Rint);
          Value scale = tiles[1];
          if (!compute.isF32()) {
            // v100 keeps deq_scale as fp16.
            Value halfScale = kb.alloc(tileShape(scale), compute, MemorySpace::UB);
            kernel::CastOp::create(b, loc, scale, halfScale, RoundingMode::Rint);
            scale = halfScale;
          }
          if (relu) {
            vectorOp(b, loc, "mul", {accumulator, scale}, accumulator, compute);
            vectorOp(b, loc, "relu", accumulator, out, compute);
          } else {
            vectorOp(b, loc, "mul", {accumulator, scale}, out, compute);
          }
        },
        /*scratchBytesPerElement=*/2 * elementBytes(compute));
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

struct AntiQuantLowering : OpRewritePattern<ascend::AscendAntiQuantOp> {
  AntiQuantLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendAntiQuantOp op,
                                PatternRewriter &rewriter) const override {
    Type half = Float16Type::get(op.getContext());
    double scale = paramValue(op.getScale()), offset = paramValue(op.getOffset());
    bool twice = op.getSqrtMode();
    return lowerHalfKernel(op, op.getX(), rewriter, context,
                           [&](OpBuilder &b, Location loc, Value x, Value work, Value out) {
                             // int8 -> fp16 is exact.
                             kernel::CastOp::create(b, loc, x, work, RoundingMode::Rint);
                             if (offset != 0.0)
                               vectorOp(b, loc, "adds", work, work, half)
                                   .setParams(ArrayRef<double>{offset});
                             if (twice)
                               vectorOp(b, loc, "muls", work, work, half)
                                   .setParams(ArrayRef<double>{scale});
                             vectorOp(b, loc, "muls", work, out, half)
                                 .setParams(ArrayRef<double>{scale});
                           });
  }

  LoweringContext &context;
};

} // namespace

void ascendprec::kernel::populateQuantLoweringPatterns(RewritePatternSet &patterns,
                                                       LoweringContext &context) {
  patterns.add<QuantLowering, DequantLowering, AntiQuantLowering>(patterns.getContext(),
                                                                  context);
}
