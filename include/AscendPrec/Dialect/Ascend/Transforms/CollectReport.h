//===- CollectReport.h - the precision report, read off planned IR --------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_COLLECTREPORT_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_COLLECTREPORT_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"

namespace ascendprec::ascend {

/// Reads every op's decision and the planning state off the module.
report::ReportData collectReport(ModuleOp module);

/// Keeps diagnostics from before planning (ONNX import warnings) on the
/// module, so that every report lists them ahead of planning's own.
void recordImportDiagnostics(ModuleOp module,
                             const std::vector<report::ReportData::Diagnostic> &diagnostics);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_COLLECTREPORT_H
