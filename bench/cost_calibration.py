#!/usr/bin/env python3
"""The device cost model against published Ascend measurements (issue 35).

For each published figure: the same shapes planned by prec-compile on the
same SoC variant (weights random: time does not depend on them), the
model's estimate (report.json's est_device_us), and the ratio of the
estimated time to the measured one (target 0.8x-1.25x). Sources, and
which figures are measured and which vendor peaks, in docs/cost-model.md.

Usage: cost_calibration.py [--prec-compile build/bin/prec-compile] [--only matmul,models,launch,paths]
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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# torch.mm, square N x N x N, TFLOPS: zzc0721/torch-performance-test-data
# issue 109 (database.md at bce6dd2c), Ascend910B2, torch 2.5.1, HF32 off.
MATMUL_910B2 = {"fp16": {1024: 98.08, 2048: 251.01, 4096: 314.52, 8192: 305.46, 10240: 274.76},
                "fp32": {1024: 46.30, 2048: 76.92, 4096: 84.53, 8192: 80.43, 10240: 79.69}}
# The 910 family's fp16 peak-style figures, each against the model's best
# over the same five square sizes (test.py's database figure is the best of
# them; a microbenchmark reports the best it reaches): (SoC, measured
# TFLOPS, source).
MATMUL_910_BEST = [
    ("Ascend910A", 216.0, "AIBench, CCF THPC 2024, matrix unit; shape unstated"),
    ("Ascend910ProA", 110.01, "torch.mm, same database (c6b23aa), 'for reference only'"),
]
# Models on Atlas 300I Pro (Ascend310P3), images or sequences per second:
# Ascend/ModelZoo-PyTorch ACL_PyTorch/built-in (ais_bench, ATC's default
# precision: fp16).
MODELS_310P3 = [
    ("ResNet-50, batch 64, 224x224", "resnet50", "input:64,3,224,224", 64, 4250.0,
     "cv/Resnet50_Pytorch_Infer/README.md (CANN 5.1.RC2)"),
    ("BERT-base, batch 1, seq 128", "bert_base", "input_ids:1,128;attention_mask:1,128", 1, 484.39,
     "nlp/Bert_Uncased_Huggingface/README.md (CANN 6.3.RC2)"),
    ("BERT-base, batch 32, seq 128", "bert_base", "input_ids:32,128;attention_mask:32,128", 32,
     1273.30, "nlp/Bert_Uncased_Huggingface/README.md (CANN 6.3.RC2)"),
    # AMCT int8 (the published figure; a QDQ export of the same network here).
    ("ResNet-50 int8, batch 1", "resnet50_int8", "input:1,3,224,224", 1, 4089.0,
     "cv/Resnet50_mlperf/README.md (CANN 6.3.RC1)"),
]


# Tiny kernels' whole task durations (msprof), the figures the 3.5 us
# launch rests on (docs/cost-model.md, "Launch"): (label, model, SoC,
# precision mode, measured us, source).
TINY_KERNELS = [
    ("640-element fp16 elementwise, 1 core", "tiny_eltwise", "Ascend910B3", "force_fp16", 3.46,
     "fast_gelu_grad on a 910B, CANN 9.0.0, a public injected-operator report"),
    ("RMSNorm (2, 64, 256) fp32", "rms_norm", "Ascend910B4", "must_keep_origin_dtype", 5.62,
     "compiler-team-ru/pyasc examples/08_rmsnorm, Ascend C kernel, CANN 8.5.0"),
]

# One 910B1 core's copy bandwidth at 32 KiB (the lowering's largest L0
# tile), GB/s, L2 hits: Huawei's msKPP (Ascend/mskpp, csrc/prof_data/
# resource910b.cpp, read at xiaobingling93-pixel/Ascend-mskpp 8573151),
# against the #akernel.target rate the model uses for that path
# (docs/cost-model.md, "Measured data paths").
MSKPP_PATHS_910B1 = [
    ("L1 -> L0A (MTE1)", "L1_TO_L0A", 433.99, "l1_l0a_rate"),
    ("L1 -> L0B (MTE1)", "L1_TO_L0B", 218.77, "l1_l0b_rate"),
    ("UB -> GM (MTE3)", "UB_TO_GM", 108.39, "ub_ddr_rate"),
    ("GM -> L1, NZ source, L2 re-read", "GM_TO_L1", 147.37, "l2_rate"),
    ("GM -> L1, ND to NZ, L2 re-read", "GM_TO_L1_TRANS", 70.1, "l2_rate"),
    ("GM -> UB, L2 re-read", "GM_TO_UB", 77.19, "l2_rate"),
    ("L0C -> GM (fixpipe)", "L0C_TO_GM", 201.33, "ddr_write_rate"),
]
# GB/s (2^30 bytes) to bytes per cycle at the clock the GM -> L1 table's own
# cycle and time columns imply (msKPP's default clock is 1.85 GHz: 3% less).
MSKPP_CLOCK_HZ = 1.8e9


def target_rates(kernels_mlir):
    """The integer parameters of the #akernel.target in a kernels.mlir."""
    with open(kernels_mlir) as f:
        text = f.read()
    start = text.index("#akernel.target<")
    body = text[start:text.index(">", text.index("ub_ddr_rate", start))]
    rates = {}
    for part in body.split(","):
        key, _, value = part.partition("=")
        value = value.strip()
        if value.isdigit():
            rates[key.strip()] = int(value)
    return rates


