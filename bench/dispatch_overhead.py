#!/usr/bin/env python3
"""What a kernel launch costs on the host (issue 34), not a test:

  /usr/bin/python3 bench/dispatch_overhead.py [--prec-compile build/bin/prec-compile]

Two chains of 200 elementwise kernels (Relu/Neg alternating, fp32, planned
under must_keep_origin_dtype on Ascend910B3):

  tiny  [1, 8]: one block per kernel; the time is all dispatch
  mid   [1, 64, 32, 32]: 256 KiB per value, 40 blocks per kernel

each run 30 times with 1 and 2 threads; prints the median run time and
the time per launch (run_ms / 200). The kernel cache is a temporary folder,
so the JIT does not count."""

import argparse
import json
import os
import subprocess
import tempfile

import onnx
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def chain(path, shape, length=200):
    nodes, previous = [], "x"
    for i in range(length):
        nodes.append(helper.make_node("Relu" if i % 2 == 0 else "Neg", [previous], [f"h{i}"],
                                      name=f"op{i}"))
        previous = f"h{i}"
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info(previous, TensorProto.FLOAT, shape)])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prec-compile", default=os.path.join(ROOT, "build/bin/prec-compile"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
        print(f"{'chain':6} {'threads':>7} {'run ms':>8} {'us/launch':>10}")
        for name, shape in (("tiny", [1, 8]), ("mid", [1, 64, 32, 32])):
            model = os.path.join(work, name + ".onnx")
            chain(model, shape)
            for threads in (1, 2):
                out = os.path.join(work, f"{name}-{threads}")
                subprocess.run([args.prec_compile, model, "--soc_version=Ascend910B3",
                                "--precision_mode=must_keep_origin_dtype", f"--output={out}",
                                "--run", "--run-iterations=30", f"--threads={threads}", "--quiet"],
                               check=True, capture_output=True, env=env)
                with open(os.path.join(out, "accuracy.json")) as f:
                    run_ms = json.load(f)["timing"]["run_ms"]
                print(f"{name:6} {threads:>7} {run_ms:>8.3f} {run_ms * 1000 / 200:>10.2f}")


if __name__ == "__main__":
    main()
