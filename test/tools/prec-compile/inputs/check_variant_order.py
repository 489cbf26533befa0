#!/usr/bin/env python3
"""Issue 35: a bigger chip of one family is never estimated slower on the
same plan. Plans each model under force_fp16 on each variant (largest
first) and checks that report.json's est_device_us never decreases down
the list; prints one line per model.

Usage: check_variant_order.py PREC_COMPILE OUT_DIR VARIANTS(comma-separated,
       largest first) MODEL.onnx...
"""
import json
import os
import subprocess
import sys


def estimate(prec_compile, model, soc, out):
    subprocess.run([prec_compile, model, f"--soc_version={soc}", "--precision_mode=force_fp16",
                    f"--output={out}", "--quiet"], check=True, capture_output=True)
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)["summary"]["est_device_us"]


def main():
    prec_compile, out_dir, variants = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    failed = False
    for model in sys.argv[4:]:
        name = os.path.splitext(os.path.basename(model))[0]
        times = [estimate(prec_compile, model, soc, os.path.join(out_dir, f"{name}.{soc}"))
                 for soc in variants]
        ordered = all(a <= b * (1 + 1e-9) for a, b in zip(times, times[1:]))
        failed |= not ordered
        print(("ok: " if ordered else "FAILED: ") + name + ": " +
              " <= ".join(f"{soc} {t:.1f}" for soc, t in zip(variants, times)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
