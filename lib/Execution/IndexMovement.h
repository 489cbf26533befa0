//===- IndexMovement.h - element-indexed DMA kernels on the host -*- C++ -*-===//
//
// gather_elements, scatter_elements, gather_nd, scatter_nd, triangle and
// cumsum: the DMA kinds that pick elements one by one (IndexMovement.cpp).
// DataMovement.cpp hands these kinds over.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_INDEXMOVEMENT_H
#define ASCENDPREC_LIB_EXECUTION_INDEXMOVEMENT_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace ascendprec::exec {

bool isIndexMovementKind(llvm::StringRef kind);
bool canRunIndexMovement(kernel::DmaOp op, std::string &why);
bool runIndexMovement(kernel::DmaOp op, llvm::ArrayRef<const runtime::HostTensor *> inputs,
                      llvm::ArrayRef<runtime::HostTensor *> outputs, std::string &error);

/// Running sums of `x` along `axis` (negative from the end) into `y` (same
/// shape and dtype): fp32 sums for 16/32-bit floats, fp64 for f64, exact
/// for integers. Shared by the `cumsum` DMA kind and the AI CPU Cumsum.
bool runCumsum(const runtime::HostTensor &x, int64_t axis, bool exclusive, bool reverse,
               runtime::HostTensor &y, std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_LIB_EXECUTION_INDEXMOVEMENT_H
