//===- Passes.h - AscendPrec transformation passes ------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PASSES_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PASSES_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include "AscendPrec/Dialect/Ascend/Transforms/CannPassOptions.h"

namespace ascendprec::ascend {

#define GEN_PASS_DECL
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"

/// prec-plan-precision with CANN's options `cann` (table names), which
/// PlanPrecisionOptions cannot hold: they are declared from the table.
std::unique_ptr<Pass> createPlanPrecision(const PlanPrecisionOptions &options,
                                          const CannOptionValues &cann);

/// prec-graph-fusion with CANN's options `cann` (table names).
std::unique_ptr<Pass> createGraphFusion(const GraphFusionOptions &options,
                                        const CannOptionValues &cann);

/// prec-buffer-fusion with CANN's options `cann` (table names).
std::unique_ptr<Pass> createBufferFusion(const BufferFusionOptions &options,
                                         const CannOptionValues &cann);

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

/// Options of the `prec-precision-pipeline`: CANN's option names, plus
/// where to write the report.
struct PrecisionPipelineOptions
    : public PassPipelineOptions<PrecisionPipelineOptions> {
  /// soc_version, precision_mode, ...: every pass option of the option table.
  CannPassOptions cann{*this};
  PassOptions::Option<std::string> sessionOptions{
      *this, "session_options",
      llvm::cl::desc("JSON file of CANN options (the options above win)")};
  PassOptions::Option<bool> fusionRespectsPins{
      *this, "fusion-respects-pins",
      llvm::cl::desc("Skip a fusion that would absorb a customize_dtypes or keep_dtype "
                     "node (AscendPrec's extension, FU-2)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> explain{
      *this, "explain", llvm::cl::desc("One remark per op saying why"),
      llvm::cl::init(false)};
  PassOptions::ListOption<std::string> explainOnly{
      *this, "explain-only",
      llvm::cl::desc("With explain: only these node names and OpType::<type> entries")};
  PassOptions::Option<bool> keepIoDtypes{
      *this, "keep-io-dtypes",
      llvm::cl::desc("Keep the function signature's dtypes"), llvm::cl::init(true)};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write FILE.json plus FILE.txt, FILE.dot, FILE.html and "
                     "FILE.lock.cfg (the lockfile)")};
};

/// prec-graph-fusion, prec-plan-precision, prec-materialize-precision,
/// prec-cleanup-casts and, with `report`, prec-precision-report.
void buildPrecisionPipeline(OpPassManager &pm,
                            const PrecisionPipelineOptions &options);

/// Registers every AscendPrec pass (the generated registerAscendPrecPasses())
/// and every named pipeline.
void registerAscendPrecPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_PASSES_H
