//===- HostKernels.h - a plan's kernels lowered for the host executor -----===//
//
// A run executes the plan's kernels on the host. The device's cube tiles
// are sized for 20-odd AI Cores, and the executor pays a round of runtime
// calls per tile whatever its size, so a run lowers its own copy of the
// plan with larger M tiles and the device's K tiling: the same bits, a
// fraction of the tiles (docs/execution.md). The report's estimates stay
// the device kernels'.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_HOSTKERNELS_H
#define ASCENDPREC_SESSION_HOSTKERNELS_H

#include "AscendPrec/Policy/Policy.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ascendprec::session {

/// The tiles a host cube kernel is left with for `threads` threads: two
/// per thread, and at least eight.
int64_t hostBlocksFor(unsigned threads);

/// Lowers `planned` (a planned graph, lowered in place) to kernels for the
/// host executor under `policy`; false with `why` when the lowering fails.
bool lowerForHost(mlir::ModuleOp planned, std::shared_ptr<const policy::Policy> policy,
                  int64_t hostBlocks, std::string &why);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_HOSTKERNELS_H
