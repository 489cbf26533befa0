//===- AccuracyTarget.h - --search-precision's accuracy target ------------===//
//
// The target a precision search must meet, as the user writes it:
// `cosine>=0.9999`, `max_rel_err<=1e-3`, `logits:max_abs_err<=0.05`,
// several joined by commas (all must hold). A condition without an output
// name applies to every model output. Errors are measured against the fp32
// reference run on the same inputs (docs/reference/precision-search.md).
// No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_ACCURACYTARGET_H
#define ASCENDPREC_POLICY_ACCURACYTARGET_H

#include "AscendPrec/Policy/Diagnostics.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

enum class AccuracyMetric { Cosine, MaxRelErr, MaxAbsErr, RelRmse };

/// `cosine`, `max_rel_err`, `max_abs_err`, `rel_rmse`.
std::string accuracyMetricName(AccuracyMetric metric);
/// Cosine similarity grows with accuracy; the error metrics shrink.
bool higherIsBetter(AccuracyMetric metric);

struct AccuracyCondition {
  std::string output; ///< empty: every output
  AccuracyMetric metric = AccuracyMetric::Cosine;
  double bound = 0;
  std::string boundText; ///< as the user wrote it ("1e-4"), for messages

  /// Whether `value` (the metric on one output) satisfies the condition; NaN
  /// (an output that overflowed where fp32 did not) never does.
  bool holdsFor(double value) const;
  /// `[output:]metric>=bound` as the user wrote it (the output name
  /// escaped for display).
  std::string str() const;
};

struct AccuracyTarget {
  std::vector<AccuracyCondition> conditions;
  std::string str() const;
};

/// Parses the value of --search-precision. Problems are errors at
/// `<command line>` naming the condition and what was expected.
std::optional<AccuracyTarget> parseAccuracyTarget(std::string_view text, DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_ACCURACYTARGET_H
