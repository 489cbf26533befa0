//===- PlanWithPolicy.h - the precision pipeline on a caller's policy -----===//
//
// For drivers that resolve CANN's options themselves (prec-compile does, to
// report option problems once, against the command line): the precision
// pipeline on that policy, without reading the options again. Kept out of
// Passes.h, so that code that only runs the passes does not include the
// policy library's headers.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PLANWITHPOLICY_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PLANWITHPOLICY_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Policy/Policy.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"

#include <memory>

namespace ascendprec::ascend {

/// prec-plan-precision on `policy` (its CANN options are ignored), with
/// explain remarks for every op, or only for `explainOnly` (node names and
/// `OpType::<type>` entries) when that is not empty.
std::unique_ptr<Pass>
createPlanPrecision(std::shared_ptr<const policy::Policy> policy,
                    bool explain, ArrayRef<std::string> explainOnly = {});

/// prec-graph-fusion on `policy` (its CANN options are ignored).
std::unique_ptr<Pass> createGraphFusion(std::shared_ptr<const policy::Policy> policy,
                                        bool respectPins);

/// prec-buffer-fusion on `policy`; `explain` / `explainOnly` as for
/// createPlanPrecision (a remark on every decision a group changes).
std::unique_ptr<Pass> createBufferFusion(std::shared_ptr<const policy::Policy> policy,
                                         bool explain = false,
                                         ArrayRef<std::string> explainOnly = {});

/// buildPrecisionPipeline with prec-plan-precision on `policy`; the CANN
/// options in `options` are not read.
void buildPrecisionPipeline(OpPassManager &pm, const PrecisionPipelineOptions &options,
                            std::shared_ptr<const policy::Policy> policy);

/// The policy planning recorded on `module` (`ascend.policy`), built again
/// from the recorded options, so that a later tool (the kernel lowering)
/// sees what planning saw. Errors are reported at the module; nothing when
/// the module was not planned.
std::optional<policy::Policy> policyRecordedOn(ModuleOp module);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PLANWITHPOLICY_H
