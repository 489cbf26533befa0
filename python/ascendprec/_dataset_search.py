"""The precision modes compared, and the fastest plan searched, on a dataset.

compare_on_data: every built-in mode on every sample, each mode's figures
with 95% intervals, and paired differences between modes on the same
samples (McNemar's test for agreement, a paired bootstrap otherwise),
PM-13's accuracy order judged on them.

search_on_data: the fastest plan whose figures meet the target at their
intervals' worse end (docs/reference/precision-search.md, "On a dataset"):

1. every built-in mode is planned and estimated; candidates are tried
   fastest first, and none estimated slower than a plan already known to
   pass is ever run;
2. each candidate runs on growing prefixes of the dataset (8, 16, 32, ...
   samples): one that fails at its intervals' better end stops there;
3. when a faster mode fails, the ops it computes in reduced precision are
   ranked by the error they add (lockstep runs of that mode on the first
   samples), and keep_dtype lists of the worst k of them are searched by
   bisection on k (fewer lines first);
4. the answer is confirmed on every sample before it is returned, so it
   never fails the target on the dataset; plans within the estimate's noise
   (1%) of each other go to the simpler (a built-in mode before a
   keep_dtype list, fewer lines before more).
"""

import math
import os
import shutil
import tempfile

import numpy

from ._errors import RunError, SearchError
from ._evaluate import Evaluation
from ._metrics import AGREEMENT
from ._plans import plan_of
from ._stats import mcnemar, paired_bootstrap
from ._targets import judge, parse_target

MODES = ["force_fp16", "allow_mix_precision", "allow_fp32_to_fp16", "must_keep_origin_dtype",
         "force_fp32", "cube_fp16in_fp32out", "allow_mix_precision_bf16", "allow_fp32_to_bf16"]
#: PM-13's accuracy order, most accurate first.
PM13_ACCURACY = ["force_fp32", "must_keep_origin_dtype", "allow_fp32_to_fp16",
                 "allow_mix_precision", "force_fp16"]
ESTIMATE_NOISE = 0.01
FIRST_LOOK = 8


def _mode_spec(base_spec, mode):
    return base_spec.with_options(precision_mode=mode, precision_mode_v2=None)


def _planned(spec):
    """(plan, None) or (None, why it does not plan)."""
    from ._errors import Error
    try:
        return plan_of(spec), None
    except Error as error:
        return None, error.message.split("\n")[0]


# -- comparing the modes -------------------------------------------------------

class DatasetComparison:
    """Every mode on the dataset (``modes``: label -> Evaluation, or a note
    when it did not plan), and paired differences between modes."""

    def __init__(self, evaluations, notes, pairs, order_check, runner):
        self.evaluations = evaluations
        self.notes = notes
        self.pairs = pairs
        self.pm13 = order_check
        self.sample_runs = runner.sample_runs
        self.reference_runs = sum(e.reference_runs for e in evaluations.values())

    def mode(self, name):
        if name in self.evaluations:
            return self.evaluations[name]
        if name in self.notes:
            raise KeyError("mode %r was not run: %s" % (name, self.notes[name]))
        raise KeyError("no mode %r; the modes are %s" % (name, ", ".join(self.evaluations)))

    def to_dict(self):
        return {"modes": {name: e.to_dict() for name, e in self.evaluations.items()},
                "not_run": self.notes, "paired": self.pairs, "pm13_accuracy_order": self.pm13,
                "sample_runs": self.sample_runs}

    @property
    def text(self):
        return comparison_text(self)

    def __str__(self):
        return self.text


def _main_metric(evaluation):
    """The metric the table leads with: top-1 agreement on a classifier,
    cosine otherwise; and the output it is read on."""
    for output, metrics in evaluation.metrics.items():
        if "top1_agreement" in metrics:
            return output, "top1_agreement"
    output = next(iter(evaluation.metrics))
    # One value per sample (a VAD's speech probability): its cosine is only
    # its sign, so the error leads.
    return output, "max_abs_err" if evaluation.elements.get(output) == 1 else "cosine"


def paired_figures(a, b, output, metric):
    """mode a against mode b on the same samples."""
    values_a, values_b = a.values(output, metric), b.values(output, metric)
    both = numpy.concatenate([values_a, values_b])
    if metric in AGREEMENT and numpy.all((both == 0) | (both == 1)):
        only_a, only_b, p = mcnemar(values_a, values_b)
        return {"test": "mcnemar", "metric": metric, "output": output,
                "only_a": only_a, "only_b": only_b, "p": p}
    figures = paired_bootstrap(values_a, values_b)
    figures.update({"test": "paired_bootstrap", "metric": metric, "output": output})
    return figures


