#!/usr/bin/env python3
"""Run time and peak memory of `prec-compile --run` against onnxruntime.

Exports the deployment-size models (test/tools/prec-compile/inputs/
make_fusion_models.py --deploy: a Paddle-style Conv+BN CNN at 8x3x224x224, a
PyTorch-style BERT-base block at 8x128x768, a MobileNetV3 block), runs each
with onnxruntime-node (bench/ort_run.js, fp32) and with prec-compile --run on
Ascend910B3 in fp32 (must_keep_origin_dtype) and with fp16 emulated
(force_fp16), the same thread count, and prints the median run times, the
ratios and the peak RSS of both processes (prec-compile's includes planning,
JIT compilation and the fp32 reference run in lockstep).

Needs onnxruntime-node: `cd bench && npm install --ignore-scripts
onnxruntime-node@1.30.0` (bench/node_modules is not committed).

With --rounds N (default 3) the three runs of a model are repeated N times,
interleaved, and the medians are printed: this VM's speed drifts by 20-30%
over minutes, for onnxruntime as for us, and one round can land on either
side of a target.

Usage: bench/run_speed.py [--threads 2] [--iterations 5] [--rounds 3]
                          [--models cnn,transformer,mobilenet]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = {"cnn": "paddle_convbn", "transformer": "transformer_block",
          "mobilenet": "mobilenetv3_block"}


def peak_rss_mb(command):
    """Runs `command`; returns (stdout, the child's peak RSS in MiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return out, max(after, before) / 1024


def run_ort(model, threads, iterations, shapes=""):
    """onnxruntime-node's median run time and peak RSS (bench/ort_run.js);
    `shapes` fixes dynamic dimensions as --input_shape does."""
    env = dict(os.environ, NODE_PATH=os.path.join(ROOT, "bench", "node_modules"))
    out = subprocess.run(["node", os.path.join(ROOT, "bench", "ort_run.js"), model, str(threads),
                          str(iterations), shapes], check=True, capture_output=True, text=True,
                         env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_ours(prec_compile, model, mode, threads, iterations, work):
    out_dir = os.path.join(work, os.path.basename(model) + "." + mode)
    command = ["/usr/bin/time", "-f", "%M", prec_compile, model, "--soc_version=Ascend910B3",
               f"--precision_mode={mode}", f"--output={out_dir}", "--run",
               f"--threads={threads}", f"--run-iterations={iterations}", "--quiet"]
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    rss_mb = int(result.stderr.strip().splitlines()[-1]) / 1024
    accuracy = json.load(open(os.path.join(out_dir, "accuracy.json")))
    return accuracy["timing"]["run_ms"], rss_mb, accuracy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--models", default="cnn,transformer,mobilenet")
    parser.add_argument("--prec-compile", default=os.path.join(ROOT, "build", "bin", "prec-compile"))
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(ROOT, "bench", "node_modules", "onnxruntime-node")):
        sys.exit("run_speed.py: onnxruntime-node is missing: "
                 "cd bench && npm install --ignore-scripts onnxruntime-node@1.30.0")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "test", "tools", "prec-compile",
                                                          "inputs", "make_fusion_models.py"),
                        work, "--deploy"], check=True, capture_output=True)
        print(f"threads {args.threads}, median of {args.iterations} runs, median of "
              f"{args.rounds} interleaved rounds, Ascend910B3")
        print(f"{'model':<12} {'ort ms':>8} {'fp32 ms':>9} {'ratio':>6} {'fp16 ms':>9} {'ratio':>6}"
              f" {'ort MiB':>8} {'ours MiB':>9} {'ratio':>6}  slowest launches (fp16)")
        for key in args.models.split(","):
            model = os.path.join(work, MODELS[key] + ".onnx")
            rounds = []
            for _ in range(args.rounds):
                ort = run_ort(model, args.threads, args.iterations)
                fp32_ms, rss32, _ = run_ours(args.prec_compile, model, "must_keep_origin_dtype",
                                             args.threads, args.iterations, work)
                fp16_ms, rss16, accuracy = run_ours(args.prec_compile, model, "force_fp16",
                                                    args.threads, args.iterations, work)
                rounds.append((ort, fp32_ms, fp16_ms, max(rss32, rss16), accuracy))
            ort_ms = statistics.median(r[0]["run_ms"] for r in rounds)
            ort_mb = statistics.median(r[0]["peak_rss_mb"] for r in rounds)
            fp32_ms = statistics.median(r[1] for r in rounds)
            fp16_ms = statistics.median(r[2] for r in rounds)
            rss = statistics.median(r[3] for r in rounds)
            slowest = sorted(rounds[-1][4]["ops"], key=lambda op: -op["host_ms"])[:3]
            print(f"{key:<12} {ort_ms:8.1f} {fp32_ms:9.1f} {fp32_ms / ort_ms:5.2f}x"
                  f" {fp16_ms:9.1f} {fp16_ms / ort_ms:5.2f}x {ort_mb:8.0f}"
                  f" {rss:9.0f} {rss / ort_mb:5.2f}x  " +
                  ", ".join(f"{op['node']} {op['host_ms']:.0f}" for op in slowest))
            if args.rounds > 1:
                print(f"{'':<12} rounds: onnxruntime " +
                      ", ".join(f"{r[0]['run_ms']:.0f}" for r in rounds) + " ms; fp32 " +
                      ", ".join(f"{r[1]:.0f}" for r in rounds) + "; fp16 " +
                      ", ".join(f"{r[2]:.0f}" for r in rounds))

if __name__ == "__main__":
    main()
