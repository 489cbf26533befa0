//===- KernelDialect.cpp - `akernel` registration, target and spaces ------===//

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Support/AttrDictAssembly.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

#include "AscendPrec/Dialect/Kernel/IR/KernelDialect.cpp.inc"
#include "AscendPrec/Dialect/Kernel/IR/KernelEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "AscendPrec/Dialect/Kernel/IR/KernelAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.cpp.inc"

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "AscendPrec/Dialect/Kernel/IR/KernelAttrs.cpp.inc"
      >();
}

int64_t TargetAttr::capacity(MemorySpace space) const {
  switch (space) {
  case MemorySpace::GM:
    return 0;
  case MemorySpace::L1:
    return getL1();
  case MemorySpace::L0A:
    return getL0a();
  case MemorySpace::L0B:
    return getL0b();
  case MemorySpace::L0C:
    return getL0c();
  case MemorySpace::UB:
    return getUb();
  }
  return 0;
}

bool TargetAttr::cubeTakes(Type type) const {
  return llvm::any_of(getCubeInputs(), [&](Attribute entry) {
    auto typeAttr = dyn_cast<TypeAttr>(entry);
    return typeAttr && typeAttr.getValue() == type;
  });
}

std::optional<MemorySpace> ascendprec::kernel::memorySpaceOf(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref)
    return std::nullopt;
  if (auto space = dyn_cast_or_null<MemorySpaceAttr>(memref.getMemorySpace()))
    return space.getValue();
  return std::nullopt;
}

TargetAttr ascendprec::kernel::targetOf(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>("akernel.target"))
      return target;
  return {};
}
