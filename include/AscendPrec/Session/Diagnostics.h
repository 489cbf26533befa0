//===- Diagnostics.h - the engine's view of MLIR diagnostics --------------===//
//
// While a session loads, plans and lowers a model, every MLIR diagnostic
// passes through a DiagnosticCollector: it counts the errors (and those
// that report a contract rule, which are the user's), keeps the warnings
// raised while loading and lowering for the report, keeps each diagnostic
// as a structured record for front ends that do not print (Python), and
// hands the diagnostic on to the front end that does (the CLI).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_DIAGNOSTICS_H
#define ASCENDPREC_SESSION_DIAGNOSTICS_H

#include "AscendPrec/Report/Report.h"
#include "AscendPrec/Session/Status.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ascendprec::session {

/// One diagnostic as a front end receives it.
struct Diagnostic {
  enum class Severity { Error, Warning, Note, Remark };
  Severity severity = Severity::Error;
  std::string file; ///< the model or config file, when known
  unsigned line = 0, column = 0;
  std::string node; ///< the node it is about, when known
  std::string rule; ///< the contract rule an error reports (PM-*, KD-*, ...)
  std::string message;
};

/// `diag` as a structured record.
Diagnostic toDiagnostic(mlir::Diagnostic &diag);

/// "file:line:col", "file" or "file (node 'name')" for the report.
std::string describeLocation(mlir::Location loc);

class DiagnosticCollector {
public:
  using Forward = std::function<void(mlir::Diagnostic &)>;

  /// Collects the diagnostics of `context` until destroyed (the handler
  /// registered last is the one MLIR asks first); each is passed on to
  /// `forward` when set. `keepRemarks`: keep remarks as records too
  /// (--explain's; without it they are only forwarded).
  DiagnosticCollector(mlir::MLIRContext &context, Forward forward, bool keepRemarks);

  /// Between the two calls, warnings are kept for the report.
  void startLoading() { loading = true; }
  std::vector<report::ReportData::Diagnostic> stopLoading();

  int errors() const { return errorCount; }
  int errorsWithRule() const { return ruleErrorCount; }
  /// Every diagnostic so far (remarks only with keepRemarks).
  const std::vector<Diagnostic> &records() const { return kept; }

  /// An error for a failure that the diagnostics already reported: the
  /// first error's file, position, node and rule, `reported` set. Without
  /// an error diagnostic, a user error with `fallback` as its message.
  Error firstError(const std::string &fallback) const;

private:
  mlir::LogicalResult handle(mlir::Diagnostic &diag);

  Forward forward;
  bool keepRemarks;
  bool loading = false;
  std::vector<report::ReportData::Diagnostic> loadingWarnings;
  std::vector<Diagnostic> kept;
  int errorCount = 0, ruleErrorCount = 0;
  std::mutex mutex; ///< passes may emit from several threads
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;
};

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_DIAGNOSTICS_H
