"""plan(), compare_modes() and search_precision(): the engine from Python.

Options are CANN's, by their own names (``precision_mode``,
``modify_mixlist``, ``keep_dtype``, ``customize_dtypes``,
``op_select_implmode``, ``session_options``, ATC's ``input_shape`` ...),
with file paths as CANN takes them; the rules are those of prec-compile.
"""

import os
import sys
import time
import warnings as _warnings
from collections.abc import Mapping

import numpy

from . import _ascendprec
from ._errors import RunError, pythonic
from ._dataset_api import compare_modes_on_data, search_on_dataset
from ._plans import make_spec
from ._results import (Op, OutputAccuracy, mode_result, run_result,
                       search_step)


def _option_text(name, value):
    """An option's value as CANN's command line spells it."""
    if _ascendprec._option_kind(name) in ("path", "directory"):
        # keep_dtype, modify_mixlist, customize_dtypes, ...: CANN's files.
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError("%s takes the path of a file in CANN's format (see "
                            "docs/reference/), not a %s" % (name, type(value).__name__))
        return os.fspath(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "input_shape" and isinstance(value, dict):
        # {"x": [1, 3, 224, 224]} -> "x:1,3,224,224"
        return ";".join("%s:%s" % (key, dims if isinstance(dims, str)
                                   else ",".join(str(d) for d in dims))
                        for key, dims in value.items())
    if isinstance(value, (list, tuple)):
        return ",".join(str(item) for item in value)
    if isinstance(value, (dict, set)):
        raise TypeError("%s takes a value as CANN spells it (a string or a number), "
                        "not a %s" % (name, type(value).__name__))
    return str(value)


_DATASET_SETTINGS = ("labels", "data_axis", "class_axes", "jobs", "client",
                     "reference_cache", "limit", "chunk")


def _dataset_settings(options):
    """The dataset settings among keyword arguments, and the CANN options."""
    settings = {k: options[k] for k in _DATASET_SETTINGS if k in options}
    return settings, {k: v for k, v in options.items() if k not in _DATASET_SETTINGS}


# The engine takes these as C++ `unsigned` (and the seed as uint64_t): a
# value beyond is refused here, with the range, before the extension sees it.
UNSIGNED_MAX = 2**32 - 1
SEED_MAX = 2**64 - 1
# As prec-compile's --threads: each is a thread of the host run.
THREADS_MAX = 256


def _whole(name, value, low, high=UNSIGNED_MAX):
    """`value` as a whole number in [low, high], or a clear error."""
    if isinstance(value, bool) or not isinstance(value, (int, numpy.integer)):
        raise TypeError("%s takes a whole number, not %r" % (name, value))
    if value < low or value > high:
        raise ValueError("%s takes a whole number from %d to %s, not %d"
                         % (name, low, "2**64-1" if high == SEED_MAX else high, value))
    return int(value)


def _flag(name, value):
    if not isinstance(value, (bool, numpy.bool_)):
        raise TypeError("%s takes True or False, not %r" % (name, value))
    return bool(value)


def _ranges_text(ranges):
    if not ranges:
        return ""
    if isinstance(ranges, str):
        return ranges
    if not isinstance(ranges, Mapping):
        raise TypeError("ranges takes {input name: (low, high)}, e.g. "
                        "{'x': (0, 1)}, not a %s" % type(ranges).__name__)
    parts = []
    for name, bounds in ranges.items():
        if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
            raise TypeError("ranges[%r] takes (low, high), not %r" % (name, bounds))
        parts.append("%s:%r,%r" % (name, float(bounds[0]), float(bounds[1])))
    return ";".join(parts)


def _input_arrays(inputs, model_inputs=None):
    """`inputs` checked before anything is copied: a Mapping whose keys are
    input names (str), and numpy arrays of the model's static shapes (a
    broadcast view of 2**31 elements is refused, not copied)."""
    if inputs is None:
        return inputs
    if not isinstance(inputs, Mapping):
        raise TypeError("inputs takes numpy arrays by input name, e.g. {'x': array}, not a %s"
                        % type(inputs).__name__)
    for name, value in inputs.items():
        if not isinstance(name, str):
            raise TypeError("inputs takes numpy arrays by input name: the key %r (%s) is "
                            "not a str" % (name, type(name).__name__))
        wanted = (model_inputs or {}).get(name)
        if wanted is None or not isinstance(value, numpy.ndarray):
            continue   # a name the model lacks, a list: the engine says so
        shape = list(wanted[0])
        if value.ndim != len(shape) or any(d >= 0 and d != a for d, a in zip(shape, value.shape)):
            message = "input '%s' has shape [%s], but input '%s' takes [%s]" % (
                name, ",".join(str(d) for d in value.shape), name,
                ",".join(str(d) if d >= 0 else "?" for d in shape))
            error = RunError(message, step="run", text="ascendprec: error: " + message)
            error.command_line_text = str(error)   # as the engine's own
            raise error
    return inputs


class _PrintProgress:
    """progress=True: each phase and its time on stderr, as prec-compile
    prints them on a terminal."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.started = 0.0

    def __call__(self, event, text):
        if event == "begin":
            self.started = time.monotonic()
            self.stream.write("  %s ..." % text)
        elif event == "step":
            self.stream.write("\n    %s" % text)
        elif event == "end":
            self.stream.write(" %.2f s\n" % (time.monotonic() - self.started))
        elif event == "warning":
            self.stream.write("\nascendprec: warning: %s\n" % text)
        self.stream.flush()


def _progress(progress):
    if progress is True:
        return _PrintProgress()
    if progress is False or progress is None:
        return None
    if not callable(progress):
        raise TypeError("progress takes True, or a callable progress(event, text)")
    return progress


def _session(model, options, *, explain=False, explain_only=(),
             keep_io_dtypes=True, fusion_respects_pins=False,
             full_constants=False, keep_imported=False, progress=None,
             run_folder=None, atc_refusals="warn"):
    named = {name: _option_text(name, value)
             for name, value in options.items() if value is not None}
    if isinstance(explain_only, str):
        explain_only = [explain_only]
    if atc_refusals not in ("warn", "error"):
        raise ValueError("atc_refusals takes 'warn' or 'error', not %r" % (atc_refusals,))
    session = _ascendprec._Session(
        named, explain=_flag("explain", explain), explain_only=list(explain_only),
        keep_io_dtypes=_flag("keep_io_dtypes", keep_io_dtypes),
        fusion_respects_pins=_flag("fusion_respects_pins", fusion_respects_pins),
        full_constants=_flag("full_constants", full_constants), keep_imported=keep_imported,
        progress=_progress(progress), atc_refusals_error=atc_refusals == "error")
    session.resolve()
    if isinstance(model, (bytes, bytearray, memoryview)):
        session.load_bytes(bytes(model), "<bytes>.onnx")
    else:
        session.load_file(os.fspath(model),
                          os.fspath(run_folder) if run_folder else "")
    session.plan()
    _warn_about(session.diagnostics())
    return session


class PlanWarning(UserWarning):
    """A warning of the options, the import or the lowering (a keep_dtype
    entry that matches no op, an op without a kernel, ...): prec-compile
    prints these on stderr."""


def _warn_about(diagnostics, limit=5):
    """The plan's warnings as Python warnings: the first `limit`, then a
    count (every one is in Plan.warnings)."""
    found = [d for d in diagnostics if d["severity"] == "warning"]
    for diagnostic in found[:limit]:
        where = diagnostic["file"]
        if where and diagnostic["line"]:
            where += ":%d:%d" % (diagnostic["line"], diagnostic["column"])
        if diagnostic.get("node"):
            # As prec-compile prints it: the op the warning is about.
            where += "%s(node '%s')" % (" " if where else "", diagnostic["node"])
        message = pythonic(diagnostic["message"])
        tag = "[%s]" % diagnostic["rule"]
        if diagnostic["rule"] and not message.endswith(tag):
            message += " " + tag
        _warnings.warn("%s%s" % (where + ": " if where else "", message),
                       PlanWarning, stacklevel=4)
    if len(found) > limit:
        _warnings.warn("%d more warnings in Plan.warnings" % (len(found) - limit),
                       PlanWarning, stacklevel=4)


class Plan:
    """A model planned under CANN's options: every op's dtype, why, and the
    estimated device time. ``run()`` measures it on the host."""

    def __init__(self, session, explained=False):
        self._session = session
        self._explained = explained
        #: Every warning of the options, the import and the lowering.
        self.warnings = [dict(d, message=pythonic(d["message"]))
                         for d in session.diagnostics() if d["severity"] == "warning"]
        self.summary = session.summary()
        self.ops = [Op(**op) for op in session.ops()]
        #: ATC's refusals (E13010): one dict per parser key no CANN plugin
        #: registers ("ai.onnx::13::DynamicQuantizeLinear"), with its nodes,
        #: the opsets a plugin covers and the way forward; empty when ATC
        #: would convert the model.
        self.atc_refusals = session.atc_refusals()
        self._last_run = None
        self._spec = None

    @property
    def soc_version(self):
        return self.summary["soc_version"]

    @property
    def precision_mode(self):
        return self.summary["precision_mode"]

    @property
    def est_device_us(self):
        """The estimated device time of the whole plan, in microseconds."""
        return self.summary["est_device_us"]

    @property
    def diagnostics(self):
        """Every warning (and error) of the options, the import, planning
        and lowering; with ``explain=True`` the remarks too."""
        return self._session.diagnostics()

    def op(self, name):
        for op in self.ops:
            if op.name == name:
                return op
        raise KeyError("no op named %r in the plan" % (name,))

    def explain(self, node=None):
        """Why each op got its dtype (plan(..., explain=True)): the remarks
        about ``node``, or a dict of every node's remarks."""
        remarks = [d for d in self.diagnostics if d["severity"] == "remark"]
        if not remarks and not self._explained:
            raise ValueError("plan the model with explain=True to keep the "
                             "explanations")
        by_node = {}
        for remark in remarks:
            by_node.setdefault(remark["node"], []).append(remark["message"])
        return by_node if node is None else by_node.get(node, [])

    def to_json(self):
        """report.json's text."""
        return self._session.report_json()

    def table(self, width=100):
        """The per-op table prec-compile prints, fitted to `width` columns."""
        return pythonic(self._session.table(_whole("width", width, 40)))

    def __str__(self):
        return self.summary["text"]

    def __repr__(self):
        return "<ascendprec.Plan %s>" % self.summary["text"]

    def run(self, inputs=None, *, run_folder=None, seed=0, ranges=None,
            threads=1, iterations=1):
        """Runs the plan and its fp32 reference on the host CPU with the
        device's roundings. ``inputs``: numpy arrays by input name; else
        the ONNX test-layout ``run_folder``; else seeded random values
        (``ranges``: ``{"x": (low, high)}``)."""
        threads = _whole("threads", threads, 1, THREADS_MAX)
        iterations = _whole("iterations", iterations, 1)
        seed = _whole("seed", seed, 0, SEED_MAX)
        ranges = _ranges_text(ranges)
        if inputs is not None:
            inputs = _input_arrays(inputs, {name: (shape, kind) for name, shape, kind, _
                                            in self._session.model_inputs()})
        self._session.run(inputs, os.fspath(run_folder) if run_folder else "",
                          threads, iterations, seed, ranges)
        self.ops = [Op(**op) for op in self._session.ops()]
        self._last_run = run_result(self._session.accuracy(),
                                    self._session.outputs(),
                                    self._session.outputs(reference=True),
                                    self._session.inputs_from(),
                                    self._session.accuracy_text())
        return self._last_run

    def write(self, output_dir):
        """Writes prec-compile's output folder (planned.mlir, kernels.mlir,
        report.*, options.json and what was measured): nothing there is
        overwritten that ascendprec did not write. Call it last. Returns
        the files written."""
        return self._session.write(os.fspath(output_dir))


def plan(model, soc_version=None, precision_mode=None, *, explain=False,
         explain_only=(), keep_io_dtypes=True, fusion_respects_pins=False,
         full_constants=False, progress=None, atc_refusals="warn", **cann_options):
    """Plans ``model`` (an .onnx or .mlir path, or ONNX bytes) under CANN's
    options, by CANN's names:

    - ``soc_version`` (required: "Ascend910B3", "Ascend310P3", ...);
    - ``precision_mode`` (ATC's default, force_fp16, when neither it nor
      ``precision_mode_v2`` is given) or ``precision_mode_v2``;
    - files as CANN takes them: ``modify_mixlist``, ``keep_dtype``,
      ``customize_dtypes``, ``op_precision_mode``, ``fusion_switch_file``,
      ``session_options``, ``ops_info_dir``;
    - ``op_select_implmode``, ``optypelist_for_implmode``, ATC's
      ``input_shape`` (also a dict: {"x": [1, 3, 224, 224]}),
      ``input_fp16_nodes``, ``output_type``; every option is in
      docs/generated/options.md.

    ``progress(event, text)`` hears of long phases ("begin", "step", "end",
    "warning"); ``progress=True`` prints them on stderr. ``explain=True``
    keeps why each op got its dtype (Plan.explain); ``explain_only`` names
    nodes or op types ("OpType::Softmax"). A node CANN's ONNX parser has no
    plugin for (ATC's E13010) is a PlanWarning and listed in
    Plan.atc_refusals; ``atc_refusals="error"`` makes it an error instead,
    as ATC refuses the model."""
    options = dict(cann_options, soc_version=soc_version,
                   precision_mode=precision_mode)
    session = _session(model, options, explain=explain,
                                 explain_only=explain_only,
                                 keep_io_dtypes=keep_io_dtypes,
                                 fusion_respects_pins=fusion_respects_pins,
                                 full_constants=full_constants,
                                 progress=progress, atc_refusals=atc_refusals)
    planned = Plan(session, explained=explain)
    planned._spec = _spec_of(model, options, keep_io_dtypes, fusion_respects_pins)
    return planned


def _spec_of(model, options, keep_io_dtypes, fusion_respects_pins):
    """The plan as data (_plans.PlanSpec): what a dataset evaluation's
    threads and workers plan again."""
    named = {name: _option_text(name, value)
             for name, value in options.items() if value is not None}
    return make_spec(model, named, keep_io_dtypes=keep_io_dtypes,
                     fusion_respects_pins=fusion_respects_pins)


class Comparison:
    """Every precision mode planned, estimated and run on the same inputs."""

    def __init__(self, plan, run):
        self.plan = plan
        self.run = run
        self.modes = [mode_result(row) for row in plan._session.modes()]
        self.text = pythonic(plan._session.modes_text())

    def mode(self, name):
        for mode in self.modes:
            if mode.mode == name:
                return mode
        raise KeyError("no mode %r; the modes are %s"
                       % (name, ", ".join(m.mode for m in self.modes)))

    def __repr__(self):
        ran = [m for m in self.modes if m.rel_rmse is not None]
        return "<ascendprec.Comparison %d modes on %s, %d run>" % (
            len(self.modes), self.plan.soc_version, len(ran))

    def write(self, output_dir):
        return self.plan.write(output_dir)

    def __str__(self):
        return self.text


def _measured(model, soc_version, precision_mode, inputs, run_folder, seed,
              ranges, threads, progress, keep_io_dtypes, fusion_respects_pins,
              cann_options):
    options = dict(cann_options, soc_version=soc_version,
                   precision_mode=precision_mode)
    session = _session(model, options, keep_imported=True,
                                 keep_io_dtypes=keep_io_dtypes,
                                 fusion_respects_pins=fusion_respects_pins,
                                 progress=progress, run_folder=run_folder)
    planned = Plan(session)
    run = planned.run(inputs, run_folder=run_folder, seed=seed, ranges=ranges,
                      threads=threads)
    session.compare_modes()
    return planned, run


def compare_modes(model, soc_version=None, precision_mode=None, *, inputs=None,
                  run_folder=None, seed=0, ranges=None, threads=1,
                  progress=None, keep_io_dtypes=True,
                  fusion_respects_pins=False, data=None, **cann_options):
    """Plans, estimates and runs ``model`` under every precision mode on
    the same inputs (prec-compile --compare-modes). With ``data`` (a
    dataset: docs/reference/datasets.md) every mode runs on every sample
    and the result is a DatasetComparison: figures with 95% intervals and
    paired tests between modes; the dataset settings (``labels``,
    ``data_axis``, ``class_axes``, ``jobs``, ``client``,
    ``reference_cache``, ``limit``) go with it."""
    if data is not None:
        settings, cann_options = _dataset_settings(cann_options)
        settings.update(threads=threads, progress=progress)
        return compare_modes_on_data(model, data, soc_version, precision_mode, settings,
                                     cann_options, {"keep_io_dtypes": keep_io_dtypes,
                                                    "fusion_respects_pins": fusion_respects_pins})
    planned, run = _measured(model, soc_version, precision_mode, inputs,
                             run_folder, seed, ranges, threads, progress,
                             keep_io_dtypes, fusion_respects_pins,
                             cann_options)
    return Comparison(planned, run)


class SearchResult(Comparison):
    """The fastest plan found that meets the target, as the CANN files that
    reproduce it (``files``: options.json, keep_dtype.cfg, ...)."""

    def __init__(self, plan, run, target):
        super().__init__(plan, run)
        found = plan._session.search()
        self.target = target
        self.kind = found["kind"]                # "found" or "built_in_mode"
        self.start_mode = found["start_mode"]
        self.precision_mode = found["precision_mode"]
        self.mode_option = found["mode_option"]
        self.raised_nodes = found["raised_nodes"]
        self.raised_op_types = found["raised_op_types"]
        self.evaluations = found["evaluations"]
        self.est_device_us = found["est_device_us"]
        self.outputs = [OutputAccuracy.from_dict(output)
                        for output in found["outputs"]]
        self.message = found["message"]
        self.hint = found["hint"]
        self.notes = found["notes"]
        self.steps = [search_step(step) for step in found["steps"]]
        self.files = plan._session.search_files()
        self.text = pythonic(plan._session.search_text(100))

    def __str__(self):
        return self.text

    def __repr__(self):
        return "<ascendprec.SearchResult %s for %s: %s, %d ops raised, est. %.1f us>" % (
            self.kind, self.target, self.precision_mode,
            len(self.raised_nodes) + len(self.raised_op_types), self.est_device_us)


def search_precision(model, target="cosine>=0.9999", soc_version=None,
                     precision_mode=None, *, budget=24, inputs=None,
                     run_folder=None, seed=0, ranges=None, threads=1,
                     progress=None, keep_io_dtypes=True,
                     fusion_respects_pins=False, data=None, **cann_options):
    """The fastest plan whose outputs meet ``target`` (prec-compile
    --search-precision): starts from the fastest mode and keeps the ops
    that cost the most accuracy in their origin dtype. With ``data`` the
    target is on the dataset's figures ('top1_agreement>=0.995',
    'cosine.p1>=0.9995', ...) and holds at their 95% intervals' worse end;
    the result is a DatasetSearchResult."""
    if data is not None:
        if isinstance(target, str) and target.startswith("Ascend"):
            raise ValueError("the second argument is the accuracy target (e.g. "
                             "'cosine.p1>=0.9995'); give the SoC as soc_version=%r" % target)
        settings, cann_options = _dataset_settings(cann_options)
        settings.update(threads=threads, progress=progress)
        _whole("budget", budget, 1)
        return search_on_dataset(model, data, target, soc_version, precision_mode, budget,
                                 settings, cann_options,
                                 {"keep_io_dtypes": keep_io_dtypes,
                                  "fusion_respects_pins": fusion_respects_pins})
    if not isinstance(target, str):
        raise TypeError("target is a condition such as 'cosine>=0.9999', not %r" % (target,))
    if target.startswith("Ascend"):
        raise ValueError("the second argument is the accuracy target (e.g. "
                         "'cosine>=0.9999'); give the SoC as soc_version=%r" % target)
    _ascendprec._check_target(target)
    _whole("budget", budget, 1)
    planned, run = _measured(model, soc_version, precision_mode, inputs,
                             run_folder, seed, ranges, threads, progress,
                             keep_io_dtypes, fusion_respects_pins,
                             cann_options)
    planned._session.search_precision(target, budget)
    return SearchResult(planned, run, target)
