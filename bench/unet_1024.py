#!/usr/bin/env python3
"""Issue 56's large-input check: a U-Net-style segmentation network at
1x3x1024x1024, exported the way PyTorch writes one (Conv with bias,
BatchNormalization, Relu; MaxPool 2x2; bilinear Resize with
pytorch_half_pixel and constant scales; Concat of the skip connections; a
1x1 head and Sigmoid), with the input's Cast appended at the end of the
node list as the exporter of the public model in the issue did.

Checks, and prints figures for the issue note:
  - prec-compile plans it with every op lowered (no "not lowered", no
    generic op) and a device-time estimate;
  - `--run` in fp32 (must_keep_origin_dtype) on a rendered image agrees with
    onnxruntime-node (cosine >= 0.99999);
  - the run's median time against onnxruntime's, 2 threads each side
    (target <= 1.5x), and both peak RSS;
  - its dynamically quantized copy (onnxruntime's quantize_dynamic form:
    DynamicQuantizeLinear, ConvInteger, Cast, Mul) gets ATC's E13010.

Needs onnxruntime-node in bench/ (`npm install --ignore-scripts
onnxruntime-node`).

Usage: bench/unet_1024.py [--build build] [--work DIR] [--size 1024] [--iterations 3]
"""
import argparse
import json
import os
import resource
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
sys.path.insert(0, HERE)
from real_models import Graph  # noqa: E402


def conv_bn_relu(g, x, cin, cout):
    y = g.node("Conv", [x, g.weight(cout, cin, 3, 3), g.init(0.05 * g.rng.standard_normal(cout), np.float32)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    params = [g.init(1 + 0.1 * g.rng.standard_normal(cout), np.float32),
              g.init(0.1 * g.rng.standard_normal(cout), np.float32),
              g.init(0.1 * g.rng.standard_normal(cout), np.float32),
              g.init(1 + 0.2 * np.abs(g.rng.standard_normal(cout)), np.float32)]
    return g.node("Relu", [g.node("BatchNormalization", [y] + params, epsilon=1e-5)])


def unet_graph(size, widths=(16, 32, 64, 128, 256), classes=3):
    g = Graph(56)
    x = "input.cast"
    skips = []
    cin = 3
    for level, width in enumerate(widths):
        x = conv_bn_relu(g, conv_bn_relu(g, x, cin, width), width, width)
        cin = width
        if level < len(widths) - 1:
            skips.append(x)
            x = g.node("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
    for width, skip in zip(reversed(widths[:-1]), reversed(skips)):
        up = g.node("Resize", [x, "", g.init([1, 1, 2, 2], np.float32)], mode="linear",
                    coordinate_transformation_mode="pytorch_half_pixel")
        x = g.node("Concat", [up, skip], axis=1)
        x = conv_bn_relu(g, conv_bn_relu(g, x, cin + width, width), width, width)
        cin = width
    logits = g.node("Conv", [x, g.weight(classes, cin, 1, 1)], kernel_shape=[1, 1])
    g.node("Sigmoid", [logits], outputs=["mask"])
    # The exporter's input Cast, appended last: the file is not sorted.
    g.nodes.append(h.make_node("Cast", ["input"], ["input.cast"], name="input_cast", to=T.FLOAT))
    graph = h.make_graph(g.nodes, "unet", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, size, size])],
                         [h.make_tensor_value_info("mask", T.FLOAT, [1, classes, size, size])], g.inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], producer_name="pytorch")
    model.ir_version = 8
    return model


def dynamically_quantized(model):
    """onnxruntime.quantization.quantize_dynamic's form for each Conv: the
    activation through DynamicQuantizeLinear, int8 weights, ConvInteger,
    the int32 result cast to float and scaled, the bias added."""
    inits = {i.name: nh.to_array(i) for i in model.graph.initializer}
    nodes, new_inits = [], [i for i in model.graph.initializer]
    for node in model.graph.node:
        if node.op_type != "Conv":
            nodes.append(node)
            continue
        x, w = node.input[0], node.input[1]
        weight = inits[w]
        w_scale = np.float32(np.abs(weight).max() / 127.0)
        new_inits += [nh.from_array(np.clip(np.round(weight / w_scale), -127, 127).astype(np.int8), w + "_quantized"),
                      nh.from_array(np.array(w_scale, np.float32), w + "_scale"),
                      nh.from_array(np.array(0, np.int8), w + "_zero_point")]
        n = node.name
        nodes += [h.make_node("DynamicQuantizeLinear", [x], [n + "_xq", n + "_xs", n + "_xz"], name=n + "_quant"),
                  h.make_node("Mul", [n + "_xs", w + "_scale"], [n + "_scale"], name=n + "_scale_mul"),
                  h.make_node("ConvInteger", [n + "_xq", w + "_quantized", n + "_xz", w + "_zero_point"],
                              [n + "_int"], name=n + "_quant_conv",
                              **{a.name: h.get_attribute_value(a) for a in node.attribute}),
                  h.make_node("Cast", [n + "_int"], [n + "_float"], name=n + "_cast", to=T.FLOAT)]
        scaled = node.output[0] if len(node.input) < 3 else n + "_scaled"
        nodes.append(h.make_node("Mul", [n + "_float", n + "_scale"], [scaled], name=n + "_output_mul"))
        if len(node.input) >= 3:
            bias = node.input[2]
            new_inits.append(nh.from_array(inits[bias].reshape(1, -1, 1, 1), bias + "_reshaped"))
            nodes.append(h.make_node("Add", [scaled, bias + "_reshaped"], [node.output[0]], name=n + "_bias_add"))
    graph = h.make_graph(nodes, "unet_dynamic_int8", list(model.graph.input), list(model.graph.output), new_inits)
    quantized = h.make_model(graph, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)],
                             producer_name="onnx.quantize")
    quantized.ir_version = 8
    return quantized


