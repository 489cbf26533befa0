"""PM-13 on measured accuracy: in compare.json, the worst output's error
does not grow along force_fp32, must_keep_origin_dtype, allow_fp32_to_fp16,
allow_mix_precision, force_fp16 (ties allowed where two modes choose the
same dtypes), and the fp16 modes do lose accuracy.
Usage: check_modes.py COMPARE_JSON NAME"""
import json
import sys

modes = {m["precision_mode"]: m for m in json.load(open(sys.argv[1]))["modes"]}
order = ["force_fp16", "allow_mix_precision", "allow_fp32_to_fp16", "must_keep_origin_dtype",
         "force_fp32"]
errors = [modes[m]["rel_rmse"] for m in order]
for (a, ea), (b, eb) in zip(zip(order, errors), zip(order[1:], errors[1:])):
    assert ea >= eb, f"{sys.argv[2]}: {a} {ea} < {b} {eb}"
assert errors[0] > 0 and errors[-1] == 0, errors
print(f"ok: {sys.argv[2]}: " + " >= ".join(f"{m} {e:.2e}" for m, e in zip(order, errors)))
