//===- Passes.h - AscendPrec transformation passes ------------------------===//

#ifndef ASCENDPREC_TRANSFORMS_PASSES_H
#define ASCENDPREC_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::ascendprec {

#define GEN_PASS_DECL
#include "AscendPrec/Transforms/Passes.h.inc"

/// Options of the `prec-graph-prepare` pipeline.
struct GraphPrepareOptions
    : public PassPipelineOptions<GraphPrepareOptions> {
  PassOptions::Option<bool> renameDuplicates{
      *this, "rename-duplicates",
      llvm::cl::desc("Rename duplicate node names instead of failing"),
      llvm::cl::init(false)};
};

/// Checks node names, then canonicalizes: the clean-up every imported graph
/// gets before planning. (No CSE: two ascend ops always differ in their node
/// names, and merging them would lose one.)
void buildGraphPreparePipeline(OpPassManager &pm,
                               const GraphPrepareOptions &options);

/// Registers every AscendPrec pass (the generated registerAscendPrecPasses())
/// and every named pipeline.
void registerAscendPrecPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "AscendPrec/Transforms/Passes.h.inc"

} // namespace mlir::ascendprec

#endif // ASCENDPREC_TRANSFORMS_PASSES_H
