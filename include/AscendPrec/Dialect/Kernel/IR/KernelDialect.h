//===- KernelDialect.h - the `akernel` dialect, enums and attributes ------===//

#ifndef ASCENDPREC_DIALECT_KERNEL_IR_KERNELDIALECT_H
#define ASCENDPREC_DIALECT_KERNEL_IR_KERNELDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "AscendPrec/Dialect/Kernel/IR/KernelDialect.h.inc"
#include "AscendPrec/Dialect/Kernel/IR/KernelEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "AscendPrec/Dialect/Kernel/IR/KernelAttrs.h.inc"

#endif // ASCENDPREC_DIALECT_KERNEL_IR_KERNELDIALECT_H
