#!/usr/bin/env python3
"""Control-flow models for `prec-compile --run` (issue 31), each with test
data sets whose expected outputs are computed here with NumPy in float64:

  if_on_input   If on a bool graph input; the branches read the outer input x
                and the outer weight w, and ONNX leaves their outputs untyped
                (as exporters do). Data sets for both branches.
  if_sample_rate  If on Equal(sr, 16000) with an int64 scalar input, as a
                voice-activity detector selects its sample-rate branch.
  loop_scan     Loop with a trip count, a loop-carried value, a scan output,
                an outer weight and an If nested in its body.
  scan_reverse  Scan over axis 1 of its input, backwards, with a state and a
                scan output stacked along axis 1.

Usage: make_control_flow_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(31)
n = h.make_node


def vi(name, dtype, shape):
    return h.make_tensor_value_info(name, dtype, shape)


def untyped(name):
    info = vi(name, T.FLOAT, None)
    info.type.tensor_type.ClearField("shape")
    return info


def save(name, graph, cases):
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 16)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for index, (inputs, outputs) in enumerate(cases):
        data = os.path.join(folder, f"test_data_set_{index}")
        os.makedirs(data, exist_ok=True)
        for i, (key, value) in enumerate(inputs.items()):
            onnx.save_tensor(nh.from_array(value, key), os.path.join(data, f"input_{i}.pb"))
        for i, value in enumerate(outputs):
            onnx.save_tensor(nh.from_array(value), os.path.join(data, f"output_{i}.pb"))


def f32(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# --- if_on_input -------------------------------------------------------------
w = f32(4, 4)
then_g = h.make_graph([n("MatMul", ["x", "w"], ["mm"], name="/then/MatMul"),
                       n("Relu", ["mm"], ["t"], name="/then/Relu")],
                      "then", [], [untyped("t")])
else_g = h.make_graph([n("Mul", ["x", "half"], ["m"], name="/else/Mul"),
                       n("Sigmoid", ["m"], ["e"], name="/else/Sigmoid")],
                      "else", [], [untyped("e")])
graph = h.make_graph([n("If", ["c"], ["y"], name="/If", then_branch=then_g, else_branch=else_g),
                      n("Add", ["y", "x"], ["z"], name="/Add")],
                     "if_on_input", [vi("c", T.BOOL, []), vi("x", T.FLOAT, [2, 4])],
                     [vi("z", T.FLOAT, [2, 4])],
                     [nh.from_array(w, "w"), nh.from_array(np.array(0.5, np.float32), "half")])
x = f32(2, 4)
save("if_on_input", graph, [
    ({"c": np.array(True), "x": x}, [(np.maximum(x.astype(np.float64) @ w, 0) + x).astype(np.float32)]),
    ({"c": np.array(False), "x": x}, [(sigmoid(0.5 * x.astype(np.float64)) + x).astype(np.float32)]),
])

# --- if_sample_rate ----------------------------------------------------------
k16, k8 = f32(3, 1, 4), f32(3, 1, 2)
def branch(name, kernel, stride):
    return h.make_graph([
        n("Unsqueeze", ["audio", "axis1"], [f"{name}/u"], name=f"/{name}/Unsqueeze"),
        n("Conv", [f"{name}/u", kernel], [f"{name}/c"], name=f"/{name}/Conv", strides=[stride]),
        n("ReduceMean", [f"{name}/c"], [f"{name}/out"], name=f"/{name}/ReduceMean", axes=[2], keepdims=0),
    ], name, [], [untyped(f"{name}/out")])
graph = h.make_graph(
    [n("Equal", ["sr", "sr16k"], ["is16k"], name="/Equal"),
     n("If", ["is16k"], ["prob"], name="/If", then_branch=branch("sr16k", "k16", 4),
       else_branch=branch("sr8k", "k8", 2))],
    "if_sample_rate", [vi("audio", T.FLOAT, [1, 16]), vi("sr", T.INT64, [])],
    [vi("prob", T.FLOAT, [1, 3])],
    [nh.from_array(k16, "k16"), nh.from_array(k8, "k8"),
     nh.from_array(np.array(16000, np.int64), "sr16k"), nh.from_array(np.array([1], np.int64), "axis1")])
audio = f32(1, 16)
def conv_mean(kernel, stride):
    width = kernel.shape[2]
    frames = [audio[0, s:s + width].astype(np.float64) for s in range(0, 16 - width + 1, stride)]
    return np.array([[np.mean([f @ kernel[o, 0] for f in frames]) for o in range(3)]], np.float32)
save("if_sample_rate", graph, [
    ({"audio": audio, "sr": np.array(16000, np.int64)}, [conv_mean(k16, 4)]),
    ({"audio": audio, "sr": np.array(8000, np.int64)}, [conv_mean(k8, 2)]),
])

# --- loop_scan ----------------------------------------------------------------
wl = (0.5 * f32(4, 4)).astype(np.float32)
inner_then = h.make_graph([n("Relu", ["s"], ["it"], name="/body/If/then/Relu")], "inner_then", [],
                          [untyped("it")])
inner_else = h.make_graph([n("Neg", ["s"], ["ie"], name="/body/If/else/Neg")], "inner_else", [],
                          [untyped("ie")])
body = h.make_graph([
    n("MatMul", ["v", "wl"], ["mm"], name="/body/MatMul"),
    n("Add", ["mm", "v"], ["s"], name="/body/Add"),
    n("If", ["flag"], ["next"], name="/body/If", then_branch=inner_then, else_branch=inner_else),
    n("Identity", ["cond_in"], ["cond_out"], name="/body/Identity"),
], "body", [vi("iter", T.INT64, []), vi("cond_in", T.BOOL, []), vi("v", T.FLOAT, [2, 4])],
   [vi("cond_out", T.BOOL, []), vi("next", T.FLOAT, [2, 4]), vi("s", T.FLOAT, [2, 4])])
graph = h.make_graph([n("Loop", ["trips", "", "x"], ["final", "stacked"], name="/Loop", body=body)],
                     "loop_scan", [vi("x", T.FLOAT, [2, 4]), vi("flag", T.BOOL, [])],
                     [vi("final", T.FLOAT, [2, 4]), vi("stacked", T.FLOAT, [3, 2, 4])],
                     [nh.from_array(np.array(3, np.int64), "trips"), nh.from_array(wl, "wl")])
cases = []
for flag in (True, False):
    v, stacked = x.astype(np.float64), []
    for _ in range(3):
        s = v @ wl + v
        stacked.append(s)
        v = np.maximum(s, 0) if flag else -s
    cases.append(({"x": x, "flag": np.array(flag)},
                  [v.astype(np.float32), np.stack(stacked).astype(np.float32)]))
save("loop_scan", graph, cases)

# --- scan_reverse ---------------------------------------------------------------
scan_body = h.make_graph([
    n("Add", ["acc", "col"], ["acc_next"], name="/scan/Add"),
    n("Mul", ["acc_next", "col"], ["out_col"], name="/scan/Mul"),
], "scan_body", [vi("acc", T.FLOAT, [3]), vi("col", T.FLOAT, [3])],
   [vi("acc_next", T.FLOAT, [3]), vi("out_col", T.FLOAT, [3])])
graph = h.make_graph([n("Scan", ["init", "xs"], ["total", "cols"], name="/Scan", body=scan_body,
                        num_scan_inputs=1, scan_input_axes=[1], scan_input_directions=[1],
                        scan_output_axes=[1])],
                     "scan_reverse", [vi("init", T.FLOAT, [3]), vi("xs", T.FLOAT, [3, 5])],
                     [vi("total", T.FLOAT, [3]), vi("cols", T.FLOAT, [3, 5])])
init, xs = f32(3), f32(3, 5)
acc, cols = init.astype(np.float64), []
for t in reversed(range(5)):
    acc = acc + xs[:, t]
    cols.append(acc * xs[:, t])
save("scan_reverse", graph, [({"init": init, "xs": xs},
                              [acc.astype(np.float32), np.stack(cols, axis=1).astype(np.float32)])])

# --- if_unrunnable_branch ------------------------------------------------------
# The else branch holds a dilated MaxPool, which no CANN kernel runs (it stays
# ascend.generic): the plan still runs when the then branch is taken, and a
# run that takes the else branch stops there, naming the op.
img = f32(1, 1, 4, 4)
then_g = h.make_graph([n("AveragePool", ["img"], ["avg"], name="/then/AveragePool", kernel_shape=[3, 3])],
                      "then", [], [untyped("avg")])
else_g = h.make_graph([n("MaxPool", ["img"], ["mx"], name="/else/MaxPool", kernel_shape=[2, 2],
                         dilations=[2, 2])], "else", [], [untyped("mx")])
graph = h.make_graph([n("If", ["c"], ["pooled"], name="/If", then_branch=then_g, else_branch=else_g)],
                     "if_unrunnable_branch", [vi("c", T.BOOL, []), vi("img", T.FLOAT, [1, 1, 4, 4])],
                     [vi("pooled", T.FLOAT, [1, 1, 2, 2])])
avg = np.array([[[[img[0, 0, i:i + 3, j:j + 3].astype(np.float64).mean() for j in range(2)]
                  for i in range(2)]]], np.float32)
mx = np.array([[[[img[0, 0, i:i + 3:2, j:j + 3:2].max() for j in range(2)] for i in range(2)]]], np.float32)
save("if_unrunnable_branch", graph, [({"c": np.array(True), "img": img}, [avg]),
                                     ({"c": np.array(False), "img": img}, [mx])])
