//===- DiagnosticPrinter.h - how prec-compile shows MLIR diagnostics ------===//

#ifndef ASCENDPREC_TOOLS_PRECCOMPILE_DIAGNOSTICPRINTER_H
#define ASCENDPREC_TOOLS_PRECCOMPILE_DIAGNOSTICPRINTER_H

#include "AtcOptions.h"
#include "Progress.h"

#include "AscendPrec/Report/Report.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <vector>

namespace ascendprec::driver {

/// Handles every diagnostic of `context` while it lives: prints it as a user
/// reads it (node names escaped, a binary model named by file and node, no
/// "see current operation" notes, --log's level), counts errors apart from
/// those that report a rule (user errors), and keeps the warnings raised
/// while loading the model for the report.
class DiagnosticPrinter {
public:
  DiagnosticPrinter(mlir::MLIRContext &context, const LogFilter &log, Progress &progress);

  /// The source manager text models are parsed with (for carets).
  llvm::SourceMgr &sourceMgr() { return sources; }

  /// Between the two calls, warnings are kept for the report (ONNX import's,
  /// the kernel lowering's).
  void startLoading() { loading = true; }
  std::vector<ascendprec::report::ReportData::Diagnostic> stopLoading();

  int errors() const { return errorCount; }
  /// Errors tagged with the rule they report (Transforms/RuleDiagnostics.h).
  int errorsWithRule() const { return ruleErrorCount; }

private:
  mlir::LogicalResult handle(mlir::Diagnostic &diag);
  void show(mlir::Diagnostic &diag);

  const LogFilter &log;
  Progress &progress;
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
