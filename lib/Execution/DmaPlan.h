//===- DmaPlan.h - a DMA op checked and its params normalized ---------===//
//
// Every DMA kind is planned from the op (buffer shapes and dtypes,
// normalized params) by makePlan, which both canRunDataMovement and
// runDataMovement call, so what the executor accepts is exactly what runs
// (DmaPlanning.cpp). Private to lib/Execution.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_DMAPLAN_H
#define ASCENDPREC_LIB_EXECUTION_DMAPLAN_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace ascendprec::exec::dma {

using runtime::ElementType;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Buffers and params
//===----------------------------------------------------------------------===//

struct Buffer {
  ElementType type = ElementType::F32;
  SmallVector<int64_t, 6> shape;
  int64_t count = 1;
  size_t elementSize() const { return ascendprec::runtime::elementBytes(type); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
};

enum class PadMode { Constant, Reflect, Edge };

/// One DMA op, checked and with its params normalized (axes non-negative,
/// defaults filled in).
struct Plan {
  std::string kind;
  bool boundsCheck = false;
  SmallVector<Buffer, 4> ins, outs;
  int64_t axis = 0;
  int64_t batchDims = 0;
  int64_t blockSize = 1;
  bool crd = false;
  SmallVector<int64_t, 6> perm;
  SmallVector<int64_t, 6> start, step; // slice: first index and stride per dim
  SmallVector<int64_t, 12> paddings;
  PadMode padMode = PadMode::Constant;
  double constantValue = 0.0;
  bool alignCorners = false, halfPixel = false;
  SmallVector<bool, 6> reversed;
  SmallVector<int64_t, 6> multiples;
};

/// "[2, 3]".
std::string shapeString(llvm::ArrayRef<int64_t> shape);
/// An integer type other than i1 (what indices may be).
bool isIndexType(ElementType type);

/// Checks `op` and fills `plan`; false with `why` set when the host cannot
/// run it.
bool makePlan(kernel::DmaOp op, Plan &plan, std::string &why);

} // namespace ascendprec::exec::dma

#endif // ASCENDPREC_LIB_EXECUTION_DMAPLAN_H