def compare_on_data(runner, base_plan, progress_label="compare"):
    if runner.length() is None:
        raise TypeError("comparing the modes reads the data once per mode: give a path, a "
                        "list, or a Dataset, not a one-shot iterator")
    base_spec = base_plan._spec
    evaluations, notes = {}, {}
    for mode in MODES:
        spec = _mode_spec(base_spec, mode)
        plan, why = _planned(runner.for_estimate(spec))
        if plan is None:
            notes[mode] = why
            continue
        evaluations[mode] = runner.records(spec, Evaluation(mode, (), plan.est_device_us, mode),
                                           label=mode)
    pairs = []
    if evaluations:
        first = next(iter(evaluations.values()))
        output, metric = _main_metric(first)
        names = list(evaluations)
        # The lead metric, and rel_rmse: agreement on a confident classifier
        # ties everywhere while the error still orders the modes.
        metrics = [metric] if metric == "rel_rmse" else [metric, "rel_rmse"]
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for compared in metrics:
                    figures = paired_figures(evaluations[a], evaluations[b], output, compared)
                    figures.update({"a": a, "b": b})
                    pairs.append(figures)
        order = _pm13_check(evaluations, output, "rel_rmse")
    else:
        order = {}
    return DatasetComparison(evaluations, notes, pairs, order, runner)


def _pm13_check(evaluations, output, metric):
    """PM-13: each mode at least as accurate as the next in its order,
    judged on the paired samples: a violation is a significant (p < 0.05)
    difference the wrong way."""
    present = [m for m in PM13_ACCURACY if m in evaluations]
    checks = []
    for better, worse in zip(present, present[1:]):
        figures = paired_figures(evaluations[better], evaluations[worse], output, metric)
        if figures["test"] == "mcnemar":
            wrong_way = figures["only_b"] > figures["only_a"]
        else:
            from ._metrics import higher_is_better
            above, below = figures.get("sign_test", (None, None))
            if above is not None:       # overflowed samples: by the sign test's counts
                difference = above - below
            else:
                difference = figures["mean_diff"] or 0
            wrong_way = difference < 0 if higher_is_better(metric) else difference > 0
        significant = figures["p"] is not None and figures["p"] < 0.05
        checks.append({"more_accurate": better, "less_accurate": worse,
                       "holds": not (wrong_way and significant),
                       "significant_difference": significant, "p": figures["p"]})
    return {"output": output, "metric": metric, "pairs": checks,
            "holds": all(c["holds"] for c in checks)}


def _fmt(value, digits=6):
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-" if value is None else ("inf" if value > 0 else "nan")
    return ("%." + str(digits) + "f") % value if abs(value) < 10 else "%.3g" % value


def _columns(evaluation):
    """The table's columns: (heading, metric, output, aggregate)."""
    output, metric = _main_metric(evaluation)
    columns = []
    if metric == "top1_agreement":
        columns.append(("top-1 agreement [95% CI]", "top1_agreement", output, "mean"))
        if "top1_accuracy" in evaluation.metrics[output]:
            columns.append(("accuracy vs labels", "top1_accuracy", output, "mean"))
    if metric == "max_abs_err":
        columns.append(("max abs error: mean [95% CI], worst", "max_abs_err", output, "worst"))
    else:
        columns.append(("cosine: mean, worst", "cosine", output, "worst"))
    return columns


