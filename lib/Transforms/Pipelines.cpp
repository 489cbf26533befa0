//===- Pipelines.cpp - named pass pipelines and registration --------------===//

#include "AscendPrec/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ascendprec;

void mlir::ascendprec::buildGraphPreparePipeline(
    OpPassManager &pm, const GraphPrepareOptions &options) {
  CheckNodeNamesOptions checkOptions;
  checkOptions.renameDuplicates = options.renameDuplicates;
  pm.addPass(createCheckNodeNames(checkOptions));
  pm.addPass(createCanonicalizerPass());
}

void mlir::ascendprec::registerAscendPrecPassesAndPipelines() {
  registerAscendPrecPasses();
  PassPipelineRegistration<GraphPrepareOptions>(
      "prec-graph-prepare",
      "Check node names and canonicalize an imported ascend graph",
      buildGraphPreparePipeline);
}
