//===- HostRun.h - a plan run on the host against its fp32 reference -----===//
//
// Runs the lowered plan and its fp32 reference on prepared inputs
// (RunInputs.h), gives the report each op's measured error, stages the
// run's files (run/output_<i>.pb, accuracy.json), and says what was
// measured in a few lines.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_HOSTRUN_H
#define ASCENDPREC_SESSION_HOSTRUN_H

#include "AscendPrec/Session/Accuracy.h"
#include "AscendPrec/Session/OutputFolder.h"
#include "AscendPrec/Session/RunInputs.h"
#include "AscendPrec/Session/Status.h"

#include "AscendPrec/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace ascendprec::session {

/// Runs `kernels` (lowered, with a graph function: prepareRunInputs took
/// its inputs) and its fp32 reference on `prepared`. A user error when the plan has ops the host
/// cannot run (each listed in the error's details) or the values do not fit
/// the model (an index out of range).
Status runOnHost(mlir::ModuleOp kernels, const AccuracyRun &run, const RunInputs &prepared,
                 std::optional<AccuracyResult> &accuracy);

/// The report's measured columns: each op's error, the outputs' accuracy,
/// where the error jumps.
void recordAccuracy(const AccuracyResult &accuracy, report::ReportData &report);

/// Stages run/output_<i>.pb (the plan's outputs) and accuracy.json in `out`.
Status stageRunFiles(const AccuracyResult &accuracy, const AccuracyRun &run,
                     const RunInputs &prepared, OutputFolder &out);

/// The lines printed after the table: each output's error, where it jumps,
/// the host time. `inputsFrom` is the run folder, empty for random inputs.
std::string accuracySummary(const AccuracyResult &accuracy, const AccuracyRun &run,
                            const std::string &runFolder);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_HOSTRUN_H
