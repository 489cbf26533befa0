//===- ModelLoader.cpp - read a model into the ascend dialect -------------===//

#include "AscendPrec/Session/ModelLoader.h"

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/InputFile.h"
#include "AscendPrec/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace ascendprec::session {

mlir::OwningOpRef<mlir::ModuleOp>
loadModel(const std::string &path, llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
          const ascendprec::ONNXImportOptions &importOptions,
          ascendprec::ONNXImportStats *stats) {
  mlir::Location fileLoc = mlir::FileLineColLoc::get(&context, path, 0, 0);
  if (llvm::sys::fs::is_directory(path)) {
    mlir::emitError(fileLoc) << "cannot read the model '" << policy::escapeForDisplay(path)
                             << "': it is a folder, not a file";
    return {};
  }
  // A mistyped path says so first, whatever its extension or options.
  if (!llvm::sys::fs::exists(path)) {
    mlir::emitError(fileLoc) << "cannot read the model '" << policy::escapeForDisplay(path)
                             << "': no such file";
    return {};
  }
  // The extension's case does not matter: model.ONNX is an ONNX model.
  std::string extension = llvm::StringRef(path).rsplit('.').second.lower();
  if (extension == "onnx")
    return ascendprec::importONNXFile(path, &context, stats, importOptions);
  if (extension != "mlir") {
    mlir::emitError(fileLoc) << "unsupported model file '"
                             << policy::escapeForDisplay(path)
                             << "'; expected .onnx or .mlir (ascend dialect)";
    return {};
  }
  if (!importOptions.inputShapes.empty()) {
    mlir::emitError(fileLoc) << "--input_shape applies to ONNX models; an .mlir model's "
                                "shapes are its function's types";
    return {};
  }
  // A regular file, read up to the size it had when opened.
  std::string why;
  std::optional<policy::InputFile> file = policy::InputFile::open(path, why);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      std::make_error_code(std::errc::io_error);
  if (file) {
    buffer = llvm::MemoryBuffer::getOpenFile(file->descriptor(), path, file->size(),
                                             /*RequiresNullTerminator=*/true);
    if (!buffer)
      why = buffer.getError().message();
  }
  if (!file || !buffer) {
    mlir::emitError(fileLoc) << "cannot read the model '" << policy::escapeForDisplay(path)
                             << "': " << why;
    return {};
  }
  // A byte-order mark or CR-only line ends (MLIR's lexer would count every
  // line as line 1) are normalized on a copy; other files are used as read.
  llvm::StringRef text = (*buffer)->getBuffer();
  if (text.starts_with("\xEF\xBB\xBF") || text.contains('\r'))
    *buffer = llvm::MemoryBuffer::getMemBufferCopy(
        policy::normalizeConfigText(text.str()), path);
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
}

} // namespace ascendprec::session
