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

/// Prints the session's diagnostics (Session::Observer::diagnostic) as a
/// user reads them: node names escaped, a binary model named by file and
/// node, no "see current operation" notes, --log's level.
class DiagnosticPrinter {
public:
  /// Diagnostics are wrapped to `wrapWidth` columns (0: not wrapped). With
  /// `groupRemarks` (--explain), remarks are kept and printed by
  /// printExplanations, one block per node.
  /// `sources`: the source manager text models are parsed with (carets).
  DiagnosticPrinter(mlir::MLIRContext &context, llvm::SourceMgr &sources, const LogFilter &log,
                    Progress &progress, unsigned wrapWidth = 0, bool groupRemarks = false);

  /// Prints `diag`, or keeps it for printExplanations (a remark with
  /// groupRemarks).
  void print(mlir::Diagnostic &diag);

  /// The remarks kept so far, one block per node in the order the nodes
  /// were first explained, each wrapped to `width` columns; then forgets
  /// them. Prints nothing when there are none.
  void printExplanations(unsigned width);

private:
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
  mlir::SourceMgrDiagnosticHandler printer;
};

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PRECCOMPILE_DIAGNOSTICPRINTER_H
