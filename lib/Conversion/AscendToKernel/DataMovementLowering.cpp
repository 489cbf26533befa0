//===- DataMovementLowering.cpp - views, DMA kernels and AI CPU kernels ---===//
//
// Ops that only move data: Reshape and its kin are views of the same GM
// bytes (no kernel, no time); Transpose, Concat, Slice, Gather, Pad, ...
// are DMA kernels that read and write every byte. Ops planned on the AI
// CPU become AI CPU kernels.
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

/// The graph op's own attributes (perm, axis, ...), without the planning
/// ones.
DictionaryAttr paramsOf(Operation *op) {
  SmallVector<NamedAttribute> params;
  for (NamedAttribute attr : op->getAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name == "name" || name == "precision" || name == "impl_mode" || name == "absorbed" ||
        name == "fused_by" || name.starts_with("ascend.") || name.starts_with("onnx."))
      continue;
    params.push_back(attr);
  }
  return DictionaryAttr::get(op->getContext(), params);
}

int64_t bytesOf(TypeRange types) {
  int64_t bytes = 0;
  for (Type type : types)
    bytes += cast<ShapedType>(type).getNumElements() * elementBytes(type);
  return bytes;
}

struct ViewLowering : OpInterfaceRewritePattern<ascend::AscendOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ascend::AscendOpInterface op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op->getOperands());
    if (!isViewOpType(op.getOpType()) || op->getNumResults() != 1 || operands.empty())
      return failure();
    ArrayAttr nodes = nodesAttrOf(op);
    auto view = rewriter.replaceOpWithNewOp<ViewOp>(op, op->getResult(0).getType(), operands[0]);
    // The graph node a view stands for, for the report (it has no kernel).
    view->setAttr("nodes", nodes);
    return success();
  }
};

struct DmaLowering : OpInterfaceRewritePattern<ascend::AscendOpInterface> {
  DmaLowering(MLIRContext *ctx, LoweringContext &context)
      : OpInterfaceRewritePattern(ctx), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendOpInterface op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op->getOperands());
    std::optional<StringRef> kind = dmaKindOf(op.getOpType());
    if (!kind)
      return failure();
    if (launchCachedKernel(rewriter, context, op, operands))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Vector, ValueRange(operands).getTypes(),
                     op->getResultTypes(), nodesOf(op));
    SmallVector<Value> inputs, outputs;
    for (unsigned i = 0; i < operands.size(); ++i)
      inputs.push_back(kb.arg(i));
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      outputs.push_back(kb.output(i));
    // The MTEs of every vector core share the bytes, 32 KiB per core at
    // least (a DMA burst's worth).
    int64_t bytes = bytesOf(op->getResultTypes()) + bytesOf(ValueRange(operands).getTypes());
    int64_t blocks = std::clamp<int64_t>(bytes / (32 * 1024), 1, context.vectorCores);
    kb.kernel().setBlockDim(blocks);
    DictionaryAttr params = paramsOf(op);
    if (*kind == "triangle") {
      // Tril and Triu share the kind; which side is kept goes with it.
      NamedAttrList withSide(params);
      withSide.set("upper", rewriter.getBoolAttr(isa<ascend::TriuOp>(op.getOperation())));
      params = withSide.getDictionary(op->getContext());
    }
    auto dma = DmaOp::create(kb.builder(), kb.loc(), *kind, inputs, outputs, params,
                             /*bounds_check=*/false);
    // IM-7: support_out_of_bound_index adds index checks to Gather.
    if (op.getImplModeValue() == ascend::ImplMode::SupportOutOfBoundIndex &&
        (*kind == "gather" || *kind == "scatter"))
      dma.setBoundsCheck(true);
    kb.replaceWithLaunch(rewriter, op, operands);
    return success();
  }

  LoweringContext &context;
};

struct AICpuLowering : OpInterfaceRewritePattern<ascend::AscendOpInterface> {
  AICpuLowering(MLIRContext *ctx, LoweringContext &context)
      : OpInterfaceRewritePattern(ctx, /*benefit=*/2), context(context) {}

  LogicalResult matchAndRewrite(ascend::AscendOpInterface op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands(op->getOperands());
    ascend::PrecisionAttr decision = op.getPrecisionDecision();
    if (!decision || decision.getEngine() != ascend::Engine::AICPU || !op.hasDedicatedOp())
      return failure();
    if (launchCachedKernel(rewriter, context, op, operands))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::AICPU, ValueRange(operands).getTypes(),
                     op->getResultTypes(), nodesOf(op));
    SmallVector<Value> buffers(kb.kernel().getBody().getArguments());
    // What the kernel computes (an Einsum's equation, ...) goes with it.
    SmallVector<NamedAttribute> computes;
    for (NamedAttribute attr : op->getAttrs())
      if (!isBookkeepingAttr(attr))
        computes.push_back(attr);
    AICPUCallOp::create(kb.builder(), kb.loc(), op.getOpType(), buffers,
                        computes.empty() ? DictionaryAttr()
                                         : kb.builder().getDictionaryAttr(computes));
    kb.replaceWithLaunch(rewriter, op, operands);
    return success();
  }

  LoweringContext &context;
};

} // namespace

void ascendprec::kernel::populateDataMovementLoweringPatterns(RewritePatternSet &patterns,
                                                              LoweringContext &context) {
  patterns.add<ViewLowering>(patterns.getContext());
  patterns.add<DmaLowering>(patterns.getContext(), context);
}

void ascendprec::kernel::populateAICpuLoweringPatterns(RewritePatternSet &patterns,
                                                       LoweringContext &context) {
  patterns.add<AICpuLowering>(patterns.getContext(), context);
}
