//===- ONNXTranslation.cpp - --import-onnx for prec-translate -------------===//

#include "AscendPrec/Target/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/SourceMgr.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

using namespace mlir;
using namespace ascendprec;

void ascendprec::registerImportONNXTranslation() {
  TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model into the ascend dialect",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) -> OwningOpRef<Operation *> {
        // The input file's name, so that diagnostics name it ("-" for stdin).
        const llvm::MemoryBuffer *input = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        OwningOpRef<ModuleOp> module =
            importONNX(input->getBuffer(), input->getBufferIdentifier(), context);
        return OwningOpRef<Operation *>(module.release().getOperation());
      },
      [](DialectRegistry &registry) {
        registry.insert<ascend::AscendDialect, func::FuncDialect>();
      });
}
