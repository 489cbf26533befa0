#!/usr/bin/env python3
"""A PyTorch-style export of a small CRNN text recognizer with dynamic batch
and width: conv stack, shape chain, bidirectional LSTM, If on the batch,
top-k decoding, a ConstantOfShape. Usage: make_crnn_model.py OUT.onnx"""
import sys

import numpy as np
import onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
rng = np.random.default_rng(0)
def w(name, *shape): return nh.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name)
def i64(name, v): return nh.from_array(np.array(v, np.int64), name)
n = h.make_node
nodes, inits = [], []
c_in, x = 3, "input"
for i, c in enumerate([16, 32, 64]):
    inits += [w(f"conv{i}.weight", c, c_in, 3, 3), w(f"conv{i}.bias", c),
              w(f"bn{i}.weight", c), w(f"bn{i}.bias", c), w(f"bn{i}.running_mean", c),
              nh.from_array(np.abs(rng.standard_normal(c)).astype(np.float32) + 0.5, f"bn{i}.running_var")]
    nodes += [n("Conv", [x, f"conv{i}.weight", f"conv{i}.bias"], [f"/conv{i}/Conv_output_0"], name=f"/conv{i}/Conv", pads=[1,1,1,1]),
              n("BatchNormalization", [f"/conv{i}/Conv_output_0", f"bn{i}.weight", f"bn{i}.bias", f"bn{i}.running_mean", f"bn{i}.running_var"], [f"/bn{i}/out"], name=f"/bn{i}/BatchNormalization"),
              n("Relu", [f"/bn{i}/out"], [f"/relu{i}/out"], name=f"/relu{i}/Relu"),
              n("MaxPool", [f"/relu{i}/out"], [f"/pool{i}/out"], name=f"/pool{i}/MaxPool", kernel_shape=[2,2], strides=[2,2])]
    x, c_in = f"/pool{i}/out", c
# [N, 64, 4, W/8] -> [N, 64*4, W/8] via Shape chain, -> [W/8, N, 256]
inits += [i64("c0", [0]), i64("c3", [3]), i64("c256", [256])]
nodes += [n("Shape", [x], ["/Shape_output_0"], name="/Shape"),
          n("Gather", ["/Shape_output_0", "c0"], ["/Gather_output_0"], name="/Gather", axis=0),
          n("Gather", ["/Shape_output_0", "c3"], ["/Gather_1_output_0"], name="/Gather_1", axis=0),
          n("Concat", ["/Gather_output_0", "c256", "/Gather_1_output_0"], ["/Concat_output_0"], name="/Concat", axis=0),
          n("Reshape", [x, "/Concat_output_0"], ["/Reshape_output_0"], name="/Reshape"),
          n("Transpose", ["/Reshape_output_0"], ["/Transpose_output_0"], name="/Transpose", perm=[2, 0, 1])]
H = 32
inits += [w("lstm.W", 2, 4*H, 256), w("lstm.R", 2, 4*H, H), w("lstm.B", 2, 8*H)]
nodes += [n("LSTM", ["/Transpose_output_0", "lstm.W", "lstm.R", "lstm.B"], ["/lstm/Y", "/lstm/Y_h", "/lstm/Y_c"], name="/rnn/LSTM", hidden_size=H, direction="bidirectional"),
          n("Transpose", ["/lstm/Y"], ["/lstm/Yt"], name="/rnn/Transpose", perm=[0, 2, 1, 3]),
          n("Shape", ["/lstm/Yt"], ["/rnn/shape"], name="/rnn/Shape"),
          n("Slice", ["/rnn/shape", "s0", "s2", "s0"], ["/rnn/tb"], name="/rnn/Slice"),
          n("Concat", ["/rnn/tb", "m1"], ["/rnn/newshape"], name="/rnn/Concat", axis=0),
          n("Reshape", ["/lstm/Yt", "/rnn/newshape"], ["/rnn/feat"], name="/rnn/Reshape")]
inits += [i64("s0", [0]), i64("s2", [2]), i64("m1", [-1])]
inits += [w("fc.weight", 37, 2*H), w("fc.bias", 37)]
nodes += [n("MatMul", ["/rnn/feat", "fc_wt"], ["/fc/MatMul_output_0"], name="/fc/MatMul"),
          n("Add", ["/fc/MatMul_output_0", "fc.bias"], ["/fc/Add_output_0"], name="/fc/Add")]
inits += [nh.from_array(np.ascontiguousarray(nh.to_array(inits[-2]).T), "fc_wt")]
# if batch == 1: log_softmax else softmax
then_g = h.make_graph([n("LogSoftmax", ["/fc/Add_output_0"], ["then_out"], name="/head/then/LogSoftmax", axis=-1)], "then", [], [h.make_tensor_value_info("then_out", T.FLOAT, None)])
else_g = h.make_graph([n("Softmax", ["/fc/Add_output_0"], ["else_out"], name="/head/else/Softmax", axis=-1)], "else", [], [h.make_tensor_value_info("else_out", T.FLOAT, None)])
inits += [i64("one", 1), i64("g1", 1)]
nodes += [n("Shape", ["/fc/Add_output_0"], ["/head/shape"], name="/head/Shape"),
          n("Gather", ["/head/shape", "g1"], ["/head/batch"], name="/head/Gather", axis=0),
          n("Equal", ["/head/batch", "one"], ["/head/is1"], name="/head/Equal"),
          n("If", ["/head/is1"], ["probs"], name="/head/If", then_branch=then_g, else_branch=else_g),
          n("TopK", ["probs", "k1"], ["top_v", "top_i"], name="/decode/TopK", axis=-1),
          n("ArgMax", ["probs"], ["best"], name="/decode/ArgMax", axis=-1, keepdims=0),
          n("ConstantOfShape", ["/head/shape"], ["/decode/zeros"], name="/decode/ConstantOfShape", value=h.make_tensor("v", T.FLOAT, [1], [0.0])),
          n("Add", ["/decode/zeros", "probs"], ["scores"], name="/decode/Add")]
inits += [i64("k1", [3])]
g = h.make_graph(nodes, "crnn", [h.make_tensor_value_info("input", T.FLOAT, ["batch", 3, 32, "width"])],
                 [h.make_tensor_value_info("scores", T.FLOAT, ["T", "batch", 37]), h.make_tensor_value_info("best", T.INT64, ["T", "batch"]),
                  h.make_tensor_value_info("top_i", T.INT64, ["T", "batch", 3])], initializer=inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="pytorch", producer_version="2.1.0")
m.ir_version = 8
onnx.checker.check_model(m)
onnx.save(m, sys.argv[1])

