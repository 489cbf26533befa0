"""AscendPrec: CANN's precision rules for Ascend NPUs, open, in MLIR.

    import ascendprec
    plan = ascendprec.plan("model.onnx", soc_version="Ascend910B3",
                           precision_mode="allow_mix_precision",
                           modify_mixlist="mixlist.json")
    for op in plan.ops:
        print(op.name, op.compute_dtype, op.rule, op.est_us)
    result = plan.run({"x": x})          # numpy arrays by input name
    result.outputs["y"], result.accuracy[0].vs_reference.cosine
    plan.write("out")                    # prec-compile's output folder

The same engine as the prec-compile command line: the same plans, outputs
and figures (docs/python.md).
"""

from ._errors import (Error, InternalError, ModelError, OptionError,
                      OutputError, RunError, SearchError)
from ._results import (ErrorStats, ModeResult, Op, OpAccuracy, OutputAccuracy,
                       RunResult, SearchStep)
from ._api import (Comparison, Plan, PlanWarning, SearchResult, compare_modes,
                   plan, search_precision)
from ._ascendprec import default_kernel_cache, set_kernel_cache
from ._dataset import Dataset, Sample
from ._dataset_api import evaluate
from ._dataset_search import DatasetComparison, DatasetSearchResult
from ._evaluate import Evaluation
from ._pipeline import Pipeline
from ._refcache import ReferenceCacheWarning

__all__ = [
    "plan", "compare_modes", "search_precision", "evaluate",
    "Dataset", "Sample", "Evaluation", "DatasetComparison", "DatasetSearchResult",
    "Pipeline",
    "set_kernel_cache", "default_kernel_cache",
    "Plan", "Comparison", "SearchResult", "PlanWarning", "ReferenceCacheWarning",
    "Op", "ErrorStats", "OutputAccuracy", "OpAccuracy", "RunResult",
    "ModeResult", "SearchStep",
    "Error", "OptionError", "ModelError", "RunError", "SearchError",
    "OutputError", "InternalError",
]
