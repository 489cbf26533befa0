//===- PrecisionSearch.cpp - --search-precision ---------------------------===//

#include "AscendPrec/Session/PrecisionSearch.h"
#include "AscendPrec/Session/HostKernels.h"

#include "AscendPrec/Policy/ConfigFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::session;

namespace {

bool isOriginMode(const std::string &mode) {
  return mode == "must_keep_origin_dtype" || mode == "origin";
}

bool isMixedMode(const std::string &mode) {
  return mode.rfind("allow_mix_precision", 0) == 0 || mode.rfind("mixed_", 0) == 0;
}

double metricOf(const ErrorStats &stats, policy::AccuracyMetric metric) {
  switch (metric) {
  case policy::AccuracyMetric::Cosine:
    return stats.cosine;
  case policy::AccuracyMetric::MaxRelErr:
    return stats.maxRelErr;
  case policy::AccuracyMetric::MaxAbsErr:
    return stats.maxAbsErr;
  case policy::AccuracyMetric::RelRmse:
    return stats.relRmse;
  }
  return NAN;
}

/// One plan of the search, run against the fp32 reference.
struct Evaluation {
  bool ok = false;
  std::string why;
  report::ReportData report;
  std::vector<OutputAccuracy> outputs;
  std::vector<OpAccuracy> ops;
  /// Ops the host cannot run (an AI CPU fp32 kernel, ...): node name, why.
  std::vector<std::pair<std::string, std::string>> cannotRun;
  bool planned = false; ///< planning and lowering succeeded
};

class Searcher {
public:
  Searcher(ModuleOp imported, const SearchSettings &settings, const AccuracyRun &run,
           const RunInputs &inputs, SearchOutcome &outcome)
      : imported(imported), settings(settings), run(run), inputs(inputs), outcome(outcome) {}

  /// Builds the start mode's policy; false with outcome.message set.
  bool prepare(const policy::SessionOptions &startOptions);
  void search();

private:
  std::optional<policy::Policy> policyWith(const policy::PrecisionEdits &edits,
                                           std::string &why) const;
  /// Plans (and, with `measure`, runs) the start mode plus `edits`; each
  /// measured plan spends one evaluation of the budget.
  /// Plans (and, with `measure`, runs) the edits; `what` names the step for
  /// the progress line.
  Evaluation evaluate(const policy::PrecisionEdits &edits, bool measure = true,
                      const std::string &what = "");
  bool budgetLeft() const { return outcome.evaluations < settings.budget; }
  policy::PrecisionEdits editsFor(const std::set<std::string> &names) const;
  /// The unraised candidates, most harmful first, cheapest first among
  /// errors of one order of magnitude.
  std::vector<std::string> rank(const Evaluation &evaluation) const;
  SearchStep stepOf(const Evaluation &evaluation, std::string action,
                    std::vector<std::string> changed, size_t raised) const;
  /// Raised ops the plan still computes in 16 bits (no fp32 kernel): they
  /// leave the set, with a note. Whether any did.
  bool dropUnraisable(const Evaluation &evaluation, std::set<std::string> &raised);
  /// Ops of `evaluation`'s plan below their origin dtype whose names
  /// keep_dtype can express (KD-1). Raising ops changes the plan around
  /// them (a fusion no longer applies, a gray op follows a neighbour), so
  /// every plan the search runs may add candidates.
  void addCandidates(const Evaluation &evaluation);

  /// Raises the most harmful ops until the target holds or the budget or
  /// the candidates run out; whether it holds. `current` and `raised` are
  /// the plan the search went on from.
  bool raiseUntilMet(Evaluation &current, std::set<std::string> &raised);
  /// After a plan with ops the host cannot run in fp32: those ops leave
  /// `trial` (noted as unraisable); whether any did.
  bool dropUnrunnable(const Evaluation &evaluation, std::set<std::string> &trial,
                      const std::set<std::string> &raised);
  /// After a refused plan (KD-2): finds which of `added` are refused by
  /// planning each alone, and notes them as unraisable.
  void noteRefusedOps(const std::vector<std::string> &added, const std::set<std::string> &raised,
                      const Evaluation &evaluation);
  /// With the target met: tries the plan without name scopes and single
  /// ops, keeping the fastest plan that still meets it.
  void pruneRaised(Evaluation &current, std::set<std::string> &raised);
  /// The edits for `raised`, with whole op types where every candidate of
  /// a type is raised and that plans the same.
  policy::PrecisionEdits editsByOpType(const std::set<std::string> &raised,
                                       const Evaluation &current);

