#!/usr/bin/env python3
"""Issue 31's end-to-end check on exporter-style models (bench/real_models.py):
each model plans with no generic op under every precision mode, and
`prec-compile --run` under must_keep_origin_dtype matches onnxruntime's fp32
outputs to cosine >= 0.99999 on the same inputs.

Needs onnxruntime-node in bench/ (`npm install --ignore-scripts
onnxruntime-node`); without it only the planning half runs.

Usage: real_models_check.py [--build build] [--only svtr,vad] [--work DIR]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper as nh

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_models  # noqa: E402

MODES = ["force_fp16", "force_fp32", "cube_fp16in_fp32out", "allow_mix_precision",
         "allow_fp32_to_fp16", "must_keep_origin_dtype", "allow_mix_precision_fp16",
         "allow_mix_precision_bf16", "allow_fp32_to_bf16"]
DTYPES = {np.float32: "float32", np.int64: "int64", np.int32: "int32", np.bool_: "bool"}

# Each model's input cases: name -> {input: array}.
def cases(name):
    rng = np.random.default_rng(1)
    if name == "svtr":
        return {"x": {"x": rng.uniform(-1, 1, (1, 3, 48, 320)).astype(np.float32)}}
    if name == "vad":
        audio = (0.3 * np.sin(np.arange(512) / 7.0) + 0.05 * rng.standard_normal(512))
        state = lambda: (0.5 * rng.standard_normal((1, 1, 64))).astype(np.float32)
        out = {}
        for sr in (16000, 8000):
            out[f"sr{sr}"] = {"input": audio.astype(np.float32)[None, :],
                              "sr": np.array(sr, np.int64), "h": state(), "c": state()}
        return out
    raise KeyError(name)


def shapes_option(feeds):
    return ";".join(f"{k}:{','.join(str(d) for d in v.shape)}" for k, v in feeds.items())


def write_case(model, feeds, folder):
    os.makedirs(folder, exist_ok=True)
    names = [i.name for i in onnx.load(model).graph.input]
    manifest = []
    for i, name in enumerate(names):
        arr = feeds[name]
        onnx.save_tensor(nh.from_array(arr, name), os.path.join(folder, f"input_{i}.pb"))
        arr.tofile(os.path.join(folder, f"raw_{i}.bin"))
        manifest.append({"name": name, "dtype": DTYPES[arr.dtype.type], "shape": list(arr.shape),
                         "file": f"raw_{i}.bin"})
    with open(os.path.join(folder, "inputs.json"), "w") as f:
        json.dump(manifest, f)


def ort_outputs(model, folder):
    subprocess.run(["node", os.path.join(HERE, "ort_reference.js"), model, folder], check=True)
    with open(os.path.join(folder, "ort", "outputs.json")) as f:
        outs = json.load(f)
    arrays = []
    for o in outs:
        dtype = {"float32": np.float32, "int64": np.int64, "int32": np.int32, "bool": np.bool_}[o["dtype"]]
        arrays.append(np.fromfile(os.path.join(folder, o["file"]), dtype).reshape(o["shape"]))
    return arrays


def cosine(a, b):
    a, b = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 or nb == 0:
        return 1.0 if na == nb else 0.0
    return float(a @ b / (na * nb))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--only", default=",".join(real_models.MODELS))
    parser.add_argument("--work", default="/tmp/ascendprec-real-models")
    args = parser.parse_args()
    prec = os.path.join(args.build, "bin", "prec-compile")
    have_ort = os.path.isdir(os.path.join(HERE, "node_modules", "onnxruntime-node"))
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    failures = 0
    print(f"{'model':10} {'case':10} {'modes with 0 generic':>22} {'cosine vs onnxruntime (per output)':>40}")
    for name in args.only.split(","):
        model = os.path.join(args.work, name + ".onnx")
        real_models.MODELS[name](model)
        for case, feeds in cases(name).items():
            folder = os.path.join(args.work, f"{name}-{case}")
            write_case(model, feeds, folder)
            shapes = shapes_option(feeds)
            clean = 0
            for mode in MODES:
                out = os.path.join(args.work, f"{name}-{case}-{mode}")
                r = subprocess.run([prec, model, "--soc_version=Ascend910B3", f"--precision_mode={mode}",
                                    f"--input_shape={shapes}", f"--output={out}", "--quiet"],
                                   capture_output=True, text=True)
                generic = None
                if r.returncode == 0:
                    with open(os.path.join(out, "report.json")) as f:
                        generic = json.load(f)["summary"]["generic_ops"]
                if generic == 0:
                    clean += 1
                else:
                    print(f"  {name}/{case} {mode}: exit {r.returncode}, generic {generic}: "
                          f"{r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''}")
            cos_text = "(no onnxruntime-node)"
            if have_ort:
                expected = ort_outputs(model, folder)
                out = os.path.join(args.work, f"{name}-{case}-run")
                r = subprocess.run([prec, model, "--soc_version=Ascend910B3",
                                    "--precision_mode=must_keep_origin_dtype",
                                    f"--input_shape={shapes}", f"--output={out}", f"--run={folder}",
                                    "--quiet"], capture_output=True, text=True)
                if r.returncode != 0:
                    cos_text = "run failed: " + r.stderr.strip().splitlines()[-1]
                    failures += 1
                else:
                    coss = []
                    for i, ref in enumerate(expected):
                        got = nh.to_array(onnx.load_tensor(os.path.join(out, "run", f"output_{i}.pb")))
                        coss.append(cosine(got, ref) if got.shape == ref.shape else float("nan"))
                    cos_text = " ".join(f"{c:.7f}" for c in coss)
                    if not all(c >= 0.99999 for c in coss):
                        failures += 1
            if clean != len(MODES):
                failures += 1
            print(f"{name:10} {case:10} {clean:>17}/{len(MODES)} {cos_text:>40}")
    print(f"{failures} failing case(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