def comparison_text(comparison):
    if not comparison.evaluations:
        return "no mode planned: " + "; ".join("%s: %s" % kv for kv in comparison.notes.items())
    first = next(iter(comparison.evaluations.values()))
    columns = _columns(first)
    lines = ["Precision modes on %d samples (output '%s'; est. device time):"
             % (first.n, columns[0][2]),
             "  %-26s %10s  %s" % ("mode", "est.", "  ".join("%-36s" % c[0] for c in columns))]
    for name, evaluation in comparison.evaluations.items():
        cells = []
        for _, metric, output, _aggregate in columns:
            s = evaluation.stat(output, metric)
            if metric == "cosine":
                cells.append("%s, %s" % (_fmt(s["mean"], 9), _fmt(s["worst"], 9)))
            elif metric == "max_abs_err":
                cells.append("%.3g [%.3g, %.3g], %.3g" % (s["mean"], s["mean_ci"][0],
                                                          s["mean_ci"][1], s["worst"]))
            else:
                cells.append("%s [%s, %s]" % (_fmt(s["mean"], 4), _fmt(s["mean_ci"][0], 4),
                                              _fmt(s["mean_ci"][1], 4)))
        lines.append("  %-26s %7.1f us  %s" % (name, evaluation.est_device_us or 0,
                                               "  ".join("%-36s" % c for c in cells)))
    for name, note in comparison.notes.items():
        lines.append("  %-26s not run: %s" % (name, note))
    check = comparison.pm13
    if check.get("pairs"):
        broken = [c for c in check["pairs"] if not c["holds"]]
        lines.append("PM-13's accuracy order (rel_rmse, paired) %s on these samples%s" % (
            "holds" if not broken else "is broken",
            "" if not broken else ": " + "; ".join(
                "%s measurably less accurate than %s (p=%.3g)"
                % (c["more_accurate"], c["less_accurate"], c["p"]) for c in broken)))
        ties = [c for c in check["pairs"] if not c["significant_difference"]]
        if ties:
            lines.append("  not told apart by these samples (p >= 0.05): " + ", ".join(
                "%s / %s" % (c["more_accurate"], c["less_accurate"]) for c in ties))
    lines.append("%d sample-runs, %d fp32 reference runs" % (comparison.sample_runs,
                                                              comparison.reference_runs))
    return "\n".join(lines)


# -- the search -----------------------------------------------------------------

class DatasetSearchResult:
    """The plan found (or why none), the steps, and the sample-runs used."""

    def __init__(self):
        self.kind = "not_met"
        self.precision_mode = None
        self.keep_dtype = []         # node names kept in their origin dtype
        self.est_device_us = None
        self.evaluation = None
        #: Every candidate run, by its label: the samples it ran on.
        self.evaluations = {}
        self.steps = []
        self.sample_runs = 0
        self.exhaustive_sample_runs = 0
        self.message = ""
        self.notes = []
        self.files = {}
        self.target = ""

    def to_dict(self):
        return {"target": self.target, "kind": self.kind, "precision_mode": self.precision_mode,
                "keep_dtype": self.keep_dtype, "est_device_us": self.est_device_us,
                "message": self.message, "notes": self.notes, "steps": self.steps,
                "sample_runs": self.sample_runs,
                "exhaustive_sample_runs": self.exhaustive_sample_runs,
                "evaluation": self.evaluation.to_dict() if self.evaluation else None}

    def write(self, folder):
        """The CANN files that reproduce the plan, into a new or empty
        folder (nothing there is overwritten)."""
        from ._errors import OutputError
        folder = os.fspath(folder)
        if os.path.exists(folder) and (not os.path.isdir(folder) or os.listdir(folder)):
            raise OutputError("%s is not a new or empty folder: the search's files go into "
                              "one, so that none of yours is overwritten" % folder,
                              step="write", file=folder)
        os.makedirs(folder, exist_ok=True)
        for name, text in self.files.items():
            with open(os.path.join(folder, name), "x") as stream:
                stream.write(text)
        return list(self.files)

    @property
    def text(self):
        lines = ["Search for %s on the dataset: %s" % (self.target, self.message)]
        for step in self.steps:
            lines.append("  %-44s %9.1f us  %-9s on %d samples%s"
                         % (step["plan"][:44], step["est_device_us"], step["verdict"],
                            step["samples"], ("  " + step["note"]) if step.get("note") else ""))
        lines.append("%d sample-runs (evaluating every candidate on every sample: %d)"
                     % (self.sample_runs, self.exhaustive_sample_runs))
        lines.extend("note: " + note for note in self.notes)
        return "\n".join(lines)

    def __str__(self):
        return self.text


class _Candidate:
    def __init__(self, label, spec, plan, simplicity, keep=()):
        self.label = label
        self.spec = spec
        self.plan = plan
        self.est = plan.est_device_us
        self.simplicity = simplicity   # (0, 0) a built-in mode; (1, k) k keep_dtype lines
        self.keep = list(keep)
        self.evaluation = Evaluation(label, (), self.est)
        self.verdict = None


