//===- KernelOps.h - `akernel` operations ---------------------------------===//

#ifndef ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_H
#define ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_H

#include "AscendPrec/Dialect/Kernel/IR/KernelDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h.inc"

namespace ascendprec::kernel {

/// The memory space of a memref type, if it is an `#akernel.space`.
std::optional<MemorySpace> memorySpaceOf(mlir::Type type);

/// The `#akernel.target` on the nearest enclosing op that has one.
TargetAttr targetOf(mlir::Operation *op);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_H
