//===- main.cpp - embeds AscendPrec through its installed package ---------===//
//
// Registers AscendPrec's dialects and passes, parses a graph, runs the
// prec-graph-prepare pipeline and answers interface questions per op.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static constexpr const char *kGraph = R"mlir(
func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w16 = ascend.Const dense<0.5> : tensor<4x3x3x3xf16> {name = "conv1.weight"}
  %w = ascend.Cast %w16 {name = "conv1.weight.cast"} : tensor<4x3x3x3xf16> to tensor<4x3x3x3xf32>
  %c = ascend.Conv2D %x, %w {name = "conv1", strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = ascend.Relu %c {name = "relu1"} : tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}
)mlir";

int main() {
  ascendprec::registerAllAscendPrecPasses();
  mlir::DialectRegistry registry;
  ascendprec::registerAllAscendPrecDialects(registry);
  mlir::MLIRContext context(registry);

  auto module = mlir::parseSourceString<mlir::ModuleOp>(kGraph, &context);
  if (!module)
    return 1;
  // parsePassPipeline(text, pm) adds `text` inside pm's anchor, so the text
  // names the pipeline alone ("builtin.module(...)" would nest one level deeper
  // and run on nothing).
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
  if (mlir::failed(mlir::parsePassPipeline("prec-graph-prepare", pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;

  module->walk([](ascendprec::ascend::AscendOpInterface op) {
    llvm::outs() << op.getNodeName() << ": " << op.getOpType() << " on "
                 << ascendprec::ascend::stringifyComputeUnit(op.getComputeUnit())
                 << "\n";
  });
  return 0;
}
