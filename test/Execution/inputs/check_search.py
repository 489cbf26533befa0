"""Checks a --search-precision result (issue 15).
Usage: check_search.py SEARCH_JSON KIND [ACCURACY_JSON LOCK_FOUND LOCK_RECOMPILED]
  KIND: found or built_in_mode, the result the search must report.
  - every step of search.json meets the target exactly when it says so, the
    runs used stay within the budget, and the result meets the target;
  - the result is faster (est. device time) than every built-in mode that
    meets the target, or as fast;
  - with ACCURACY_JSON (a recompile with --session_options=search/options.json
    --run on the same inputs): its outputs meet the target too, and the
    recompiled lockfile pins every op as the search's plan did."""
import json
import math
import re
import sys

search = json.load(open(sys.argv[1]))
kind = sys.argv[2]


def conditions(target):
    for text in target.split(","):
        m = re.fullmatch(r"(?:(.*):)?(cosine|max_rel_err|max_abs_err|rel_rmse)(>=|<=)(.*)", text)
        assert m, text
        yield m.group(1), m.group(2), m.group(3), float(m.group(4))


def meets(outputs, target):
    for output, metric, op, bound in conditions(target):
        for o in outputs:
            if output and o["name"] != output:
                continue
            value = o[metric] if metric in o else o["vs_reference"][metric]
            if value is None or (isinstance(value, float) and math.isnan(value)):
                return False
            if (op == ">=" and value < bound) or (op == "<=" and value > bound):
                return False
    return True


target = search["target"]
assert search["evaluations"] <= search["budget"], search["evaluations"]
for step in search["steps"]:
    if "outputs" in step:
        assert step["meets_target"] == meets(step["outputs"], target), step
result = search["result"]
assert result["kind"] == kind, result
assert meets(result["outputs"], target), result
for mode in search["modes"]:
    if "outputs" in mode and mode["meets_target"]:
        assert result["est_device_us"] <= mode["est_device_us"] * (1 + 1e-9) or \
            result["kind"] == "found" and "hint" in result, (mode, result)
summary = f"{kind} in {search['evaluations']} runs, est {result['est_device_us']:.1f} us"
if len(sys.argv) > 3:
    accuracy = json.load(open(sys.argv[3]))
    assert meets(accuracy["outputs"], target), accuracy["outputs"]

    def pins(path):
        return [line for line in open(path).read().splitlines() if line and not line.startswith("#")]

    found, recompiled = pins(sys.argv[4]), pins(sys.argv[5])
    assert found == recompiled, (found, recompiled)
    summary += f"; recompiled from search/options.json: target met, {len(found)} ops pinned alike"
print("ok: " + summary)
