"""Checks accuracy.json's layout: every output and op has its statistics,
the errors are finite and plausible, timing is present.
Usage: check_accuracy_json.py ACCURACY_JSON OUTPUT_NAME"""
import json
import math
import sys

data = json.load(open(sys.argv[1]))
stats = ["max_abs_err", "max_rel_err", "rmse", "rel_rmse", "cosine", "non_finite", "elements"]
assert [o["name"] for o in data["outputs"]] == [sys.argv[2]], data["outputs"]
for entry in data["outputs"] + data["ops"]:
    for key in stats:
        assert key in entry["vs_reference"], (key, entry)
    assert 0 <= entry["vs_reference"]["rel_rmse"] < 0.1, entry
    assert entry["vs_reference"]["cosine"] > 0.99, entry
assert len(data["ops"]) >= 10, len(data["ops"])
assert all("node" in op and "kernel" in op and op["host_ms"] >= 0 for op in data["ops"])
timing = data["timing"]
assert timing["iterations"] >= 1 and timing["run_ms"] > 0 and timing["jit_ms"] >= 0, timing
for jump in data["error_jumps"]:
    assert any(op["node"] == jump["node"] for op in data["ops"]), jump
print("ok")
