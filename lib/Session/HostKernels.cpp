//===- HostKernels.cpp - a plan's kernels lowered for the host executor ---===//

#include "AscendPrec/Session/HostKernels.h"

#include "AscendPrec/Conversion/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>

using namespace ascendprec;

int64_t session::hostBlocksFor(unsigned threads) {
  // Two tiles per thread let a thread that finishes first take work from
  // one still busy; eight keep the tiles of a 2-thread run small enough
  // that the blocks of unequal tiles even out.
  return std::max<int64_t>(8, 2 * static_cast<int64_t>(std::max(threads, 1u)));
}

bool session::lowerForHost(mlir::ModuleOp planned, std::shared_ptr<const policy::Policy> policy,
                           int64_t hostBlocks, std::string &why) {
  mlir::MLIRContext *context = planned.getContext();
  // The device lowering already said what it had to (ops it cannot lower
  // are kept the same way here): this one prints nothing.
  mlir::ScopedDiagnosticHandler quiet(context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error && why.empty())
      why = diag.str();
    return mlir::success();
  });
  mlir::PassManager pm(context);
  pm.addPass(createConvertAscendToKernel(std::move(policy), /*allowUnlowered=*/true,
                                         /*explain=*/false, {}, hostBlocks));
  pm.enableVerifier(false);
  if (mlir::failed(pm.run(planned)) || mlir::failed(mlir::verify(planned))) {
    if (why.empty())
      why = "lowering for the host failed";
    return false;
  }
  return true;
}
