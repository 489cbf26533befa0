"""Plans as data: what a worker needs to make the same plan again.

A dataset evaluation may run in other threads or on a Dask cluster's
workers, so a plan travels as a PlanSpec: the model's bytes, the CANN
options by name, the files they name (their contents), and the
front-end flags. Planning is deterministic, so a worker's plan is the
client's, and its runs give the same bits. Each process keeps the plans
it made (a few, by the spec's digest) so a worker plans once per plan,
not once per task.
"""

import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass

from . import _ascendprec

_FLAGS = ("keep_io_dtypes", "fusion_respects_pins")


@dataclass(frozen=True, eq=False)
class PlanSpec:
    model: bytes            # the .onnx or .mlir file's bytes
    model_name: str         # the path as given, for messages
    options: tuple          # ((name, text), ...) sorted by name
    files: tuple            # ((option, path, sha256, bytes), ...) files options name
    flags: tuple            # ((flag, bool), ...)

    @property
    def model_digest(self):
        """sha256 of the model's bytes, computed once per spec object."""
        found = self.__dict__.get("_model_digest")
        if found is None:
            found = hashlib.sha256(self.model).hexdigest()
            object.__setattr__(self, "_model_digest", found)
        return found

    @property
    def digest(self):
        found = self.__dict__.get("_digest")
        if found is None:
            digest = hashlib.sha256(self.model_digest.encode())
            digest.update(json.dumps([self.options, [f[:3] for f in self.files], self.flags,
                                      self.model_name.endswith(".mlir")]).encode())
            found = digest.hexdigest()
            object.__setattr__(self, "_digest", found)
        return found

    def __getstate__(self):
        # Shipped to workers without the digests (they are recomputed there).
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __setstate__(self, state):
        for key, value in state.items():
            object.__setattr__(self, key, value)

    def __hash__(self):
        return hash(self.digest)

    def __eq__(self, other):
        return isinstance(other, PlanSpec) and self.digest == other.digest

    def option(self, name):
        return dict(self.options).get(name)

    def with_options(self, **changes):
        """The same model and flags under other options (None removes one);
        a changed path-valued option's file is read now."""
        options = dict(self.options)
        files = {f[0]: f for f in self.files}
        for name, value in changes.items():
            files.pop(name, None)
            if value is None:
                options.pop(name, None)
                continue
            options[name] = str(value)
            if _ascendprec._option_kind(name) == "path":
                files[name] = _file_entry(name, str(value))
        return PlanSpec(self.model, self.model_name, tuple(sorted(options.items())),
                        tuple(sorted(files.values())), self.flags)


def _file_entry(option, path):
    with open(path, "rb") as stream:
        content = stream.read()
    return (option, path, hashlib.sha256(content).hexdigest(), content)


def make_spec(model, options, **flags):
    """The spec of `model` (a path or ONNX bytes) under `options` (CANN's
    names, as text) and the front-end flags."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, name = bytes(model), "<bytes>.onnx"
    else:
        name = os.fspath(model)
        with open(name, "rb") as stream:
            data = stream.read()
    files = []
    for option, value in options.items():
        if _ascendprec._option_kind(option) == "path" and value:
            try:
                files.append(_file_entry(option, value))
            except OSError:
                pass  # planning names the missing file with its own message
    return PlanSpec(data, name, tuple(sorted(options.items())), tuple(sorted(files)),
                    tuple(sorted((k, bool(flags.get(k, k == "keep_io_dtypes"))) for k in _FLAGS)))


class _Materialized:
    """Files a spec names, written where this process can read them when
    the original path is not there (another machine) or differs."""

    def __init__(self):
        self.folder = None
        self.lock = threading.Lock()

    def path_for(self, option, path, sha, content, suffix=""):
        try:
            with open(path, "rb") as stream:
                if hashlib.sha256(stream.read()).hexdigest() == sha:
                    return path
        except OSError:
            pass
        with self.lock:
            if self.folder is None:
                self.folder = tempfile.mkdtemp(prefix="ascendprec-plan-files-")
        target = os.path.join(self.folder, sha + (suffix or os.path.splitext(path)[1]))
        if not os.path.exists(target):
            with open(target + ".tmp%d" % threading.get_ident(), "wb") as stream:
                stream.write(content)
            os.replace(target + ".tmp%d" % threading.get_ident(), target)
        return target


_MATERIALIZED = _Materialized()
_LOCAL = threading.local()
_KEPT_PLANS = 12


def plan_of(spec):
    """This thread's plan for `spec`, planned on first use."""
    from ._api import Plan, _session  # late: _api imports this module
    cache = getattr(_LOCAL, "plans", None)
    if cache is None:
        cache = _LOCAL.plans = OrderedDict()
    key = spec.digest
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    options = dict(spec.options)
    for option, path, sha, content in spec.files:
        options[option] = _MATERIALIZED.path_for(option, path, sha, content)
    flags = dict(spec.flags)
    if spec.model_name.endswith(".mlir") or spec.model_name.startswith("<bytes>"):
        model = spec.model if spec.model_name.startswith("<bytes>") else \
            _MATERIALIZED.path_for("model", spec.model_name, spec.model_digest, spec.model)
    else:
        model = _MATERIALIZED.path_for("model", spec.model_name, spec.model_digest, spec.model)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the client showed them when it planned
        session = _session(model, options, keep_io_dtypes=flags["keep_io_dtypes"],
                           fusion_respects_pins=flags["fusion_respects_pins"])
    plan = Plan(session)
    plan._spec = spec
    cache[key] = plan
    while len(cache) > _KEPT_PLANS:
        cache.popitem(last=False)
    return plan


class ModelInputs(dict):
    """{name: (shape, "float" | "int")} of a plan's graph; `optional`: the
    inputs with a default (an ONNX initializer of their name), which a
    sample may leave out."""

    def __init__(self, entries, optional):
        super().__init__(entries)
        self.optional = frozenset(optional)


def model_inputs(plan):
    listed = plan._session.model_inputs()
    return ModelInputs({name: (list(shape), kind) for name, shape, kind, _ in listed},
                       [name for name, _, _, has_default in listed if has_default])


def is_dynamic(inputs):
    """Whether any input of {name: (shape, kind)} has a dynamic dim."""
    return any(dim < 0 for shape, _ in inputs.values() for dim in shape)


def shaped_spec(spec, inputs, arrays):
    """`spec` planned for the shapes of `arrays` (ATC's --input_shape, by
    input name): a model with dynamic dims is planned per sample shape,
    and each shape's plan is kept (plan_of)."""
    shapes = ";".join("%s:%s" % (name, ",".join(str(d) for d in arrays[name].shape))
                      for name in inputs if name in arrays)
    return spec.with_options(input_shape=shapes)
