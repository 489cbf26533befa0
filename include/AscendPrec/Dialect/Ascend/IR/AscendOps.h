//===- AscendOps.h - `ascend` operations ----------------------------------===//
//
// Include this header to use the dialect: it brings in the dialect, its
// attributes, the op interface and every op class.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDOPS_H
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDOPS_H

#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h.inc"

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDOPS_H
