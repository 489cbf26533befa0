"""A plan judged on a dataset: every sample run, measured, aggregated.

Each sample runs through the plan alone (Session::runSample) and is
compared with its fp32 reference, which is run once per sample and cached
on disk (_refcache.py), so comparing eight modes costs eight plan runs
and one reference run per sample. With ``per_op`` the first plan also
runs in lockstep with its reference, to count where the error first
jumps on each sample.

The same function evaluates a chunk of samples in this process, in a
thread of it (``jobs``) or on a Dask worker (``client``): every figure is
computed where the sample ran, and the aggregates from the per-sample
figures in sample order, so a cluster gives the JSON a local run gives.
"""

import array
import json
import math
import os
import shutil
import sys
import tempfile
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy

from ._dataset import Dataset, _Given, check_sample, read_shipped
from ._errors import RunError
from ._metrics import AGREEMENT, ClassAxisError, LabelError, sample_metrics
from ._plans import is_dynamic, model_inputs, plan_of, shaped_spec
from ._refcache import ReferenceCache, default_folder, reference_key, sample_digest
from ._stats import aggregate


# -- one chunk of samples (runs in a thread or on a worker) ----------------

def _reference_key(reference_spec, inputs):
    options = dict(reference_spec.options)
    if "precision_mode" not in options and "precision_mode_v2" not in options:
        options["precision_mode"] = "force_fp16"   # ATC's default, spelled out or not
    return reference_key(reference_spec.model_digest,
                         [sorted(options.items()), [f[2] for f in reference_spec.files],
                          reference_spec.flags], sample_digest(inputs))


class _Prepared:
    """A sample read, checked, and its cached reference looked up: the
    work a helper thread does while the previous sample runs."""

    def __init__(self, index, entry, task, inputs_of_model, dynamic, cache):
        self.index = index
        self.sample = read_shipped(entry, list(inputs_of_model))
        check_sample(self.sample, inputs_of_model)
        self.reference_spec = task["reference_spec"]
        self.spec = task["spec"]
        if dynamic:
            # Planned for this sample's shapes, as ATC's --input_shape would.
            self.spec = shaped_spec(self.spec, inputs_of_model, self.sample.inputs)
            self.reference_spec = shaped_spec(self.reference_spec, inputs_of_model,
                                              self.sample.inputs)
        self.key = _reference_key(self.reference_spec, self.sample.inputs)
        self.reference = cache.get(self.key)


def _finish(prepared, outputs, reference, run_s, reference_s, jumps, class_axes):
    """The record of one sample: its figures (computed in the helper
    thread while the next sample runs)."""
    try:
        metrics = sample_metrics(outputs, reference, label=prepared.sample.label,
                                 class_axes=class_axes)
    except (LabelError, ClassAxisError) as error:
        what = "class_axes (--class-axis)" if isinstance(error, ClassAxisError) else \
            "the label of sample %s" % prepared.sample.id
        raise RunError("%s: %s" % (what, error), step="data", file="",
                       text="%s: %s" % (what, error)) from None
    record = {"index": prepared.index, "id": prepared.sample.id,
              "metrics": metrics,
              "run_s": run_s, "reference_s": reference_s,
              "reference_cached": reference_s == 0.0}
    if jumps is not None:
        record["error_jumps"] = jumps
    return record


class _quick_gil_handover:
    """While a chunk runs, a thread waiting for the GIL gets it within
    0.2 ms rather than Python's 5: the run's thread, back from C++, must
    not wait on the helper's numpy work (6.8% -> 2-3% overhead on PP-OCR's
    classifier, 2.6 ms a run)."""

    _lock = threading.Lock()
    _depth = 0
    _saved = None

    def __enter__(self):
        with self._lock:
            if _quick_gil_handover._depth == 0:
                _quick_gil_handover._saved = sys.getswitchinterval()
                sys.setswitchinterval(0.0002)
            _quick_gil_handover._depth += 1

    def __exit__(self, *exc):
        with self._lock:
            _quick_gil_handover._depth -= 1
            if _quick_gil_handover._depth == 0:
                sys.setswitchinterval(_quick_gil_handover._saved)


