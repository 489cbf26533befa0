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

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDDIALECT_H
