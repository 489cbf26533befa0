//===- ONNXBuild.cpp - create and check one converted op ------------------===//

#include "ONNXImporter.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::ascendprec::onnximport;

Operation *mlir::ascendprec::onnximport::buildOp(NodeConverter &node,
                                                 StringRef opName,
                                                 ValueRange operands,
                                                 TypeRange results,
                                                 ArrayRef<NamedAttribute> attrs,
                                                 StringRef nameSuffix) {
  for (Value operand : operands)
    if (!operand)
      return nullptr;
  for (Type type : results)
    if (!type)
      return nullptr;
  OperationState state(node.loc, opName);
  state.addOperands(operands);
  state.addTypes(results);
  state.addAttribute("name", node.builder.getStringAttr(node.name + nameSuffix.str()));
  state.addAttributes(attrs);
  Operation *op = node.builder.create(state);
  // A mismatch (unsupported shape, dtype or attribute) is not an error of the
  // model: the node becomes ascend.generic instead.
  // Its verifier's message says why, for the fallback's warning.
  std::string why;
  ScopedDiagnosticHandler quiet(op->getContext(), [&](Diagnostic &diag) {
    if (why.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      why = diag.str();
    return success();
  });
  if (failed(verify(op))) {
    node.rejection = why;
    op->erase();
    return nullptr;
  }
  return op;
}