def evaluate_chunk(task):
    """Runs one chunk: `task` is a dict (plan specs, the samples or what
    reads them, settings). Returns one record per sample, in order.

    The runs (C++, without the GIL) go on in this thread; reading the next
    sample, looking up its cached reference and computing the figures of
    the last one go on in a helper thread meanwhile, so on two cores they
    cost next to nothing beyond the runs."""
    cache = ReferenceCache(task["cache_folder"])
    threads = task["threads"]
    inputs_of_model = model_inputs(plan_of(task["spec"]))
    dynamic = is_dynamic(inputs_of_model)
    samples = task["samples"]
    records = []
    with ThreadPoolExecutor(max_workers=1) as helper, _quick_gil_handover():
        def prepare(position):
            index, entry = samples[position]
            return helper.submit(_Prepared, index, entry, task, inputs_of_model, dynamic, cache)
        upcoming = prepare(0) if samples else None
        finishing = None
        for position in range(len(samples)):
            prepared = upcoming.result()
            upcoming = prepare(position + 1) if position + 1 < len(samples) else None
            reference, reference_s = prepared.reference, 0.0
            if reference is None:
                started = time.perf_counter()
                reference = plan_of(prepared.reference_spec)._session.run_sample(
                    prepared.sample.inputs, "reference", threads)
                reference_s = time.perf_counter() - started
                cache.put(prepared.key, reference)
            plan = plan_of(prepared.spec)
            started = time.perf_counter()
            jumps = None
            if task["per_op"]:
                run = plan.run(prepared.sample.inputs, threads=threads)
                outputs = run.outputs
                jumps = list(run.error_jumps)
            else:
                outputs = plan._session.run_sample(prepared.sample.inputs, "plan", threads)
            run_s = time.perf_counter() - started
            if finishing is not None:
                records.append(finishing.result())
            finishing = helper.submit(_finish, prepared, outputs, reference, run_s,
                                      reference_s, jumps, task["class_axes"])
        if finishing is not None:
            records.append(finishing.result())
    return records


# -- scheduling chunks ------------------------------------------------------

class _Progress:
    """A progress line with an ETA on a terminal, or a progress(event,
    text) callback."""

    def __init__(self, progress, label, total):
        self.callback = progress if callable(progress) else None
        self.terminal = progress is True or (progress is None and sys.stderr.isatty())
        self.label = label
        self.total = total
        self.done = 0
        self.started = time.monotonic()
        self.lock = threading.Lock()
        if self.callback:
            self.callback("begin", "%s: %s samples" % (label, total if total else "?"))

    def advance(self, count):
        with self.lock:
            self.done += count
            elapsed = time.monotonic() - self.started
            text = "%s: %d%s samples" % (self.label, self.done,
                                         "/%d" % self.total if self.total else "")
            if self.total and self.done:
                text += ", ETA %.0f s" % (elapsed / self.done * (self.total - self.done))
            if self.callback:
                self.callback("step", text)
            elif self.terminal:
                sys.stderr.write("\r  " + text + " " * 8)
                sys.stderr.flush()

    def finish(self):
        if self.callback:
            self.callback("end", "")
        elif self.terminal:
            sys.stderr.write("\r  %s: %d samples in %.1f s%s\n" % (
                self.label, self.done, time.monotonic() - self.started, " " * 12))


def _chunks(dataset, start, stop, size):
    """(index, shipped sample) lists of at most `size`, over [start, stop)."""
    chunk = []
    if dataset.has_length():
        stop = min(stop, len(dataset))
        for index in range(start, stop):
            chunk.append((index, dataset.shipped([index])[0]))
            if len(chunk) == size:
                yield chunk
                chunk = []
    else:
        for index, sample in enumerate(dataset):
            if index < start:
                continue
            if index >= stop:
                break
            chunk.append((index, (sample.id, _Given(sample.inputs, sample.source),
                                  sample.label)))
            if len(chunk) == size:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def run_chunks(tasks, *, client=None, jobs=1, progress=None):
    """Runs every task (evaluate_chunk's dict, or another chunk function's
    under "function"), in order of submission, locally, in `jobs` threads,
    or on `client`'s cluster. Yields each task's records in order."""
    if client is not None:
        yield from _run_on_cluster(tasks, client, progress)
        return
    if jobs <= 1:
        for task in tasks:
            records = _chunk_function(task)(task)
            if progress:
                progress.advance(len(records))
            yield records
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        pending = []
        for task in tasks:
            pending.append(pool.submit(_counted, task, progress))
            while len(pending) > 2 * jobs:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()


