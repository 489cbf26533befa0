//===- PrecisionSearch.h - --search-precision: the fastest plan that is
//                         accurate enough ------------------------------===//
//
// Starts from the fastest precision mode (or the one the user set), runs
// it against the fp32 reference, and keeps ops in their origin dtype (fp32)
// where their low precision costs the most accuracy, most harmful first and
// cheapest first among equals, until the accuracy target holds; then tries
// to drop each raised op again, most expensive first. Every plan is
// expressed through the CANN files the search writes (keep_dtype, a
// modify_mixlist black list), so what was measured is what CANN is given.
// docs/reference/precision-search.md describes the algorithm.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_PRECISIONSEARCH_H
#define ASCENDPREC_SESSION_PRECISIONSEARCH_H

#include "AscendPrec/Session/Accuracy.h"
#include "AscendPrec/Session/CompareModes.h"

#include "AscendPrec/Policy/AccuracyTarget.h"
#include "AscendPrec/Policy/PrecisionEdits.h"
#include "AscendPrec/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ascendprec::session {

struct SearchSettings {
  policy::AccuracyTarget target;
  /// Plans run (the start included); --search-budget.
  unsigned budget = 24;
  ModeComparisonOptions planning;
  /// Called before each plan the search runs ("run 3 of 24"), for progress.
  std::function<void(const std::string &)> onStep;
};

/// One plan the search ran.
struct SearchStep {
  std::string action;                ///< what changed, for humans
  std::vector<std::string> changed;  ///< node names or op types
  size_t raisedOps = 0;              ///< ops kept in their origin dtype
  double estDeviceUs = 0;
  std::vector<OutputAccuracy> outputs;
  bool meets = false;
  bool kept = false;                 ///< the search went on from this plan
  std::string note;                  ///< e.g. why it could not run
};

struct SearchOutcome {
  enum class Kind {
    Found,        ///< the target holds: precisionMode + edits
    BuiltInMode,  ///< not found by raising ops; a built-in mode meets it
    Unreachable,  ///< not even the most precise mode meets it
    Failed,       ///< the start plan could not be planned or run
  } kind = Kind::Failed;
  std::string startMode;              ///< where the search started
  std::string precisionMode;          ///< of the result
  std::string modeOption = "precision_mode"; ///< or precision_mode_v2
  policy::PrecisionEdits edits;       ///< ops and op types raised
  bool typesInMixList = false;        ///< op types go to modify_mixlist
  std::string userKeepDTypeText;      ///< the user's keep_dtype, kept first
  std::vector<SearchStep> steps;
  unsigned evaluations = 0;
  int resultStep = -1;                ///< the step whose plan is the result
  report::ReportData plan;            ///< the result's plan (Found, BuiltInMode)
  std::vector<OutputAccuracy> outputs;
  double estDeviceUs = 0;
  std::string message;                ///< why not Found
  std::string hint;                   ///< a faster built-in mode, when the user set one
  std::vector<std::string> notes;     ///< ops that cannot be raised, etc.
};

/// Checks the target against the model's outputs before any work: every
/// output a condition names exists. Returns the error, or empty.
std::string checkTargetOutputs(const policy::AccuracyTarget &target,
                               const std::vector<std::string> &outputNames);

/// Per condition, its value on `outputs`: the worst over the outputs it
/// applies to (NaN for a cosine that overflowed).
std::vector<double> targetValues(const policy::AccuracyTarget &target,
                                 const std::vector<OutputAccuracy> &outputs);
bool meetsTarget(const policy::AccuracyTarget &target,
                 const std::vector<OutputAccuracy> &outputs);

/// `edits` split by the file that carries them: keep_dtype (node names,
/// and op types unless `typesInMixList`) and the modify_mixlist black list.
std::pair<policy::PrecisionEdits, std::vector<std::string>>
editsByFile(const policy::PrecisionEdits &edits, bool typesInMixList);

/// The index of the fastest mode (estimated time) whose run meets `target`.
std::optional<size_t>
fastestModeMeeting(const policy::AccuracyTarget &target,
                   const std::vector<report::ReportModeComparison> &modes,
                   const std::vector<std::vector<OutputAccuracy>> &modeOutputs);

/// The search. `modes` and `modeOutputs` are --compare-modes' rows and
/// per-output accuracy on the same inputs.
SearchOutcome searchPrecision(mlir::ModuleOp imported, const policy::SessionOptions &options,
                              const SearchSettings &settings, const AccuracyRun &run,
                              const RunInputs &inputs,
                              const std::vector<report::ReportModeComparison> &modes,
                              const std::vector<std::vector<OutputAccuracy>> &modeOutputs);

/// Whether two plans give every op the same dtypes; `difference` names the
/// first op that differs.
bool samePlan(const report::ReportData &a, const report::ReportData &b, std::string &difference);

/// The first comment line of every file the search writes.
inline constexpr const char *kSearchFileHeader = "written by prec-compile --search-precision";

/// "0.999912345" for a cosine, "1.20e-04" for an error, "NaN"/"inf" when the
/// output overflowed.
std::string formatTargetValue(policy::AccuracyMetric metric, double value);
/// "logits: cosine 0.999912345", "max_rel_err 1.20e-03".
std::string conditionValueText(const policy::AccuracyCondition &condition, double value);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_PRECISIONSEARCH_H
