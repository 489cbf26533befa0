#!/usr/bin/env python3
"""Prints, for each accuracy.json given, whether the fp32 reference is the
model in fp32 (issue 33): per output, with
  a = rel_rmse of the plan against the reference (what prec-compile reports),
  b = against the expected output (what the model loses),
  c = the reference against the expected output,
"agrees" when c <= max(1e-6, b / 10) and a is within 10% of b, "exact" when
a = b = 0, else "OFF" with the three figures.

  check_reference_agrees.py NAME=accuracy.json ..."""

import json
import sys

for argument in sys.argv[1:]:
    name, path = argument.split("=", 1)
    for output in json.load(open(path))["outputs"]:
        a = output["vs_reference"]["rel_rmse"]
        b = output["vs_expected"]["rel_rmse"]
        c = output["reference_vs_expected"]["rel_rmse"]
        if a == 0 and b == 0:
            verdict = "exact"
        elif c <= max(1e-6, b / 10) and abs(a - b) <= b / 10:
            verdict = "agrees"
        else:
            verdict = f"OFF (a {a:.2e}, b {b:.2e}, c {c:.2e})"
        print(f"{name} {output['name']}: {verdict}")
