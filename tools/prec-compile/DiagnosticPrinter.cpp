//===- DiagnosticPrinter.cpp - how prec-compile shows MLIR diagnostics ----===//

#include "DiagnosticPrinter.h"

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"

#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

namespace ascendprec::driver {


/// "file:line:col", "file" or "file (node 'name')" for the report.
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

namespace {

/// True when `loc` points at a line of a text file (an .mlir model or a
/// config file), which the printer shows with a caret.
bool hasSourceLine(mlir::Location loc) {
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    loc = name.getChildLoc();
  auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc);
  return file && file.getLine() != 0;
}

const char *severityName(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

} // namespace

DiagnosticPrinter::DiagnosticPrinter(mlir::MLIRContext &context, const LogFilter &log,
                                     Progress &progress)
    : log(log), progress(progress), printer(sources, &context, llvm::errs()) {
  handler = std::make_unique<mlir::ScopedDiagnosticHandler>(
      &context, [this](mlir::Diagnostic &diag) { return handle(diag); });
}

std::vector<ascendprec::report::ReportData::Diagnostic> DiagnosticPrinter::stopLoading() {
  loading = false;
  return std::move(importDiagnostics);
}

mlir::LogicalResult DiagnosticPrinter::handle(mlir::Diagnostic &diag) {
  bool isError = diag.getSeverity() == mlir::DiagnosticSeverity::Error;
  if (isError) {
    ++errorCount;
    if (!ascendprec::ascend::taggedRule(diag).empty())
      ++ruleErrorCount;
  }
  if (loading && diag.getSeverity() == mlir::DiagnosticSeverity::Warning)
    importDiagnostics.push_back({"warning", "", describeLocation(diag.getLocation()), diag.str()});
  if (!log.shows(isError ? policy::Severity::Error : policy::Severity::Warning))
    return mlir::success();
  progress.breakLine();
  show(diag);
  // MLIR's "see current operation: <op in generic form>" note is for
  // compiler developers; the message already names the node.
  for (mlir::Diagnostic &note : diag.getNotes())
    if (!llvm::StringRef(note.str()).starts_with("see current operation"))
      show(note);
  return mlir::success();
}

void DiagnosticPrinter::show(mlir::Diagnostic &diag) {
  // Node names (anything an exporter wrote) are escaped: control characters
  // and bytes that are not UTF-8.
  std::string text = policy::escapeForDisplay(diag.str(), /*keepNewlines=*/true);
  if (hasSourceLine(diag.getLocation())) {
    printer.emitDiagnostic(diag.getLocation(), text, diag.getSeverity());
    return;
  }
  // A binary model has no lines: name the file and the node instead of
  // "model.onnx:0:0".
  std::string where = describeLocation(diag.getLocation());
  llvm::errs() << (where.empty() ? "" : where + ": ") << severityName(diag.getSeverity())
               << ": " << text << "\n";
}

} // namespace ascendprec::driver
