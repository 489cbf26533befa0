#!/usr/bin/env python3
"""Kernel-lowering benchmark (not a test): for each graph kind and size,
times the planning pipeline (prec-opt with prec-precision-pipeline, from the
imported graph) and the lowering of the planned graph
(prec-convert-ascend-to-kernel, from planned IR), each against parsing and
printing its own input, and prints the net times and their ratio, the
kernels' IR size and peak RSS.

  bench/lowering.py [--prec-opt build/bin/prec-opt] [--sizes 10000,100000]
                    [--kinds transformer,cnn] [--repeat 3]

Issue 13 asks for the figures (bench/README.md), not for a target."""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run import PIPELINE, measure  # noqa: E402

LOWER = "--prec-convert-ascend-to-kernel=allow-unlowered"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prec-opt", default=str(HERE.parent / "build/bin/prec-opt"))
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--kinds", default="transformer,cnn")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'graph':<12}{'ops':>9}{'plan s':>9}{'lower s':>9}{'lower/plan':>12}"
          f"{'kernels MB':>12}{'RSS MiB plan':>14}{'RSS lower':>11}")
    with tempfile.TemporaryDirectory() as work:
        for kind in args.kinds.split(","):
            for size in (int(s) for s in args.sizes.split(",")):
                graph = os.path.join(work, f"{kind}-{size}.mlir")
                planned = os.path.join(work, f"{kind}-{size}.planned.mlir")
                kernels = os.path.join(work, f"{kind}-{size}.kernels.mlir")
                gen = subprocess.run([sys.executable, str(HERE / "gen_graph.py"), kind,
                                      str(size), graph], capture_output=True, text=True,
                                     check=True)
                ops = int(gen.stdout.split(": ")[1].split()[0])
                subprocess.run([args.prec_opt, graph, PIPELINE, "-o", planned], check=True)
                subprocess.run([args.prec_opt, planned, LOWER, "-o", kernels], check=True,
                               stderr=subprocess.DEVNULL)
                base, _ = measure([args.prec_opt, graph, "-o", "/dev/null"], args.repeat)
                plan, plan_rss = measure([args.prec_opt, graph, PIPELINE, "-o", "/dev/null"],
                                         args.repeat)
                base_planned, _ = measure([args.prec_opt, planned, "-o", "/dev/null"],
                                          args.repeat)
                lower, lower_rss = measure(
                    [args.prec_opt, planned, LOWER, "-o", "/dev/null"], args.repeat)
                # Net of parsing the input and printing the result.
                plan_net = max(plan - base, 1e-3)
                lower_net = max(lower - base_planned, 1e-3)
                size_mb = os.path.getsize(kernels) / 1e6
                print(f"{kind:<12}{ops:>9}{plan_net:>9.2f}{lower_net:>9.2f}"
                      f"{lower_net / plan_net:>12.2f}{size_mb:>12.1f}{plan_rss:>14.0f}"
                      f"{lower_rss:>11.0f}")
                for path in (graph, planned, kernels):
                    os.remove(path)


if __name__ == "__main__":
    main()
