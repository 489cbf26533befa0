#!/usr/bin/env python3
"""Host-run accuracy over Debian's libonnx-testdata (not a test):

  /usr/bin/python3 bench/testdata_accuracy.py [--prec-compile build/bin/prec-compile]
      [--filter SUBSTRING] [--limit N] [--jobs 1] [--json FILE] [--keep DIR]

For every test folder under node/, pytorch-converted/, pytorch-operator/
and simple/, runs

  prec-compile MODEL --soc_version=Ascend910B3
      --precision_mode=must_keep_origin_dtype --output=TMP
      --run=FOLDER/test_data_set_0 --quiet

(60 s each) and sorts the model into one of:

  pass      every output within tolerance of the expected one
            (accuracy.json: vs_expected.within_tolerance; rtol 1e-3, atol 1e-7)
  miss      ran, some output outside the tolerance (its max abs error)
  generic   the model has ascend.generic ops (report.json's
            summary.generic_ops, or the import warnings / the run's refusal
            when nothing was written)
  cannot    the run was refused for another reason (an op with no kernel,
            an AI CPU kernel, a type the host executor does not hold, ...)
  error     any other non-zero exit (its first error line)
  timeout   over 60 s

The pass rate is pass / (models without a generic op). Non-pass models are
printed grouped by reason (misses by the op types of the model), most
frequent first. Temporary outputs are removed unless --keep names a folder
to keep them in (KEEP/<suite>/<test>)."""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path("/usr/share/libonnx-testdata/data")
SUITES = ["node", "pytorch-converted", "pytorch-operator", "simple"]
TIMEOUT = 60
CATEGORIES = ["pass", "miss", "generic", "import", "cannot", "error", "timeout"]


def tests(filter_text, limit):
    """(suite, name, folder) of every test folder, sorted; --filter on suite/name."""
    found = []
    for suite in SUITES:
        base = DATA / suite
        if not base.is_dir():
            continue
        for folder in sorted(base.iterdir()):
            if not (folder / "model.onnx").is_file():
                continue
            if filter_text and filter_text not in f"{suite}/{folder.name}":
                continue
            found.append((suite, folder.name, folder))
    return found[:limit] if limit else found


def shorten(text, width=160):
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


def run_model(prec_compile, out, folder):
    """Runs prec-compile; (returncode or None on timeout, stdout, stderr, seconds)."""
    cmd = [prec_compile, str(folder / "model.onnx"), "--soc_version=Ascend910B3",
           "--precision_mode=must_keep_origin_dtype", f"--output={out}",
           f"--run={folder / 'test_data_set_0'}", "--quiet"]
    start = time.perf_counter()
    # A session of its own, so that a timeout also ends the checker and
    # shape-inference children prec-compile starts.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        stdout, stderr = proc.communicate()
        code = None
    return code, stdout, stderr, time.perf_counter() - start


def generic_types(stderr):
    """ONNX op types the import warnings say became ascend.generic."""
    return sorted(set(re.findall(r'imported as ascend\.generic "([^"]+)"', stderr)))


def refusal(stderr):
    """The lines under 'the plan cannot run on the host', or None."""
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        if "the plan cannot run on the host" in line:
            return [l.strip() for l in lines[i + 1:] if l.startswith("  ")]
    return None


def refusal_reason(line):
    """One refusal line without the node's name, to group by."""
    # "<node> (ascend.X): no kernel (not lowered)" / "<node>: <why>"
    match = re.search(r" \((ascend\.[A-Za-z0-9_]+|[a-z_]+\.[A-Za-z0-9_.]+)\): (.*)$", line)
    if match:
        return f"{match.group(1)}: {match.group(2)}"
    if ": " in line:
        return line.split(": ", 1)[1]
    return line


def first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line.lower():
            return line.strip()
    lines = [l for l in stderr.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no message)"


def error_key(line, model):
    """The error line with paths, value names and numbers made generic."""
    line = line.replace(str(model.parent / "test_data_set_0"), "SET")
    line = line.replace(str(model), "MODEL")
    line = re.sub(r"\[[-0-9, ]*\]", "[…]", line)
    # Node, input and output names vary; op names and kinds are the cause.
    line = re.sub(r"\b(input|output|node|tensor) '[^']*'", r"\1 '…'", line)
    line = re.sub(r"\b\d+(\.\d+)?(e[-+]?\d+)?\b", "N", line)
    line = re.sub(r"^MODEL( \(node '…'\))?: ", "", line)
    line = re.sub(r"^(<command line>: |prec-compile: )?error: ", "", line)
    return shorten(line, 140)


def number(value, missing=float("nan")):
    """A JSON number (null for NaN or a missing field: `missing`)."""
    return value if isinstance(value, (int, float)) else missing


def op_types(report):
    types = set()
    for node in report.get("nodes", []):
        if node.get("op_type"):
            types.add(node["op_type"])
    return sorted(types)


