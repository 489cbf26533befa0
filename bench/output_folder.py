#!/usr/bin/env python3
"""What judging the output folder by content costs (issue 55): prec-compile
hashes the previous outputs before any work (are they still its own?),
again under the lock before the commit, and the new ones as it moves them
in. Times a run into a new folder against the same run into a folder that
holds the previous run's outputs, on a large synthetic graph (its
planned.mlir, kernels.mlir and report.json are tens of megabytes).

  bench/output_folder.py [BUILD_DIR] [OPS]      (defaults: build, 100000)

Prints the outputs' size, the median of 3 runs of each kind and the ratio."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    ops = sys.argv[2] if len(sys.argv) > 2 else "100000"
    prec_compile = os.path.join(build, "bin", "prec-compile")
    with tempfile.TemporaryDirectory() as work:
        model = os.path.join(work, "big.mlir")
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_graph.py"),
                        "transformer", ops, model], check=True, stdout=subprocess.DEVNULL)

        def run(folder):
            started = time.monotonic()
            subprocess.run([prec_compile, model, "--soc_version=Ascend910B3", "--quiet",
                            "--output=" + folder], check=True, stdout=subprocess.DEVNULL)
            return time.monotonic() - started

        fresh, again = [], []
        existing = os.path.join(work, "existing")
        run(existing)
        for i in range(3):
            fresh.append(run(os.path.join(work, "fresh%d" % i)))
            again.append(run(existing))
        size = sum(os.path.getsize(os.path.join(existing, f)) for f in os.listdir(existing)
                   if os.path.isfile(os.path.join(existing, f)))
        f, a = statistics.median(fresh), statistics.median(again)
        print("graph of %s ops; outputs %.1f MB" % (ops, size / 1e6))
        print("into a new folder:             %.2f s (median of 3)" % f)
        print("over the previous outputs:     %.2f s (median of 3)" % a)
        print("ratio (content checks' cost):  %.3f" % (a / f))


if __name__ == "__main__":
    main()