  ModuleOp imported;
  const SearchSettings &settings;
  const AccuracyRun &run;
  const RunInputs &inputs;
  SearchOutcome &outcome;
  std::optional<policy::Policy> base;
  /// Ops some plan of the search computed in fp16/bf16 below their origin
  /// dtype, with their op type and estimated time in that plan.
  std::map<std::string, std::pair<std::string, double>> candidates;
  std::set<std::string> unraisable;
  /// The fastest plan that met the target, and its raised ops.
  Evaluation best;
  std::set<std::string> bestRaised;
};

/// The name scope of a node as PyTorch exports it: "/attn/Softmax" ->
/// "/attn"; empty for a name without one ("conv2d_0", "/Add").
std::string nameScope(const std::string &name) {
  size_t slash = name.rfind('/');
  if (slash == std::string::npos || slash == 0)
    return "";
  return name.substr(0, slash);
}

bool Searcher::prepare(const policy::SessionOptions &startOptions) {
  policy::DiagnosticList diags;
  base = policy::Policy::build(startOptions, diags);
  if (!base) {
    outcome.message = "the start mode cannot be used: " + diags.format();
    return false;
  }
  if (const policy::OptionValue *keep = startOptions.get("keep_dtype")) {
    std::ifstream file(keep->text, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    outcome.userKeepDTypeText = text.str();
  }
  // Whole op types go to a black list under a mixed mode (CANN's idiom for
  // "this type stays in fp32"), unless the user brought a modify_mixlist
  // of their own: then to keep_dtype, which leaves the user's file alone.
  outcome.typesInMixList = isMixedMode(outcome.precisionMode) && !startOptions.has("modify_mixlist");
  return true;
}

std::optional<policy::Policy> Searcher::policyWith(const policy::PrecisionEdits &edits,
                                                   std::string &why) const {
  policy::Policy policy = *base;
  if (edits.empty())
    return policy;
  policy::DiagnosticList diags;
  auto [keep, blackTypes] = editsByFile(edits, outcome.typesInMixList);
  if (!keep.empty()) {
    std::string text = policy::keepDTypeFileText(keep, outcome.userKeepDTypeText, {kSearchFileHeader});
    policy.keepDTypeList = policy::parseKeepDType(text, "search/keep_dtype.cfg", diags);
    policy.keepDTypeActive = true;
  }
  if (!blackTypes.empty())
    policy.mixList = policy::parseModifyMixList(policy::blackListFileText(blackTypes, {kSearchFileHeader}),
                                                "search/modify_mixlist.json", diags);
  if (diags.hasErrors()) {
    why = "internal error: the search wrote a file it cannot read back: " + diags.format();
    return std::nullopt;
  }
  return policy;
}

Evaluation Searcher::evaluate(const policy::PrecisionEdits &edits, bool measure,
                              const std::string &what) {
  Evaluation evaluation;
  // Interrupted: every further plan fails at once, and the search ends.
  if (run.isCancelled()) {
    evaluation.why = kInterrupted;
    return evaluation;
  }
  std::optional<policy::Policy> policy = policyWith(edits, evaluation.why);
  if (!policy)
    return evaluation;
  OwningOpRef<ModuleOp> kernels =
      planAndLower(imported, std::make_shared<const policy::Policy>(std::move(*policy)),
                   settings.planning, evaluation.report, evaluation.why,
                   measure ? hostBlocksFor(run.threads) : 0);
  if (!kernels)
    return evaluation;
  evaluation.planned = true;
  if (!measure) {
    evaluation.ok = true;
    return evaluation;
  }
  ++outcome.evaluations;
  if (settings.onStep)
    settings.onStep("run " + std::to_string(outcome.evaluations) + " of at most " +
                    std::to_string(settings.budget) + (what.empty() ? "" : ": " + what));
  AccuracyRun once = run;
  once.iterations = 1;
  std::vector<std::string> problems;
  std::optional<AccuracyResult> accuracy = measureAccuracy(
      *kernels, once, inputs.inputs, inputs.expected, inputs.outputNames, problems, evaluation.why);
  if (!accuracy) {
    if (!problems.empty()) {
      // Refused before running: no run spent.
      --outcome.evaluations;
      evaluation.why = std::to_string(problems.size()) +
                       " ops cannot be executed on the host (" + problems.front() + ")";
      for (const std::string &problem : problems) {
        // "<node>: why" (node names may hold " (", never ": " here).
        size_t end = problem.find(": ");
        if (end == std::string::npos)
          evaluation.cannotRun.push_back({problem, problem});
        else
          evaluation.cannotRun.push_back({problem.substr(0, end), problem.substr(end + 2)});
      }
    }
    return evaluation;
  }
  evaluation.outputs = std::move(accuracy->outputs);
  evaluation.ops = std::move(accuracy->ops);
  evaluation.ok = true;
  return evaluation;
}

policy::PrecisionEdits Searcher::editsFor(const std::set<std::string> &names) const {
  policy::PrecisionEdits edits;
  // In graph order (the report's), so that the files read like the model.
  for (const report::ReportNode &node : outcome.plan.nodes)
    if (names.count(node.name))
      edits.nodeNames.push_back(node.name);
  return edits;
}

std::vector<std::string> Searcher::rank(const Evaluation &evaluation) const {
  // What each op added to the error: its output's rel_rmse minus the worst
  // of its inputs'. An overflow (Inf where fp32 is finite) is the worst.
  std::map<std::string, double> added;
  std::set<std::string> castNames;
  for (const report::ReportNode &node : evaluation.report.nodes)
    if (node.insertedCast)
      castNames.insert(node.name);
  for (const OpAccuracy &op : evaluation.ops) {
    double error = op.vsReference.relRmse, inherited = op.inputRelRmse;
    double own = 0;
    if (!std::isfinite(error))
      own = std::isfinite(inherited) ? INFINITY : 0;
    else
      own = std::max(0.0, error - inherited);
    for (const std::string &node : op.nodes)
      added[node] = std::max(added[node], own);
  }
  // An inserted Cast rounds for the op it feeds: an fp16 input that
  // overflows at the Cast is that op's low precision.
  for (const report::ReportNode &node : evaluation.report.nodes)
    for (const std::string &producer : node.producers) {
      auto cast = added.find(producer);
      if (cast == added.end() || !castNames.count(producer))
        continue;
      added[node.name] = std::max(added[node.name], cast->second);
    }
  struct Entry {
    std::string name;
    int order; ///< the added error's half-decade; higher is worse
    double cost;
    size_t position;
  };
  std::vector<Entry> entries;
  size_t position = 0;
  for (const report::ReportNode &node : evaluation.report.nodes) {
    ++position;
    auto candidate = candidates.find(node.name);
    if (candidate == candidates.end() || unraisable.count(node.name) ||
        !isLowPrecisionDType(node.computeDType))
      continue;
    double error = added.count(node.name) ? added[node.name] : 0;
    int order = error == 0 ? -1000
                : std::isinf(error) ? 1000
                                    : static_cast<int>(std::floor(2 * std::log10(error)));
    entries.push_back({node.name, order, candidate->second.second, position});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    if (a.order != b.order)
      return a.order > b.order;
    if (a.cost != b.cost)
      return a.cost < b.cost;
    return a.position < b.position;
  });
  std::vector<std::string> names;
  for (const Entry &entry : entries)
    names.push_back(entry.name);
  return names;
}

SearchStep Searcher::stepOf(const Evaluation &evaluation, std::string action,
                            std::vector<std::string> changed, size_t raised) const {
  SearchStep step;
  step.action = std::move(action);
  step.changed = std::move(changed);
  step.raisedOps = raised;
  if (!evaluation.ok) {
    step.note = evaluation.why;
    return step;
  }
  step.estDeviceUs = evaluation.report.estDeviceUs();
  step.outputs = evaluation.outputs;
  step.meets = meetsTarget(settings.target, evaluation.outputs);
  return step;
}

bool Searcher::dropUnraisable(const Evaluation &evaluation, std::set<std::string> &raised) {
  bool dropped = false;
  for (const report::ReportNode &node : evaluation.report.nodes)
    if (raised.count(node.name) && isLowPrecisionDType(node.computeDType)) {
      dropped = true;
      raised.erase(node.name);
      unraisable.insert(node.name);
      outcome.notes.push_back("'" + policy::escapeForDisplay(node.name) + "' (" + node.opType +
                              ") stays in " + node.computeDType +
                              " when kept in its origin dtype: its kernel has no " +
                              node.originDType + " row on this SoC (KD-2)");
    }
  return dropped;
}

void Searcher::addCandidates(const Evaluation &evaluation) {
  // keep_dtype has no effect under origin (KD-3).
  if (isOriginMode(outcome.precisionMode))
    return;
  for (const report::ReportNode &node : evaluation.report.nodes) {
    if (node.insertedCast || node.generic || !isLowPrecisionDType(node.computeDType) ||
        isLowPrecisionDType(node.originDType) || node.originDType.empty() ||
        candidates.count(node.name) || unraisable.count(node.name))
      continue;
    std::string problem;
    if (!policy::formatKeepDTypeLine(node.name, problem)) {
      unraisable.insert(node.name);
      outcome.notes.push_back("'" + policy::escapeForDisplay(node.name) +
                              "' cannot be kept in fp32 by a CANN file: " + problem);
      continue;
    }
    candidates[node.name] = {node.opType, node.estUs.value_or(0)};
  }
}

/// "1 op: /attn/Softmax" or "3 ops: /a, /b +1 more", for progress lines.
static std::string describeOps(const std::vector<std::string> &names) {
  std::string text = std::to_string(names.size()) + (names.size() == 1 ? " op: " : " ops: ");
  for (size_t i = 0; i < names.size() && i < 2; ++i)
    text += (i ? ", " : "") + policy::escapeForDisplay(names[i]);
  if (names.size() > 2)
    text += " +" + std::to_string(names.size() - 2) + " more";
  return text;
}

bool Searcher::dropUnrunnable(const Evaluation &evaluation, std::set<std::string> &trial,
                              const std::set<std::string> &raised) {
  // Ops whose fp32 kernel the host cannot run stay as they are; the others
  // are tried again at once.
  bool dropped = false;
  for (const auto &[name, why] : evaluation.cannotRun)
    if (trial.count(name) && !raised.count(name)) {
      trial.erase(name);
      unraisable.insert(name);
      dropped = true;
      outcome.notes.push_back("'" + policy::escapeForDisplay(name) +
                              "' stays as planned: in fp32 it needs " + why);
    }
  return dropped;
}

void Searcher::noteRefusedOps(const std::vector<std::string> &added,
                              const std::set<std::string> &raised,
                              const Evaluation &evaluation) {
  // Planning each alone spends no run.
  size_t refused = 0;
  for (const std::string &name : added) {
    std::set<std::string> alone = raised;
    alone.insert(name);
    Evaluation check = evaluate(editsFor(alone), /*measure=*/false);
    if (check.ok)
      continue;
    ++refused;
    unraisable.insert(name);
    outcome.notes.push_back("'" + policy::escapeForDisplay(name) +
                            "' cannot be kept in fp32: " + check.why);
  }
  if (refused == 0)
    for (const std::string &name : added) {
      unraisable.insert(name);
      outcome.notes.push_back("'" + policy::escapeForDisplay(name) +
                              "' cannot be kept in fp32 together with " +
                              std::to_string(added.size() - 1) + " other ops: " + evaluation.why);
    }
}

bool Searcher::raiseUntilMet(Evaluation &current, std::set<std::string> &raised) {
  // Raise the most harmful ops, one, then two, four, ... at a time,
  // ranking again after every run (an overflow hides what is behind it).
  size_t batch = 1;
  bool met = outcome.steps.back().meets;
  while (!met && budgetLeft()) {
    std::vector<std::string> ranking = rank(current);
    if (ranking.empty())
      break;
    std::vector<std::string> added(ranking.begin(),
                                   ranking.begin() + std::min(batch, ranking.size()));
    std::set<std::string> trial = raised;
    trial.insert(added.begin(), added.end());
    Evaluation evaluation = evaluate(editsFor(trial), true, "raise " + describeOps(added));
    if (!evaluation.ok && !evaluation.cannotRun.empty() &&
        dropUnrunnable(evaluation, trial, raised))
      continue;
    if (!evaluation.planned) {
      // The plan was refused (an op with no kernel in its origin dtype,
      // KD-2): note which ops, and go on with the others.
      noteRefusedOps(added, raised, evaluation);
      continue;
    }
    if (dropUnraisable(evaluation, trial)) {
      // The plan measured still named the dropped ops in keep_dtype: measure
      // the plan of the files the search would write, unless it is the same.
      Evaluation replanned = evaluate(editsFor(trial), /*measure=*/false);
      std::string difference;
      if (!replanned.ok || !samePlan(replanned.report, evaluation.report, difference))
        evaluation = evaluate(editsFor(trial), true, "raise " + describeOps(added));
    }
    std::string action = "raise " + std::to_string(added.size()) +
                         (added.size() == 1 ? " op" : " ops");
    outcome.steps.push_back(stepOf(evaluation, action, added, trial.size()));
    if (!evaluation.ok) {
      // A plan that cannot run: those ops stay as they were.
      for (const std::string &name : added)
        unraisable.insert(name);
      continue;
    }
    outcome.steps.back().kept = true;
    raised = std::move(trial);
    current = std::move(evaluation);
    addCandidates(current);
    met = outcome.steps.back().meets;
    batch *= 2;
  }
  return met;
}

void Searcher::pruneRaised(Evaluation &current, std::set<std::string> &raised) {
  // Whole name scopes of raised ops first ("/attn/..."; dropping a region
  // adds no Cast inside it), then each op, most expensive first; an op
  // stays out when the target still holds. A smaller set can be slower (a
  // Cast more costs more than the op saves), so the fastest plan that met
  // the target is the result.
  best = current;
  bestRaised = raised;
  outcome.resultStep = static_cast<int>(outcome.steps.size()) - 1;
  std::map<std::string, std::vector<std::string>> scopes;
  for (const std::string &name : raised)
    if (std::string scope = nameScope(name); !scope.empty())
      scopes[scope].push_back(name);
  std::vector<std::vector<std::string>> groups;
  for (auto &[scope, names] : scopes)
    if (names.size() >= 2 && names.size() < raised.size())
      groups.push_back(names);
  std::vector<std::string> order(raised.begin(), raised.end());
  std::sort(order.begin(), order.end(), [&](const std::string &a, const std::string &b) {
    if (candidates[a].second == candidates[b].second)
      return a < b;
    return candidates[a].second > candidates[b].second;
  });
  for (const std::string &name : order)
    groups.push_back({name});
  for (const std::vector<std::string> &group : groups) {
    if (!budgetLeft())
      break;
    // At least one op stays raised: the target was missed without any.
    if (raised.size() <= group.size())
      continue;
    if (!llvm::all_of(group, [&](const std::string &n) { return raised.count(n) > 0; }))
      continue;
    std::set<std::string> trial = raised;
    for (const std::string &name : group)
      trial.erase(name);
    Evaluation evaluation = evaluate(editsFor(trial), true, "try without " + describeOps(group));
    std::string action = group.size() == 1
                             ? "try without 1 op"
                             : "try without scope " + nameScope(group.front()) + " (" +
                                   std::to_string(group.size()) + " ops)";
    outcome.steps.push_back(stepOf(evaluation, action, group, trial.size()));
    if (!evaluation.ok || !outcome.steps.back().meets)
      continue;
    outcome.steps.back().kept = true;
    raised = std::move(trial);
    current = std::move(evaluation);
    if (current.report.estDeviceUs() < best.report.estDeviceUs() * (1 - 1e-9)) {
      best = current;
      bestRaised = raised;
      outcome.resultStep = static_cast<int>(outcome.steps.size()) - 1;
    }
  }
  raised = bestRaised;
  current = best;
}

policy::PrecisionEdits Searcher::editsByOpType(const std::set<std::string> &raised,
                                               const Evaluation &current) {
  policy::PrecisionEdits edits = editsFor(raised);
  // Every candidate of a type raised (two ops or more) becomes one op type
  // entry.
  std::map<std::string, std::vector<std::string>> byType;
  for (const auto &[name, info] : candidates)
    if (!unraisable.count(name))
      byType[info.first].push_back(name);
  policy::PrecisionEdits grouped;
  std::set<std::string> typeCovered;
  for (const auto &[type, names] : byType)
    if (names.size() >= 2 && llvm::all_of(names, [&](const std::string &n) {
          return raised.count(n) > 0;
        })) {
      grouped.opTypes.push_back(type);
      typeCovered.insert(names.begin(), names.end());
    }
  if (grouped.opTypes.empty())
    return edits;
  for (const std::string &name : edits.nodeNames)
    if (!typeCovered.count(name))
      grouped.nodeNames.push_back(name);
  Evaluation check = evaluate(grouped, /*measure=*/false);
  std::string difference;
  if (check.ok && samePlan(check.report, current.report, difference))
    return grouped;
  return edits;
}

void Searcher::search() {
  Evaluation start = evaluate({}, true, "start: " + outcome.precisionMode);
  outcome.plan = start.report;
  if (!start.ok) {
    outcome.kind = SearchOutcome::Kind::Failed;
    outcome.message = "the start plan (" + outcome.precisionMode + ") cannot be run: " + start.why;
    return;
  }
  outcome.steps.push_back(stepOf(start, "start: " + outcome.precisionMode, {}, 0));
  outcome.steps.back().kept = true;
  Evaluation current = start;
  std::set<std::string> raised;
  addCandidates(start);
  if (outcome.steps.back().meets)
    outcome.resultStep = 0;
  bool met = raiseUntilMet(current, raised);
  if (met)
    pruneRaised(current, raised);

  outcome.edits = editsByOpType(raised, current);
  outcome.plan = current.report;
  outcome.outputs = current.outputs;
  outcome.estDeviceUs = current.report.estDeviceUs();
  outcome.kind = met ? SearchOutcome::Kind::Found : SearchOutcome::Kind::Unreachable;
  if (!met)
    outcome.message = budgetLeft() ? "raising every op the SoC can run in fp32 does not meet "
                                     "the target"
                                   : "the search budget (" + std::to_string(settings.budget) +
                                         " runs) ran out before the target held; a larger "
                                         "--search-budget may find a plan";
}

} // namespace

