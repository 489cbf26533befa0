"""IM-7 measured: the plan with high_precision implementations is more
accurate than with high_performance (every output's rel_rmse no larger,
one strictly smaller).
Usage: check_impl_modes.py PRECISE_ACCURACY_JSON FAST_ACCURACY_JSON"""
import json
import sys

precise = [o["vs_reference"]["rel_rmse"] for o in json.load(open(sys.argv[1]))["outputs"]]
fast = [o["vs_reference"]["rel_rmse"] for o in json.load(open(sys.argv[2]))["outputs"]]
assert all(p <= f for p, f in zip(precise, fast)) and any(p < f for p, f in zip(precise, fast)), \
    (precise, fast)
print("ok: high_precision " + ", ".join(f"{p:.3e}" for p in precise) +
      " < high_performance " + ", ".join(f"{f:.3e}" for f in fast))