def _chunk_function(task):
    return task.get("function", evaluate_chunk)


def _counted(task, progress):
    records = _chunk_function(task)(task)
    if progress:
        progress.advance(len(records))
    return records


def _run_on_cluster(tasks, client, progress):
    """Each task a Dask future (pure: a worker lost mid-task is retried by
    the scheduler and its records arrive once); results gathered in
    order."""
    from distributed import as_completed
    tasks = list(tasks)
    if not tasks:
        return
    spec_futures = {}
    spec_keys = [k for k in ("spec", "reference_spec") if k in tasks[0]]
    for task in tasks:
        for key in spec_keys:
            spec = task[key]
            if spec.digest not in spec_futures:
                spec_futures[spec.digest] = client.scatter(spec, broadcast=True)
    futures = []
    for number, task in enumerate(tasks):
        shipped = dict(task, **{k: spec_futures[task[k].digest] for k in spec_keys})
        futures.append(client.submit(_cluster_chunk, shipped, pure=False,
                                     key="ascendprec-chunk-%s-%d" % (os.urandom(6).hex(), number)))
    results = {}
    order = {future.key: number for number, future in enumerate(futures)}
    for future in as_completed(futures):
        records = future.result()
        results[order[future.key]] = records
        if progress:
            progress.advance(len(records))
    for number in range(len(futures)):
        yield results[number]


def _cluster_chunk(task):
    return _chunk_function(task)(task)


# -- the whole dataset --------------------------------------------------------