def classify(suite, name, folder, args, work):
    out = Path(work) / f"{suite}__{name}"
    code, _, stderr, seconds = run_model(args.prec_compile, out, folder)
    result = {"test": f"{suite}/{name}", "model": str(folder / "model.onnx"),
              "seconds": round(seconds, 2), "exit": code}
    model = folder / "model.onnx"
    report, accuracy = None, None
    try:
        report = json.loads((out / "report.json").read_text())
    except (OSError, ValueError):
        pass
    try:
        accuracy = json.loads((out / "accuracy.json").read_text())
    except (OSError, ValueError):
        pass
    generics = generic_types(stderr)
    refused = refusal(stderr)
    if code is None:
        result.update(category="timeout", key="timeout", reason=f"over {TIMEOUT} s")
    elif (report and report.get("summary", {}).get("generic_ops", 0) > 0) or generics or (
            refused and any("(ascend.generic)" in line for line in refused)):
        count = report["summary"]["generic_ops"] if report else None
        what = ", ".join(generics) if generics else f"{count} generic ops"
        result.update(category="generic", key=what, reason=f"generic: {what}")
    elif code == 0 and accuracy is not None:
        outputs = accuracy.get("outputs", [])
        bad = [o for o in outputs
               if not (o.get("vs_expected") or {}).get("within_tolerance", False)]
        result["outputs"] = [{"name": o.get("name"),
                              "within_tolerance": (o.get("vs_expected") or {}).get(
                                  "within_tolerance"),
                              "max_abs_err": (o.get("vs_expected") or {}).get("max_abs_err"),
                              "max_rel_err": (o.get("vs_expected") or {}).get("max_rel_err"),
                              "non_finite": (o.get("vs_expected") or {}).get("non_finite")}
                             for o in outputs]
        types = op_types(report or {})
        result["op_types"] = types
        if not bad:
            result.update(category="pass", key="pass", reason="")
        else:
            worst = max(bad, key=lambda o: number((o.get("vs_expected") or {}).get(
                "max_abs_err"), float("inf")))
            expected = worst.get("vs_expected")
            if expected is None:
                why = "no expected output compared"
            else:
                why = (f"max abs err {number(expected.get('max_abs_err')):.3g}, "
                       f"max rel err {number(expected.get('max_rel_err')):.3g}")
                if expected.get("non_finite"):
                    why += f", {expected['non_finite']} non-finite"
            result["max_abs_err"] = expected.get("max_abs_err") if expected else None
            key = "ops: " + (" + ".join(types) if types else "(none)")
            result.update(category="miss", key=key,
                          reason=f"output '{worst.get('name')}' "
                                 f"({len(bad)}/{len(outputs)} outside): {why}")
    elif refused is not None:
        reasons = sorted(set(refusal_reason(line) for line in refused if
                             not line.startswith("...")))
        text = "; ".join(reasons)
        result.update(category="cannot", key=shorten(text, 140),
                      reason=shorten(f"cannot run: {text}"))
    else:
        line = first_error(stderr) if stderr.strip() else f"exit {code}, no message"
        if code == 0:
            line = "exit 0 but no accuracy.json"
        # A model that does not import (string, sequence or optional graph
        # inputs, the opset-8 Scan form) is not among the models the target
        # counts: "every model that imports with no generic op".
        category = "import" if re.search(r"is not a tensor of a supported element type|"
                                         r"uses the opset-8 form", line) else "error"
        result.update(category=category, key=error_key(line, model),
                      reason=shorten(line.replace(str(folder / "test_data_set_0"), "SET")
                                     .replace(str(model), "MODEL")))
    if args.keep:
        dest = Path(args.keep) / suite / name
        shutil.rmtree(dest, ignore_errors=True)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():
            shutil.move(str(out), dest)
        else:
            dest.mkdir()
        (dest / "stderr.txt").write_text(stderr)
    else:
        shutil.rmtree(out, ignore_errors=True)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prec-compile", default=str(ROOT / "build/bin/prec-compile"))
    parser.add_argument("--filter", default="", help="only tests whose suite/name holds this")
    parser.add_argument("--limit", type=int, default=0, help="the first N tests only")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", help="write every model's result to this file")
    parser.add_argument("--keep", help="keep each model's output folder under this folder")
    args = parser.parse_args()
    if not os.access(args.prec_compile, os.X_OK):
        sys.exit(f"no prec-compile at {args.prec_compile}")

    todo = tests(args.filter, args.limit)
    if not todo:
        sys.exit("no test matches")
    start = time.perf_counter()
    results = []
    with tempfile.TemporaryDirectory(prefix="testdata-accuracy-") as work:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(classify, suite, name, folder, args, work)
                       for suite, name, folder in todo]
            for i, future in enumerate(futures, 1):
                results.append(future.result())
                if sys.stderr.isatty():
                    print(f"\r{i}/{len(todo)}", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    wall = time.perf_counter() - start

    counts = Counter(r["category"] for r in results)
    print(f"{len(results)} models in {wall:.0f} s (Ascend910B3, must_keep_origin_dtype, "
          f"--run on test_data_set_0)")
    print("  " + ", ".join(f"{c} {counts.get(c, 0)}" for c in CATEGORIES))
    considered = len(results) - counts.get("generic", 0) - counts.get("import", 0)
    rate = counts.get("pass", 0) / considered if considered else 0.0
    print(f"pass rate (pass / models that import with no generic op): {counts.get('pass', 0)}/"
          f"{considered} = {rate:.1%}")

    groups = defaultdict(list)
    for r in results:
        if r["category"] != "pass":
            groups[(r["category"], r["key"])].append(r)
    if groups:
        print("\nCauses (count, category, reason):")
        order = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        for (category, key), rows in order:
            print(f"  {len(rows):4d}  {category:<8} {key}")
        print("\nNon-pass models, by reason:")
        for (category, key), rows in order:
            print(f"\n[{category}] {key} ({len(rows)})")
            for r in sorted(rows, key=lambda r: r["test"]):
                print(f"  {r['test']}: {r['reason']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"models": len(results), "counts": dict(counts),
                       "pass_rate": rate, "considered": considered,
                       "seconds": round(wall, 1), "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