def _evaluate_sequentially(runner, candidate, conditions, total, result):
    """Runs `candidate` on growing prefixes until the verdict is settled:
    failed, or passed on every sample. Returns the final verdict."""
    size = min(FIRST_LOOK, total)
    while True:
        evaluation = candidate.evaluation
        if size > evaluation.n:
            runner.records(candidate.spec, evaluation, evaluation.n, size, label=candidate.label)
        verdict = judge(conditions, evaluation)
        # A failure is settled at once; a pass only on every sample, since
        # any passing candidate may be the answer.
        if verdict.failed or size >= total:
            candidate.verdict = verdict
            result.evaluations[candidate.label] = evaluation
            result.steps.append({"plan": candidate.label, "est_device_us": candidate.est,
                                 "samples": evaluation.n,
                                 "verdict": "passes" if verdict.passed else "fails",
                                 "figures": {k: list(v) for k, v in verdict.values.items()},
                                 "note": "; ".join(verdict.notes)})
            return verdict
        size = min(total, size * 2)


def _ranked_ops(runner, start_plan, samples):
    """The ops `start_plan` computes in reduced precision, by the error
    they add (mean over the first samples of rel_rmse beyond what their
    inputs carried), worst first."""
    added = {}
    reduced = {op.name for op in start_plan.ops
               if op.compute_dtype in ("float16", "bfloat16") and not op.inserted_cast}
    for sample in samples:
        try:
            run = start_plan.run(sample.inputs, threads=runner.threads)
        except RunError:
            continue  # another shape than the plan's (a model with dynamic dims)
        for op in run.ops:
            if not op.nodes:
                continue
            gain = op.vs_reference.rel_rmse - op.input_rel_rmse
            gain = gain if math.isfinite(gain) else 1e30
            for node in op.nodes:
                if node in reduced:
                    added[node] = added.get(node, 0.0) + max(0.0, gain)
    return [node for node, _ in sorted(added.items(), key=lambda kv: (-kv[1], kv[0]))]


def start_search(runner, target):
    """The target's conditions, the dataset's size and an empty result;
    a TypeError for data that cannot be read twice."""
    conditions = parse_target(target)
    total = runner.length()
    if total is None:
        raise TypeError("a search reads the data several times: give a path, a list, or a "
                        "Dataset, not a one-shot iterator")
    too_few = sample_size_notes(conditions, total)
    if too_few:
        message = "; ".join(too_few) + "; nothing was run"
        raise SearchError(message, step="search", file="<options>", text=message)
    result = DatasetSearchResult()
    result.target = target
    return conditions, total, result


def search_on_data(runner, base_plan, target, budget=24):
    conditions, total, result = start_search(runner, target)
    base_spec = base_plan._spec
    candidates, passing = [], []
    for mode in MODES:
        spec = _mode_spec(base_spec, mode)
        plan, why = _planned(runner.for_estimate(spec))
        if plan is None:
            result.notes.append("%s does not plan: %s" % (mode, why))
            continue
        candidates.append(_Candidate(mode, spec, plan, (0, 0)))
    candidates.sort(key=lambda c: (c.est, c.simplicity))
    evaluated = 0
    best = None
    for candidate in candidates:
        if best is not None:
            # Sorted by estimate: nothing after a passing mode is faster
            # beyond the estimate's noise, and a built-in mode is no simpler.
            slower = candidate.est > best.est * (1 + ESTIMATE_NOISE)
            result.steps.append({"plan": candidate.label, "est_device_us": candidate.est,
                                 "samples": 0, "verdict": "pruned",
                                 "note": "%s %s, which passes" % (
                                     "estimated slower than" if slower else
                                     "no faster (within the estimate's 1% noise) than",
                                     best.label)})
            continue
        if evaluated >= budget:
            break
        evaluated += 1
        verdict = _evaluate_sequentially(runner, candidate, conditions, total, result)
        if verdict.passed:
            passing.append(candidate)
            if best is None or (candidate.est, candidate.simplicity) < (best.est, best.simplicity):
                best = candidate
    fastest = candidates[0] if candidates else None
    # Keep lists on the fastest mode, when it failed and a plan of it could
    # beat the best built-in mode.
    if fastest is not None and fastest is not best and fastest.verdict is not None:
        best, evaluated = _search_keep_lists(runner, fastest, conditions, total, result, best,
                                             budget, evaluated)
    result.sample_runs = runner.sample_runs
    result.exhaustive_sample_runs = total * sum(1 for s in result.steps)
    if best is None:
        result.kind = "not_met"
        result.message = ("no plan tried meets the target at its 95%% interval on these %d "
                          "samples, not even %s" % (total, _most_accurate(candidates)))
        raise_not_met(result, conditions, total)
    _finish(result, best, base_spec)
    return result