class Evaluation:
    """One plan on a dataset: each sample's figures, kept as columns (8
    bytes a figure, so 10,000 samples cost about a megabyte), and per
    output and metric the aggregates with their 95% intervals
    (``summary``, ``stat()``); where the error first jumps, counted over
    samples. Records arrive in chunks (``add``), in sample order."""

    def __init__(self, label, records=(), est_device_us=None, precision_mode=None):
        self.label = label
        self.est_device_us = est_device_us
        self.precision_mode = precision_mode
        self.n = 0
        self.ids = []
        #: {output: [metric, ...]} measured on every sample.
        self.metrics = {}
        #: {output: elements per sample}.
        self.elements = {}
        self._columns = {}
        self._stats = {}
        self.error_jump_counts = {}
        self.jump_samples = 0
        self.reference_runs = 0
        self.run_seconds = 0.0
        self.reference_seconds = 0.0
        self.add(records)

    def add(self, records):
        """Takes more samples' records (in sample order)."""
        for record in sorted(records, key=lambda r: r["index"]):
            if not self.metrics:
                self.metrics = {output: [m for m in figures if m not in ("elements", "non_finite")]
                                for output, figures in record["metrics"].items()}
                self.elements = {output: figures.get("elements", 0)
                                 for output, figures in record["metrics"].items()}
                self._columns = {(o, m): array.array("d") for o, ms in self.metrics.items()
                                 for m in ms}
            for (output, metric), column in self._columns.items():
                value = record["metrics"].get(output, {}).get(metric)
                column.append(math.nan if value is None else value)
            self.ids.append(record["id"])
            self.n += 1
            if "error_jumps" in record:
                self.jump_samples += 1
                for node in dict.fromkeys(record["error_jumps"]):
                    self.error_jump_counts[node] = self.error_jump_counts.get(node, 0) + 1
            self.reference_runs += 0 if record["reference_cached"] else 1
            self.run_seconds += record["run_s"]
            self.reference_seconds += record["reference_s"]
        self._stats.clear()
        return self

    def stat(self, output, metric):
        """The aggregates of one metric (computed on first use: a search
        judges a few of them after every look)."""
        key = (output, metric)
        if key not in self._stats:
            self._stats[key] = aggregate(self.values(output, metric), metric, self.ids)
        return self._stats[key]

    @property
    def summary(self):
        """{output: {metric: aggregates}} for every metric measured."""
        return {output: {metric: self.stat(output, metric) for metric in metrics}
                for output, metrics in self.metrics.items()}

    def values(self, output, metric):
        """Per-sample values of one metric, in sample order (NaN: not
        measured on that sample)."""
        return numpy.frombuffer(self._columns[(output, metric)], dtype=numpy.float64) \
            if self.n else numpy.zeros(0)

    def figure(self, output, metric, aggregate_name="mean"):
        return self.stat(output, metric).get(aggregate_name)

    def to_dict(self):
        return {"label": self.label, "precision_mode": self.precision_mode,
                "est_device_us": self.est_device_us, "samples": self.n,
                "reference_runs": self.reference_runs,
                "outputs": self.summary,
                "error_jumps": [{"node": node, "samples": count, "of": self.jump_samples}
                                for node, count in sorted(self.error_jump_counts.items(),
                                                          key=lambda kv: (-kv[1], kv[0]))]}

    def to_json(self):
        return json.dumps(_finite(self.to_dict()), indent=2, sort_keys=True) + "\n"

    def sample_rows(self):
        """Each sample's figures: {"id", "metrics": {output: {metric: value}}}."""
        for i, sample_id in enumerate(self.ids):
            yield {"id": sample_id, "metrics": {
                output: {m: self._columns[(output, m)][i] for m in metrics}
                for output, metrics in self.metrics.items()}}

    def write_samples(self, path):
        """The per-sample figures as JSON Lines (one sample a line), into a
        new file: an existing one is not overwritten."""
        from ._errors import OutputError
        try:
            stream = open(path, "x")
        except FileExistsError:
            raise OutputError("%s exists: write_samples writes a new file and overwrites "
                              "nothing" % path, step="write", file=os.fspath(path)) from None
        with stream:
            for row in self.sample_rows():
                stream.write(json.dumps(_finite(row), sort_keys=True) + "\n")

    @property
    def text(self):
        return summary_text(self)

    def __str__(self):
        return self.text

    def __repr__(self):
        return "<ascendprec.Evaluation %s on %d samples>" % (self.label, self.n)


