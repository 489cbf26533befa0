//===- AICpuMaxPool.h - the AI CPU's MaxPool for windows too large --------===//

#ifndef ASCENDPREC_LIB_EXECUTION_AICPUMAXPOOL_H
#define ASCENDPREC_LIB_EXECUTION_AICPUMAXPOOL_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include <string>

namespace ascendprec::exec {

/// A 2-D MaxPool on the AI CPU as CANN's ONNX parser builds it for a window
/// too large for MaxPoolV3 (ST-1): NCHW seen as NHWC, padded with -65504
/// (PadV2's constant) when the model pads, then a VALID max pool. `op`
/// carries ksize, strides and pads.
bool runAICpuMaxPool(kernel::AICPUCallOp op, const runtime::HostTensor &input,
                     runtime::HostTensor &output, std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_LIB_EXECUTION_AICPUMAXPOOL_H
