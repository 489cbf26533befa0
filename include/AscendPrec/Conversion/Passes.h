//===- Passes.h - AscendPrec conversion passes ----------------------------===//

#ifndef ASCENDPREC_CONVERSION_PASSES_H
#define ASCENDPREC_CONVERSION_PASSES_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace ascendprec::policy {
struct Policy;
} // namespace ascendprec::policy

namespace ascendprec {

#define GEN_PASS_DECL
#include "AscendPrec/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "AscendPrec/Conversion/Passes.h.inc"

/// prec-convert-ascend-to-kernel on `policy` instead of the one recorded
/// on the module (prec-compile resolves it once); with `explain`, a remark
/// per kernel (only those computing a node of `explainOnly`, when given).
std::unique_ptr<Pass> createConvertAscendToKernel(std::shared_ptr<const policy::Policy> policy,
                                                  bool allowUnlowered, bool explain = false,
                                                  ArrayRef<std::string> explainOnly = {},
                                                  int64_t hostBlocks = 0);

/// Kernels the host executor runs itself rather than compiling them: DMA
/// kernels (bytes move, no arithmetic) and AI CPU kernels.
bool runsOnHostExecutor(kernel::KernelOp kernel);

/// Adds the passes from prec-convert-kernel-to-std's output to the LLVM
/// dialect: arith-expand with bf16 (bf16 conversions as integer code, so no
/// host instruction flushes subnormals), math to libm/LLVM, memref, scf, func
/// and arith to LLVM.
void buildKernelToLLVMPipeline(OpPassManager &pm);

/// Registers `prec-kernel-to-llvm`: prec-convert-kernel-to-std then
/// buildKernelToLLVMPipeline.
void registerKernelToLLVMPipeline();

/// Registers `prec-lower-to-kernel`: the lowering that fails on any op it
/// cannot lower, then CSE inside the kernels.
void registerLowerToKernelPipeline();

} // namespace ascendprec

#endif // ASCENDPREC_CONVERSION_PASSES_H
