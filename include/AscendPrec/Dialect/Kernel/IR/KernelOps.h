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

/// A unit attribute on a kernel's tile loop (`scf.for` from `block_idx`
/// by `block_dim`) whose tiles are independent: each writes its own part of
/// the outputs from inputs no tile writes, so any partition of the tiles
/// among blocks computes the same bits. The host's code generation then
/// gives each block a contiguous run of tiles.
inline constexpr llvm::StringLiteral kIndependentTilesAttr = "akernel.independent_tiles";

/// The memory space of a memref type, if it is an `#akernel.space`.
std::optional<MemorySpace> memorySpaceOf(mlir::Type type);

/// The `#akernel.target` on the nearest enclosing op that has one.
TargetAttr targetOf(mlir::Operation *op);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_H
