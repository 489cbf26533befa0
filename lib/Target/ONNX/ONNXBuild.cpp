//===- ONNXBuild.cpp - create and check one converted op ------------------===//

#include "ONNXImporter.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

Operation *ascendprec::onnximport::buildOp(NodeConverter &node,
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
  Operation *op = node.builder.create(state);
  // Set on the op rather than the state: inherent attributes then go
  // straight into its properties, where the state would first unique a
  // dictionary of them (per op, a tenth of importing a 200k-node graph).
  // The node's location already holds its name as a string attribute.
  auto nameLoc = dyn_cast<NameLoc>(node.loc);
  StringAttr name = nameSuffix.empty() && nameLoc && nameLoc.getName().getValue() == node.name
                        ? nameLoc.getName()
                        : node.builder.getStringAttr(node.name + nameSuffix.str());
  op->setAttr("name", name);
  for (NamedAttribute attr : attrs)
    op->setAttr(attr.getName(), attr.getValue());
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

DenseElementsAttr ascendprec::onnximport::scalarValue(Type element, double value) {
  auto type = RankedTensorType::get({}, element);
  if (auto floatType = dyn_cast<FloatType>(element)) {
    APFloat v(value);
    bool lost;
    v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return DenseElementsAttr::get(type, v);
  }
  if (element.isInteger(1))
    return DenseElementsAttr::get(type, value != 0.0);
  unsigned width = element.getIntOrFloatBitWidth();
  // Values from 2^63 up (unsigned 64-bit limits) do not fit int64_t.
  if (value >= 9223372036854775808.0)
    return DenseElementsAttr::get(type, APInt(width, static_cast<uint64_t>(value), false));
  return DenseElementsAttr::get(type, APInt(width, static_cast<int64_t>(value), true));
}

Value ascendprec::onnximport::buildValue(NodeConverter &node, StringRef opName,
                                               ValueRange operands, Type result,
                                               ArrayRef<NamedAttribute> attrs,
                                               StringRef nameSuffix) {
  Operation *op = buildOp(node, opName, operands, result ? TypeRange(result) : TypeRange(),
                          attrs, nameSuffix);
  return op && result ? op->getResult(0) : Value();
}

LogicalResult ascendprec::onnximport::setResult(NodeConverter &node, Value value) {
  if (!value)
    return failure();
  node.results = {value};
  return success();
}
