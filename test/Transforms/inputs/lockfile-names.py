#!/usr/bin/env python3
"""Fuzzed node names through the customize_dtypes lockfile (CD-1).

  lockfile-names.py PREC_OPT WORKDIR SEED COUNT

Writes a chain of COUNT Relu/Sigmoid/Add ops whose names are random mixes of
the fragments that trouble the format ('::', 'InputDtype:', 'OpType::', '#',
line breaks, NUL, blanks, commas, CJK, bytes that are not UTF-8, very long
names), plans it under force_fp16 writing the lockfile, and plans it again
under force_fp32 with the lockfile as customize_dtypes. Checks that
  - the lockfile reads back without errors;
  - every node it pins keeps its force_fp16 dtypes (the pin beats the mode,
    CD-4), so the name read back is the node's own;
  - the nodes it leaves out are exactly those whose names the format cannot
    express (rule restated here independently), each named in its header
    and counted in the warning."""

import json
import random
import subprocess
import sys
from pathlib import Path

FRAGMENTS = ["conv", "::", ":", "InputDtype:", "OutputDtype:", "OpType::", "#", "\n",
             "\r", "\0", " ", "\t", ",", "/", "=", "\"", "\\", "卷积", "\xff", "\x1b",
             "layer.0", "a" * 300]


def expressible(name, line_length):
    raw = name.encode("utf-8", "surrogateescape")
    if not raw or raw.startswith(b"#") or raw.startswith(b"OpType::"):
        return False
    if raw[:1] in (b" ", b"\t") or raw[-1:] in (b" ", b"\t"):
        return False
    if any(c in raw for c in (b"\n", b"\r", b"\0")):
        return False
    return line_length <= 1024


def mlir_string(name):
    out = ""
    for byte in name.encode("utf-8", "surrogateescape"):
        c = chr(byte)
        out += c if 0x20 <= byte < 0x7f and c not in "\"\\" else f"\\{byte:02X}"
    return '"' + out + '"'


def main():
    prec_opt, work, seed, count = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    names = set()
    while len(names) < count:
        name = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 4)))
        name = name.encode("utf-8").replace(b"\xc3\xbf", b"\xff").decode("utf-8", "surrogateescape")
        names.add(name)
    names = sorted(names)
    t = "tensor<4xf32>"
    lines = [f"func.func @main(%x: {t}) -> {t} {{"]
    cur = "%x"
    for i, name in enumerate(names):
        op = ["ascend.Relu", "ascend.Sigmoid", "ascend.Add"][i % 3]
        operands = f"{cur}, {cur}" if op == "ascend.Add" else cur
        sig = f"({t}, {t}) -> {t}" if op == "ascend.Add" else t
        lines.append(f"  %v{i} = {op} {operands} {{name = {mlir_string(name)}}} : {sig}")
        cur = f"%v{i}"
    lines += [f"  return {cur} : {t}", "}"]
    model = work / f"names-{seed}.mlir"
    model.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")

    def plan(mode, report, extra=""):
        pipeline = f"soc_version=Ascend910 precision_mode={mode} report={report} {extra}"
        proc = subprocess.run([prec_opt, str(model), f"--prec-precision-pipeline={pipeline}",
                               "-o", "/dev/null"], capture_output=True)
        if proc.returncode != 0:
            sys.exit(f"FAIL: planning under {mode} failed:\n"
                     + proc.stderr.decode("utf-8", "replace")[-2000:])
        data = json.loads(Path(report).read_bytes().decode("utf-8", "surrogateescape"))
        return {n["name"]: (n["input_dtypes"], n["output_dtypes"]) for n in data["nodes"]
                if not n["inserted_cast"]}, \
            proc.stderr.decode("utf-8", "replace")

    first, warnings = plan("force_fp16", work / f"fp16-{seed}.json")
    lock = work / f"fp16-{seed}.lock.cfg"
    second, _ = plan("force_fp32", work / f"fp32-{seed}.json", f"customize_dtypes={lock}")

    def line_length(name):
        inputs, outputs = first[name]
        return len((name.encode("utf-8", "surrogateescape") + b"::InputDtype:" +
                    ",".join(inputs).encode() + b",OutputDtype:" + ",".join(outputs).encode()))

    expected_out = {n for n in first if not expressible(n, line_length(n))}
    pinned = [n for n in first if n not in expected_out]
    changed = [n for n in pinned if first[n] != second.get(n)]
    if changed:
        sys.exit(f"FAIL: {len(changed)} pinned nodes changed, e.g. {changed[0]!r}: "
                 f"{first[changed[0]]} -> {second.get(changed[0])}")
    header = [l for l in lock.read_bytes().split(b"\n") if l.startswith(b"#   '")]
    if len(header) != len(expected_out):
        sys.exit(f"FAIL: the lockfile header lists {len(header)} left-out nodes, "
                 f"expected {len(expected_out)}")
    if expected_out and f"leaves out {len(expected_out)} node" not in warnings:
        sys.exit(f"FAIL: no warning counting {len(expected_out)} left-out nodes:\n{warnings[-1000:]}")
    # The pins mattered: without them force_fp32 would have changed these.
    if not any(second[n] != first[n] for n in expected_out) and expected_out:
        print("note: no left-out node changed dtype")
    print(f"seed {seed}: {len(pinned)} names pinned and read back unchanged, "
          f"{len(expected_out)} left out with a warning")


if __name__ == "__main__":
    main()
