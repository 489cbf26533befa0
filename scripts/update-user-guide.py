#!/usr/bin/env python3
"""Regenerates the sample outputs in docs/user-guide.md from prec-compile, or
with --check fails when the guide no longer shows what the tool prints.

  scripts/update-user-guide.py [--check] [BUILD_DIR]   (default: build)

Each sample in the guide follows a marker line

  <!-- output: NAME -->

and is the fenced block right after it: the command as a user types it
(`$ ...`) and what it prints, or the lines of it the guide discusses (cut
lines shown as `...`). BLOCKS below says how each is made. The commands
run at the default terminal width (COLUMNS unset, output to a pipe: 100
columns), on the models the repository makes (examples/, the test model
scripts), in a scratch folder whose path is shown as the guide names it.

--check compares with the host-dependent figures masked (the host's JIT and
run times), so that the test does not depend on the machine's speed; a
regenerated guide shows the figures of the machine that ran it.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "user-guide.md"
PYTHON = "/usr/bin/python3"

# Figures that depend on the host, not on the plan: masked by --check.
VOLATILE = [
    (re.compile(r"JIT\s+[0-9.]+\s+(ms|s)\s+\(\+[0-9.]+\s+(ms|s)\s+reference\),\s+run\s+[0-9.]+\s+(ms|s)"),
     "JIT # ms (+# ms reference), run # ms"),
]
# A figure of another length moves the point where its line wraps: --check
# compares continuation lines joined to the line they continue.
CONTINUATION = re.compile(r"\n[ \t]+")


class Block:
    """A sample: `shown` is the command as the guide prints it; `run` what
    runs (in the scratch folder, {prec} the tool); `stream` which output;
    `keep` the line ranges to show: (first line's regex, last line's regex
    or None for the first line alone), in order."""

    def __init__(self, shown, run, stream="stdout", keep=None, whole=False):
        self.shown, self.run, self.stream, self.keep, self.whole = shown, run, stream, keep, whole


EXAMPLE = ("build/bin/prec-compile build/example.onnx --soc_version=Ascend910 \\\n"
           "    --precision_mode=allow_mix_precision --modify_mixlist=examples/mixlist.json \\\n")
EXAMPLE_RUN = ("{prec} build/example.onnx --soc_version=Ascend910 --precision_mode=allow_mix_precision "
               "--modify_mixlist={root}/examples/mixlist.json")

BLOCKS = {
    # Section 1: the demo, as scripts/demo.sh runs it, whole.
    "demo": Block(
        "$ " + EXAMPLE + "    --output=build/demo --run",
        EXAMPLE_RUN + " --output=build/demo --run", whole=True),
    # Section 3: the estimate's lines.
    "estimate": Block(
        "$ " + EXAMPLE + "    --output=build/demo",
        EXAMPLE_RUN + " --output=build/demo",
        keep=[(r"^SoC ", r"^node "), (r"^Device time", r"^Device time")]),
    # Section 4: --explain for three nodes.
    "explain": Block(
        "$ " + EXAMPLE + "    --output=out --explain=stem.conv,attn.softmax,ln",
        EXAMPLE_RUN + " --output=out --explain=stem.conv,attn.softmax,ln", stream="stderr",
        whole=True),
    # Section 4: graph and UB fusion on a Paddle-style export.
    "fusion": Block(
        "$ build/bin/prec-compile paddle_convbn.onnx --soc_version=Ascend910 --output=out",
        "{prec} paddle_convbn.onnx --soc_version=Ascend910 --output=out",
        keep=[(r"^SoC ", r"^relu_0 ")]),
    # Section 6: the run's accuracy lines.
    "run": Block(
        "$ " + EXAMPLE + "    --output=build/demo --run",
        EXAMPLE_RUN + " --output=build/demo --run",
        keep=[(r"^attn\.scores ", r"^attn\.context "), (r"^Measured on", r"^  host time")]),
    # Section 6: ONNX's own test data, in fp16 and as exported.
    "testdata": Block(
        "$ d=/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d\n"
        "$ build/bin/prec-compile $d/model.onnx --soc_version=Ascend910B3 "
        "--precision_mode=force_fp16 \\\n    --output=out --run=$d/test_data_set_0",
        "{prec} {conv2d}/model.onnx --soc_version=Ascend910B3 --precision_mode=force_fp16 "
        "--output=out --run={conv2d}/test_data_set_0",
        keep=[(r"^  output '3'", r"vs expected")]),
    "testdata-exact": Block(
        "$ build/bin/prec-compile $d/model.onnx --soc_version=Ascend910B3 "
        "--precision_mode=must_keep_origin_dtype \\\n    --output=out2 --run=$d/test_data_set_0",
        "{prec} {conv2d}/model.onnx --soc_version=Ascend910B3 "
        "--precision_mode=must_keep_origin_dtype --output=out2 --run={conv2d}/test_data_set_0",
        keep=[(r"^  output '3'", r"vs expected")]),
    # Section 7: --compare-modes.
    "modes": Block(
        "$ build/bin/prec-compile build/example.onnx --soc_version=Ascend910B3 \\\n"
        "    --precision_mode=allow_mix_precision --output=out --compare-modes",
        "{prec} build/example.onnx --soc_version=Ascend910B3 --precision_mode=allow_mix_precision "
        "--output=out --compare-modes",
        keep=[(r"^Precision modes on", r"^  allow_fp32_to_bf16 ")]),
    # Section 8: the search, and the files it writes.
    "search": Block(
        "$ /usr/bin/python3 test/Execution/inputs/make_search_models.py /tmp/m   # creates /tmp/m\n"
        "$ build/bin/prec-compile /tmp/m/attention.onnx --soc_version=Ascend910B3 --output=out \\\n"
        "    --search-precision=\"rel_rmse<=6e-4\"",
        "{prec} attention.onnx --soc_version=Ascend910B3 --output=out "
        "--search-precision='rel_rmse<=6e-4'",
        keep=[(r"^Precision search for", r"options given \(force_fp16\)$")]),
    "search-files": Block(
        "", "for f in keep_dtype.cfg options.json; do echo \"\\$ cat out/search/$f\"; "
        "cat out/search/$f; done", whole=True),
}


def select(lines, keep):
    """The lines of `keep`'s ranges, with "..." where lines are left out."""
    shown, position = [], 0
    for first, last in keep:
        start = next((i for i in range(position, len(lines)) if re.search(first, lines[i])), None)
        if start is None:
            raise SystemExit(f"update-user-guide: no line matches {first!r} after line "
                             f"{position}:\n" + "\n".join(lines))
        end = start
        if last:
            end = next((i for i in range(start, len(lines)) if re.search(last, lines[i])), None)
            if end is None:
                raise SystemExit(f"update-user-guide: no line matches {last!r} after {first!r}")
            # A range's last line keeps its continuations (indented deeper):
            # a longer figure (a slower JIT) may wrap it. A first line
            # shown alone is shown alone.
            indent = len(lines[end]) - len(lines[end].lstrip())
            while (end + 1 < len(lines) and lines[end + 1].strip() and
                   len(lines[end + 1]) - len(lines[end + 1].lstrip()) > indent):
                end += 1
        if start > position or (position == 0 and start > 0):
            shown.append("...")
        shown.extend(lines[start:end + 1])
        position = end + 1
    if position < len(lines):
        shown.append("...")
    return shown


