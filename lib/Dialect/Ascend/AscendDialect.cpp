//===- AscendDialect.cpp - `ascend` dialect registration ------------------===//

#include "AscendPrec/Dialect/Ascend/AscendOps.h"

using namespace mlir;
using namespace mlir::ascend;

#include "AscendPrec/Dialect/Ascend/AscendDialect.cpp.inc"
#include "AscendPrec/Dialect/Ascend/AscendEnums.cpp.inc"

void AscendDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "AscendPrec/Dialect/Ascend/AscendOps.cpp.inc"
      >();
  registerAttributes();
}
