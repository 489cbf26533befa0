//===- AscendOps.cpp - generated `ascend` op definitions ------------------===//
//
// Only the TableGen-generated op definitions live here: they are the largest
// part of the dialect, and keeping them in their own TU keeps rebuilds of the
// hand-written verifiers and folders fast.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/AscendOps.h"

using namespace mlir;
using namespace mlir::ascend;

#define GET_OP_CLASSES
#include "AscendPrec/Dialect/Ascend/AscendOps.cpp.inc"