def tiny_model(path, name):
    """A 640-element fp16 Sigmoid (one vector kernel, no Casts), or an
    RMSNorm over the last axis of a (2, 64, 256) fp32 tensor as PyTorch
    exports it (Pow, ReduceMean, Add, Sqrt, Div, Mul)."""
    if name == "tiny_eltwise":
        nodes = [h.make_node("Sigmoid", ["x"], ["y"], name="sigmoid")]
        inputs = [h.make_tensor_value_info("x", T.FLOAT16, [640])]
        outputs = [h.make_tensor_value_info("y", T.FLOAT16, [640])]
        inits = []
    else:
        nodes = [h.make_node("Pow", ["x", "two"], ["sq"], name="pow"),
                 h.make_node("ReduceMean", ["sq"], ["ms"], name="mean", axes=[-1], keepdims=1),
                 h.make_node("Add", ["ms", "eps"], ["mse"], name="add"),
                 h.make_node("Sqrt", ["mse"], ["rms"], name="sqrt"),
                 h.make_node("Div", ["x", "rms"], ["xn"], name="div"),
                 h.make_node("Mul", ["xn", "w"], ["y"], name="scale")]
        inputs = [h.make_tensor_value_info("x", T.FLOAT, [2, 64, 256])]
        outputs = [h.make_tensor_value_info("y", T.FLOAT, [2, 64, 256])]
        inits = [h.make_tensor("two", T.FLOAT, [], [2.0]), h.make_tensor("eps", T.FLOAT, [], [1e-6]),
                 h.make_tensor("w", T.FLOAT, [256], np.ones(256, np.float32))]
    graph = h.make_graph(nodes, name, inputs, outputs, inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, path)


def estimate_us(prec_compile, model, soc, mode, shapes, out):
    command = [prec_compile, model, f"--soc_version={soc}", f"--precision_mode={mode}",
               f"--output={out}", "--quiet"]
    if shapes:
        command.append(f"--input_shape={shapes}")
    subprocess.run(command, check=True, capture_output=True)
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)["summary"]["est_device_us"]


