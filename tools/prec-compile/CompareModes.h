//===- CompareModes.h - --compare-modes: every precision mode, measured ---===//
//
// Plans the imported model under each precision mode, lowers it, estimates
// its device time and runs it against the fp32 reference on the same
// inputs: the table a user needs to pick a mode (PM-13 says the order to
// expect: force_fp16 fastest and least accurate, force_fp32 the opposite).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_COMPAREMODES_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_COMPAREMODES_H

#include "Accuracy.h"

#include "AscendPrec/Policy/Options.h"
#include "AscendPrec/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace ascendprec::driver {

/// What a run feeds the model, shared by every mode.
struct RunInputs {
  std::vector<runtime::HostTensor> inputs;
  std::vector<NamedTensor> expected;
  std::vector<std::string> outputNames;
  std::string from; ///< "random (...)" or the --run folder
};

struct ModeComparisonOptions {
  bool keepIoDtypes = true, fusionRespectsPins = false;
};

/// One row per mode, in PM-13's order; a mode the SoC or the model cannot
/// take is a row with its reason in `note`.
std::vector<report::ReportModeComparison>
compareModes(mlir::ModuleOp imported, const policy::SessionOptions &options,
             const ModeComparisonOptions &planning, const AccuracyRun &run,
             const RunInputs &inputs);

/// The table printed after the report.
std::string modeComparisonTable(const std::vector<report::ReportModeComparison> &modes,
                                const std::string &soc, const std::string &inputsFrom);

/// compare.json.
std::string modeComparisonJson(const std::vector<report::ReportModeComparison> &modes,
                               const std::string &soc, const std::string &inputsFrom);

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_COMPAREMODES_H
