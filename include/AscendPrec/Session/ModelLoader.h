//===- ModelLoader.h - read a model into the ascend dialect ---------------===//

#ifndef ASCENDPREC_SESSION_MODELLOADER_H
#define ASCENDPREC_SESSION_MODELLOADER_H

#include "AscendPrec/Target/ONNX/ImportONNX.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace ascendprec::session {

/// Reads `.mlir` (ascend dialect) or `.onnx`; reports errors through the
/// context's diagnostics and returns null on failure.
/// `importOptions` (--input_shape) apply to ONNX models; an .mlir model
/// with input shapes is an error. `stats`, when given, gets what the ONNX
/// import counted and found (ATC's refusals); an .mlir model leaves it.
mlir::OwningOpRef<mlir::ModuleOp>
loadModel(const std::string &path, llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
          const ascendprec::ONNXImportOptions &importOptions = {},
          ascendprec::ONNXImportStats *stats = nullptr);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_MODELLOADER_H
