//===- Pipelines.cpp - named pass pipelines and registration --------------===//

#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "AscendPrec/Dialect/Ascend/Transforms/CollectReport.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::report;

void ascendprec::ascend::buildGraphPreparePipeline(
    OpPassManager &pm, const GraphPrepareOptions &options) {
  CheckNodeNamesOptions checkOptions;
  checkOptions.renameDuplicates = options.renameDuplicates;
  pm.addPass(createCheckNodeNames(checkOptions));
  // Folds and patterns only. Region simplification would look for
  // unreachable blocks and dead values over the whole graph (a third of
  // canonicalizing a 200k-op graph) but finds nothing the greedy driver has
  // not removed already: a graph is one straight-line block, and If/Loop
  // bodies have no branches between blocks.
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  pm.addPass(createCanonicalizerPass(config));
}

void ascendprec::ascend::buildPrecisionPipeline(
    OpPassManager &pm, const PrecisionPipelineOptions &options) {
  buildPrecisionPipeline(pm, options, nullptr);
}

void ascendprec::ascend::buildPrecisionPipeline(
    OpPassManager &pm, const PrecisionPipelineOptions &options,
    std::shared_ptr<const ::ascendprec::policy::Policy> policy) {
  PlanPrecisionOptions plan;
  plan.sessionOptions = options.sessionOptions;
  plan.explain = options.explain;
  plan.explainOnly.assign(options.explainOnly.begin(), options.explainOnly.end());
  // FU-1: CANN fuses before it selects operators, so planning decides for
  // the fused ops.
  if (policy) {
    pm.addPass(createGraphFusion(policy, options.fusionRespectsPins));
  } else {
    GraphFusionOptions fusion;
    fusion.sessionOptions = options.sessionOptions;
    fusion.respectPins = options.fusionRespectsPins;
    pm.addPass(createGraphFusion(fusion, options.cann.values()));
  }
  if (policy) {
    std::vector<std::string> explainOnly(options.explainOnly.begin(),
                                         options.explainOnly.end());
    pm.addPass(createPlanPrecision(policy, options.explain, explainOnly));
    pm.addPass(createBufferFusion(std::move(policy), options.explain, explainOnly));
  } else {
    pm.addPass(createPlanPrecision(plan, options.cann.values()));
    BufferFusionOptions buffer;
    buffer.sessionOptions = options.sessionOptions;
    pm.addPass(createBufferFusion(buffer, options.cann.values()));
  }
  MaterializePrecisionOptions materialize;
  materialize.keepIoDtypes = options.keepIoDtypes;
  pm.addPass(createMaterializePrecision(materialize));
  pm.addPass(createCleanupCasts());
  if (!options.report.empty()) {
    ReportFiles files = ReportFiles::besides(options.report);
    PrecisionReportOptions report;
    report.report = files.json;
    report.reportText = files.text;
    report.reportDot = files.dot;
    report.reportHtml = files.html;
    report.lockfile = files.lockfile;
    pm.addPass(createPrecisionReport(report));
  }
}

void ascendprec::ascend::registerAscendPrecPassesAndPipelines() {
  registerAscendPrecPasses();
  PassPipelineRegistration<GraphPrepareOptions>(
      "prec-graph-prepare",
      "Check node names and canonicalize an imported ascend graph",
      buildGraphPreparePipeline);
  PassPipelineRegistration<PrecisionPipelineOptions>(
      "prec-precision-pipeline",
      "Plan, materialize and clean up precision (and write the report)",
      [](OpPassManager &pm, const PrecisionPipelineOptions &options) {
        buildPrecisionPipeline(pm, options);
      });
}
