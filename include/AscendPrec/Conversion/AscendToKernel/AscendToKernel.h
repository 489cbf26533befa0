//===- AscendToKernel.h - lowering planned ascend graphs to akernel -------===//
//
// The planned (and fused) graph becomes kernels: each op a kernel in the
// AI Core's memory spaces and units, launched from the graph function,
// which stays on tensors. One populate function per op family; the pass
// (prec-convert-ascend-to-kernel) applies them once to each op.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_CONVERSION_ASCENDTOKERNEL_ASCENDTOKERNEL_H
#define ASCENDPREC_CONVERSION_ASCENDTOKERNEL_ASCENDTOKERNEL_H

#include "AscendPrec/Conversion/AscendToKernel/Tiling.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace ascendprec::policy {
struct PlatformInfo;
struct OpLibrary;
} // namespace ascendprec::policy

namespace ascendprec::kernel {

/// What every lowering pattern shares: the SoC's facts and the options
/// that change kernels (OP-3).
struct LoweringContext {
  TargetAttr target;
  CoreFacts facts;
  int64_t cubeCores = 1;   ///< after aicore_num
  int64_t vectorCores = 1; ///< after aicore_num
  /// > 0: kernels for the host executor, whose cube tiles grow to leave
  /// about this many per kernel (hostCubeTiling); 0: device kernels.
  int64_t hostBlocks = 0;
  bool deterministic = false;   ///< OP-3: no atomic accumulation across cores
  bool enableSmallChannel = true; ///< OP-3: Conv with C <= 4 pads channels to 4
  SymbolTable *symbols = nullptr;
  /// Kernels built so far by signature (kernelKey): an op with the same
  /// shapes, dtypes and attributes launches the same kernel.
  llvm::StringMap<std::string> kernelBySignature;
};

/// The `#akernel.target` for a SoC: its platform config (OP-4) and the
/// input dtypes the library's MatMulV2 kernel rows multiply on the cube.
/// A family's L1 -> L0 rates measured on the device replace the config's
/// (the 910B's; docs/cost-model.md, "Measured data paths").
TargetAttr buildTarget(MLIRContext *context, const policy::PlatformInfo &platform,
                       const policy::OpLibrary &library);

/// Why `op` cannot be lowered (a generic op, a dynamic shape, a tile that
/// cannot fit), or nothing when a pattern lowers it.
std::optional<std::string> whyNotLowerable(Operation *op, const LoweringContext &context);

void populateCubeLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
void populateVectorLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
/// AscendQuant, AscendDequant and AscendAntiQuant (QuantLowering.cpp).
void populateQuantLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
void populateReductionLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);
void populateDataMovementLoweringPatterns(RewritePatternSet &patterns,
                                          LoweringContext &context);
void populateAICpuLoweringPatterns(RewritePatternSet &patterns, LoweringContext &context);

/// Lowers every UB-fusion group (`ascend.ub_group`) of `module` into one
/// kernel each, before the per-op patterns run. Groups whose side inputs
/// are not tile-shaped are left to the per-op patterns (with a remark when
/// `explain`).
void lowerBufferGroups(ModuleOp module, LoweringContext &context, bool explain = false);

/// Whether `op` belongs to a TbeEltwiseFusionPass group (a chain of
/// elementwise ops with no cube op).
bool isEltwiseGroupMember(Operation *op);
/// Lowers every TbeEltwiseFusionPass group into one vector kernel, before
/// the per-op patterns run (EltwiseGroupLowering.cpp). A group that cannot
/// be one kernel is left to the per-op patterns (a remark when `explain`).
void lowerEltwiseGroups(ModuleOp module, LoweringContext &context, bool explain = false);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_CONVERSION_ASCENDTOKERNEL_ASCENDTOKERNEL_H
