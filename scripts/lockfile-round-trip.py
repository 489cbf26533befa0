#!/usr/bin/env python3
"""Plans MODEL under SOC/MODE, writes the lockfile, plans again with the
lockfile as customize_dtypes, and checks every node keeps its compute,
input and output dtypes and engine.
Usage: lockfile-round-trip.py PREC_OPT MODEL WORKDIR SOC MODE"""

import json
import subprocess
import sys
from pathlib import Path


def plan(prec_opt, model, report, soc, mode, extra=""):
    key = "precision_mode_v2" if mode in ("fp16", "origin", "mixed_float16",
                                          "mixed_bfloat16") else "precision_mode"
    pipeline = f"soc_version={soc} {key}={mode} report={report} {extra}".strip()
    subprocess.run([prec_opt, str(model), "--prec-graph-prepare",
                    f"--prec-precision-pipeline={pipeline}", "-o", "/dev/null"],
                   check=True)
    nodes = [n for n in json.load(open(report))["nodes"] if not n["inserted_cast"]]
    return {n["name"]: (n["compute_dtype"], n["input_dtypes"], n["output_dtypes"],
                        n["engine"]) for n in nodes}


def main():
    prec_opt, model, work, soc, mode = sys.argv[1:6]
    work = Path(work)
    first = plan(prec_opt, model, work / f"{soc}-{mode}.json", soc, mode)
    lock = work / f"{soc}-{mode}.lock.cfg"
    second = plan(prec_opt, model, work / f"{soc}-{mode}-locked.json", soc, mode,
                  f"customize_dtypes={lock}")
    diffs = [f"  {name}: {first[name]} -> {second.get(name)}"
             for name in first if first[name] != second.get(name)]
    if diffs:
        print(f"lockfile round trip changed {len(diffs)} decisions:\n" + "\n".join(diffs))
        return 1
    print(f"{soc} {mode}: {len(first)} decisions reproduced by the lockfile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
