//===- RecurrentLowering.cpp - DynamicRNN, DynamicGRUV2 and RNN layers ----===//
//
// A recurrent layer becomes one `mix` kernel (cube and vector) holding an
// `akernel.recurrent` over its GM buffers: the whole sequence in one
// launch, as CANN's DynamicRNN kernel runs it. The steps depend on each
// other, so the kernel runs on one block.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// The optional operands and the GRU's reset placement, per op.
struct RecurrentShape {
  StringRef cell;
  bool hasBias = false, hasSeqLength = false, hasInitH = false, hasInitC = false,
       linearBeforeReset = false;
};

RecurrentShape recurrentShape(Operation *op) {
  if (auto lstm = dyn_cast<ascend::DynamicRNNOp>(op))
    return {"lstm", static_cast<bool>(lstm.getB()), static_cast<bool>(lstm.getSeqLength()),
            static_cast<bool>(lstm.getInitH()), static_cast<bool>(lstm.getInitC()), false};
  if (auto gru = dyn_cast<ascend::DynamicGRUV2Op>(op))
    return {"gru", static_cast<bool>(gru.getB()), static_cast<bool>(gru.getSeqLength()),
            static_cast<bool>(gru.getInitH()), false, gru.getLinearBeforeReset() != 0};
  auto rnn = cast<ascend::RNNOp>(op);
  return {"rnn", static_cast<bool>(rnn.getB()), static_cast<bool>(rnn.getSeqLength()),
          static_cast<bool>(rnn.getInitH()), false, false};
}

template <typename RecurrentT>
struct RecurrentLowering : OpRewritePattern<RecurrentT> {
  RecurrentLowering(MLIRContext *ctx, LoweringContext &context)
      : OpRewritePattern<RecurrentT>(ctx), context(context) {}

  LogicalResult matchAndRewrite(RecurrentT op, PatternRewriter &rewriter) const override {
    typename RecurrentT::Adaptor adaptor(op);
    if (launchCachedKernel(rewriter, context, op, adaptor.getOperands()))
      return success();
    KernelBuilder kb(rewriter, context, op, Engine::Mix, adaptor.getOperands().getTypes(),
                     op->getResultTypes(), nodesOf(op));
    RecurrentShape shape = recurrentShape(op);
    SmallVector<Value> buffers(kb.kernel().getBody().getArguments());
    auto rnn = RecurrentOp::create(kb.builder(), kb.loc(), shape.cell, buffers,
                                   ascend::stringifyRnnDirection(op.getDirection()),
                                   op.getHiddenSize());
    rnn.setLinearBeforeReset(shape.linearBeforeReset);
    rnn.setHasBias(shape.hasBias);
    rnn.setHasSeqLength(shape.hasSeqLength);
    rnn.setHasInitH(shape.hasInitH);
    rnn.setHasInitC(shape.hasInitC);
    kb.replaceWithLaunch(rewriter, op, adaptor.getOperands());
    return success();
  }

  LoweringContext &context;
};

} // namespace

std::optional<std::string> ascendprec::kernel::whyRecurrentNotLowerable(Operation *op) {
  if (!isa<ascend::DynamicRNNOp, ascend::DynamicGRUV2Op, ascend::RNNOp>(op))
    return std::nullopt;
  // The cube reads one dtype; the results (and the vector steps) may be
  // wider (cube_fp16in_fp32out).
  Type input = getElementTypeOrSelf(op->getOperand(0).getType());
  Type output = getElementTypeOrSelf(op->getResult(0).getType());
  for (Type type : op->getOperandTypes())
    if (isa<FloatType>(getElementTypeOrSelf(type)) && getElementTypeOrSelf(type) != input)
      return std::string("mixes dtypes across its operands (the cube reads one)");
  for (Type type : op->getResultTypes())
    if (getElementTypeOrSelf(type) != output)
      return std::string("mixes dtypes across its results");
  return std::nullopt;
}

void ascendprec::kernel::populateRecurrentLoweringPatterns(RewritePatternSet &patterns,
                                                           LoweringContext &context) {
  patterns.add<RecurrentLowering<ascend::DynamicRNNOp>, RecurrentLowering<ascend::DynamicGRUV2Op>,
               RecurrentLowering<ascend::RNNOp>>(patterns.getContext(), context);
}
