//===- Passes.h - AscendPrec conversion passes ----------------------------===//

#ifndef ASCENDPREC_CONVERSION_PASSES_H
#define ASCENDPREC_CONVERSION_PASSES_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "mlir/Pass/Pass.h"

namespace ascendprec {

#define GEN_PASS_DECL
#include "AscendPrec/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "AscendPrec/Conversion/Passes.h.inc"

} // namespace ascendprec

#endif // ASCENDPREC_CONVERSION_PASSES_H
