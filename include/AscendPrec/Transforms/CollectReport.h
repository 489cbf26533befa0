//===- CollectReport.h - the precision report, read off planned IR --------===//

#ifndef ASCENDPREC_TRANSFORMS_COLLECTREPORT_H
#define ASCENDPREC_TRANSFORMS_COLLECTREPORT_H

#include "AscendPrec/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::ascendprec {

/// Reads every op's decision and the planning state off the module.
ReportData collectReport(ModuleOp module);

/// Keeps diagnostics from before planning (ONNX import warnings) on the
/// module, so that every report lists them ahead of planning's own.
void recordImportDiagnostics(ModuleOp module,
                             const std::vector<ReportData::Diagnostic> &diagnostics);

} // namespace mlir::ascendprec

#endif // ASCENDPREC_TRANSFORMS_COLLECTREPORT_H
