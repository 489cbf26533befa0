//===- RoiAlign.h - the roi_align DMA kind on the host ----------*- C++ -*-===//
//
// CANN's ROIAlign pools bilinear samples of regions of interest; its
// kernel is a `roi_align` DMA kernel here (RoiAlign.cpp), computed the way
// ONNX's reference does, in fp32, each output rounded once.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_ROIALIGN_H
#define ASCENDPREC_LIB_EXECUTION_ROIALIGN_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace ascendprec::exec {

bool canRunRoiAlign(kernel::DmaOp op, std::string &why);
bool runRoiAlign(kernel::DmaOp op, llvm::ArrayRef<const runtime::HostTensor *> inputs,
                 llvm::ArrayRef<runtime::HostTensor *> outputs, std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_LIB_EXECUTION_ROIALIGN_H