std::string session::formatTargetValue(policy::AccuracyMetric metric, double value) {
  char text[32];
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return "inf";
  if (policy::higherIsBetter(metric))
    std::snprintf(text, sizeof(text), "%.9f", value);
  else
    std::snprintf(text, sizeof(text), "%.2e", value);
  return text;
}

std::string session::conditionValueText(const policy::AccuracyCondition &condition,
                                       double value) {
  return (condition.output.empty() ? "" : policy::escapeForDisplay(condition.output) + ": ") +
         policy::accuracyMetricName(condition.metric) + " " + formatTargetValue(condition.metric, value);
}

std::string session::checkTargetOutputs(const policy::AccuracyTarget &target,
                                       const std::vector<std::string> &outputNames) {
  for (const policy::AccuracyCondition &condition : target.conditions) {
    if (condition.output.empty() || llvm::is_contained(outputNames, condition.output))
      continue;
    std::string names;
    for (size_t i = 0; i < outputNames.size(); ++i)
      names += (i ? ", '" : "'") + policy::escapeForDisplay(outputNames[i]) + "'";
    return "--search-precision: '" + policy::escapeForDisplay(condition.str()) +
           "' names the output '" + policy::escapeForDisplay(condition.output) +
           "', which the model does not have; its outputs are " + names;
  }
  return "";
}

