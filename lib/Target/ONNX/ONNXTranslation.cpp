//===- ONNXTranslation.cpp - --import-onnx for prec-translate -------------===//

#include "AscendPrec/Target/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

using namespace mlir;
using namespace ascendprec;

namespace {
/// What a node ATC's ONNX parser has no plugin for (E13010) is: prec-compile
/// --atc-refusals spelled the same.
enum class AtcRefusalMode { Warn, Error };
} // namespace

void ascendprec::registerImportONNXTranslation() {
  // Made when the translation is registered, before the command line is
  // parsed; a library-level static would exist in every embedding tool.
  static llvm::cl::opt<int> graphRunMode(
      "graph-run-mode",
      llvm::cl::desc("CANN's graph_run_mode: 1 imports a training graph (losses as "
                     "CANN's NLLLoss)"),
      llvm::cl::init(0));
  static llvm::cl::opt<AtcRefusalMode> atcRefusals(
      "atc-refusals",
      llvm::cl::desc("a node CANN's ONNX parser has no plugin for (ATC's E13010)"),
      llvm::cl::values(clEnumValN(AtcRefusalMode::Warn, "warn", "a warning (default)"),
                       clEnumValN(AtcRefusalMode::Error, "error",
                                  "an error: the import fails, as ATC does")),
      llvm::cl::init(AtcRefusalMode::Warn));
  TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model into the ascend dialect",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) -> OwningOpRef<Operation *> {
        // The input file's name, so that diagnostics name it ("-" for stdin).
        const llvm::MemoryBuffer *input = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        ONNXImportOptions options;
        options.trainingGraph = graphRunMode == 1;
        options.atcRefusalsAreErrors = atcRefusals.getValue() == AtcRefusalMode::Error;
        OwningOpRef<ModuleOp> module =
            importONNX(input->getBuffer(), input->getBufferIdentifier(), context, nullptr, options);
        return OwningOpRef<Operation *>(module.release().getOperation());
      },
      [](DialectRegistry &registry) {
        registry.insert<ascend::AscendDialect, func::FuncDialect>();
      });
}
