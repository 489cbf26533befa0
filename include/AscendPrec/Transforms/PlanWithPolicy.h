//===- PlanWithPolicy.h - the precision pipeline on a caller's policy -----===//
//
// For drivers that resolve CANN's options themselves (prec-compile does, to
// report option problems once, against the command line): the precision
// pipeline on that policy, without reading the options again. Kept out of
// Passes.h so that header does not bring the plain-C++ `::ascendprec`
// namespace into code that says `using namespace mlir`.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_TRANSFORMS_PLANWITHPOLICY_H
#define ASCENDPREC_TRANSFORMS_PLANWITHPOLICY_H

#include "AscendPrec/Policy/Policy.h"
#include "AscendPrec/Transforms/Passes.h"

#include <memory>

namespace mlir::ascendprec {

/// prec-plan-precision on `policy` (its CANN options are ignored), with
/// explain remarks for every op, or only for `explainOnly` (node names and
/// `OpType::<type>` entries) when that is not empty.
std::unique_ptr<Pass>
createPlanPrecision(std::shared_ptr<const ::ascendprec::policy::Policy> policy,
                    bool explain, ArrayRef<std::string> explainOnly = {});

/// buildPrecisionPipeline with prec-plan-precision on `policy`; the CANN
/// options in `options` are not read.
void buildPrecisionPipeline(OpPassManager &pm, const PrecisionPipelineOptions &options,
                            std::shared_ptr<const ::ascendprec::policy::Policy> policy);

} // namespace mlir::ascendprec

#endif // ASCENDPREC_TRANSFORMS_PLANWITHPOLICY_H