std::vector<double> session::targetValues(const policy::AccuracyTarget &target,
                                         const std::vector<OutputAccuracy> &outputs) {
  std::vector<double> values;
  for (const policy::AccuracyCondition &condition : target.conditions) {
    bool higher = policy::higherIsBetter(condition.metric);
    double worst = higher ? INFINITY : 0;
    bool any = false;
    for (const OutputAccuracy &output : outputs) {
      if (!condition.output.empty() && output.name != condition.output)
        continue;
      double value = metricOf(output.vsReference, condition.metric);
      any = true;
      if (std::isnan(value) || std::isnan(worst))
        worst = NAN;
      else
        worst = higher ? std::min(worst, value) : std::max(worst, value);
    }
    values.push_back(any ? worst : NAN);
  }
  return values;
}

bool session::meetsTarget(const policy::AccuracyTarget &target,
                         const std::vector<OutputAccuracy> &outputs) {
  std::vector<double> values = targetValues(target, outputs);
  for (size_t i = 0; i < values.size(); ++i)
    if (!target.conditions[i].holdsFor(values[i]))
      return false;
  return !outputs.empty();
}

std::pair<policy::PrecisionEdits, std::vector<std::string>>
session::editsByFile(const policy::PrecisionEdits &edits, bool typesInMixList) {
  policy::PrecisionEdits keep = edits;
  std::vector<std::string> blackTypes;
  if (typesInMixList)
    std::swap(blackTypes, keep.opTypes);
  return {keep, blackTypes};
}

