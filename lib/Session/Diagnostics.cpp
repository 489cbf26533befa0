//===- Diagnostics.cpp - the engine's view of MLIR diagnostics ------------===//

#include "AscendPrec/Session/Diagnostics.h"

#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"
#include "AscendPrec/Policy/Diagnostics.h"

#include "mlir/IR/Location.h"

namespace ascendprec::session {

std::string describeLocation(mlir::Location loc) {
  std::string node;
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc)) {
    node = name.getName().str();
    loc = name.getChildLoc();
  }
  std::string where;
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    where = file.getFilename().str() +
            (file.getLine() ? ":" + std::to_string(file.getLine()) + ":" +
                                  std::to_string(file.getColumn())
                            : "");
  if (!node.empty())
    where += (where.empty() ? "" : " ") + std::string("(node '") + node + "')";
  return policy::escapeForDisplay(where);
}

Diagnostic toDiagnostic(mlir::Diagnostic &diag) {
  Diagnostic record;
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    record.severity = Diagnostic::Severity::Error;
    break;
  case mlir::DiagnosticSeverity::Warning:
    record.severity = Diagnostic::Severity::Warning;
    break;
  case mlir::DiagnosticSeverity::Note:
    record.severity = Diagnostic::Severity::Note;
    break;
  case mlir::DiagnosticSeverity::Remark:
    record.severity = Diagnostic::Severity::Remark;
    break;
  }
  mlir::Location loc = diag.getLocation();
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc)) {
    record.node = name.getName().str();
    loc = name.getChildLoc();
  }
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc)) {
    record.file = file.getFilename().str();
    record.line = file.getLine();
    record.column = file.getColumn();
  }
  record.rule = ascend::taggedRule(diag).str();
  record.message = diag.str();
  return record;
}

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext &context, Forward forward,
                                         bool keepRemarks)
    : forward(std::move(forward)), keepRemarks(keepRemarks) {
  handler = std::make_unique<mlir::ScopedDiagnosticHandler>(
      &context, [this](mlir::Diagnostic &diag) { return handle(diag); });
}

std::vector<report::ReportData::Diagnostic> DiagnosticCollector::stopLoading() {
  std::lock_guard<std::mutex> lock(mutex);
  loading = false;
  return std::move(loadingWarnings);
}

mlir::LogicalResult DiagnosticCollector::handle(mlir::Diagnostic &diag) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    mlir::DiagnosticSeverity severity = diag.getSeverity();
    if (severity == mlir::DiagnosticSeverity::Error) {
      ++errorCount;
      if (!ascend::taggedRule(diag).empty())
        ++ruleErrorCount;
    }
    if (loading && severity == mlir::DiagnosticSeverity::Warning)
      loadingWarnings.push_back(
          {"warning", "", describeLocation(diag.getLocation()), diag.str()});
    if (severity != mlir::DiagnosticSeverity::Remark || keepRemarks)
      kept.push_back(toDiagnostic(diag));
  }
  if (forward)
    forward(diag);
  return mlir::success();
}

Error DiagnosticCollector::firstError(const std::string &fallback) const {
  Error error;
  error.reported = true;
  error.message = fallback;
  for (const Diagnostic &record : kept)
    if (record.severity == Diagnostic::Severity::Error) {
      error.file = record.file;
      error.line = record.line;
      error.column = record.column;
      error.node = record.node;
      error.rule = record.rule;
      error.message = record.message;
      break;
    }
  return error;
}

} // namespace ascendprec::session