def _finite(value):
    """JSON without Infinity/NaN: those are null, as accuracy.json has it."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


_SHOWN = ["cosine", "rel_rmse", "max_abs_err", "top1_agreement", "top1_accuracy", "kl"]


def _number(value, metric=""):
    if value is None:
        return "-"
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else ("-inf" if value < 0 else "nan")
    if metric == "cosine":
        return "%.9f" % value
    if metric in AGREEMENT or metric.startswith("within_"):
        return "%.4f" % value
    if 0.99 <= abs(value) < 1.0:
        return "%.6f" % value
    return "%.3g" % value


def summary_text(evaluation):
    lines = ["%s on %d samples (fp32 reference: %d run, %d from the cache):"
             % (evaluation.label, evaluation.n, evaluation.reference_runs,
                evaluation.n - evaluation.reference_runs)]
    for output, measured in evaluation.metrics.items():
        lines.append("  output '%s':" % output)
        for metric in _SHOWN:
            if metric not in measured or not evaluation.stat(output, metric).get("n"):
                continue
            s = evaluation.stat(output, metric)
            low, high = s["mean_ci"]
            lines.append("    %-16s mean %s [95%% CI %s, %s]  worst %s  p1 %s  p5 %s"
                         % (metric, _number(s["mean"], metric), _number(low, metric),
                            _number(high, metric), _number(s["worst"], metric),
                            _number(s["p1"], metric), _number(s["p5"], metric)))
        cosine = evaluation.stat(output, "cosine") if "cosine" in measured else {}
        if cosine.get("worst_samples"):
            lines.append("    worst samples (cosine): " + ", ".join(
                "%s %s" % (sid, _number(v, "cosine")) for sid, v in cosine["worst_samples"][:3]))
    if evaluation.error_jump_counts:
        top = sorted(evaluation.error_jump_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        lines.append("  the error first jumps at: " + ", ".join(
            "%s on %d of %d" % (node, count, evaluation.jump_samples) for node, count in top))
    return "\n".join(lines)


class Runner:
    """Evaluates plans of one model on one dataset with one reference."""

    def __init__(self, reference_plan, data, *, labels=None, data_axis=None, class_axes=None,
                 threads=1, jobs=1, client=None, reference_cache=True, progress=None,
                 chunk=None, limit=None, input_names=None):
        inputs = model_inputs(reference_plan) if reference_plan is not None else \
            dict.fromkeys(input_names or [])
        self.dataset = Dataset(data, axis=data_axis, labels=labels,
                               input_names=list(inputs), limit=limit)
        # The reference of every plan judged here: the user's plan, whose
        # dynamic dims (if any) each sample's shapes fix (evaluate_chunk).
        self.reference_spec = reference_plan._spec if reference_plan is not None else None
        #: The user's plan as estimated: a model with dynamic dims is
        #: estimated at the first sample's shapes.
        self.plan = reference_plan
        self._inputs = inputs
        self._first_sample = None
        if reference_plan is not None and is_dynamic(inputs) and self.dataset.has_length() \
                and len(self.dataset):
            self._first_sample = next(iter(Dataset(self.dataset, limit=1)))
            check_sample(self._first_sample, inputs)
            self.plan = plan_of(self.for_estimate(reference_plan._spec))
        if reference_cache is True:
            self.cache_folder = default_folder()
        elif reference_cache in (False, None, "off"):
            # Nothing kept after this call, but the modes and search steps
            # of one call still share one reference run per sample.
            self.cache_folder = tempfile.mkdtemp(prefix="ascendprec-references-")
            weakref.finalize(self, shutil.rmtree, self.cache_folder, True)
        else:
            self.cache_folder = os.fspath(reference_cache)
        self.class_axes = class_axes
        self.threads = threads
        self.jobs = jobs
        self.client = client
        self.progress = progress
        self.chunk = chunk
        self.sample_runs = 0

    def for_estimate(self, spec):
        """`spec` at the first sample's shapes when the model's are dynamic
        (its estimate and its ops); `spec` itself otherwise."""
        if self._first_sample is None:
            return spec
        return shaped_spec(spec, self._inputs, self._first_sample.inputs)

    def length(self):
        return len(self.dataset) if self.dataset.has_length() else None

    def records(self, spec, into, start=0, stop=None, per_op=False, label="evaluate"):
        """Runs `spec` on samples [start, stop), adding them to the
        Evaluation `into`."""
        return self.run_task({"spec": spec, "reference_spec": self.reference_spec,
                              "per_op": per_op}, into, start, stop, label)

    def run_task(self, task, into, start=0, stop=None, label="evaluate"):
        """Runs `task` (evaluate_chunk's dict without its samples) on
        samples [start, stop), adding them to the Evaluation `into`."""
        stop = math.inf if stop is None else stop
        total = self.length()
        count = None if total is None else max(0, min(stop, total) - start)
        size = self.chunk or self._chunk_size(count)
        tasks = (dict(task, samples=chunk, cache_folder=self.cache_folder,
                      threads=self.threads, class_axes=self.class_axes)
                 for chunk in _chunks(self.dataset, start, stop, size))
        progress = None
        if self.progress is not False:
            progress = _Progress(self.progress, label, count)
        before = into.n
        try:
            for chunk_records in run_chunks(tasks, client=self.client, jobs=self.jobs,
                                            progress=progress):
                into.add(chunk_records)
        finally:
            if progress:
                progress.finish()
        self.sample_runs += into.n - before
        if into.n == 0:
            raise RunError("the dataset has no samples", step="data",
                           file=self.dataset.description)
        return into

    def _chunk_size(self, count):
        workers = self.jobs
        if self.client is not None:
            workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        if count is None:
            return 8
        return max(1, min(64, math.ceil(count / (4 * workers))))
