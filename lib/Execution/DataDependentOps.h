//===- DataDependentOps.h - ops whose result size the data decides --------===//
//
// NonZero and NonMaxSuppressionV6 have no kernel here: how many elements
// they write is known only once their inputs are. The host runs them when
// the graph runs, as CANN's graph engine runs such ops in dynamic-shape
// mode, and allocates their results then. NonZero is exact; NMS computes
// areas and IoU in the dtype of its boxes' host tensor (fp32, or fp16 data
// held as fp32 values) as CANN's kernel compares them in that dtype.
// The data movement that follows such a result (a Reshape or GatherV2 of
// dynamic shape, as CANN builds Compress from NonZero) runs on the host
// too: it is exact, so the host computes what a kernel would.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_DATADEPENDENTOPS_H
#define ASCENDPREC_LIB_EXECUTION_DATADEPENDENTOPS_H

#include "AscendPrec/Runtime/HostTensor.h"
#include "mlir/IR/Operation.h"

#include <string>
#include <vector>

namespace ascendprec::exec {

/// Whether `op` is run by the host with results sized at run time.
bool isDataDependentOp(mlir::Operation *op);

/// Runs it on `inputs` (its operands' tensors); fills `outputs`, one per
/// result, with their run-time shapes.
bool runDataDependentOp(mlir::Operation *op, const std::vector<const runtime::HostTensor *> &inputs,
                        std::vector<runtime::HostTensor> &outputs, std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_LIB_EXECUTION_DATADEPENDENTOPS_H
