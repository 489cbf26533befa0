//===- Accuracy.h - running a plan against its fp32 reference -------------===//
//
// --run executes the planned kernels and the fp32 reference (the same
// kernels with every f16/bf16 widened to f32, on the constants as they were
// before planning converted them) in lockstep, so every launch's outputs are compared as they are produced and
// no intermediate is kept longer than the graph needs it.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_ACCURACY_H
#define ASCENDPREC_SESSION_ACCURACY_H

#include "AscendPrec/Session/RunIo.h"

#include "AscendPrec/Execution/GraphRun.h"

#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::session {

/// How far `actual` is from `reference`, element by element.
struct ErrorStats {
  int64_t elements = 0;
  double maxAbsErr = 0, maxRelErr = 0, rmse = 0, relRmse = 0, cosine = 1;
  /// Elements non-finite in one tensor and not the other.
  int64_t nonFinite = 0;
  /// Elements where the reference itself is Inf or NaN (the model overflows
  /// or divides by zero in fp32): not compared.
  int64_t referenceNonFinite = 0;
};

/// The statistics; max_rel_err divides by max(|r|, 1e-3 * max|r|) so that
/// near-zero reference elements do not dominate; rel_rmse is rmse over the
/// reference's root mean square.
ErrorStats compareTensors(const runtime::HostTensor &actual, const runtime::HostTensor &reference);
/// Whether every element is within atol + rtol * |expected| (NaN where
/// expected is NaN): the ONNX backend tests' check.
bool withinTolerance(const runtime::HostTensor &actual, const runtime::HostTensor &expected,
                     double rtol, double atol);

struct OpAccuracy {
  std::vector<std::string> nodes;
  std::string kernel;
  ErrorStats vsReference;
  /// The largest rel_rmse among the values feeding the launch: what the op
  /// inherited, so vsReference.relRmse - inputRelRmse is what it added.
  double inputRelRmse = 0;
  double hostMs = 0;
};

struct OutputAccuracy {
  std::string name;
  ErrorStats vsReference;
  std::optional<ErrorStats> vsExpected;
  /// The fp32 reference against the expected output: how far the reference
  /// itself is from the model's fp32 (another runtime's summation order).
  /// |vsReference - vsExpected| stays within it.
  std::optional<ErrorStats> referenceVsExpected;
  bool withinTolerance = true; ///< vs expected, when given
};

struct AccuracyResult {
  std::vector<OpAccuracy> ops;            ///< one per launch, in graph order
  std::vector<size_t> errorJumps;          ///< indices into ops
  std::vector<OutputAccuracy> outputs;
  std::vector<runtime::HostTensor> planOutputs;
  std::vector<runtime::HostTensor> referenceOutputs; ///< the fp32 reference's
  double jitMs = 0, referenceJitMs = 0;
  std::vector<double> runMs;               ///< one per iteration
  /// The median of the runs after the first (the first alone when it is
  /// the only one): the first runs in lockstep with the reference and pays
  /// for first touches, a warm-up.
  double medianRunMs() const;
};

struct AccuracyRun {
  unsigned threads = 1;
  unsigned iterations = 1;
  std::string overflow = "soc";
  double rtol = 1e-3, atol = 1e-7;
  llvm::StringMap<mlir::ElementsAttr> modelConstants; ///< the reference's weights
  /// Random inputs (no --run=DIR): --run-seed and --run-range.
  uint64_t seed = 0;
  std::vector<InputRange> ranges;
  /// Polled between steps (and by the mode comparison and the search
  /// between plans): true stops the work with kInterrupted as the error.
  std::function<bool()> cancelled;
  bool isCancelled() const { return cancelled && cancelled(); }
};

/// The error of work stopped by AccuracyRun::cancelled.
inline constexpr const char *kInterrupted = "interrupted";

/// Runs `kernels` and its reference on `inputs`; nullopt with `problems`
/// (ops that cannot run) or `error` set.
std::optional<AccuracyResult> measureAccuracy(mlir::ModuleOp kernels, const AccuracyRun &run,
                                              const std::vector<runtime::HostTensor> &inputs,
                                              const std::vector<NamedTensor> &expected,
                                              const std::vector<std::string> &outputNames,
                                              std::vector<std::string> &problems,
                                              std::string &error);

/// accuracy.json.
std::string accuracyJson(const AccuracyResult &result, const AccuracyRun &run,
                         const std::string &inputsFrom);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_ACCURACY_H
