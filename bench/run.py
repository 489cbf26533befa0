#!/usr/bin/env python3
"""Planning-pipeline benchmark (not a test): for each graph kind and size,
times prec-opt parsing and printing the graph with no passes, and with the
precision pipeline, and prints times, their ratio, ops/s and peak RSS.

  bench/run.py [--prec-opt build/bin/prec-opt] [--sizes 10000,100000,1000000]
               [--kinds transformer,cnn] [--repeat 3]

Targets (issue 4): at 100k ops the pipeline run takes at most 2x the no-pass
run; time per op grows at most 1.3x from 10k to 1M ops; peak RSS at most 2x
the no-pass run."""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PIPELINE = ("--prec-precision-pipeline=soc_version=Ascend910 "
            "precision_mode=allow_mix_precision")


def measure(cmd, repeat):
    """Best wall time (s) and the peak RSS (MiB) of `cmd` over `repeat` runs."""
    best_time, peak = None, 0.0
    for _ in range(repeat):
        out = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
        if out.returncode:
            sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr[-2000:]}")
        seconds, kib = out.stderr.strip().splitlines()[-1].split()
        best_time = min(best_time or 1e9, float(seconds))
        peak = max(peak, int(kib) / 1024)
    return best_time, peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prec-opt", default=str(HERE.parent / "build/bin/prec-opt"))
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--kinds", default="transformer,cnn")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'graph':<12}{'ops':>9}{'parse+print s':>15}{'pipeline s':>12}{'ratio':>8}"
          f"{'ops/s':>11}{'RSS MiB':>9}{'pipe RSS':>10}{'RSS ratio':>11}{'us/op':>8}")
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for kind in args.kinds.split(","):
            for size in sizes:
                graph = os.path.join(work, f"{kind}-{size}.mlir")
                gen = subprocess.run([sys.executable, str(HERE / "gen_graph.py"), kind,
                                      str(size), graph], capture_output=True, text=True,
                                     check=True)
                ops = int(gen.stdout.split(": ")[1].split()[0])
                repeat = args.repeat if size < 1000000 else 1
                base, base_rss = measure([args.prec_opt, graph, "-o", "/dev/null"], repeat)
                full, full_rss = measure([args.prec_opt, graph, PIPELINE, "-o", "/dev/null"],
                                         repeat)
                per_op = full / ops * 1e6
                results[(kind, size)] = per_op
                print(f"{kind:<12}{ops:>9}{base:>15.2f}{full:>12.2f}{full / base:>8.2f}"
                      f"{ops / full:>11.0f}{base_rss:>9.0f}{full_rss:>10.0f}"
                      f"{full_rss / base_rss:>11.2f}{per_op:>8.2f}")
                os.remove(graph)
    for kind in args.kinds.split(","):
        if (kind, sizes[0]) in results and (kind, sizes[-1]) in results:
            growth = results[(kind, sizes[-1])] / results[(kind, sizes[0])]
            print(f"{kind}: time per op grows {growth:.2f}x from {sizes[0]} to {sizes[-1]} ops")


if __name__ == "__main__":
    main()
