//===- prec-opt.cpp - AscendPrec pass driver ------------------------------===//
//
// mlir-opt for AscendPrec: the `ascend`, func, arith and tosa dialects and
// AscendPrec's own passes, nothing else. `--print-policy` with CANN options
// prints the resolved precision policy instead (see PrintPolicy.h).
//
//===----------------------------------------------------------------------===//

#include "PrintPolicy.h"

#include "AscendPrec/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  if (ascendprec::wantsPrintPolicy(argc, argv))
    return ascendprec::runPrintPolicy(argc, argv);
  ascendprec::registerAllAscendPrecPasses();
  mlir::DialectRegistry registry;
  ascendprec::registerAllAscendPrecDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "AscendPrec optimizer driver\n", registry));
}
