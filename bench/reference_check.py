#!/usr/bin/env python3
"""Is the fp32 reference the model in fp32? A sweep over Debian's
libonnx-testdata under a reduced-precision mode (not a test):

  /usr/bin/python3 bench/reference_check.py [--prec-compile build/bin/prec-compile]
      [--precision-mode force_fp16] [--filter SUBSTRING] [--limit N] [--jobs 2]
      [--json FILE]

For every test model that runs (test_data_set_0 as inputs, its outputs as
the expected ones), accuracy.json gives per output three rel_rmse figures:

  a  the plan against the fp32 reference      (what prec-compile reports)
  b  the plan against the expected output     (what the model really loses)
  c  the reference against the expected output

The reference is faithful when c is small next to b: then a and b differ by
at most c (the triangle inequality on the rmse), and the error reported is
the error the model loses. An output counts as

  agrees      c <= max(1e-6, b / 10): |a - b| <= c, a is b
  exact       a = b = 0: the plan computes in fp32 there too
  reference   c > max(1e-6, b / 10): the reference itself is off (listed with
              the model's op types; the fp32 emulation differs from the
              runtime that wrote the expected data by more than the plan's
              error)

and the models are summarised by their worst output. Issue 33: before the
reference computed on the exported constants, test_Embedding reported a = 0
for b = 2.3e-4 (c = 2.3e-4: the reference used the fp16 table)."""

import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import testdata_accuracy as sweep  # noqa: E402  (the test list and the runner)

ROOT = Path(__file__).resolve().parent.parent


def check(suite, name, folder, args, work):
    out = Path(work) / f"{suite}__{name}"
    cmd = [args.prec_compile, str(folder / "model.onnx"), "--soc_version=Ascend910B3",
           f"--precision_mode={args.precision_mode}", f"--output={out}",
           f"--run={folder / 'test_data_set_0'}", "--quiet"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              timeout=sweep.TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return None
    try:
        accuracy = json.loads((out / "accuracy.json").read_text())
    except (OSError, ValueError):
        return None
    subprocess.run(["rm", "-rf", str(out)])
    rows = []
    for output in accuracy.get("outputs", []):
        ref, exp = output.get("vs_reference"), output.get("vs_expected")
        own = output.get("reference_vs_expected")
        if not (ref and exp and own):
            continue
        a, b, c = (sweep.number(x.get("rel_rmse")) for x in (ref, exp, own))
        if any(v != v for v in (a, b, c)):  # NaN: an output with no finite values
            continue
        if a == 0 and b == 0:
            verdict = "exact"
        elif c <= max(1e-6, b / 10):
            verdict = "agrees"
        else:
            verdict = "reference"
        rows.append({"output": output.get("name"), "a": a, "b": b, "c": c, "verdict": verdict})
    if not rows:
        return None
    order = ["exact", "agrees", "reference"]
    worst = max(rows, key=lambda r: order.index(r["verdict"]))
    return {"test": f"{suite}/{name}", "outputs": rows, "verdict": worst["verdict"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prec-compile", default=str(ROOT / "build/bin/prec-compile"))
    parser.add_argument("--precision-mode", default="force_fp16")
    parser.add_argument("--filter", default="")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    found = sweep.tests(args.filter, args.limit)
    with tempfile.TemporaryDirectory(prefix="reference-check-") as work:
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda t: check(*t, args, work), found))
    results = [r for r in results if r]
    counts = {v: sum(r["verdict"] == v for r in results) for v in ("agrees", "exact", "reference")}
    print(f"{len(results)} of {len(found)} test models ran under {args.precision_mode} on "
          "Ascend910B3 with expected outputs")
    for verdict, count in counts.items():
        print(f"  {verdict:10s} {count:5d}")
    agreeing = [o for r in results for o in r["outputs"] if o["verdict"] == "agrees"]
    if agreeing:
        ratios = sorted(o["a"] / o["b"] for o in agreeing if o["b"] > 0)
        print(f"  agreeing outputs: reported / true error, median {ratios[len(ratios) // 2]:.4f}, "
              f"min {ratios[0]:.4f}, max {ratios[-1]:.4f} ({len(ratios)} outputs)")
    off = [r for r in results if r["verdict"] == "reference"]
    if off:
        print("Where the reference itself is off (c > max(1e-6, b/10)):")
        for r in off:
            o = max(r["outputs"], key=lambda o: o["c"])
            print(f"  {r['test']:60s} output {o['output']}: a {o['a']:.2e}  b {o['b']:.2e}  "
                  f"c {o['c']:.2e}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
