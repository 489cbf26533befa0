#!/usr/bin/env python3
"""PM-13's performance order on estimated device time. Usage:
  check_mode_order.py PREC_COMPILE SOC OUT_DIR MODEL...
Runs prec-compile on each model under the five ordered precision modes and
checks force_fp16 <= allow_mix_precision <= allow_fp32_to_fp16 <=
must_keep_origin_dtype <= force_fp32 on report.json's est_device_us (equal
where the modes give the same dtypes). Prints a row per model; exits 1 on
a violation or a failed run."""
import json
import subprocess
import sys
from pathlib import Path

MODES = ["force_fp16", "allow_mix_precision", "allow_fp32_to_fp16", "must_keep_origin_dtype",
         "force_fp32"]


def estimate(prec_compile, soc, model, mode, out):
    folder = out / f"{Path(model).stem}-{mode}"
    run = subprocess.run([prec_compile, model, f"--soc_version={soc}", f"--precision_mode={mode}",
                          f"--output={folder}", "--quiet"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"FAIL: {model} under {mode}: exit {run.returncode}\n{run.stderr[-600:]}")
    summary = json.loads((folder / "report.json").read_text())["summary"]
    if summary["unlowered_ops"]:
        sys.exit(f"FAIL: {model} under {mode}: {summary['unlowered_ops']} ops not lowered")
    return summary["est_device_us"]


def main():
    prec_compile, soc, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    failed = False
    for model in sys.argv[4:]:
        times = [estimate(prec_compile, soc, model, mode, out) for mode in MODES]
        ordered = all(a <= b * (1 + 1e-9) for a, b in zip(times, times[1:]))
        row = " <= ".join(f"{mode} {t:.1f}" for mode, t in zip(MODES, times))
        print(f"{'ok' if ordered else 'FAIL'}: {Path(model).stem}: {row} us")
        failed |= not ordered
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
