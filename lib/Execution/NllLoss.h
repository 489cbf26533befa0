//===- NllLoss.h - the nll_loss kernel on the host --------------*- C++ -*-===//
//
// CANN's NLLLoss is a TIK kernel on fp32 data; here it is an `nll_loss`
// kernel computed on the host (NllLoss.cpp) in the kernel's fp32.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_NLLLOSS_H
#define ASCENDPREC_LIB_EXECUTION_NLLLOSS_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace ascendprec::exec {

bool canRunNllLoss(kernel::DmaOp op, std::string &why);
bool runNllLoss(kernel::DmaOp op, llvm::ArrayRef<const runtime::HostTensor *> inputs,
                llvm::ArrayRef<runtime::HostTensor *> outputs, std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_LIB_EXECUTION_NLLLOSS_H