def _most_accurate(candidates):
    labels = [c.label for c in candidates]
    for mode in ("force_fp32", "must_keep_origin_dtype"):
        if mode in labels:
            return mode
    return "the most accurate mode"


def sample_size_notes(conditions, total):
    """Conditions no plan can meet on `total` samples however accurate: a
    perfect agreement's 95% interval still reaches below the bound."""
    from ._stats import Z95
    notes = []
    for condition in conditions:
        if condition.metric in AGREEMENT and condition.aggregate == "mean" and \
                condition.bound < 1:
            perfect_low = total / (total + Z95 ** 2)
            if perfect_low < condition.bound:
                needed = math.ceil(Z95 ** 2 * condition.bound / (1 - condition.bound))
                notes.append("%s cannot be shown on %d samples: even with every sample "
                             "agreeing, the 95%% interval reaches down to %.4f; it needs at "
                             "least %d samples (or a lower bound)"
                             % (condition.text, total, perfect_low, needed))
    return notes


def raise_not_met(result, conditions=(), total=0):
    too_few = sample_size_notes(conditions, total)
    if too_few:
        result.message += ": " + "; ".join(too_few)
    raise SearchError(result.message, step="search", file="", details=result.text.splitlines(),
                      text="search: " + result.message + "\n" + result.text)


def _search_keep_lists(runner, start, conditions, total, result, best, budget, evaluated):
    best_built_in = best
    import itertools
    first = list(itertools.islice(iter(runner.dataset), min(FIRST_LOOK, total)))
    ranked = _ranked_ops(runner, start.plan, first)
    if not ranked:
        return best, evaluated
    folder = tempfile.mkdtemp(prefix="ascendprec-search-")
    try:
        def candidate_for(k):
            path = os.path.join(folder, "keep_dtype_%d.cfg" % k)
            with open(path, "w") as stream:
                stream.write("".join(node + "\n" for node in ranked[:k]))
            spec = start.spec.with_options(keep_dtype=path)
            plan, why = _planned(runner.for_estimate(spec))
            if plan is None:
                return None
            return _Candidate("%s + keep_dtype (%d ops)" % (start.label, k), spec, plan,
                              (1, k), ranked[:k])
        low, high = 1, len(ranked)
        found_all = None
        while low <= high and evaluated < budget:
            k = (low + high) // 2
            candidate = candidate_for(k)
            if candidate is None:
                break
            if best is not None and candidate.est > best.est * (1 + ESTIMATE_NOISE):
                # Raising more ops is slower still: only fewer can beat the best.
                result.steps.append({"plan": candidate.label, "est_device_us": candidate.est,
                                     "samples": 0, "verdict": "pruned",
                                     "note": "estimated slower than %s, which passes"
                                             % best.label})
                high = k - 1
                continue
            evaluated += 1
            verdict = _evaluate_sequentially(runner, candidate, conditions, total, result)
            if verdict.passed:
                if k == len(ranked):
                    found_all = candidate
                if best is None or (candidate.est, candidate.simplicity) < \
                        (best.est * (1 - ESTIMATE_NOISE), best.simplicity):
                    best = candidate
                high = k - 1
            else:
                low = k + 1
        if best is not None and best is found_all:
            # Every reduced op kept: no list to maintain, but the fp32 plan
            # no built-in mode passing the target could give (they failed
            # or could not plan). Said plainly, not as a file of every op.
            result.notes.append("only keeping all %d reduced ops of %s in their origin dtype "
                                "meets the target: that is fp32 throughout, not a list to "
                                "maintain" % (len(ranked), start.label))
            best = best_built_in
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return best, evaluated


def _finish(result, best, base_spec):
    import json
    result.kind = "found" if best.keep else "built_in_mode"
    result.precision_mode = best.label.split(" ")[0]
    result.keep_dtype = best.keep
    result.est_device_us = best.est
    result.evaluation = best.evaluation
    options = {k: v for k, v in base_spec.options if k not in ("keep_dtype",)}
    options["precision_mode"] = result.precision_mode
    options.pop("precision_mode_v2", None)
    if best.keep:
        options["keep_dtype"] = "keep_dtype.cfg"
        result.files["keep_dtype.cfg"] = ("# ops kept in their origin dtype: the precision "
                                          "search on a dataset (ascendprec)\n" +
                                          "".join(n + "\n" for n in best.keep))
    result.files["options.json"] = json.dumps(options, indent=2, sort_keys=True) + "\n"
    result.message = "%s, est. %.1f us, meets it on all %d samples" % (
        best.label, best.est, best.evaluation.n)
