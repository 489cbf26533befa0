//===- AttrDictAssembly.h - hand-written forms of the commonest formats ----===//
//
// ODS's declarative printers print `attr-dict` from Operation::getAttrs(),
// which for an op with properties uniques a new DictionaryAttr per op and
// call. On a 200k-op graph that was two fifths of printing planned.mlir and
// kernels.mlir. The ops most graphs are made of (elementwise ops, constants,
// casts, kernel launches) print through these functions instead: the same
// text, from a sorted list that is never uniqued. Their parsers do what the
// generated ones do, inherent-attribute checks included.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SUPPORT_ATTRDICTASSEMBLY_H
#define ASCENDPREC_SUPPORT_ATTRDICTASSEMBLY_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Operation.h"

namespace ascendprec::assembly {

/// `op`'s attributes, discardable ones (sorted) then the inherent ones that
/// are set (in their op's fixed order), without uniquing anything: the
/// inherent names are the op's registered StringAttrs (populateInherentAttrs
/// would look each name up in the context again).
inline void collectAttrs(mlir::Operation *op,
                         llvm::SmallVectorImpl<mlir::NamedAttribute> &attrs) {
  llvm::append_range(attrs, op->getRawDictionaryAttrs().getValue());
  if (!op->getPropertiesStorage())
    return; // every attribute is in the dictionary
  if (std::optional<mlir::RegisteredOperationName> info = op->getRegisteredInfo())
    for (mlir::StringAttr name : info->getAttributeNames())
      if (std::optional<mlir::Attribute> value = op->getInherentAttr(name.getValue());
          value && *value)
        attrs.push_back(mlir::NamedAttribute(name, *value));
}

/// `attr-dict`: `op`'s attributes, inherent and discardable, in name order
/// as a DictionaryAttr holds them, without `elided`.
inline void printAttrDict(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                          llvm::ArrayRef<llvm::StringRef> elided = {}) {
  llvm::SmallVector<mlir::NamedAttribute, 8> sorted;
  collectAttrs(op, sorted);
  mlir::DictionaryAttr::sortInPlace(sorted);
  printer.printOptionalAttrDict(sorted, elided);
}

/// `attr-dict` parsed into `result`, its inherent attributes checked by
/// `OpT` as the declarative parser checks them.
template <typename OpT>
mlir::ParseResult parseAttrDict(mlir::OpAsmParser &parser, mlir::OperationState &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return mlir::failure();
  return OpT::verifyInherentAttrs(result.name, result.attributes, [&]() {
    return parser.emitError(loc) << "'" << result.name.getStringRef() << "' op ";
  });
}

/// ` type`, as a declarative `type(...)` directive prints it.
inline void printStrippedType(mlir::OpAsmPrinter &printer, mlir::Type type) {
  printer << ' ';
  printer.printStrippedAttrOrType(type);
}

/// `operands attr-dict : functional-type(operands, results)`.
template <typename OpT>
mlir::ParseResult parseOperandsFunctionalType(mlir::OpAsmParser &parser,
                                              mlir::OperationState &result) {
  llvm::SmallVector<mlir::OpAsmParser::UnresolvedOperand, 4> operands;
  llvm::SMLoc operandsLoc = parser.getCurrentLocation();
  mlir::FunctionType type;
  if (parser.parseOperandList(operands) || parseAttrDict<OpT>(parser, result) ||
      parser.parseColon() || parser.parseType(type))
    return mlir::failure();
  result.addTypes(type.getResults());
  return parser.resolveOperands(operands, type.getInputs(), operandsLoc, result.operands);
}

inline void printOperandsFunctionalType(mlir::OpAsmPrinter &printer, mlir::Operation *op) {
  printer << ' ' << op->getOperands();
  printAttrDict(printer, op);
  printer << " : ";
  printer.printFunctionalType(op->getOperandTypes(), op->getResultTypes());
}

/// `$x attr-dict : type($y)`: one operand of the result's type.
template <typename OpT>
mlir::ParseResult parseSameTypeUnary(mlir::OpAsmParser &parser, mlir::OperationState &result) {
  mlir::OpAsmParser::UnresolvedOperand operand;
  llvm::SMLoc operandLoc = parser.getCurrentLocation();
  mlir::RankedTensorType type;
  if (parser.parseOperand(operand) || parseAttrDict<OpT>(parser, result) ||
      parser.parseColon() || parser.parseCustomTypeWithFallback(type))
    return mlir::failure();
  result.addTypes(type);
  return parser.resolveOperands({operand}, type, operandLoc, result.operands);
}

inline void printSameTypeUnary(mlir::OpAsmPrinter &printer, mlir::Operation *op) {
  printer << ' ' << op->getOperand(0);
  printAttrDict(printer, op);
  printer << " :";
  printStrippedType(printer, op->getResult(0).getType());
}

/// `$x attr-dict : type($x) to type($y)`.
template <typename OpT>
mlir::ParseResult parseConversion(mlir::OpAsmParser &parser, mlir::OperationState &result) {
  mlir::OpAsmParser::UnresolvedOperand operand;
  llvm::SMLoc operandLoc = parser.getCurrentLocation();
  mlir::TensorType from, to;
  if (parser.parseOperand(operand) || parseAttrDict<OpT>(parser, result) ||
      parser.parseColon() || parser.parseCustomTypeWithFallback(from) ||
      parser.parseKeyword("to") || parser.parseCustomTypeWithFallback(to))
    return mlir::failure();
  result.addTypes(to);
  return parser.resolveOperands({operand}, from, operandLoc, result.operands);
}

inline void printConversion(mlir::OpAsmPrinter &printer, mlir::Operation *op) {
  printer << ' ' << op->getOperand(0);
  printAttrDict(printer, op);
  printer << " :";
  printStrippedType(printer, op->getOperand(0).getType());
  printer << " to";
  printStrippedType(printer, op->getResult(0).getType());
}

} // namespace ascendprec::assembly

#endif // ASCENDPREC_SUPPORT_ATTRDICTASSEMBLY_H
