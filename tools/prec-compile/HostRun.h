//===- HostRun.h - prec-compile --run: inputs, the run, what it prints ----===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_HOSTRUN_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_HOSTRUN_H

#include "Accuracy.h"
#include "CompareModes.h"
#include "OutputFolder.h"

#include "AscendPrec/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace ascendprec::driver {

/// --run: reads the run folder (`runFolder`; empty for seeded random
/// inputs) into `prepared`, runs the plan and its fp32 reference, stages
/// run/output_<i>.pb and accuracy.json in `out`, and gives the report each
/// op's error. Returns an ExitCode, having printed the error.
int runOnHost(mlir::ModuleOp kernels, const std::string &runFolder, const AccuracyRun &run,
              report::ReportData &report, OutputFolder &out, RunInputs &prepared,
              std::optional<AccuracyResult> &accuracy);

/// The lines printed after the table: each output's error, where it jumps,
/// the host time.
std::string accuracySummary(const AccuracyResult &accuracy, const AccuracyRun &run,
                            const std::string &runFolder);

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_HOSTRUN_H
