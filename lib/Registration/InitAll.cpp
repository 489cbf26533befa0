//===- InitAll.cpp - one registration helper for every AscendPrec tool ----===//

#include "AscendPrec/InitAll.h"
#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void ascendprec::registerAllAscendPrecDialects(mlir::DialectRegistry &registry) {
  registry.insert<ascend::AscendDialect, kernel::KernelDialect, func::FuncDialect,
                  arith::ArithDialect, tosa::TosaDialect, scf::SCFDialect,
                  memref::MemRefDialect, math::MathDialect>();
}

void ascendprec::registerAllAscendPrecPasses() {
  ascendprec::ascend::registerAscendPrecPassesAndPipelines();
  ascendprec::registerAscendPrecConversionPasses();
  ascendprec::registerLowerToKernelPipeline();
  ascendprec::registerKernelToLLVMPipeline();
  registerCanonicalizerPass();
  registerCSEPass();
}
