//===- fuzz-onnx-import.cpp - libFuzzer target: ONNX model import ---------===//
//
// Any byte string given to the importer must end in either a module that
// verifies or at least one error naming the file; never a crash, an abort in
// libonnx, or an ascend op its own verifier rejects.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Target/ONNX/ImportONNX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;
using namespace ascendprec;

namespace {
[[noreturn]] void violated(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n%s\n", what, detail.c_str());
  std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Single-threaded: a thread pool per input would dominate the run time.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  unsigned errors = 0;
  std::string messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    messages += diag.str() + "\n";
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    ++errors;
    auto fileLoc = dyn_cast<FileLineColLoc>(diag.getLocation());
    if (!fileLoc) // node locations are NameLoc("node")[FileLineColLoc]
      if (auto nameLoc = dyn_cast<NameLoc>(diag.getLocation()))
        fileLoc = dyn_cast<FileLineColLoc>(nameLoc.getChildLoc());
    if (!fileLoc || fileLoc.getFilename() != "model.onnx")
      violated("an error that does not name the model file", messages);
    return success();
  });
  OwningOpRef<ModuleOp> module = ascendprec::importONNX(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "model.onnx", &context);
  if (!module && errors == 0)
    violated("rejected model without an error", messages);
  if (module && failed(verify(*module)))
    violated("imported module does not verify", messages);
  return 0;
}
