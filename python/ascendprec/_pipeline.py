"""Several models with Python glue between them, judged end to end.

    pipeline = ascendprec.Pipeline(
        {"frontend": "frontend.onnx", "classifier": "classifier.onnx"},
        lambda run, sample: run("classifier",
                                {"log_mel": run("frontend", sample)["log_mel"]}),
        soc_version="Ascend910B3")
    pipeline.evaluate("clips/", {"frontend": "force_fp16", "classifier": "force_fp16"})
    pipeline.search("top1_agreement>=0.99", data="clips/")

The glue gets ``run(model name, inputs) -> outputs`` and the sample, and
returns the pipeline's outputs. Each sample goes through it twice: once
with every model's fp32 reference (cached on disk, keyed by every model
and the sample), once with the plans being judged, so the error one
model leaves feeds the next, as it will on the device. The search picks
one precision mode per model jointly, fastest total estimate first.
"""

import hashlib
import itertools
import json

from ._dataset_search import (ESTIMATE_NOISE, FIRST_LOOK, MODES, _mode_spec, _planned,
                              raise_not_met, start_search)
from ._evaluate import Evaluation, Runner
from ._metrics import sample_metrics
from ._plans import plan_of
from ._refcache import ReferenceCache, reference_key, sample_digest
from ._targets import judge


def pipeline_chunk(task):
    """One chunk of samples through the glue: reference, then plans."""
    cache = ReferenceCache(task["cache_folder"])
    glue = task["glue"]
    threads = task["threads"]
    plans = {name: plan_of(spec) for name, spec in task["specs"].items()}
    references = {name: plan_of(spec) for name, spec in task["reference_specs"].items()}
    digest = hashlib.sha256(json.dumps(sorted(
        (name, spec.digest) for name, spec in task["reference_specs"].items())).encode()).hexdigest()

    def runner_of(chosen, kind):
        def run(name, inputs):
            if name not in chosen:
                raise KeyError("the glue runs model %r; the pipeline's models are %s"
                               % (name, ", ".join(chosen)))
            return chosen[name]._session.run_sample(dict(inputs), kind, threads)
        return run

    records = []
    from ._dataset import read_shipped
    for index, entry in task["samples"]:
        sample = read_shipped(entry, [])
        key = reference_key(digest, "pipeline", sample_digest(sample.inputs))
        reference = cache.get(key)
        cached = reference is not None
        if not cached:
            reference = dict(glue(runner_of(references, "reference"), sample.inputs))
            cache.put(key, reference)
        outputs = glue(runner_of(plans, "plan"), sample.inputs)
        records.append({"index": index, "id": sample.id, "run_s": 0.0, "reference_s": 0.0,
                        "reference_cached": cached,
                        "metrics": sample_metrics(outputs, reference, label=sample.label,
                                                  class_axes=task["class_axes"])})
    return records


class Pipeline:
    """Models by name (paths or ONNX bytes), the glue, and the CANN options
    every model is planned under (a model's own options: ``options=
    {"frontend": {...}}``)."""

    def __init__(self, models, glue, soc_version=None, precision_mode=None, *, options=None,
                 **cann_options):
        from ._api import plan
        if not callable(glue):
            raise TypeError("glue is a function glue(run, sample) -> outputs")
        if not models:
            raise ValueError("a pipeline has at least one model")
        self.glue = glue
        self.base = {}
        for name, model in models.items():
            own = dict(cann_options, **(options or {}).get(name, {}))
            self.base[name] = plan(model, soc_version, precision_mode, **own)

    def _runner(self, data, settings):
        settings = dict(settings)
        return Runner(None, data, **settings)

    def _task(self, specs):
        return {"function": pipeline_chunk, "glue": self.glue, "specs": specs,
                "reference_specs": {name: p._spec for name, p in self.base.items()}}

    def _specs(self, modes):
        specs = {}
        for name, base in self.base.items():
            mode = (modes or {}).get(name)
            specs[name] = base._spec if mode is None else _mode_spec(base._spec, mode)
        return specs

    def evaluate(self, data, modes=None, **settings):
        """The pipeline on every sample: ``modes`` {model: precision mode}
        (each model's own options otherwise). An Evaluation of the glue's
        outputs."""
        runner = self._runner(data, settings)
        specs = self._specs(modes)
        estimate = sum(plan_of(spec).est_device_us for spec in specs.values())
        evaluation = Evaluation(" + ".join("%s: %s" % (n, plan_of(s).precision_mode)
                                           for n, s in specs.items()), (), estimate)
        return runner.run_task(self._task(specs), evaluation, label="pipeline")

    def search(self, target, data, budget=24, **settings):
        """One precision mode per model, jointly: the fastest combination
        (by the sum of estimates) whose end-to-end figures meet `target` at
        their intervals' worse end, confirmed on every sample."""
        runner = self._runner(data, settings)
        conditions, total, result = start_search(runner, target)
        per_model = {}
        for name, base in self.base.items():
            options = []
            for mode in MODES:
                plan, why = _planned(_mode_spec(base._spec, mode))
                if plan is None:
                    result.notes.append("%s: %s does not plan: %s" % (name, mode, why))
                else:
                    options.append((mode, plan.est_device_us))
            per_model[name] = options
        names = list(per_model)
        combinations = sorted(
            (sum(est for _, est in combo), [mode for mode, _ in combo])
            for combo in itertools.product(*(per_model[n] for n in names)))
        best, evaluated = None, 0
        for estimate, modes in combinations:
            label = ", ".join("%s %s" % (n, m) for n, m in zip(names, modes))
            if best is not None and estimate > best[0] * (1 + ESTIMATE_NOISE):
                result.steps.append({"plan": label, "est_device_us": estimate, "samples": 0,
                                     "verdict": "pruned", "note": ""})
                continue
            if best is not None or evaluated >= budget:
                continue
            evaluated += 1
            task = self._task(self._specs(dict(zip(names, modes))))
            evaluation, size = Evaluation(label, (), estimate), min(FIRST_LOOK, total)
            while True:
                runner.run_task(task, evaluation, evaluation.n, size, label=label)
                verdict = judge(conditions, evaluation)
                if verdict.failed or size >= total:
                    break
                size = min(total, size * 2)
            result.steps.append({"plan": label, "est_device_us": estimate,
                                 "samples": evaluation.n,
                                 "verdict": "passes" if verdict.passed else "fails",
                                 "note": "; ".join(verdict.notes)})
            if verdict.passed:
                best = (estimate, dict(zip(names, modes)), evaluation)
        pruned = sum(1 for s in result.steps if s["verdict"] == "pruned")
        result.sample_runs = runner.sample_runs
        result.exhaustive_sample_runs = total * (evaluated + pruned)
        if best is None:
            result.message = "no combination of modes tried meets the target on these %d " \
                             "samples" % total
            raise_not_met(result, conditions, total)
        result.kind = "built_in_mode"
        result.precision_mode = best[1]
        result.est_device_us = best[0]
        result.evaluation = best[2]
        result.message = "%s, est. %.1f us in all, meets it on all %d samples" % (
            ", ".join("%s %s" % kv for kv in best[1].items()), best[0], total)
        for name, mode in best[1].items():
            result.files["%s.options.json" % name] = json.dumps(
                dict(dict(self.base[name]._spec.options), precision_mode=mode),
                indent=2, sort_keys=True) + "\n"
        return result
