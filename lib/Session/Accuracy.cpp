//===- Accuracy.cpp - running a plan against its fp32 reference -----------===//

#include "AscendPrec/Session/Accuracy.h"

#include "AscendPrec/Execution/KernelCache.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::session;
using runtime::ElementType;
using runtime::HostTensor;

namespace {

constexpr int64_t kBlock = 4096;

/// Values [start, start + count) of `tensor` as doubles: fp32, fp16 and
/// bf16 widened a block at a time (the per-op comparisons read every value
/// the model computes twice), other dtypes element by element.
void readValues(const HostTensor &tensor, int64_t start, int64_t count, double *values) {
  ElementType type = tensor.type();
  if (type != ElementType::F32 && type != ElementType::F16 && type != ElementType::BF16) {
    for (int64_t i = 0; i < count; ++i)
      values[i] = tensor.get(start + i);
    return;
  }
  float widened[kBlock];
  runtime::widenToFloat(type, tensor.data() + start * runtime::elementBytes(type), widened, count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = widened[i];
}

/// Calls `visit(a, r)` for every element of two tensors of one shape (or
/// of one tensor, `reference` null), in index order.
template <typename Visit>
void forEachValue(const HostTensor &actual, const HostTensor *reference, Visit visit) {
  double a[kBlock], r[kBlock];
  int64_t count = actual.numElements();
  for (int64_t start = 0; start < count; start += kBlock) {
    int64_t n = std::min(kBlock, count - start);
    readValues(actual, start, n, a);
    if (reference)
      readValues(*reference, start, n, r);
    for (int64_t i = 0; i < n; ++i)
      visit(a[i], reference ? r[i] : 0.0);
  }
}

} // namespace

ErrorStats session::compareTensors(const HostTensor &actual, const HostTensor &reference) {
  ErrorStats stats;
  int64_t count = actual.numElements();
  if (actual.shape() != reference.shape()) {
    // Callers check shapes first; a mismatch is no error figure at all.
    stats.elements = 0;
    stats.maxAbsErr = stats.maxRelErr = stats.rmse = stats.relRmse = INFINITY;
    stats.cosine = NAN;
    return stats;
  }
  stats.elements = count;
  double referenceMax = 0;
  forEachValue(reference, nullptr, [&](double r, double) {
    if (std::isfinite(r))
      referenceMax = std::max(referenceMax, std::fabs(r));
  });
  double floor = std::max(referenceMax * 1e-3, 1e-30);
  double sumSquaredDiff = 0, sumSquaredRef = 0, sumSquaredActual = 0, dot = 0;
  int64_t compared = 0;
  forEachValue(actual, &reference, [&](double a, double r) {
    if (!std::isfinite(r))
      ++stats.referenceNonFinite;
    if (!std::isfinite(a) || !std::isfinite(r)) {
      bool same = (std::isnan(a) && std::isnan(r)) || a == r;
      if (!same)
        ++stats.nonFinite;
      return;
    }
    double diff = std::fabs(a - r);
    stats.maxAbsErr = std::max(stats.maxAbsErr, diff);
    stats.maxRelErr = std::max(stats.maxRelErr, diff / std::max(std::fabs(r), floor));
    sumSquaredDiff += diff * diff;
    sumSquaredRef += r * r;
    sumSquaredActual += a * a;
    dot += a * r;
    ++compared;
  });
  if (compared) {
    stats.rmse = std::sqrt(sumSquaredDiff / compared);
    double referenceRms = std::sqrt(sumSquaredRef / compared);
    stats.relRmse = referenceRms > 0 ? stats.rmse / referenceRms : (stats.rmse > 0 ? INFINITY : 0);
  }
  if (sumSquaredRef > 0 && sumSquaredActual > 0)
    stats.cosine = dot / std::sqrt(sumSquaredRef * sumSquaredActual);
  else
    stats.cosine = sumSquaredRef == sumSquaredActual ? 1.0 : 0.0;
  // An Inf or NaN where fp32 is finite (an fp16 overflow) is the worst
  // error there is, never "exact": the statistics say so.
  if (stats.nonFinite > 0) {
    stats.maxAbsErr = stats.maxRelErr = stats.rmse = stats.relRmse = INFINITY;
    stats.cosine = NAN;
  } else if (compared == 0 && count > 0) {
    // Nothing finite to compare (the reference is Inf or NaN everywhere
    // the plan is): no figure, rather than "exact".
    stats.maxAbsErr = stats.maxRelErr = stats.rmse = stats.relRmse = NAN;
    stats.cosine = NAN;
  }
  return stats;
}

bool session::withinTolerance(const HostTensor &actual, const HostTensor &expected, double rtol,
                             double atol) {
  if (actual.shape() != expected.shape())
    return false;
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    double a = actual.get(i), e = expected.get(i);
    if (std::isnan(e) || std::isnan(a)) {
      if (std::isnan(e) != std::isnan(a))
        return false;
      continue;
    }
    if (std::isinf(e) || std::isinf(a)) {
      if (a != e)
        return false;
      continue;
    }
    if (std::fabs(a - e) > atol + rtol * std::fabs(e))
      return false;
  }
  return true;
}

