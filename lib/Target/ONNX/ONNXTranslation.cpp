//===- ONNXTranslation.cpp - --import-onnx for prec-translate -------------===//

#include "AscendPrec/Target/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "AscendPrec/Dialect/Ascend/AscendOps.h"

using namespace mlir;

void mlir::ascendprec::registerImportONNXTranslation() {
  TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model into the ascend dialect",
      [](llvm::StringRef bytes, MLIRContext *context) -> OwningOpRef<Operation *> {
        OwningOpRef<ModuleOp> module = importONNX(bytes, "<input>", context);
        return OwningOpRef<Operation *>(module.release().getOperation());
      },
      [](DialectRegistry &registry) {
        registry.insert<ascend::AscendDialect, func::FuncDialect>();
      });
}