def matmul_model(path, n):
    graph = h.make_graph([h.make_node("MatMul", ["a", "b"], ["c"], name="mm")], "mm",
                         [h.make_tensor_value_info("a", T.FLOAT, [n, n]),
                          h.make_tensor_value_info("b", T.FLOAT, [n, n])],
                         [h.make_tensor_value_info("c", T.FLOAT, [n, n])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, path)


def matmul_us(prec_compile, work, n, soc, mode):
    """The MatMul's own estimate (the plan's inserted Casts left out, as a
    torch.mm of tensors already in the dtype has none)."""
    path = os.path.join(work, f"mm{n}.onnx")
    if not os.path.exists(path):
        matmul_model(path, n)
    out = os.path.join(work, f"mm{n}.{soc}.{mode}")
    estimate_us(prec_compile, path, soc, mode, "", out)
    with open(os.path.join(out, "report.json")) as f:
        return sum(node["est_us"] for node in json.load(f)["nodes"] if node["op_type"] == "MatMulV2")


def verdict(ratio):
    return "within" if 0.8 <= ratio <= 1.25 else "OUTSIDE"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prec-compile", default=os.path.join(ROOT, "build", "bin", "prec-compile"))
    parser.add_argument("--only", default="matmul,models,launch,paths")
    args = parser.parse_args()
    parts = args.only.split(",")
    outside = 0
    with tempfile.TemporaryDirectory() as work:
        if "matmul" in parts:
            print("torch.mm on Ascend910B2 (measured), square N x N x N; est. ratio = estimated "
                  "time / measured time (target 0.8-1.25)")
            print(f"{'dtype':<6} {'N':>6} {'measured TFLOPS':>16} {'estimated TFLOPS':>17} "
                  f"{'est. ratio':>11}")
            for dtype, mode in (("fp16", "force_fp16"), ("fp32", "must_keep_origin_dtype")):
                for n, measured in MATMUL_910B2[dtype].items():
                    us = matmul_us(args.prec_compile, work, n, "Ascend910B2", mode)
                    tflops = 2 * n ** 3 / us / 1e6
                    ratio = measured / tflops
                    outside += verdict(ratio) != "within"
                    print(f"{dtype:<6} {n:>6} {measured:>16.1f} {tflops:>17.1f} {ratio:>10.2f}x  "
                          f"{verdict(ratio)}")
            for soc, measured, source in MATMUL_910_BEST:
                best_n, best = max(
                    ((n, 2 * n ** 3 / matmul_us(args.prec_compile, work, n, soc, "force_fp16") / 1e6)
                     for n in MATMUL_910B2["fp16"]), key=lambda pair: pair[1])
                ratio = measured / best
                outside += verdict(ratio) != "within"
                print(f"{'fp16':<6} {best_n:>6} {measured:>16.1f} {best:>17.1f} {ratio:>10.2f}x  "
                      f"{verdict(ratio)}  ({soc}, best of the five sizes; {source})")
        if "models" in parts:
            print("\nModels on Ascend310P3 (measured, ATC default fp16): images or sequences/s")
            print(f"{'model':<30} {'measured /s':>12} {'estimated /s':>13} {'est. ratio':>11}")
            exported = set()
            for label, name, shapes, batch, measured, source in MODELS_310P3:
                path = os.path.join(work, name + ".onnx")
                if name not in exported:
                    subprocess.run(["/usr/bin/python3", os.path.join(HERE, "deploy_models.py"), work,
                                    "--only", name], check=True, capture_output=True)
                    exported.add(name)
                us = estimate_us(args.prec_compile, path, "Ascend310P3", "force_fp16", shapes,
                                 os.path.join(work, f"{name}.{batch}"))
                rate = batch / us * 1e6
                ratio = measured / rate
                outside += verdict(ratio) != "within"
                print(f"{label:<30} {measured:>12.1f} {rate:>13.1f} {ratio:>10.2f}x  "
                      f"{verdict(ratio)}  ({source})")
        if "launch" in parts:
            print("\nTiny kernels on the 910B (measured whole task, msprof): us")
            print(f"{'kernel':<38} {'SoC':<12} {'measured us':>12} {'estimated us':>13} "
                  f"{'est. ratio':>11}")
            for label, name, soc, mode, measured, source in TINY_KERNELS:
                path = os.path.join(work, name + ".onnx")
                tiny_model(path, name)
                us = estimate_us(args.prec_compile, path, soc, mode, "", os.path.join(work, name))
                ratio = us / measured
                outside += verdict(ratio) != "within"
                print(f"{label:<38} {soc:<12} {measured:>12.2f} {us:>13.2f} {ratio:>10.2f}x  "
                      f"{verdict(ratio)}  ({source})")
        if "paths" in parts:
            print("\nCopies on one Ascend910B1 core, 32 KiB (msKPP, measured, L2 hits): bytes/cycle")
            print(f"{'path':<34} {'msKPP':>6} {'model':>6} {'est. ratio':>11}")
            # Any 910B1 plan carries the target: the matmul curve's own.
            matmul_us(args.prec_compile, work, 1024, "Ascend910B1", "force_fp16")
            rates = target_rates(os.path.join(work, "mm1024.Ascend910B1.force_fp16",
                                              "kernels.mlir"))
            for label, table, gbps, key in MSKPP_PATHS_910B1:
                measured = gbps * 2 ** 30 / MSKPP_CLOCK_HZ
                ratio = measured / rates[key]
                outside += verdict(ratio) != "within"
                print(f"{label:<34} {measured:>6.1f} {rates[key]:>6} {ratio:>10.2f}x  "
                      f"{verdict(ratio)}  ({table}_910b1; model: {key})")
    print(f"\n{outside} figure(s) outside 0.8x-1.25x" if outside else "\nevery figure within 0.8x-1.25x")


if __name__ == "__main__":
    main()