namespace {

/// The median of `values` (0 when empty).
double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

} // namespace

double AccuracyResult::medianRunMs() const {
  // The first run goes in lockstep with the reference's and pays for first
  // touches (kept weight tiles, fresh pages): a warm-up, as onnxruntime's
  // benchmarks and bench/ort_run.js leave theirs out. With 5 iterations it
  // was one of the five the median picked from, and raised it by a tenth
  // on PP-OCR's classifier.
  if (runMs.size() > 1)
    return median(std::vector<double>(runMs.begin() + 1, runMs.end()));
  return median(runMs);
}

namespace {

/// The worst statistics over a launch's outputs.
ErrorStats worstOf(const std::vector<HostTensor> &actual, const std::vector<HostTensor> &reference,
                   const std::vector<size_t> &scored) {
  ErrorStats worst;
  for (size_t i : scored) {
    if (i >= actual.size() || i >= reference.size())
      continue;
    ErrorStats stats = compareTensors(actual[i], reference[i]);
    worst.elements += stats.elements;
    worst.maxAbsErr = std::max(worst.maxAbsErr, stats.maxAbsErr);
    worst.maxRelErr = std::max(worst.maxRelErr, stats.maxRelErr);
    worst.rmse = std::max(worst.rmse, stats.rmse);
    worst.relRmse = std::max(worst.relRmse, stats.relRmse);
    worst.cosine = std::isnan(stats.cosine) || std::isnan(worst.cosine)
                       ? NAN
                       : std::min(worst.cosine, stats.cosine);
    worst.nonFinite += stats.nonFinite;
    worst.referenceNonFinite += stats.referenceNonFinite;
  }
  return worst;
}

/// The outputs of a launch the model's graph reads or returns: a result
/// nothing uses (a LayerNorm's mean and inverse std when the ONNX node has
/// only its first output) is internal and not scored. All of them when
/// none is used (the launch's outputs are the graph's, through a return).
std::vector<size_t> scoredOutputs(const exec::LaunchOutputs &launch) {
  std::vector<size_t> scored, all;
  for (auto [i, result] : llvm::enumerate(launch.op->getResults())) {
    if (i >= launch.outputs.size())
      break;
    all.push_back(i);
    if (!result.use_empty())
      scored.push_back(i);
  }
  return scored.empty() ? all : scored;
}

/// An error jumps at a launch when it is perceptible (rel_rmse >= 1e-4) and
/// at least ten times the largest error of the launches feeding it.
constexpr double kJumpFloor = 1e-4;
constexpr double kJumpFactor = 10.0;

/// Each output of the plan against the reference's (and the expected one,
/// when given).
void compareOutputs(AccuracyResult &result, const std::vector<HostTensor> &referenceOutputs,
                    const std::vector<std::string> &outputNames,
                    const std::vector<NamedTensor> &expected, const AccuracyRun &run) {
  for (size_t i = 0; i < result.planOutputs.size(); ++i) {
    OutputAccuracy output;
    output.name = i < outputNames.size() ? outputNames[i] : "output_" + std::to_string(i);
    output.vsReference = compareTensors(result.planOutputs[i], referenceOutputs[i]);
    if (i < expected.size()) {
      output.vsExpected = compareTensors(result.planOutputs[i], expected[i].tensor);
      output.referenceVsExpected = compareTensors(referenceOutputs[i], expected[i].tensor);
      output.withinTolerance =
          withinTolerance(result.planOutputs[i], expected[i].tensor, run.rtol, run.atol);
    }
    result.outputs.push_back(std::move(output));
  }
}

/// The timed runs after the first, each launch's time kept too: an op's
/// host_ms is then its median over them, not the first run's (which pays
/// for first touches and shares the caches with the reference's run).
/// `stepEntry` gives each step's entry in result.ops.
bool timeIterations(exec::GraphRunner &plan, const AccuracyRun &run,
                    const std::vector<HostTensor> &inputs, const std::vector<size_t> &stepEntry,
                    AccuracyResult &result, std::string &error) {
  std::vector<std::vector<double>> launchMs(stepEntry.size());
  for (unsigned iteration = 1; iteration < run.iterations; ++iteration) {
    if (run.isCancelled()) {
      error = kInterrupted;
      return false;
    }
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<exec::GraphExecution> execution = plan.start(inputs, error);
    if (!execution)
      return false;
    size_t launch = 0;
    while (!execution->finished()) {
      if (!execution->step(error))
        return false;
      if (const exec::LaunchOutputs *done = execution->lastLaunch())
        if (launch < launchMs.size())
          launchMs[launch++].push_back(done->hostMs);
    }
    result.runMs.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  for (size_t i = 0; i < launchMs.size(); ++i)
    if (!launchMs[i].empty())
      result.ops[stepEntry[i]].hostMs = median(launchMs[i]);
  return true;
}

} // namespace

std::optional<AccuracyResult>
session::measureAccuracy(ModuleOp kernels, const AccuracyRun &run, const std::vector<HostTensor> &inputs,
                        const std::vector<NamedTensor> &expected,
                        const std::vector<std::string> &outputNames,
                        std::vector<std::string> &problems, std::string &error) {
  exec::GraphRunOptions planOptions;
  planOptions.threads = run.threads;
  planOptions.numerics.overflow = run.overflow;
  std::unique_ptr<exec::GraphRunner> plan =
      exec::GraphRunner::prepare(kernels, planOptions, problems, error);
  if (!plan)
    return std::nullopt;
  exec::GraphRunOptions referenceOptions = planOptions;
  referenceOptions.numerics.reference = true;
  referenceOptions.constantOverrides = run.modelConstants;
  std::unique_ptr<exec::GraphRunner> reference =
      exec::GraphRunner::prepare(kernels, referenceOptions, problems, error);
  if (!reference)
    return std::nullopt;

  AccuracyResult result;
  result.jitMs = plan->compileMs();
  result.referenceJitMs = reference->compileMs();
  std::unique_ptr<exec::GraphExecution> planRun = plan->start(inputs, error);
  std::unique_ptr<exec::GraphExecution> referenceRun =
      planRun ? reference->start(inputs, error) : nullptr;
  if (!planRun || !referenceRun)
    return std::nullopt;
  // Error per value, through views, for the jumps.
  llvm::DenseMap<Value, double> valueError;
  auto errorOf = [&](Value value) {
    while (auto view = value.getDefiningOp<kernel::ViewOp>())
      value = view.getSource();
    auto found = valueError.find(value);
    return found == valueError.end() ? 0.0 : found->second;
  };
  // One entry per launch: its error against the reference's, and whether
  // the error jumps there. Returns the entry's index.
  auto addEntry = [&](const exec::LaunchOutputs &planLaunch,
                      const exec::LaunchOutputs &referenceLaunch,
                      std::optional<double> inherited) {
    OpAccuracy op;
    op.nodes = planLaunch.nodes;
    op.kernel = planLaunch.launch ? planLaunch.launch.getKernel().str()
                                  : "(host control flow: " +
                                        planLaunch.op->getName().getStringRef().str() + ")";
    op.vsReference = worstOf(planLaunch.outputs, referenceLaunch.outputs,
                             scoredOutputs(planLaunch));
    op.hostMs = planLaunch.hostMs;
    double inputError = 0;
    for (Value operand : planLaunch.op->getOperands())
      inputError = std::max(inputError, errorOf(operand));
    // A control-flow op inherits what its body computed.
    op.inputRelRmse = inherited ? std::max(inputError, *inherited) : inputError;
    for (Value resultValue : planLaunch.op->getResults())
      valueError[resultValue] = op.vsReference.relRmse;
    // An infinite error (an overflow) jumps where it first appears, not
    // again in every op it flows through.
    if (op.vsReference.relRmse >= kJumpFloor && std::isfinite(op.inputRelRmse) &&
        op.vsReference.relRmse >= kJumpFactor * op.inputRelRmse)
      result.errorJumps.push_back(result.ops.size());
    result.ops.push_back(std::move(op));
    return result.ops.size() - 1;
  };
  // The launches inside a control-flow step, paired with the reference's
  // when both took the same path; a launch a Loop runs again keeps its
  // worst iteration. The largest error among them, or nothing.
  auto addInnerEntries = [&]() -> std::optional<double> {
    const std::vector<exec::LaunchOutputs> &planInner = planRun->innerLaunches();
    const std::vector<exec::LaunchOutputs> &referenceInner = referenceRun->innerLaunches();
    if (planInner.empty() || planInner.size() != referenceInner.size())
      return std::nullopt;
    for (size_t i = 0; i < planInner.size(); ++i)
      if (planInner[i].op != referenceInner[i].op)
        return std::nullopt; // the runs took different branches
    llvm::DenseMap<Operation *, size_t> entryOf;
    double worst = 0;
    for (size_t i = 0; i < planInner.size(); ++i) {
      size_t jumps = result.errorJumps.size();
      size_t index = addEntry(planInner[i], referenceInner[i], std::nullopt);
      auto [it, first] = entryOf.try_emplace(planInner[i].op, index);
      worst = std::max(worst, result.ops[index].vsReference.relRmse);
      if (first)
        continue;
      // A later iteration: keep the worse of the two in the first entry.
      OpAccuracy later = std::move(result.ops.back());
      result.ops.pop_back();
      result.errorJumps.resize(jumps);
      OpAccuracy &kept = result.ops[it->second];
      if (later.vsReference.relRmse > kept.vsReference.relRmse) {
        later.hostMs = kept.hostMs;
        kept = std::move(later);
      }
    }
    return worst;
  };
  // Which entry each step's launch is: the timed runs below give each step
  // its own time (they do not record the launches inside control flow).
  std::vector<size_t> stepEntry;
  planRun->recordInnerLaunches(true);
  referenceRun->recordInnerLaunches(true);
  double planMs = 0;
  while (!planRun->finished()) {
    if (run.isCancelled()) {
      error = kInterrupted;
      return std::nullopt;
    }
    auto start = std::chrono::steady_clock::now();
    if (!planRun->step(error)) {
      if (planRun->reachedUnrunnableOp())
        problems.push_back(error + " (the branch these inputs take)");
      return std::nullopt;
    }
    planMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count();
    if (!referenceRun->step(error))
      return std::nullopt;
    const exec::LaunchOutputs *planLaunch = planRun->lastLaunch();
    const exec::LaunchOutputs *referenceLaunch = referenceRun->lastLaunch();
    if (!planLaunch || !referenceLaunch)
      continue;
    std::optional<double> inner = planLaunch->launch ? std::nullopt : addInnerEntries();
    stepEntry.push_back(addEntry(*planLaunch, *referenceLaunch, inner));
  }
  result.runMs.push_back(planMs);
  result.planOutputs = planRun->outputs();
  result.referenceOutputs = referenceRun->outputs();
  compareOutputs(result, result.referenceOutputs, outputNames, expected, run);
  if (!timeIterations(*plan, run, inputs, stepEntry, result, error))
    return std::nullopt;
  return result;
}

namespace {

/// A figure as JSON allows: Inf and NaN (an overflow, nothing compared)
/// are null (docs/reference/accuracy.md), never a bare `inf`.
void writeNumber(llvm::json::OStream &json, llvm::StringRef key, double value) {
  if (std::isfinite(value))
    json.attribute(key, value);
  else
    json.attribute(key, nullptr);
}

void writeStats(llvm::json::OStream &json, const ErrorStats &stats) {
  auto number = [&](const char *key, double value) { writeNumber(json, key, value); };
  number("max_abs_err", stats.maxAbsErr);
  number("max_rel_err", stats.maxRelErr);
  number("rmse", stats.rmse);
  number("rel_rmse", stats.relRmse);
  number("cosine", stats.cosine);
  json.attribute("non_finite", stats.nonFinite);
  json.attribute("reference_non_finite", stats.referenceNonFinite);
  json.attribute("elements", stats.elements);
}

} // namespace

std::string session::accuracyJson(const AccuracyResult &result, const AccuracyRun &run,
                                 const std::string &inputsFrom) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("inputs", inputsFrom);
    if (inputsFrom.rfind("random", 0) == 0)
      json.attributeObject("random_inputs", [&] {
        json.attribute("seed", run.seed);
        json.attributeObject("ranges", [&] {
          for (const InputRange &range : run.ranges)
            json.attributeArray(range.input, [&] {
              json.value(range.low);
              json.value(range.high);
            });
        });
      });
    json.attribute("reference", "the model in fp32: the same kernels with every f16/bf16 "
                                "buffer, compute dtype and conversion widened to f32, on the "
                                "constants as they were before planning converted them (the "
                                "exported weights; a fused op's folded fp32 weights)");
    json.attribute("tolerance", llvm::json::Object{{"rtol", run.rtol}, {"atol", run.atol}});
    json.attributeArray("outputs", [&] {
      for (const OutputAccuracy &output : result.outputs)
        json.object([&] {
          json.attribute("name", output.name);
          json.attributeObject("vs_reference", [&] { writeStats(json, output.vsReference); });
          if (output.vsExpected) {
            json.attributeObject("vs_expected", [&] {
              writeStats(json, *output.vsExpected);
              json.attribute("within_tolerance", output.withinTolerance);
            });
          }
          if (output.referenceVsExpected)
            json.attributeObject("reference_vs_expected",
                                 [&] { writeStats(json, *output.referenceVsExpected); });
        });
    });
    json.attributeArray("error_jumps", [&] {
      for (size_t index : result.errorJumps)
        json.object([&] {
          const OpAccuracy &op = result.ops[index];
          json.attribute("node", op.nodes.empty() ? op.kernel : op.nodes.front());
          writeNumber(json, "rel_rmse", op.vsReference.relRmse);
        });
    });
    json.attributeArray("ops", [&] {
      for (const OpAccuracy &op : result.ops)
        json.object([&] {
          json.attribute("node", op.nodes.empty() ? op.kernel : op.nodes.front());
          if (op.nodes.size() > 1)
            json.attributeArray("fused", [&] {
              for (size_t i = 1; i < op.nodes.size(); ++i)
                json.value(op.nodes[i]);
            });
          json.attribute("kernel", op.kernel);
          json.attributeObject("vs_reference", [&] { writeStats(json, op.vsReference); });
          writeNumber(json, "host_ms", op.hostMs);
        });
    });
    json.attributeObject("timing", [&] {
      json.attribute("jit_ms", result.jitMs);
      json.attributeObject("kernel_cache", [&] {
        std::string folder = exec::KernelCache::folder();
        if (folder.empty())
          json.attribute("folder", nullptr);
        else
          json.attribute("folder", folder);
        json.attribute("hits", static_cast<int64_t>(exec::KernelCache::hits()));
        json.attribute("misses", static_cast<int64_t>(exec::KernelCache::misses()));
      });
      json.attribute("reference_jit_ms", result.referenceJitMs);
      json.attribute("run_ms", result.medianRunMs());
      json.attribute("iterations", static_cast<int64_t>(result.runMs.size()));
      json.attribute("threads", static_cast<int64_t>(run.threads));
    });
  });
  os << "\n";
  return text;
}
