"""evaluate(), and compare_modes / search_precision with ``data=``: the
engine judged on the user's samples (docs/reference/datasets.md)."""

import os

from ._dataset_search import compare_on_data, search_on_data
from ._evaluate import Evaluation, Runner
from ._plans import is_dynamic, model_inputs


def _whole(name, value, low, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s takes a whole number, not %r" % (name, value))
    if value < low or (high is not None and value > high):
        raise ValueError("%s takes a whole number from %d%s, not %d"
                         % (name, low, " to %d" % high if high is not None else "", value))
    return value


def _runner(plan, data, settings):
    known = {"labels", "data_axis", "class_axes", "threads", "jobs", "client",
             "reference_cache", "progress", "chunk", "limit"}
    unknown = set(settings) - known
    if unknown:
        raise TypeError("unknown dataset setting(s): %s" % ", ".join(sorted(unknown)))
    from ._api import THREADS_MAX
    _whole("threads", settings.get("threads", 1), 1, THREADS_MAX)
    _whole("jobs", settings.get("jobs", 1), 1)
    if settings.get("limit") is not None:
        _whole("limit", settings["limit"], 1)
    if settings.get("client") is not None and settings.get("jobs", 1) > 1:
        raise ValueError("jobs= runs samples in this process's threads; with client= the "
                         "cluster's workers run them: give one or the other")
    if data is None:
        raise TypeError("data takes a path or an iterable of {input name: array} samples")
    return Runner(plan, data, **settings)


def _planned(model_or_plan, soc_version, precision_mode, cann_options, flags):
    from ._api import Plan, plan
    if isinstance(model_or_plan, Plan):
        if cann_options or soc_version or precision_mode:
            raise TypeError("a Plan carries its options: give options only with a model path")
        if model_or_plan._spec is None:
            raise ValueError("this plan was not made by ascendprec.plan()")
        return model_or_plan
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        planned = plan(model_or_plan, soc_version, precision_mode, **flags, **cann_options)
    inputs = model_inputs(planned)
    for warning in caught:
        # A model with dynamic dims is planned again per sample shape: the
        # first plan's "not lowered: dynamic shape" warnings do not apply.
        if is_dynamic(inputs) and "dynamic shape" in str(warning.message):
            continue
        warnings.warn_explicit(warning.message, warning.category, warning.filename,
                               warning.lineno)
    return planned


def evaluate(model, data, soc_version=None, precision_mode=None, *, labels=None,
             data_axis=None, class_axes=None, per_op=True, threads=1, jobs=1, client=None,
             reference_cache=True, progress=None, limit=None, chunk=None, keep_io_dtypes=True,
             fusion_respects_pins=False, **cann_options):
    """Runs a plan (a Plan, or a model planned here under CANN's options)
    on every sample of ``data`` against each sample's fp32 reference, and
    returns an Evaluation: per-sample figures and, per output and metric,
    mean / worst / p1 / p5 with 95% intervals; with ``per_op`` where the
    error first jumps, counted over samples."""
    plan = _planned(model, soc_version, precision_mode, cann_options,
                    {"keep_io_dtypes": keep_io_dtypes,
                     "fusion_respects_pins": fusion_respects_pins})
    runner = _runner(plan, data, dict(labels=labels, data_axis=data_axis,
                                      class_axes=class_axes, threads=threads, jobs=jobs,
                                      client=client, reference_cache=reference_cache,
                                      progress=progress, limit=limit, chunk=chunk))
    label = plan.precision_mode
    evaluation = runner.records(plan._spec, Evaluation(label, (), runner.plan.est_device_us,
                                                       plan.precision_mode),
                                per_op=per_op, label=label)
    evaluation.sample_runs = runner.sample_runs
    return evaluation


def compare_modes_on_data(model, data, soc_version, precision_mode, settings, cann_options,
                          flags):
    plan = _planned(model, soc_version, precision_mode, cann_options, flags)
    runner = _runner(plan, data, settings)
    return compare_on_data(runner, plan)


def search_on_dataset(model, data, target, soc_version, precision_mode, budget, settings,
                      cann_options, flags):
    plan = _planned(model, soc_version, precision_mode, cann_options, flags)
    runner = _runner(plan, data, settings)
    return search_on_data(runner, plan, target, budget)
