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

/// Options of the `prec-precision-pipeline`: CANN's option names, plus
/// where to write the report.
struct PrecisionPipelineOptions
    : public PassPipelineOptions<PrecisionPipelineOptions> {
#define ASCENDPREC_CANN_OPTION(field, name, help)                               \
  PassOptions::Option<std::string> field{*this, name, llvm::cl::desc(help)};
  ASCENDPREC_CANN_OPTION(socVersion, "soc_version", "target SoC (required)")
  ASCENDPREC_CANN_OPTION(graphRunMode, "graph_run_mode", "0 inference, 1 training")
  ASCENDPREC_CANN_OPTION(precisionMode, "precision_mode", "precision mode")
  ASCENDPREC_CANN_OPTION(precisionModeV2, "precision_mode_v2", "precision mode (v2 names)")
  ASCENDPREC_CANN_OPTION(modifyMixlist, "modify_mixlist", "modify_mixlist JSON")
  ASCENDPREC_CANN_OPTION(keepDtype, "keep_dtype", "keep_dtype file")
  ASCENDPREC_CANN_OPTION(customizeDtypes, "customize_dtypes", "customize_dtypes file")
  ASCENDPREC_CANN_OPTION(opSelectImplmode, "op_select_implmode", "impl mode (deprecated)")
  ASCENDPREC_CANN_OPTION(optypelistForImplmode, "optypelist_for_implmode",
                         "op types for op_select_implmode")
  ASCENDPREC_CANN_OPTION(opPrecisionMode, "op_precision_mode", "op_precision_mode .ini")
  ASCENDPREC_CANN_OPTION(opsInfoDir, "ops_info_dir", "operator-library directory")
  ASCENDPREC_CANN_OPTION(sessionOptions, "session_options", "session options JSON")
#undef ASCENDPREC_CANN_OPTION
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

/// prec-plan-precision, prec-materialize-precision, prec-cleanup-casts and,
/// with `report`, prec-precision-report.
void buildPrecisionPipeline(OpPassManager &pm,
                            const PrecisionPipelineOptions &options);

/// Registers every AscendPrec pass (the generated registerAscendPrecPasses())
/// and every named pipeline.
void registerAscendPrecPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "AscendPrec/Transforms/Passes.h.inc"

} // namespace mlir::ascendprec

#endif // ASCENDPREC_TRANSFORMS_PASSES_H
