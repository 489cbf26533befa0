//===- ModelLoader.cpp - read a model into the ascend dialect -------------===//

#include "ModelLoader.h"

#include "AscendPrec/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"

namespace ascendprec::driver {

mlir::OwningOpRef<mlir::ModuleOp> loadModel(const std::string &path,
                                            llvm::SourceMgr &sourceMgr,
                                            mlir::MLIRContext &context) {
  mlir::Location fileLoc = mlir::FileLineColLoc::get(&context, path, 0, 0);
  llvm::StringRef extension = llvm::StringRef(path).rsplit('.').second;
  if (extension == "onnx")
    return mlir::ascendprec::importONNXFile(path, &context);
  if (extension != "mlir") {
    mlir::emitError(fileLoc) << "unsupported model file '" << path
                             << "'; expected .onnx or .mlir (ascend dialect)";
    return {};
  }
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    mlir::emitError(fileLoc) << "cannot read '" << path
                             << "': " << buffer.getError().message();
    return {};
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
}

} // namespace ascendprec::driver
