//===- CompareModes.h - --compare-modes: every precision mode, measured ---===//
//
// Plans the imported model under each precision mode, lowers it, estimates
// its device time and runs it against the fp32 reference on the same
// inputs: the table a user needs to pick a mode (PM-13 says the order to
// expect: force_fp16 fastest and least accurate, force_fp32 the opposite).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_COMPAREMODES_H
#define ASCENDPREC_SESSION_COMPAREMODES_H

#include "AscendPrec/Session/Accuracy.h"
#include "AscendPrec/Session/RunInputs.h"

#include "AscendPrec/Policy/Options.h"
#include "AscendPrec/Policy/Policy.h"
#include "AscendPrec/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ascendprec::session {

struct ModeComparisonOptions {
  bool keepIoDtypes = true, fusionRespectsPins = false;
};

/// The imported model planned under `policy` and lowered to kernels, with
/// its report (estimates attached, always the device kernels'); null with
/// `why` set when planning or lowering fails (the first error, nothing
/// printed). With `hostBlocks` > 0 the kernels returned are lowered for
/// the host executor (HostKernels.h), to be run.
mlir::OwningOpRef<mlir::ModuleOp> planAndLower(mlir::ModuleOp imported,
                                               std::shared_ptr<const policy::Policy> policy,
                                               const ModeComparisonOptions &planning,
                                               report::ReportData &report, std::string &why,
                                               int64_t hostBlocks = 0);

/// Whether a report's dtype name is fp16 or bf16.
bool isLowPrecisionDType(const std::string &dtype);

/// Ops computing in fp16/bf16 in `report`, and inserted Casts.
void countLowPrecision(const report::ReportData &report, int64_t &lowPrecisionOps,
                       int64_t &casts);

/// The modes --compare-modes tries, fastest first (PM-13's order, then
/// the modes only some SoCs take).
const std::vector<std::string> &comparedModes();

/// One row per mode, in PM-13's order; a mode the SoC or the model cannot
/// take is a row with its reason in `note`. With `outputs`, each row's
/// per-output accuracy (empty for a row that did not run).
std::vector<report::ReportModeComparison>
compareModes(mlir::ModuleOp imported, const policy::SessionOptions &options,
             const ModeComparisonOptions &planning, const AccuracyRun &run,
             const RunInputs &inputs,
             std::vector<std::vector<OutputAccuracy>> *outputs = nullptr,
             const std::function<void(const std::string &)> &onStep = {});

/// The table printed after the report.
std::string modeComparisonTable(const std::vector<report::ReportModeComparison> &modes,
                                const std::string &soc, const std::string &inputsFrom);

/// compare.json.
std::string modeComparisonJson(const std::vector<report::ReportModeComparison> &modes,
                               const std::string &soc, const std::string &inputsFrom);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_COMPAREMODES_H
