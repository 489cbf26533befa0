//===- AscendInterfaces.td - questions passes ask of an op -*- tablegen -*-===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINTERFACES_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINTERFACES_TD

include "mlir/IR/OpBase.td"

def Ascend_AscendOpInterface : OpInterface<"AscendOpInterface"> {
  let cppNamespace = "::ascendprec::ascend";
  let description = [{
    The questions precision passes ask of any `ascend` op, answered without a
    switch on op kinds: its Ascend IR op type, node name(s), compute unit,
    the order in which ML-4 visits its inputs, the dtypes of its operands and
    results, and how to rebuild it with other element types.
  }];

  let methods = [
    InterfaceMethod<
      "Returns the Ascend IR op type (`Conv2D`, `MatMulV2`, ...): the key of "
      "mixlists, `OpType::` lines and `[ByOpType]` sections.",
      "::llvm::StringRef", "getOpType", (ins), [{}],
      [{ return $_op->getName().stripDialect(); }]>,
    InterfaceMethod<
      "Returns the node name from the original model.",
      "::llvm::StringRef", "getNodeName", (ins), [{}],
      [{ return $_op.getName(); }]>,
    InterfaceMethod<
      "Returns the node name followed by the names of every op fused into "
      "this one (FU-3): what `Opname::` and keep_dtype name lines match.",
      "::llvm::SmallVector<::llvm::StringRef>", "getOriginalNames", (ins), [{}],
      [{ return ::ascendprec::ascend::detail::getOriginalNames($_op.getName(),
                                                          $_op.getAbsorbedAttr()); }]>,
    InterfaceMethod<
      "Returns whether the op computes on the cube (matrix) unit or the "
      "vector unit of an AI Core.",
      "::ascendprec::ascend::ComputeUnit", "getComputeUnit", (ins), [{}],
      [{ return ::ascendprec::ascend::classifyOpType(
             ::llvm::cast<ConcreteOp>($_op.getOperation()).getOpType()); }]>,
    InterfaceMethod<
      "Returns whether the op only holds constant data (`ascend.Const`): it "
      "computes nothing, so planning gives it no decision and its dtype "
      "changes only when a consumer's plan converts it.",
      "bool", "holdsConstantData", (ins), [{}], [{ return false; }]>,
    InterfaceMethod<
      "Returns false for an operator kept by its op type alone "
      "(`ascend.generic`): nothing checked its operands against that op "
      "type's signature, so planning must check that the operator library's "
      "kernel rows fit what it has.",
      "bool", "hasDedicatedOp", (ins), [{}], [{ return true; }]>,
    InterfaceMethod<
      "Returns operand indices in ML-4 visiting order: operands produced by "
      "non-constant ops (or block arguments) in index order, then operands "
      "produced by `ascend.Const`, in index order.",
      "::llvm::SmallVector<unsigned>", "getInputVisitOrder", (ins), [{}],
      [{ return ::ascendprec::ascend::detail::getInputVisitOrder($_op.getOperation()); }]>,
    InterfaceMethod<
      "Returns the element type (dtype) of operand `index`.",
      "::mlir::Type", "getOperandDType", (ins "unsigned":$index), [{}],
      [{ return ::mlir::getElementTypeOrSelf($_op->getOperand(index).getType()); }]>,
    InterfaceMethod<
      "Returns the element type (dtype) of result `index`.",
      "::mlir::Type", "getResultDType", (ins "unsigned":$index), [{}],
      [{ return ::mlir::getElementTypeOrSelf($_op->getResult(index).getType()); }]>,
    InterfaceMethod<
      "Creates a copy of this op at the builder's insertion point that "
      "takes `operands` and whose results have the same shapes as this op's "
      "but the element types `resultDTypes` (one per result). Attributes, "
      "including the node name and precision decision, are kept.",
      "::mlir::Operation *", "cloneWithElementTypes",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::ValueRange":$operands,
           "::mlir::TypeRange":$resultDTypes), [{}],
      [{ return ::ascendprec::ascend::detail::cloneWithElementTypes(
             $_op.getOperation(), builder, operands, resultDTypes); }]>,
    InterfaceMethod<
      "Returns the precision decision attached by planning, or null.",
      "::ascendprec::ascend::PrecisionAttr", "getPrecisionDecision", (ins), [{}],
      [{ return $_op.getPrecisionAttr(); }]>,
    InterfaceMethod<
      "Attaches a precision decision to the op.",
      "void", "setPrecisionDecision",
      (ins "::ascendprec::ascend::PrecisionAttr":$decision), [{}],
      [{ $_op.setPrecisionAttr(decision); }]>,
    InterfaceMethod<
      "Returns the op's implementation mode, if one is set.",
      "std::optional<::ascendprec::ascend::ImplMode>", "getImplModeValue", (ins), [{}],
      [{ return $_op.getImplMode(); }]>
  ];

  let verify = [{ return ::ascendprec::ascend::detail::verifyAscendOp($_op); }];
}

// Ops that read only their operands' dimensions (Shape, Size); see
// AscendInterfaces.h.
def Ascend_ReadsOnlyDimensions : NativeOpTrait<"ReadsOnlyDimensions"> {
  let cppNamespace = "::ascendprec::ascend";
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINTERFACES_TD
