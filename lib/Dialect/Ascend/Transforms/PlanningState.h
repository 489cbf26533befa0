//===- PlanningState.h - what planning leaves on the module ---------------===//
//
// prec-plan-precision records the resolved policy and its warnings, and the
// later passes their Cast counts, as discardable module attributes, so the
// report pass (and any tool) can read them from the IR alone.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_TRANSFORMS_PLANNINGSTATE_H
#define ASCENDPREC_LIB_TRANSFORMS_PLANNINGSTATE_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinOps.h"

namespace ascendprec::ascend {

/// #ascend.policy<soc_version = "...", precision_mode = "...", options = {...}>
inline constexpr llvm::StringLiteral kPolicyAttr = "ascend.policy";
/// [#ascend.diagnostic<severity = ..., rule = ..., location = ..., message = ...>, ...]
inline constexpr llvm::StringLiteral kWarningsAttr = "ascend.plan_warnings";
/// The same for diagnostics from before planning (import).
inline constexpr llvm::StringLiteral kImportWarningsAttr = "ascend.import_warnings";
/// The same for graph fusion (FU-2: pins dropped; matches skipped for pins).
inline constexpr llvm::StringLiteral kFusionWarningsAttr = "ascend.fusion_warnings";
inline constexpr llvm::StringLiteral kCastsInsertedAttr = "ascend.casts_inserted";
inline constexpr llvm::StringLiteral kCastsRemovedAttr = "ascend.casts_removed";
inline constexpr llvm::StringLiteral kConstantsConvertedAttr =
    "ascend.constants_converted";
/// On the ops of one UB-fusion group (one kernel): the cube op's node name,
/// and the fusion pass (prec-buffer-fusion).
inline constexpr llvm::StringLiteral kBufferGroupAttr = "ascend.ub_group";
inline constexpr llvm::StringLiteral kBufferPassAttr = "ascend.ub_pass";
/// FU-4: where a UB group's member converts or computes (for the report).
inline constexpr llvm::StringLiteral kBufferStepAttr = "ascend.ub_step";
/// Unit attribute on the Casts materialization inserted.
inline constexpr llvm::StringLiteral kInsertedAttr = "ascend.inserted";

/// Adds `delta` to an integer module attribute.
inline void addToCounter(ModuleOp module, StringRef name, int64_t delta) {
  int64_t value = 0;
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    value = attr.getInt();
  module->setAttr(name, IntegerAttr::get(IntegerType::get(module.getContext(), 64),
                                         value + delta));
}

inline int64_t counter(ModuleOp module, StringRef name) {
  auto attr = module->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : 0;
}

} // namespace ascendprec::ascend

#endif // ASCENDPREC_LIB_TRANSFORMS_PLANNINGSTATE_H
