//===- DiagnosticPrinter.h - how prec-compile shows MLIR diagnostics ------===//

#ifndef ASCENDPREC_TOOLS_PRECCOMPILE_DIAGNOSTICPRINTER_H
#define ASCENDPREC_TOOLS_PRECCOMPILE_DIAGNOSTICPRINTER_H

#include "AtcOptions.h"
#include "Progress.h"

#include "AscendPrec/Report/Report.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace ascendprec::driver {

/// Handles every diagnostic of `context` while it lives: prints it as a user
/// reads it (node names escaped, a binary model named by file and node, no
/// "see current operation" notes, --log's level), counts errors apart from
/// those that report a rule (user errors), and keeps the warnings raised
/// while loading the model for the report.
class DiagnosticPrinter {
public:
  /// Diagnostics are wrapped to `wrapWidth` columns (0: not wrapped). With
  /// `groupRemarks` (--explain), remarks are kept and printed by
  /// printExplanations, one block per node.
  DiagnosticPrinter(mlir::MLIRContext &context, const LogFilter &log, Progress &progress,
                    unsigned wrapWidth = 0, bool groupRemarks = false);

  /// The source manager text models are parsed with (for carets).
  llvm::SourceMgr &sourceMgr() { return sources; }

  /// Between the two calls, warnings are kept for the report (ONNX import's,
  /// the kernel lowering's).
  void startLoading() { loading = true; }
  std::vector<ascendprec::report::ReportData::Diagnostic> stopLoading();

  /// The remarks kept so far, one block per node in the order the nodes
  /// were first explained, each wrapped to `width` columns; then forgets
  /// them. Prints nothing when there are none.
  void printExplanations(unsigned width);

  int errors() const { return errorCount; }
  /// Errors tagged with the rule they report (Transforms/RuleDiagnostics.h).
  int errorsWithRule() const { return ruleErrorCount; }

private:
  mlir::LogicalResult handle(mlir::Diagnostic &diag);
  void show(mlir::Diagnostic &diag);
  /// Keeps a remark for printExplanations, under the node it names.
  void keep(mlir::Diagnostic &diag);

  /// One node's remarks, in the order the passes made them.
  struct Explanation {
    std::string node;     ///< empty: remarks about the model as a whole
    std::string location; ///< "file:line:col" for a text model, else empty
    std::vector<std::string> remarks;
  };

  const LogFilter &log;
  Progress &progress;
  unsigned wrapWidth;
  bool groupRemarks;
  std::string modelFile; ///< the file the first kept remark names
  std::vector<Explanation> explanations;
  llvm::StringMap<size_t> explanationOf; ///< node -> index in explanations
  llvm::SourceMgr sources;
  mlir::SourceMgrDiagnosticHandler printer;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;
  bool loading = false;
  std::vector<ascendprec::report::ReportData::Diagnostic> importDiagnostics;
  int errorCount = 0, ruleErrorCount = 0;
};

/// "file:line:col", "file" or "file (node 'name')" for the report.
std::string describeLocation(mlir::Location loc);

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PRECCOMPILE_DIAGNOSTICPRINTER_H