def run_block(block, folder, prec):
    conv2d = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d"
    command = block.run.format(prec=prec, root=ROOT, conv2d=conv2d)
    environment = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    # An empty kernel cache for each sample: every sample compiles, as on a
    # user's first run, whatever ran before it.
    environment["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix=".cache-", dir=folder)
    proc = subprocess.run(command, shell=True, cwd=folder, capture_output=True, text=True,
                          env=environment, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"update-user-guide: '{command}' exited with {proc.returncode}:\n"
                         + proc.stderr[-3000:])
    text = proc.stdout if block.stream == "stdout" else proc.stderr
    # The scratch folder and the repository are shown as a user's paths.
    text = text.replace(str(folder) + "/", "").replace(str(ROOT) + "/", "")
    lines = text.rstrip("\n").split("\n")
    if not block.whole:
        lines = select(lines, block.keep)
    return (block.shown + "\n" if block.shown else "") + "\n".join(lines) + "\n"


def prepare(folder, build):
    """The models the samples run on, made the way the repository makes them."""
    (folder / "build").mkdir()
    subprocess.run([PYTHON, str(ROOT / "examples/make_example_model.py"),
                    str(folder / "build" / "example.onnx")], check=True, capture_output=True)
    subprocess.run([PYTHON, str(ROOT / "test/Execution/inputs/make_search_models.py"),
                    str(folder)], check=True, capture_output=True)
    subprocess.run([PYTHON, str(ROOT / "test/tools/prec-compile/inputs/make_fusion_models.py"),
                    str(folder)], check=True, capture_output=True)


def regenerate(guide, build):
    prec = str(Path(build).resolve() / "bin" / "prec-compile")
    # marker and fence, the sample (possibly empty), the closing fence
    parts = re.split(r"(<!-- output: [a-z0-9-]+ -->\n```console\n)(.*?)(^```$)", guide,
                     flags=re.S | re.M)
    names = re.findall(r"<!-- output: ([a-z0-9-]+) -->", guide)
    unknown = [n for n in names if n not in BLOCKS]
    if unknown:
        raise SystemExit(f"update-user-guide: no block named {unknown}")
    outputs = {}
    with tempfile.TemporaryDirectory(prefix="user-guide-") as scratch:
        folder = Path(scratch)
        prepare(folder, build)
        # In the guide's order: each run writes its own output folder, as a
        # user's would; the search's files are read after the search ran.
        for name in names:
            if name != "search-files":
                for leftover in ("out", "out2", "build/demo"):
                    shutil.rmtree(folder / leftover, ignore_errors=True)
            outputs[name] = run_block(BLOCKS[name], folder, prec)
    result = []
    for i in range(len(parts)):
        if i % 4 == 2:
            name = re.search(r"output: ([a-z0-9-]+)", parts[i - 1]).group(1)
            result.append(outputs[name])
        else:
            result.append(parts[i])
    return "".join(result)


def mask(text):
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return CONTINUATION.sub(" ", text)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    build = args[0] if args else str(ROOT / "build")
    guide = GUIDE.read_text(encoding="utf-8")
    updated = regenerate(guide, build)
    if check:
        if mask(updated) != mask(guide):
            import difflib
            diff = difflib.unified_diff(mask(guide).splitlines(), mask(updated).splitlines(),
                                        "docs/user-guide.md", "what prec-compile prints",
                                        lineterm="", n=1)
            sys.stderr.write("\n".join(diff) + "\n")
            sys.stderr.write("update-user-guide: docs/user-guide.md no longer shows what "
                             "prec-compile prints; run scripts/update-user-guide.py\n")
            return 1
        print("update-user-guide: docs/user-guide.md is current "
              f"({len(re.findall('<!-- output:', guide))} samples)")
        return 0
    if updated != guide:
        GUIDE.write_text(updated, encoding="utf-8")
        print("update-user-guide: docs/user-guide.md regenerated")
    else:
        print("update-user-guide: docs/user-guide.md is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