def rendered_input(size):
    """A street-scene-like image: sky gradient, road, a few blocks and discs."""
    y, x = np.mgrid[0:size, 0:size] / size
    rng = np.random.default_rng(3)
    img = np.stack([0.4 + 0.5 * (1 - y), 0.5 + 0.4 * (1 - y), 0.7 + 0.3 * (1 - y)])
    img[:, y > 0.6] = np.array([0.3, 0.3, 0.32])[:, None]
    for _ in range(12):
        x0, y0, w, hgt = rng.uniform(0, 0.9), rng.uniform(0.2, 0.7), rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.3)
        img[:, (x > x0) & (x < x0 + w) & (y > y0) & (y < y0 + hgt)] = rng.uniform(0, 1, (3, 1))
    img += rng.normal(0, 0.02, img.shape)
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    return ((img - mean[:, None, None]) / std[:, None, None]).astype(np.float32)[None]


def run_measured(command, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    r = subprocess.run(command, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return r, max(after, before) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work", default=None)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--iterations", type=int, default=3)
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="unet1024.")
    os.makedirs(work, exist_ok=True)
    prec = os.path.join(args.build, "bin", "prec-compile")
    model = unet_graph(args.size)
    path = os.path.join(work, "unet.onnx")
    onnx.save(model, path)
    convs = sum(n.op_type == "Conv" for n in model.graph.node)
    resizes = sum(n.op_type == "Resize" for n in model.graph.node)
    print(f"model: {path}: {len(model.graph.node)} nodes ({convs} Conv, {resizes} Resize), "
          f"input 1x3x{args.size}x{args.size}, nodes not in topological order")

    # The input, for both runtimes.
    image = rendered_input(args.size)
    run_dir = os.path.join(work, "inputs")
    os.makedirs(run_dir, exist_ok=True)
    with open(os.path.join(run_dir, "input_0.pb"), "wb") as f:
        f.write(nh.from_array(image, "input").SerializeToString())
    image.tofile(os.path.join(run_dir, "input.bin"))
    with open(os.path.join(run_dir, "inputs.json"), "w") as f:
        json.dump([{"name": "input", "dtype": "float32", "shape": list(image.shape), "file": "input.bin"}], f)

    out = os.path.join(work, "plan")
    command = [prec, path, "--soc_version=Ascend910B3", "--precision_mode=must_keep_origin_dtype",
               f"--output={out}", f"--run={run_dir}", "--threads=2",
               f"--run-iterations={args.iterations}"]
    r, ours_rss = run_measured(command)
    text = r.stdout + r.stderr
    if r.returncode != 0:
        print(text)
        sys.exit("prec-compile failed")
    not_lowered = [line for line in text.splitlines() if "not lowered" in line or "generic" in line]
    report = json.load(open(os.path.join(out, "report.json")))
    accuracy = json.load(open(os.path.join(out, "accuracy.json")))
    print(f"plan: {len(not_lowered)} ops not lowered or generic; device estimate "
          f"{report['summary'].get('est_device_us')} us")
    for line in not_lowered[:5]:
        print("  " + line)

    env = dict(os.environ, NODE_PATH=os.path.join(HERE, "node_modules"))
    subprocess.run(["node", os.path.join(HERE, "ort_reference.js"), path, run_dir], check=True, env=env)
    ort_out = np.fromfile(os.path.join(run_dir, "ort", "0.bin"), np.float32).astype(np.float64)
    t = onnx.TensorProto()
    t.ParseFromString(open(os.path.join(out, "run", "output_0.pb"), "rb").read())
    ours = nh.to_array(t).astype(np.float64).ravel()
    cosine = float(np.dot(ours, ort_out) / (np.linalg.norm(ours) * np.linalg.norm(ort_out)))
    print(f"fp32 vs onnxruntime: cosine {cosine:.7f}, max abs diff {np.max(np.abs(ours - ort_out)):.2e} "
          f"(target cosine >= 0.99999: {'met' if cosine >= 0.99999 else 'NOT met'})")

    ort = subprocess.run(["node", os.path.join(HERE, "ort_run.js"), path, "2", str(args.iterations + 1)],
                         check=True, capture_output=True, text=True, env=env).stdout
    ort = json.loads(ort.strip().splitlines()[-1])
    ours_ms = accuracy["timing"]["run_ms"]
    print(f"run time, 2 threads: prec-compile {ours_ms:.0f} ms, onnxruntime {ort['run_ms']:.0f} ms, "
          f"ratio {ours_ms / ort['run_ms']:.2f} (target <= 1.5)")
    print(f"peak RSS: prec-compile {ours_rss:.0f} MiB (plan, JIT, run and fp32 reference), "
          f"onnxruntime {ort['peak_rss_mb']:.0f} MiB")

    qpath = os.path.join(work, "unet_dynamic_int8.onnx")
    onnx.save(dynamically_quantized(model), qpath)
    r = subprocess.run([prec, qpath, "--soc_version=Ascend910B3", f"--output={work}/quantized"],
                       capture_output=True, text=True)
    e13010 = [line for line in (r.stdout + r.stderr).splitlines() if "E13010" in line]
    print(f"dynamically quantized copy: exit {r.returncode}, {len(e13010)} E13010 lines")
    for line in e13010[:3]:
        print("  " + line)


if __name__ == "__main__":
    main()
