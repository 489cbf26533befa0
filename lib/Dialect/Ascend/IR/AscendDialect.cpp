//===- AscendDialect.cpp - `ascend` dialect registration ------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.cpp.inc"
#include "AscendPrec/Dialect/Ascend/IR/AscendEnums.cpp.inc"

void AscendDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.cpp.inc"
      >();
  registerAttributes();
}
