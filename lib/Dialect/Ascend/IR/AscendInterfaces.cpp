//===- AscendInterfaces.cpp - AscendOpInterface helpers -------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

#include "AscendPrec/Dialect/Ascend/IR/AscendInterfaces.cpp.inc"

SmallVector<StringRef> ascend::detail::getOriginalNames(StringRef name,
                                                ArrayAttr absorbed) {
  SmallVector<StringRef> names{name};
  if (absorbed)
    for (auto absorbedName : absorbed.getAsRange<StringAttr>())
      names.push_back(absorbedName.getValue());
  return names;
}

// ML-4: "inputs are visited in index order, non-constant producers first,
// constants last".
SmallVector<unsigned> ascend::detail::getInputVisitOrder(Operation *op) {
  SmallVector<unsigned> order, constants;
  for (OpOperand &operand : op->getOpOperands()) {
    if (isa_and_nonnull<ConstOp>(operand.get().getDefiningOp()))
      constants.push_back(operand.getOperandNumber());
    else
      order.push_back(operand.getOperandNumber());
  }
  order.append(constants);
  return order;
}

Operation *ascend::detail::cloneWithElementTypes(Operation *op, OpBuilder &builder,
                                         ValueRange operands,
                                         TypeRange resultDTypes) {
  assert(resultDTypes.size() == op->getNumResults() &&
         "one element type per result");
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addAttributes(op->getAttrs());
  for (auto [result, dtype] : llvm::zip(op->getResults(), resultDTypes))
    state.addTypes(cast<ShapedType>(result.getType()).clone(dtype));
  return builder.create(state);
}

LogicalResult ascend::detail::verifyAscendOp(Operation *op) {
  auto ascendOp = cast<AscendOpInterface>(op);
  if (ascendOp.getNodeName().empty())
    return op->emitOpError("requires a non-empty node name ('name'): it is "
                           "the key that Opname:: and keep_dtype entries match");
  if (PrecisionAttr decision = ascendOp.getPrecisionDecision()) {
    if (decision.getInputs().size() != op->getNumOperands())
      return op->emitOpError("precision decision lists ")
             << decision.getInputs().size() << " input dtypes but the op has "
             << op->getNumOperands() << " operands";
    if (decision.getOutputs().size() != op->getNumResults())
      return op->emitOpError("precision decision lists ")
             << decision.getOutputs().size() << " output dtypes but the op has "
             << op->getNumResults() << " results";
  }
  // Keep the names alive: drop_begin over a temporary would dangle.
  SmallVector<StringRef> names = ascendOp.getOriginalNames();
  for (StringRef absorbed : llvm::drop_begin(names))
    if (absorbed.empty())
      return op->emitOpError("'absorbed' must not contain empty node names");
  return success();
}
