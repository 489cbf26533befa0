"""What the engine returns, as plain dataclasses."""

from dataclasses import dataclass, field
from typing import Dict, List, Optional

try:
    import numpy
except ImportError as missing:  # another interpreter than the one it was built for
    raise ImportError("ascendprec needs numpy: run it with Debian's /usr/bin/python3 "
                      "(python3-numpy), the interpreter it was built for") from missing

from ._errors import pythonic


@dataclass(frozen=True)
class Op:
    """One planned op: the precision decision, why, and what it costs."""
    name: str
    op_type: str
    engine: str                 # "cube", "vector", "aicpu", ...
    origin_dtype: str
    compute_dtype: str
    input_dtypes: List[str]
    output_dtypes: List[str]
    impl_mode: str
    list: str                   # the mixed-precision list: white, gray, black
    rule: str                   # the contract rule that decided the dtype
    source: str                 # the option or file line behind it
    absorbed: List[str]         # ops fused into this one
    fused_by: List[str]         # the fusion passes (CANN's names)
    ub_group: str               # UB fusion: the group's cube op
    ub_pass: str
    inserted_cast: bool
    generic: bool               # imported without a dedicated op
    region: str                 # inside control flow: where
    kernel: str
    est_us: Optional[float]     # estimated device time of its kernel
    rel_err: Optional[float]    # measured rel rmse vs fp32 (after a run)


@dataclass(frozen=True)
class ErrorStats:
    """How far a tensor is from another, element by element."""
    elements: int
    max_abs_err: float
    max_rel_err: float
    rmse: float
    rel_rmse: float
    cosine: float
    non_finite: int             # Inf/NaN in one and not the other
    reference_non_finite: int   # Inf/NaN in the fp32 reference itself


def _stats(value):
    return None if value is None else ErrorStats(**value)


@dataclass(frozen=True)
class OutputAccuracy:
    """One model output measured against the fp32 reference (and the
    expected output, when a run folder gives one)."""
    name: str
    vs_reference: ErrorStats
    vs_expected: Optional[ErrorStats]
    reference_vs_expected: Optional[ErrorStats]
    within_tolerance: bool

    @staticmethod
    def from_dict(value):
        return OutputAccuracy(value["name"], _stats(value["vs_reference"]),
                              _stats(value["vs_expected"]),
                              _stats(value["reference_vs_expected"]),
                              value["within_tolerance"])


@dataclass(frozen=True)
class OpAccuracy:
    """One kernel launch's output against the reference's."""
    nodes: List[str]
    kernel: str
    vs_reference: ErrorStats
    input_rel_rmse: float       # the largest error of its inputs (inherited)
    host_ms: float


@dataclass(frozen=True)
class RunResult:
    """A run of the plan on the host with the device's roundings."""
    outputs: Dict[str, numpy.ndarray]
    reference_outputs: Dict[str, numpy.ndarray]  # the fp32 reference's
    accuracy: List[OutputAccuracy]
    ops: List[OpAccuracy]
    error_jumps: List[str]      # where the error first grows tenfold
    inputs_from: str
    jit_ms: float
    reference_jit_ms: float
    run_ms: List[float]
    text: str                   # what prec-compile prints for the run

    @property
    def median_run_ms(self):
        # After the first run (a warm-up: it goes in lockstep with the
        # reference), as prec-compile's run_ms.
        ordered = sorted(self.run_ms[1:] if len(self.run_ms) > 1 else self.run_ms)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 else \
            (ordered[middle - 1] + ordered[middle]) / 2

    def output_accuracy(self, name):
        for output in self.accuracy:
            if output.name == name:
                return output
        raise KeyError("no output %r; the outputs are %s"
                       % (name, ", ".join(o.name for o in self.accuracy)))

    def __repr__(self):
        worst = max((o.vs_reference.rel_rmse for o in self.accuracy), default=0.0)
        return ("<ascendprec.RunResult %d outputs (%s), %d launches, worst rel rmse "
                "%.2g vs fp32, run %.1f ms>"
                % (len(self.outputs), ", ".join(self.outputs), len(self.ops), worst,
                   self.median_run_ms))


@dataclass(frozen=True)
class ModeResult:
    """One precision mode planned, estimated and run on the same inputs."""
    mode: str
    low_precision_ops: int
    casts: int
    est_device_us: float
    rel_rmse: Optional[float]   # the worst output's; None when not run
    note: str                   # why it was not planned or not run
    outputs: List[OutputAccuracy] = field(default_factory=list)


@dataclass(frozen=True)
class SearchStep:
    """One plan the precision search ran."""
    action: str
    changed: List[str]
    raised_ops: int
    est_device_us: float
    outputs: List[OutputAccuracy]
    meets: bool
    kept: bool
    note: str
    result: bool


def run_result(accuracy, outputs, reference_outputs, inputs_from, text):
    ops = [OpAccuracy(op["nodes"], op["kernel"], ErrorStats(**op["vs_reference"]),
                      op["input_rel_rmse"], op["host_ms"]) for op in accuracy["ops"]]
    return RunResult(outputs, reference_outputs,
                     [OutputAccuracy.from_dict(o) for o in accuracy["outputs"]],
                     ops, accuracy["error_jumps"], inputs_from,
                     accuracy["jit_ms"], accuracy["reference_jit_ms"],
                     accuracy["run_ms"], pythonic(text))


def mode_result(row):
    row = dict(row)
    row["outputs"] = [OutputAccuracy.from_dict(o) for o in row["outputs"]]
    return ModeResult(**row)


def search_step(step):
    step = dict(step)
    step["outputs"] = [OutputAccuracy.from_dict(o) for o in step["outputs"]]
    return SearchStep(**step)
