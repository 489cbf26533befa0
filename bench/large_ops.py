#!/usr/bin/env python3
"""Issue 56's audit of whole-plane lowerings: single-op models at 1024x1024
and 2048x2048 planes and at 100,003-element rows, each planned (every op
lowered, an estimate), run with `prec-compile --run` in fp32
(must_keep_origin_dtype) on a rendered image, and compared with
onnxruntime-node on the same input (max abs difference, cosine).

Needs onnxruntime-node in bench/ (`npm install --ignore-scripts
onnxruntime-node`).

Usage: bench/large_ops.py [--build build] [--work DIR] [--only NAME,...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def model(nodes, inputs, output, inits=()):
    graph = h.make_graph(nodes, "large", [h.make_tensor_value_info(n, T.FLOAT, s) for n, s in inputs],
                         [], list(inits))
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    inferred = onnx.shape_inference.infer_shapes(m)
    m.graph.output.extend([v for v in inferred.graph.value_info if v.name == output])
    return m


def const(name, values, dtype=np.float32):
    return nh.from_array(np.array(values, dtype), name)


def cases():
    """name -> (model, input shape)."""
    out = {}
    for s in (1024, 2048):
        x = [("x", [1, 4, s, s])]
        node = lambda op, *ins, **a: h.make_node(op, ["x", *ins], ["y"], **a)  # noqa: E731
        out[f"resize_linear_{s}"] = model([node("Resize", "", "sc", mode="linear",
                                                coordinate_transformation_mode="half_pixel")],
                                          x, "y", [const("sc", [1, 1, 2, 2])])
        out[f"resize_cubic_down_{s}"] = model([node("Resize", "", "sc", mode="cubic")], x, "y",
                                              [const("sc", [1, 1, 0.5, 0.5])])
        out[f"maxpool_3x3s2_{s}"] = model([node("MaxPool", kernel_shape=[3, 3], strides=[2, 2],
                                                pads=[1, 1, 1, 1])], x, "y")
        out[f"avgpool_3x3_{s}"] = model([node("AveragePool", kernel_shape=[3, 3],
                                              pads=[1, 1, 1, 1])], x, "y")
        out[f"softmax_c_{s}"] = model([node("Softmax", axis=1)], x, "y")
        out[f"argmax_c_{s}"] = model([node("ArgMax", axis=1)], x, "y")
        out[f"instancenorm_{s}"] = model([node("InstanceNormalization", "s", "b")], x, "y",
                                         [const("s", [1, 2, 0.5, 1]), const("b", [0, 0.1, 0, -0.1])])
        out[f"reducemean_hw_{s}"] = model([node("ReduceMean", axes=[2, 3])], x, "y")
        out[f"concat_{s}"] = model([h.make_node("Concat", ["x", "x"], ["y"], axis=1)], x, "y")
        out[f"transpose_{s}"] = model([node("Transpose", perm=[0, 2, 3, 1])], x, "y")
        out[f"pad_reflect_{s}"] = model([node("Pad", "p", mode="reflect")], x, "y",
                                        [const("p", [0, 0, 2, 3, 0, 0, 2, 3], np.int64)])
        out[f"conv3x3_{s}"] = model([node("Conv", "w", kernel_shape=[3, 3], pads=[1, 1, 1, 1])], x,
                                    "y", [const("w", np.full((4, 4, 3, 3), 0.05))])
    r = [("x", [2, 100003])]
    row = lambda op, *ins, **a: h.make_node(op, ["x", *ins], ["y"], **a)  # noqa: E731
    out["row_softmax"] = model([row("Softmax", axis=-1)], r, "y")
    out["row_logsoftmax"] = model([row("LogSoftmax", axis=-1)], r, "y")
    out["row_layernorm"] = model([row("LayerNormalization", "g", "b", axis=-1)], r, "y",
                                 [const("g", np.ones(100003)), const("b", np.zeros(100003))])
    out["row_reducemax"] = model([row("ReduceMax", axes=[1])], r, "y")
    out["row_argmax"] = model([row("ArgMax", axis=1)], r, "y")
    out["row_cumsum"] = model([row("CumSum", "ax")], r, "y", [const("ax", 1, np.int64)])
    return out


def rendered(shape):
    """Images (4 channels of gradients, discs and stripes) or score rows."""
    rng = np.random.default_rng(5)
    if len(shape) == 4:
        y, x = np.mgrid[0:shape[2], 0:shape[3]] / shape[2]
        planes = []
        for c in range(shape[1]):
            p = 0.5 * x + 0.3 * (1 - y) + 0.1 * c
            for _ in range(8):
                cy, cx, r = rng.uniform(0, 1, 3) * [1, 1, 0.2]
                p[(y - cy) ** 2 + (x - cx) ** 2 < r * r] = rng.uniform(-1, 1)
            p[(np.sin(x * 200) > 0.8) & (y > 0.5)] *= 0.3
            planes.append(p)
        return np.stack(planes)[None].astype(np.float32)
    ramp = np.linspace(-10, -1, shape[1])
    return np.stack([np.roll(ramp, 4099 * i) for i in range(shape[0])]).astype(np.float32)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work", default=None)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="large_ops.")
    prec = os.path.join(args.build, "bin", "prec-compile")
    env = dict(os.environ, NODE_PATH=os.path.join(HERE, "node_modules"))
    failures = 0
    for name, m in cases().items():
        if args.only and name not in args.only.split(","):
            continue
        folder = os.path.join(work, name)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "model.onnx")
        onnx.save(m, path)
        shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
        x = rendered(shape)
        inputs = os.path.join(folder, "inputs")
        os.makedirs(inputs, exist_ok=True)
        with open(os.path.join(inputs, "input_0.pb"), "wb") as f:
            f.write(nh.from_array(x, "x").SerializeToString())
        x.tofile(os.path.join(inputs, "x.bin"))
        with open(os.path.join(inputs, "inputs.json"), "w") as f:
            json.dump([{"name": "x", "dtype": "float32", "shape": shape, "file": "x.bin"}], f)
        r = subprocess.run([prec, path, "--soc_version=Ascend910B3",
                            "--precision_mode=must_keep_origin_dtype", f"--output={folder}/plan",
                            f"--run={inputs}", "--threads=2", "--quiet"],
                           capture_output=True, text=True)
        text = r.stdout + r.stderr
        if r.returncode != 0 or "not lowered" in text:
            print(f"{name:24} FAILED: {text.strip().splitlines()[-1] if text.strip() else r.returncode}")
            failures += 1
            continue
        report = json.load(open(os.path.join(folder, "plan", "report.json")))
        subprocess.run(["node", os.path.join(HERE, "ort_reference.js"), path, inputs], check=True,
                       env=env)
        meta = json.load(open(os.path.join(inputs, "ort", "outputs.json")))[0]
        ort = np.fromfile(os.path.join(inputs, "ort", "0.bin"),
                          np.int64 if meta["dtype"] == "int64" else np.float32).astype(np.float64)
        t = onnx.TensorProto()
        t.ParseFromString(open(os.path.join(folder, "plan", "run", "output_0.pb"), "rb").read())
        ours = nh.to_array(t).astype(np.float64).ravel()
        cosine = float(np.dot(ours, ort) / max(np.linalg.norm(ours) * np.linalg.norm(ort), 1e-300))
        ok = cosine >= 0.99999 or np.array_equal(ours, ort)
        failures += not ok
        print(f"{name:24} est {report['summary']['est_device_us']:>10.1f} us  "
              f"max abs diff {np.max(np.abs(ours - ort)):.2e}  cosine {cosine:.7f}  "
              f"{'ok' if ok else 'DIFFERS'}")
    print(f"{failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