std::optional<size_t>
session::fastestModeMeeting(const policy::AccuracyTarget &target,
                           const std::vector<report::ReportModeComparison> &modes,
                           const std::vector<std::vector<OutputAccuracy>> &modeOutputs) {
  std::optional<size_t> fastest;
  for (size_t i = 0; i < modes.size() && i < modeOutputs.size(); ++i)
    if (modes[i].note.empty() && meetsTarget(target, modeOutputs[i]) &&
        (!fastest || modes[i].estDeviceUs < modes[*fastest].estDeviceUs))
      fastest = i;
  return fastest;
}

SearchOutcome session::searchPrecision(ModuleOp imported, const policy::SessionOptions &options,
                                      const SearchSettings &settings, const AccuracyRun &run,
                                      const RunInputs &inputs,
                                      const std::vector<report::ReportModeComparison> &modes,
                                      const std::vector<std::vector<OutputAccuracy>> &modeOutputs) {
  SearchOutcome outcome;
  // The start: the mode the user set, else the fastest mode that ran.
  policy::SessionOptions startOptions = options;
  bool userMode = options.has("precision_mode") || options.has("precision_mode_v2");
  if (const policy::OptionValue *mode = options.get("precision_mode")) {
    outcome.precisionMode = mode->text;
  } else if (const policy::OptionValue *modeV2 = options.get("precision_mode_v2")) {
    outcome.precisionMode = modeV2->text;
    outcome.modeOption = "precision_mode_v2";
  } else {
    // Among modes equally fast, the most accurate: its accuracy is free.
    const report::ReportModeComparison *fastest = nullptr;
    for (const report::ReportModeComparison &row : modes) {
      if (!row.note.empty())
        continue;
      if (!fastest || row.estDeviceUs < fastest->estDeviceUs * (1 - 1e-9) ||
          (row.estDeviceUs <= fastest->estDeviceUs * (1 + 1e-9) &&
           row.relRmse < fastest->relRmse))
        fastest = &row;
    }
    if (!fastest) {
      outcome.message = "no precision mode could be planned and run on this model";
      return outcome;
    }
    outcome.precisionMode = fastest->mode;
    policy::DiagnosticList diags;
    startOptions.set("precision_mode", fastest->mode, {"--search-precision"},
                     /*fromCommandLine=*/true, diags);
  }

  outcome.startMode = outcome.precisionMode;
  Searcher searcher(imported, settings, run, inputs, outcome);
  if (searcher.prepare(startOptions))
    searcher.search();
  if (outcome.kind == SearchOutcome::Kind::Failed)
    return outcome;
  if (outcome.kind == SearchOutcome::Kind::Found) {
    // A built-in mode that meets the target in less time is the better
    // answer (the search only raises ops from its start).
    std::optional<size_t> fastest = fastestModeMeeting(settings.target, modes, modeOutputs);
    if (!fastest || modes[*fastest].estDeviceUs >= outcome.estDeviceUs * (1 - 1e-9))
      return outcome;
    const report::ReportModeComparison *faster = &modes[*fastest];
    std::string fasterText = faster->mode + " meets the target in " +
                             std::string(llvm::formatv("{0:F1}", faster->estDeviceUs)) +
                             " us, less than the plan found";
    // A mode the user chose is kept (their deployment may need it); the
    // faster mode is pointed out.
    if (userMode) {
      outcome.hint = fasterText + ": leave out --" + outcome.modeOption +
                     " to let the search use it";
      return outcome;
    }
    outcome.message = "the plan found (" + outcome.precisionMode + " with " +
                      std::to_string(outcome.edits.nodeNames.size() +
                                     outcome.edits.opTypes.size()) +
                      (outcome.edits.nodeNames.size() + outcome.edits.opTypes.size() == 1
                           ? " keep_dtype entry, est. "
                           : " keep_dtype entries, est. ") +
                      std::string(llvm::formatv("{0:F1}", outcome.estDeviceUs)) +
                      " us) is slower than a built-in mode";
  }

  // Not found by raising ops: the fastest built-in mode that meets the
  // target, if any; else what the most precise mode reaches.
  if (std::optional<size_t> bestIndex = fastestModeMeeting(settings.target, modes, modeOutputs)) {
    const report::ReportModeComparison *best = &modes[*bestIndex];
    std::string why = outcome.message;
    SearchOutcome builtIn = std::move(outcome);
    builtIn.kind = SearchOutcome::Kind::BuiltInMode;
    builtIn.precisionMode = best->mode;
    builtIn.modeOption = "precision_mode";
    builtIn.edits = {};
    builtIn.typesInMixList = false;
    builtIn.resultStep = -1; // no step of the search is the result
    builtIn.outputs = modeOutputs[*bestIndex];
    builtIn.estDeviceUs = best->estDeviceUs;
    builtIn.message = why + "; " + best->mode + " meets it";
    // Its plan, for the lockfile and the check of the files.
    policy::SessionOptions modeOptions = options;
    modeOptions.erase("precision_mode_v2");
    policy::DiagnosticList diags;
    modeOptions.set("precision_mode", best->mode, {"--search-precision"}, true, diags);
    std::optional<policy::Policy> policy = policy::Policy::build(modeOptions, diags);
    std::string planWhy;
    if (policy && planAndLower(imported, std::make_shared<const policy::Policy>(std::move(*policy)),
                               settings.planning, builtIn.plan, planWhy))
      return builtIn;
    builtIn.kind = SearchOutcome::Kind::Failed;
    builtIn.message = "internal error: " + best->mode + " ran but cannot be planned again: " +
                      planWhy;
    return builtIn;
  }
  outcome.kind = SearchOutcome::Kind::Unreachable;
  // What fp32 reaches: force_fp32's values, else must_keep_origin_dtype's.
  for (const char *precise : {"force_fp32", "must_keep_origin_dtype"})
    for (size_t i = 0; i < modes.size() && i < modeOutputs.size(); ++i) {
      if (modes[i].mode != precise || !modes[i].note.empty())
        continue;
      std::vector<double> values = targetValues(settings.target, modeOutputs[i]);
      std::string reached;
      for (size_t c = 0; c < values.size(); ++c)
        reached += (c ? ", " : "") + conditionValueText(settings.target.conditions[c], values[c]);
      int64_t low = modes[i].lowPrecisionOps;
      outcome.message = "the target " + settings.target.str() +
                        " cannot be met even by the most precise plan: " + precise +
                        " reaches " + reached +
                        (low ? " (" + std::to_string(low) +
                                   " ops stay in fp16 there: the SoC has no fp32 kernel for "
                                   "them)"
                             : "") +
                        "; relax the target";
      return outcome;
    }
  outcome.message = "the target " + settings.target.str() +
                    " is not met, and neither force_fp32 nor must_keep_origin_dtype could be "
                    "run to say what fp32 reaches";
  return outcome;
}

bool session::samePlan(const report::ReportData &a, const report::ReportData &b,
                      std::string &difference) {
  std::map<std::string, const report::ReportNode *> byName;
  for (const report::ReportNode &node : b.nodes)
    if (!node.insertedCast)
      byName[node.name] = &node;
  size_t planned = 0;
  for (const report::ReportNode &node : a.nodes) {
    if (node.insertedCast)
      continue;
    ++planned;
    auto other = byName.find(node.name);
    if (other == byName.end()) {
      difference = "'" + policy::escapeForDisplay(node.name) + "' is missing";
      return false;
    }
    const report::ReportNode &that = *other->second;
    if (node.computeDType != that.computeDType || node.inputDTypes != that.inputDTypes ||
        node.outputDTypes != that.outputDTypes) {
      difference = "'" + policy::escapeForDisplay(node.name) + "' computes in " +
                   node.computeDType + " in one plan and " + that.computeDType + " in the other";
      return false;
    }
  }
  if (planned != byName.size()) {
    difference = "the plans have different ops";
    return false;
  }
  return true;
}
