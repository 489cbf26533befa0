//===- InitAll.h - one registration helper for every AscendPrec tool ------===//
//
// Tools and embedders call these instead of registering dialects and passes
// one by one, and never registerAllPasses().
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_INITALL_H
#define ASCENDPREC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ascendprec {
using mlir::DialectRegistry;

/// Adds the `ascend` dialect and the upstream dialects AscendPrec reads or
/// produces (func, arith, tosa) to `registry`.
void registerAllAscendPrecDialects(DialectRegistry &registry);

/// Registers AscendPrec's passes and pipelines plus the few upstream passes
/// its pipelines use (canonicalize, cse).
void registerAllAscendPrecPasses();
} // namespace ascendprec

#endif // ASCENDPREC_INITALL_H
