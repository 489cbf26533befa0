//===- AICpuOps.h - AI CPU kernels run on the host ------------------------===//
//
// The AI CPU is a general-purpose core: its kernels compute in the op's
// dtype with IEEE arithmetic (no fp16 vector unit, no saturation). The host
// runs the elementwise ones: each element computed in double and rounded
// once to the output dtype, which is the correctly rounded result for
// + - * / and sqrt in fp32 and fp64 alike; integers use integer arithmetic.
// Binary ops broadcast as NumPy does. Einsum (Einsum.h) sums its products
// in double and rounds each output element once.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_EXECUTION_AICPUOPS_H
#define ASCENDPREC_EXECUTION_AICPUOPS_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace ascendprec::exec {

/// Whether the host runs this AI CPU op; `why` says why not.
bool canRunAICpu(kernel::AICPUCallOp op, unsigned numOutputs, std::string &why);

/// Runs it: `inputs` are the launch's operands, `outputs` its results.
bool runAICpu(kernel::AICPUCallOp op, llvm::ArrayRef<const runtime::HostTensor *> inputs,
              llvm::ArrayRef<runtime::HostTensor *> outputs, std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_AICPUOPS_H
