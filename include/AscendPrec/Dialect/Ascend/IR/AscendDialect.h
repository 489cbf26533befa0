//===- AscendDialect.h - the `ascend` dialect, enums and attributes -------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDDIALECT_H
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.h.inc"
#include "AscendPrec/Dialect/Ascend/IR/AscendEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "AscendPrec/Dialect/Ascend/IR/AscendAttrs.h.inc"

namespace ascendprec::ascend {
/// On an `ascend.Const` that prec-materialize-precision converted to
/// fp16/bf16: the values it was converted from (the same attribute the
/// original constant held), which the fp32 reference of a run uses.
inline constexpr llvm::StringLiteral kReferenceValueAttr = "ascend.reference_value";
/// On an ascend.generic op the ONNX import made because an If branch's
/// shapes do not follow from the given input shapes: the branch ("If 'X'
/// else branch"). The report counts such ops apart from other generic ops.
inline constexpr llvm::StringLiteral kUnshapedBranchAttr = "ascend.unshaped_branch";
} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDDIALECT_H
