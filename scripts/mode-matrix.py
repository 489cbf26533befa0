#!/usr/bin/env python3
"""The precision-mode matrix: plans test/Transforms/mode-matrix/graph.mlir
under every precision_mode and precision_mode_v2 value on Ascend910 and
Ascend910B and compares each op's compute dtype (and engine, when not the
AI Core) with the table in docs/mode-matrix.md.

  mode-matrix.py PREC_OPT ROOT           check the table (exit 1 on a mismatch)
  mode-matrix.py PREC_OPT ROOT --print   print the table as the tool plans it
"""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SOCS = ["Ascend910", "Ascend910B"]
MODES = [("precision_mode", m) for m in [
    "force_fp16", "force_fp32", "cube_fp16in_fp32out", "allow_mix_precision",
    "allow_fp32_to_fp16", "must_keep_origin_dtype", "allow_mix_precision_fp16",
    "allow_mix_precision_bf16", "allow_fp32_to_bf16"]] + \
    [("precision_mode_v2", m) for m in [
        "fp16", "origin", "cube_fp16in_fp32out", "mixed_float16",
        "mixed_bfloat16", "mixed_hif8", "cube_hif8"]]
OPS = ["conv", "bn", "relu", "flatten", "fc", "softmax", "fc.relu", "add", "ln",
       "to_half"]
SHORT = {"float16": "f16", "float32": "f32", "bfloat16": "bf16"}


def plan(prec_opt, graph, soc, option, mode):
    with tempfile.TemporaryDirectory() as work:
        report = Path(work) / "r.json"
        run = subprocess.run(
            [prec_opt, str(graph),
             f"--prec-precision-pipeline=soc_version={soc} {option}={mode} report={report}"
             f" fusion_switch_file={graph.parent / 'no-fusion.json'}",
             "-o", "/dev/null"], capture_output=True, text=True)
        if run.returncode:
            rule = re.search(r"\[([A-Z]+-[0-9]+)\]", run.stderr)
            return ["error " + (rule.group(1) if rule else "?")] * len(OPS)
        nodes = {n["name"]: n for n in json.load(open(report))["nodes"]}
    cells = []
    for op in OPS:
        node = nodes.get(op)
        if node is None:  # a Cast that converts nothing any more is removed
            cells.append("removed")
            continue
        cell = SHORT.get(node["compute_dtype"], node["compute_dtype"])
        if node["engine"] == "AICPU":
            cell += " (AICPU)"
        outputs = {SHORT.get(d, d) for d in node["output_dtypes"]}
        if op in ("fc", "conv") and outputs != {cell}:
            cell += "->" + "/".join(sorted(outputs))
        cells.append(cell)
    return cells


def table(prec_opt, graph):
    rows = ["| SoC | option | " + " | ".join(OPS) + " |",
            "| --- | --- | " + " | ".join("---" for _ in OPS) + " |"]
    for soc in SOCS:
        for option, mode in MODES:
            cells = plan(prec_opt, graph, soc, option, mode)
            rows.append(f"| {soc} | {option}={mode} | " + " | ".join(cells) + " |")
    return rows


def main():
    prec_opt, root = sys.argv[1], Path(sys.argv[2])
    graph = root / "test/Transforms/mode-matrix/graph.mlir"
    actual = table(prec_opt, graph)
    if "--print" in sys.argv:
        print("\n".join(actual))
        return 0
    doc = (root / "docs/mode-matrix.md").read_text().splitlines()
    expected = [line for line in doc if line.startswith("| Ascend") or
                line.startswith("| SoC") or line.startswith("| ---")]
    if expected != actual:
        for want, got in zip(expected, actual):
            if want != got:
                print(f"docs/mode-matrix.md: {want}\nplanned:             {got}")
        if len(expected) != len(actual):
            print(f"{len(expected)} table rows in the doc, {len(actual)} planned")
        return 1
    print(f"mode matrix: {len(actual) - 2} (SoC, mode) rows match docs/mode-matrix.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
