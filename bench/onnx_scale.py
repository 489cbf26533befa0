#!/usr/bin/env python3
"""ONNX import and prec-compile at scale (issue 9; not a test):

  /usr/bin/python3 bench/onnx_scale.py [--prec-compile build/bin/prec-compile]
      [--sizes 20000,80000,200000] [--weight-mb 256]

1. Chained Add/Relu models of N nodes (each Add with its own small
   initializer, as exported models have): end-to-end prec-compile time and
   time per node. Target: linear, 200k nodes in under 5 s on 2 cores.
2. A model with one large initializer (a Conv weight of --weight-mb MB):
   peak RSS of prec-compile (including the checker's child process) as a
   multiple of the model size, and the size of planned.mlir. Target: peak
   under 2x the model size.

Peak RSS comes from /usr/bin/time -v when present, else from
resource.getrusage(RUSAGE_CHILDREN)."""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = Path(__file__).resolve().parent.parent


def chain_model(nodes, path):
    """x -> (Add c_i -> Relu) repeated; nodes counts Add and Relu."""
    inits, graph_nodes = [], []
    cur = "x"
    for i in range(nodes // 2):
        c = numpy_helper.from_array(np.full([16], 0.01, np.float32), f"c{i}")
        inits.append(c)
        graph_nodes.append(helper.make_node("Add", [cur, f"c{i}"], [f"a{i}"], name=f"/blocks.{i}/Add"))
        graph_nodes.append(helper.make_node("Relu", [f"a{i}"], [f"r{i}"], name=f"/blocks.{i}/Relu"))
        cur = f"r{i}"
    graph = helper.make_graph(
        graph_nodes, "chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info(cur, TensorProto.FLOAT, [1, 16])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, path)


def big_weight_model(mb, path):
    """One Conv whose weight is about `mb` MB of float32."""
    out_ch = max(1, (mb * 1024 * 1024) // (4 * 64 * 3 * 3))
    w = np.random.default_rng(1).standard_normal([out_ch, 64, 3, 3]).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["y"], ["z"], name="relu")],
        "big",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, 8, 8])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, out_ch, 8, 8])],
        [numpy_helper.from_array(w, "w")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def run(cmd):
    """Wall seconds and peak RSS in MiB (max over the process and its children)."""
    timer = ["/usr/bin/time", "-f", "%M"] if os.path.exists("/usr/bin/time") else []
    start = time.perf_counter()
    proc = subprocess.run(timer + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    if timer:
        rss_kb = int(proc.stderr.strip().splitlines()[-1])
    else:
        rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, rss_kb / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prec-compile", default=str(ROOT / "build/bin/prec-compile"))
    parser.add_argument("--sizes", default="20000,80000,200000")
    parser.add_argument("--weight-mb", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per size; the best and the median are printed "
                             "(a shared 2-core VM varies by +-15%%)")
    args = parser.parse_args()
    base = [args.prec_compile, "--soc_version=Ascend910",
            "--precision_mode=allow_mix_precision", "--quiet"]

    with tempfile.TemporaryDirectory() as tmp:
        print("| nodes | model MB | prec-compile s (best) | median s | us/node | peak RSS MiB |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        per_node = []
        for n in [int(s) for s in args.sizes.split(",")]:
            model = os.path.join(tmp, f"chain{n}.onnx")
            chain_model(n, model)
            runs = [run(base + [model, f"--output={tmp}/out{n}-{i}"])
                    for i in range(max(1, args.repeat))]
            walls = sorted(wall for wall, _ in runs)
            wall, rss = walls[0], max(rss for _, rss in runs)
            per_node.append((n, wall / n * 1e6))
            print(f"| {n:,} | {os.path.getsize(model) / 2**20:.1f} | {wall:.2f} | "
                  f"{walls[len(walls) // 2]:.2f} | {wall / n * 1e6:.1f} | {rss:.0f} |")
        if len(per_node) > 1:
            (n0, u0), (n1, u1) = per_node[0], per_node[-1]
            print(f"\ntime per node {n0:,} -> {n1:,}: {u1 / u0:.2f}x (linear: ~1x)")

        if args.weight_mb > 0:
            model = os.path.join(tmp, "big.onnx")
            big_weight_model(args.weight_mb, model)
            size = os.path.getsize(model) / 2**20
            for label, extra in [("default (constants elided)", []),
                                 ("--full-constants", ["--full-constants"])]:
                out = f"{tmp}/big-{len(extra)}"
                wall, rss = run(base + [model, f"--output={out}"] + extra)
                planned = os.path.getsize(f"{out}/planned.mlir") / 2**20
                print(f"\nlarge initializer, {label}: model {size:.0f} MB, {wall:.2f} s, "
                      f"peak RSS {rss:.0f} MiB = {rss / size:.2f}x the model, "
                      f"planned.mlir {planned:.1f} MB")


if __name__ == "__main__":
    main()
