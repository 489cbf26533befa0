//===- MLIR.h - MLIR's names inside the project namespace -----------------===//
//
// AscendPrec's code lives in `namespace ascendprec`, with nested namespaces
// that match the folders (ascend, policy, report, onnximport, driver). Code
// that works on IR names MLIR's classes (Value, Operation, OpBuilder, ...)
// unqualified, as code inside `namespace mlir` does; CIRCT's Support/LLVM.h
// makes the same choice for `namespace circt`. The plain-C++ policy library
// does not include this header.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SUPPORT_MLIR_H
#define ASCENDPREC_SUPPORT_MLIR_H

#include "mlir/Support/LLVM.h"

namespace ascendprec {
using namespace mlir; // NOLINT(google-build-using-namespace)
} // namespace ascendprec

#endif // ASCENDPREC_SUPPORT_MLIR_H
