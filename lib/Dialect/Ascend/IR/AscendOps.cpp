//===- AscendOps.cpp - generated `ascend` op definitions ------------------===//
//
// Only the TableGen-generated op definitions live here: they are the largest
// part of the dialect, and keeping them in their own TU keeps rebuilds of the
// hand-written verifiers and folders fast.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Support/AttrDictAssembly.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

#define GET_OP_CLASSES
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.cpp.inc"
