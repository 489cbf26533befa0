#!/usr/bin/env python3
"""Builds the small ONNX models the import tests read. Usage: make_models.py DIR"""

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
n = helper.make_node
rng = np.random.default_rng(7)


def save(name, nodes, inputs, outputs, inits=(), opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(out / f"{name}.onnx"))


def w(name, *shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def i64(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


# Many mapped ops, with a symbolic batch dimension.
save("mapped", [
    n("Conv", ["x", "cw"], ["c"], name="conv", kernel_shape=[3, 3], auto_pad="SAME_UPPER"),
    n("BatchNormalization", ["c", "s", "b", "m", "v"], ["bn"], name="bn"),
    n("Relu", ["bn"], ["r"], name="relu"),
    n("MaxPool", ["r"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 1, 1]),
    n("GlobalAveragePool", ["p"], ["g"], name="gap"),
    n("Flatten", ["g"], ["f"], name="flatten"),
    n("Gemm", ["f", "fw", "fb"], ["fc"], name="fc", transB=1),
    n("Softmax", ["fc"], ["sm"], name="softmax", axis=1),
    n("Clip", ["sm", "lo", "hi"], ["cl"], name="clip"),
    n("Slice", ["cl", "starts", "ends", "axes"], ["sl"], name="slice"),
    n("Pad", ["sl", "pads"], ["pd"], name="pad"),
    n("Cast", ["pd"], ["out"], name="cast", to=TensorProto.FLOAT16),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
   [helper.make_tensor_value_info("out", TensorProto.FLOAT16, ["N", 6])],
   [w("cw", 4, 3, 3, 3), w("s", 4), w("b", 4), w("m", 4),
    numpy_helper.from_array(np.ones(4, np.float32), "v"), w("fw", 5, 4), w("fb", 5),
    numpy_helper.from_array(np.array(0.0, np.float32), "lo"),
    numpy_helper.from_array(np.array(1.0, np.float32), "hi"),
    i64("starts", [1]), i64("ends", [4]), i64("axes", [1]), i64("pads", [0, 1, 0, 2])])

# Nodes without names take their first output's name; an unmapped op type
# becomes ascend.generic; a float16 initializer in typed fields.
# make_tensor stores FLOAT16 values as their bits in int32_data.
half = helper.make_tensor("h", TensorProto.FLOAT16, [2], [1.5, -2.0])
save("unnamed", [
    n("Add", ["x", "h"], ["sum"]),
    n("LpNormalization", ["sum"], ["soft"], axis=-1, p=2),
    n("Transpose", ["soft"], ["y"]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [3, 2])],
   [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 3])], [half])

# A model the ONNX checker rejects: a node reads an undefined value.
bad = helper.make_graph([n("Relu", ["nowhere"], ["y"], name="relu")], "bad",
                        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
bad_model = helper.make_model(bad, opset_imports=[helper.make_opsetid("", 17)])
(out / "unchecked.onnx").write_bytes(bad_model.SerializeToString())
# Not a protobuf at all, and a truncated model.
(out / "text.onnx").write_text("this is not an ONNX model\n")
good = (out / "mapped.onnx").read_bytes()
(out / "truncated.onnx").write_bytes(good[: len(good) // 2])

# An initializer whose data lives in an external file (not supported).
ext = numpy_helper.from_array(np.ones([2], np.float32), "e")
ext.ClearField("raw_data")
ext.data_location = TensorProto.EXTERNAL
ext.external_data.add(key="location", value="weights.bin")
ext_graph = helper.make_graph([n("Add", ["x", "e"], ["y"], name="add")], "external",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
                              initializer=[ext])
ext_model = helper.make_model(ext_graph, opset_imports=[helper.make_opsetid("", 17)])
(out / "external.onnx").write_bytes(ext_model.SerializeToString())

# A string graph input (no ascend dtype for it).
save("strings", [n("Identity", ["s"], ["y"], name="id")],
     [helper.make_tensor_value_info("s", TensorProto.STRING, [2])],
     [helper.make_tensor_value_info("y", TensorProto.STRING, [2])])

# Initializers in every encoding the importer reads, each returned through
# Identity so that nothing else touches them.
bf16_bits = np.array([1.5, -2.0], np.float32).view(np.uint32) >> 16
encoded = [
    helper.make_tensor("bf16_typed", TensorProto.BFLOAT16, [2], [1.5, -2.0]),
    helper.make_tensor("bf16_raw", TensorProto.BFLOAT16, [2],
                       bf16_bits.astype("<u2").tobytes(), raw=True),
    numpy_helper.from_array(np.array([0.5, -0.25], np.float16), "f16_raw"),
    helper.make_tensor("f32_typed", TensorProto.FLOAT, [2], [3.0, -4.0]),
    helper.make_tensor("f64_typed", TensorProto.DOUBLE, [2], [0.125, 8.0]),
    helper.make_tensor("i8_typed", TensorProto.INT8, [2], [-128, 127]),
    helper.make_tensor("u8_typed", TensorProto.UINT8, [2], [0, 255]),
    numpy_helper.from_array(np.array([-7, 9], np.int32), "i32_raw"),
    helper.make_tensor("i64_typed", TensorProto.INT64, [2], [-(2**40), 2**40]),
    helper.make_tensor("u64_typed", TensorProto.UINT64, [2], [0, 2**63]),
    helper.make_tensor("bool_typed", TensorProto.BOOL, [2], [True, False]),
]
save("encodings", [n("Identity", [t.name], [t.name + "_out"], name=t.name + "_id")
                   for t in encoded],
     [], [helper.make_tensor_value_info(t.name + "_out", t.data_type, [2]) for t in encoded],
     encoded)

# raw_data of the wrong size for the tensor's shape.
short = numpy_helper.from_array(np.ones(2, np.float32), "short")
short.raw_data = short.raw_data[:6]
save("short_raw", [n("Identity", ["short"], ["y"], name="id")], [],
     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])], [short])

# The model says Relu's output is int64, ONNX's shape inference finds float:
# inference stops with an error there, and the import goes on without its
# types. The second model also has a malformed initializer, which the import
# reports while converting, after inference's warning.
def conflicting(name, nodes, inits, output):
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info(output, TensorProto.FLOAT, [1, 16])], inits,
        value_info=[helper.make_tensor_value_info("r", TensorProto.INT64, [1, 16])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(out / f"{name}.onnx"))


# Shapes 16 and 3 do not broadcast: shape inference leaves 'm' without a
# type (no error: libonnx only records it), so its node stays generic.
save("inference_gap", [n("Relu", ["x"], ["r"], name="relu"),
                       n("Add", ["r", "three"], ["m"], name="mismatch"),
                       n("Sigmoid", ["m"], ["y"], name="after")],
     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])],
     [numpy_helper.from_array(np.ones(3, np.float32), "three")])

conflict_nodes = [n("Relu", ["x"], ["r"], name="relu"), n("Sigmoid", ["r"], ["y"], name="after")]
conflicting("inference_conflict", conflict_nodes, [], "y")
conflicting("inference_conflict_short_raw",
            conflict_nodes + [n("Mul", ["y", "short"], ["z"], name="mul")], [short], "z")

# libonnx 1.12's shape inference reads out of bounds on an opset-6 Gemm whose
# B has rank 1, a model its checker accepts (found by fuzz-onnx-import).
f32 = TensorProto.FLOAT
gemm6 = helper.make_graph(
    [n("Gemm", ["a", "b", "c"], ["y"], name="gemm", broadcast=1)], "gemm6",
    [helper.make_tensor_value_info("a", f32, [2, 3]),
     helper.make_tensor_value_info("b", f32, [3]),
     helper.make_tensor_value_info("c", f32, [4])],
    [helper.make_tensor_value_info("y", f32, [2, 4])])
gemm6_model = helper.make_model(gemm6, opset_imports=[helper.make_opsetid("", 6)])
gemm6_model.ir_version = 3
(out / "onnx_crash.onnx").write_bytes(gemm6_model.SerializeToString())

# 1-D convolution, transposed convolution and pooling (run as 2-D over a
# unit height).
save("oned", [
    n("Conv", ["x", "w1"], ["c"], name="conv1d", pads=[1, 2], strides=[2]),
    n("MaxPool", ["c"], ["p"], name="pool1d", kernel_shape=[2], strides=[2]),
    n("ConvTranspose", ["p", "wt"], ["y"], name="deconv1d", strides=[2]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4, 10])],
   [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 2, 6])],
   [w("w1", 6, 4, 3), w("wt", 6, 2, 2)])

# A weight over the resource threshold (1 KiB): imported as a blob, not a
# dense attribute. Values chosen so that f16 conversion is exact.
big = numpy_helper.from_array(
    (np.arange(32 * 16 * 3 * 3) % 7 - 3).astype(np.float32).reshape(32, 16, 3, 3) / 4,
    "conv.weight")
save("large_weight", [
    n("Conv", ["x", "conv.weight"], ["c"], name="conv", pads=[1, 1, 1, 1]),
    n("Relu", ["c"], ["y"], name="relu"),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])],
   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 8, 8])], [big])

# An integer comparison (ascend.Equal, computes in int32) and an op without
# a dedicated ascend op or a library entry (Bernoulli, a random op, stays
# ascend.generic).
save("honest_labels", [
    n("Equal", ["a", "b"], ["eq"], name="eq"),
    n("Bernoulli", ["x"], ["coin"], name="coin"),
], [helper.make_tensor_value_info("a", TensorProto.INT32, [4]),
    helper.make_tensor_value_info("b", TensorProto.INT32, [4]),
    helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])],
   [helper.make_tensor_value_info("eq", TensorProto.BOOL, [4]),
    helper.make_tensor_value_info("coin", TensorProto.FLOAT, [2, 5])])

# Shape arithmetic as PyTorch and Paddle export it: the batch size read at
# run time feeds a Reshape; Range/ConstantOfShape/Expand/Where/Equal on
# shape values; a symbolic batch dimension.
save("shape_chain", [
    n("Shape", ["x"], ["shape"], name="/Shape"),
    n("Gather", ["shape", "zero_s"], ["batch"], name="/Gather", axis=0),
    n("Unsqueeze", ["batch", "axes0"], ["batch1"], name="/Unsqueeze"),
    n("Concat", ["batch1", "minus1"], ["newshape"], name="/Concat", axis=0),
    n("Reshape", ["x", "newshape"], ["flat"], name="/Reshape"),
    n("Shape", ["flat"], ["flatshape"], name="/Shape_1"),
    n("Slice", ["flatshape", "one", "two"], ["width"], name="/Slice"),
    n("Cast", ["width"], ["widthf"], name="/Cast", to=TensorProto.FLOAT),
    n("Div", ["flat", "widthf"], ["scaled"], name="/Div"),
    n("Range", ["zero_s", "four", "one_s"], ["positions"], name="/Range"),
    n("Equal", ["positions", "two_s"], ["mask"], name="/Equal"),
    n("ConstantOfShape", ["width"], ["zeros"], name="/ConstantOfShape",
      value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.0])),
    n("Relu", ["scaled"], ["y"], name="/Relu"),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 4, 4])],
   [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 48]),
    helper.make_tensor_value_info("mask", TensorProto.BOOL, [4])],
   [i64("axes0", [0]), i64("minus1", [-1]), i64("one", [1]), i64("two", [2]),
    numpy_helper.from_array(np.array(0, np.int64), "zero_s"),
    numpy_helper.from_array(np.array(4, np.int64), "four"),
    numpy_helper.from_array(np.array(1, np.int64), "one_s"),
    numpy_helper.from_array(np.array(2, np.int64), "two_s")])

# A dilated max pooling: no CANN pooling op has dilations, so ascend.generic
# under the CANN op type (MaxPoolV3), which mixlist and OpType:: entries match.
save("pool_dilated", [
    n("MaxPool", ["x"], ["y"], name="pool_dilated", kernel_shape=[2, 2], dilations=[2, 2]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 4, 4])])

# 3-D convolution, transposed convolution and pooling (NCDHW).
save("volume", [
    n("Conv", ["x", "w3", "b3"], ["c"], name="conv3d", pads=[1, 0, 0, 1, 0, 0]),
    n("MaxPool", ["c"], ["p"], name="maxpool3d", kernel_shape=[2, 2, 2], strides=[2, 2, 2]),
    n("AveragePool", ["c"], ["a"], name="avgpool3d", kernel_shape=[2, 2, 2],
      count_include_pad=1, pads=[0, 1, 1, 0, 1, 1]),
    n("ConvTranspose", ["p", "wt3"], ["y"], name="deconv3d", strides=[2, 2, 2]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4, 4])],
   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 4, 2, 2]),
    helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 3, 3, 3, 3])],
   [w("w3", 3, 2, 3, 3, 3), w("b3", 3), w("wt3", 3, 2, 2, 2, 2)])

# Control flow (ONNXControlFlow.cpp). An If on a run-time condition whose
# branches read outer values (x, and the initializer w), one with a MatMul
# (white under allow_mix_precision) and a Constant of its own.
def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


then_g = helper.make_graph([n("MatMul", ["x", "w"], ["t"], name="/then/MatMul")], "then", [],
                           [vi("t", TensorProto.FLOAT, [4, 4])])
else_g = helper.make_graph([
    n("Constant", [], ["half"], name="/else/Constant",
      value=numpy_helper.from_array(np.array(0.5, np.float32), "half")),
    n("Mul", ["x", "half"], ["m"], name="/else/Mul"),
    n("Sigmoid", ["m"], ["e"], name="/else/Sigmoid"),
], "else", [], [vi("e", TensorProto.FLOAT, [4, 4])])
save("if_model", [
    n("If", ["c"], ["y"], name="/If", then_branch=then_g, else_branch=else_g),
    n("Relu", ["y"], ["z"], name="/Relu"),
], [vi("c", TensorProto.BOOL, []), vi("x", TensorProto.FLOAT, [4, 4])],
   [vi("z", TensorProto.FLOAT, [4, 4])], [w("w", 4, 4)])

# PyTorch's export of `if x.shape[0] == 1:`: the condition folds once the
# shape is known, and the branch that runs is inlined.
taken_g = helper.make_graph([n("Tanh", ["x"], ["tt"], name="/taken/Tanh")], "taken", [],
                            [vi("tt", TensorProto.FLOAT, [1, 4])])
skipped_g = helper.make_graph([n("Neg", ["x"], ["sn"], name="/skipped/Neg")], "skipped", [],
                              [vi("sn", TensorProto.FLOAT, [1, 4])])
save("if_folded", [
    n("Shape", ["x"], ["shape"], name="/Shape"),
    n("Gather", ["shape", "zero"], ["batch"], name="/Gather", axis=0),
    n("Equal", ["batch", "one"], ["is_one"], name="/Equal"),
    n("If", ["is_one"], ["y"], name="/If", then_branch=taken_g, else_branch=skipped_g),
], [vi("x", TensorProto.FLOAT, [1, 4])], [vi("y", TensorProto.FLOAT, [1, 4])],
   [i64("zero", 0), i64("one", 1)])

# A Loop with a trip count, a loop-carried value and a scan output; its body
# holds an If (nesting) and reads the outer weight w.
inner_then = helper.make_graph([n("Relu", ["s"], ["it"], name="/body/If/then/Relu")],
                               "inner_then", [], [vi("it", TensorProto.FLOAT, [2, 4])])
inner_else = helper.make_graph([n("Neg", ["s"], ["ie"], name="/body/If/else/Neg")],
                               "inner_else", [], [vi("ie", TensorProto.FLOAT, [2, 4])])
body = helper.make_graph([
    n("MatMul", ["v", "w"], ["mm"], name="/body/MatMul"),
    n("Add", ["mm", "v"], ["s"], name="/body/Add"),
    n("If", ["flag"], ["next"], name="/body/If", then_branch=inner_then, else_branch=inner_else),
    n("Identity", ["cond_in"], ["cond_out"], name="/body/Identity"),
], "body", [vi("iter", TensorProto.INT64, []), vi("cond_in", TensorProto.BOOL, []),
            vi("v", TensorProto.FLOAT, [2, 4])],
   [vi("cond_out", TensorProto.BOOL, []), vi("next", TensorProto.FLOAT, [2, 4]),
    vi("s", TensorProto.FLOAT, [2, 4])])
save("loop_model", [
    n("Loop", ["trips", "", "x"], ["final", "stacked"], name="/Loop", body=body),
], [vi("x", TensorProto.FLOAT, [2, 4]), vi("flag", TensorProto.BOOL, [])],
   [vi("final", TensorProto.FLOAT, [2, 4]), vi("stacked", TensorProto.FLOAT, [None, 2, 4])],
   [i64("trips", 3), w("w", 4, 4)])

# A Scan (opset 9 form): a running sum over the rows of xs.
scan_body = helper.make_graph([
    n("Add", ["acc", "row"], ["acc_next"], name="/scan/Add"),
    n("Identity", ["acc_next"], ["out_row"], name="/scan/Identity"),
], "scan_body", [vi("acc", TensorProto.FLOAT, [4]), vi("row", TensorProto.FLOAT, [4])],
   [vi("acc_next", TensorProto.FLOAT, [4]), vi("out_row", TensorProto.FLOAT, [4])])
save("scan_model", [
    n("Scan", ["init", "xs"], ["total", "running"], name="/Scan", body=scan_body,
      num_scan_inputs=1),
], [vi("init", TensorProto.FLOAT, [4]), vi("xs", TensorProto.FLOAT, [3, 4])],
   [vi("total", TensorProto.FLOAT, [4]), vi("running", TensorProto.FLOAT, [3, 4])])

# An If whose branches disagree in the number of outputs: an error naming
# the node.
two_g = helper.make_graph([n("Relu", ["x"], ["a2"], name="/two/Relu"),
                           n("Neg", ["x"], ["b2"], name="/two/Neg")], "two", [],
                          [vi("a2", TensorProto.FLOAT, [4]), vi("b2", TensorProto.FLOAT, [4])])
one_g = helper.make_graph([n("Relu", ["x"], ["a1"], name="/one/Relu")], "one", [],
                          [vi("a1", TensorProto.FLOAT, [4])])
uncheckable = helper.make_model(helper.make_graph(
    [n("If", ["c"], ["y"], name="/bad_If", then_branch=two_g, else_branch=one_g)], "bad_if",
    [vi("c", TensorProto.BOOL, []), vi("x", TensorProto.FLOAT, [4])],
    [vi("y", TensorProto.FLOAT, [4])]), opset_imports=[helper.make_opsetid("", 17)])
uncheckable.ir_version = 8
onnx.save(uncheckable, str(out / "if_mismatch.onnx"))

# Scan in its opset-8 form (sequence_lens, a batch axis): refused by name.
scan8_body = helper.make_graph([n("Add", ["acc8", "row8"], ["next8"], name="/scan8/Add")],
                               "scan8_body",
                               [vi("acc8", TensorProto.FLOAT, [4]), vi("row8", TensorProto.FLOAT, [4])],
                               [vi("next8", TensorProto.FLOAT, [4])])
save("scan_opset8", [
    n("Scan", ["", "init8", "xs8"], ["total8"], name="/Scan8", body=scan8_body, num_scan_inputs=1),
], [vi("init8", TensorProto.FLOAT, [1, 4]), vi("xs8", TensorProto.FLOAT, [1, 3, 4])],
   [vi("total8", TensorProto.FLOAT, [1, 4])], opset=8)

# Recurrent layers as PyTorch exports them (seq-first, biases, initial
# states), an LSTM with sequence_lens (CANN's seq_length), and one with
# peepholes, which stays generic.
def rnn_model(name, op, gates, with_c, extra_inputs=(), **attrs):
    hidden, inp, seq, batch = 8, 4, 5, 2
    dirs = 2 if attrs.get("direction") == "bidirectional" else 1
    inits = [w(f"{name}_W", dirs, gates * hidden, inp), w(f"{name}_R", dirs, gates * hidden, hidden),
             w(f"{name}_B", dirs, 2 * gates * hidden), w(f"{name}_h0", dirs, batch, hidden)]
    inputs = ["x", f"{name}_W", f"{name}_R", f"{name}_B", "", f"{name}_h0"]
    outputs = ["y", "y_h"]
    if with_c:
        inits.append(w(f"{name}_c0", dirs, batch, hidden))
        inputs.append(f"{name}_c0")
        outputs.append("y_c")
    graph_inputs = [vi("x", TensorProto.FLOAT, [seq, batch, inp])]
    for index, value in extra_inputs:
        while len(inputs) <= index:
            inputs.append("")
        inputs[index] = value
        if index == 7:  # peepholes P [dirs, 3 * hidden]
            graph_inputs.append(vi(value, TensorProto.FLOAT, [dirs, 3 * hidden]))
        else:
            graph_inputs.append(vi(value, TensorProto.INT32, [batch]))
    save(name, [n(op, inputs, outputs, name=f"/{op.lower()}/{op}", hidden_size=hidden, **attrs)],
         graph_inputs,
         [vi("y", TensorProto.FLOAT, [seq, dirs, batch, hidden]),
          vi("y_h", TensorProto.FLOAT, [dirs, batch, hidden])] +
         ([vi("y_c", TensorProto.FLOAT, [dirs, batch, hidden])] if with_c else []), inits)


rnn_model("lstm", "LSTM", 4, True)
rnn_model("gru_bidi", "GRU", 3, False, direction="bidirectional", linear_before_reset=1)
rnn_model("rnn", "RNN", 1, False)
rnn_model("lstm_seqlens", "LSTM", 4, True, extra_inputs=[(4, "lens")])
rnn_model("lstm_peephole", "LSTM", 4, True, extra_inputs=[(7, "p")])

# More op types with dedicated ops: trigonometry, activations, the other
# reductions, ArgMax/ArgMin, variadic Sum/Max/Mean, LayerNormalization with
# its statistics, CastLike, IsNaN/IsInf, DepthToSpace/SpaceToDepth.
F = TensorProto.FLOAT
save("more_ops", [
    n("Tan", ["a"], ["tan"], name="tan"),
    n("Asinh", ["tan"], ["asinh"], name="asinh"),
    n("HardSwish", ["asinh"], ["hs"], name="hardswish"),
    n("Selu", ["hs"], ["selu"], name="selu"),
    n("ThresholdedRelu", ["selu"], ["tr"], name="thresholded", alpha=0.5),
    n("ReduceL2", ["tr"], ["l2"], name="l2", axes=[1], keepdims=0),
    n("ReduceLogSumExp", ["tr"], ["lse"], name="lse", axes=[1], keepdims=1),
    n("ArgMax", ["tr"], ["amax"], name="argmax", axis=1, keepdims=0),
    n("ArgMin", ["tr"], ["amin"], name="argmin", axis=0),
    n("Sum", ["a", "tr", "a"], ["sum3"], name="sum3"),
    n("Max", ["a", "tr", "sum3"], ["max3"], name="max3"),
    n("Mean", ["a", "max3"], ["mean2"], name="mean2"),
    n("LayerNormalization", ["mean2", "g"], ["ln", "ln_mean", "ln_inv"], name="ln", axis=-1),
    n("CastLike", ["amax", "tr"], ["like"], name="castlike"),
    n("IsNaN", ["ln"], ["nan"], name="isnan"),
    n("IsInf", ["ln"], ["inf"], name="isinf"),
    n("DepthToSpace", ["img"], ["d2s"], name="d2s", blocksize=2, mode="CRD"),
    n("SpaceToDepth", ["d2s"], ["s2d"], name="s2d", blocksize=2),
], [vi("a", F, [3, 4]), vi("img", F, [1, 8, 2, 2])],
   [vi("l2", F, [3]), vi("lse", F, [3, 1]), vi("amin", TensorProto.INT64, [1, 4]),
    vi("ln", F, [3, 4]), vi("ln_mean", F, [3, 1]), vi("ln_inv", F, [3, 1]),
    vi("like", F, [3]), vi("nan", TensorProto.BOOL, [3, 4]), vi("inf", TensorProto.BOOL, [3, 4]),
    vi("s2d", F, [1, 8, 2, 2])],
   [w("g", 4)])

# `if x.shape[0] == 1:` with a dynamic batch: the condition is computed at
# run time (ascend.Shape, GatherV2, Equal, If) unless --input_shape fixes
# the batch, when the If folds and its taken branch is inlined.
dyn_then = helper.make_graph([n("Tanh", ["xd"], ["dt"], name="/dyn/then/Tanh")], "dyn_then", [],
                             [vi("dt", TensorProto.FLOAT, None)])
dyn_else = helper.make_graph([n("Neg", ["xd"], ["de"], name="/dyn/else/Neg")], "dyn_else", [],
                             [vi("de", TensorProto.FLOAT, None)])
save("if_dynamic", [
    n("Shape", ["xd"], ["dshape"], name="/dyn/Shape"),
    n("Gather", ["dshape", "dzero"], ["dbatch"], name="/dyn/Gather", axis=0),
    n("Equal", ["dbatch", "done"], ["dis_one"], name="/dyn/Equal"),
    n("If", ["dis_one"], ["dy"], name="/dyn/If", then_branch=dyn_then, else_branch=dyn_else),
], [vi("xd", TensorProto.FLOAT, ["batch", 4])], [vi("dy", TensorProto.FLOAT, ["batch", 4])],
   [i64("dzero", 0), i64("done", 1)])

# Ops that fold when their inputs are known and otherwise become the ops of
# AscendTensorOps.td (a dynamic batch keeps them), and image ops.
I32 = TensorProto.INT32
save("tensor_ops", [
    n("Shape", ["x"], ["s"], name="/shape"),
    n("ConstantOfShape", ["s"], ["fill"], name="/fill",
      value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.5])),
    n("Expand", ["row", "s"], ["expand"], name="/expand"),
    n("Tile", ["x", "reps"], ["tile"], name="/tile"),
    n("Range", ["start", "limit", "delta"], ["range"], name="/range"),
    n("TopK", ["x", "k"], ["top_v", "top_i"], name="/topk", axis=1),
    n("Size", ["x"], ["size"], name="/size"),
    n("OneHot", ["idx", "depth", "onoff"], ["onehot"], name="/onehot"),
    n("Hardmax", ["x"], ["hardmax"], name="/hardmax"),
    n("Einsum", ["m", "wk"], ["einsum"], name="/einsum", equation="ij, jk"),
    n("Mod", ["x", "x"], ["fmod"], name="/fmod", fmod=1),
    n("Mod", ["i1", "i2"], ["imod"], name="/imod"),
    n("GridSample", ["img", "grid"], ["sampled"], name="/grid", align_corners=1),
    n("LRN", ["img"], ["lrn"], name="/lrn", size=3, alpha=3e-4),
    n("LRN", ["img"], ["lrn4"], name="/lrn_even", size=4),
    n("Resize", ["img", "", "", "sizes"], ["cubic"], name="/cubic", mode="cubic"),
    n("Resize", ["feat", "", "up2"], ["up"], name="/up", mode="linear"),
], [vi("x", F, ["b", 4]), vi("start", F, []), vi("limit", F, []), vi("delta", F, []),
    vi("idx", TensorProto.INT64, [3]), vi("onoff", F, [2]), vi("m", F, [3, 4]),
    vi("i1", I32, [4]), vi("i2", I32, [4]), vi("img", F, [1, 3, 4, 4]), vi("grid", F, [1, 3, 3, 2]),
    vi("feat", F, ["b", 3, "h", "w"])],
   [vi("fill", F, ["b", 4]), vi("expand", F, ["b", 4]), vi("tile", F, ["b", 8]),
    vi("range", F, ["r"]), vi("top_v", F, ["b", 2]), vi("top_i", TensorProto.INT64, ["b", 2]),
    vi("size", TensorProto.INT64, []), vi("onehot", F, [3, 5]), vi("hardmax", F, ["b", 4]),
    vi("einsum", F, [3, 2]), vi("fmod", F, ["b", 4]), vi("imod", I32, [4]),
    vi("sampled", F, [1, 3, 3, 3]), vi("lrn", F, [1, 3, 4, 4]), vi("lrn4", F, [1, 3, 4, 4]),
    vi("cubic", F, [1, 3, 8, 8]), vi("up", F, ["b", 3, "h2", "w2"])],
   [w("row", 1, 4), i64("reps", [1, 2]), i64("k", [2]), i64("depth", 5), w("wk", 4, 2),
    i64("sizes", [1, 3, 8, 8]),
    helper.make_tensor("up2", F, [4], [1.0, 1.0, 2.0, 2.0])])

# Nodes written with several ascend ops (ONNXDecompositions.cpp).
save("decomposed", [
    n("ArgMax", ["a"], ["last"], name="argmax_last", axis=1, select_last_index=1),
    n("Selu", ["a"], ["selu"], name="selu", alpha=2.0, gamma=3.0),
    n("Celu", ["a"], ["celu"], name="celu", alpha=2.0),
    n("IsInf", ["a"], ["posinf"], name="posinf", detect_negative=0),
    n("Shrink", ["a"], ["shrink"], name="shrink", lambd=1.0, bias=0.5),
    n("MeanVarianceNormalization", ["img"], ["mvn"], name="mvn"),
    n("Dropout", ["a"], ["drop", "mask"], name="dropout"),
    n("BatchNormalization", ["img", "g3", "b3", "m3", "v3"], ["bn", "bn_mean", "bn_var"],
      name="bn_train", training_mode=1, momentum=0.8),
    n("Gemm", ["a", "wg", "cg"], ["gemm"], name="gemm", alpha=2.0, beta=0.5),
    n("Pow", ["a", "e"], ["pow"], name="pow"),
    n("LSTM", ["seq", "lw", "lr"], ["ly", "lh"], name="lstm_bf", hidden_size=2, layout=1),
    n("ConvTranspose", ["img", "wt"], ["deconv"], name="deconv_os", strides=[3, 2],
      output_shape=[10, 8]),
], [vi("a", F, [3, 4]), vi("img", F, [1, 3, 4, 4]), vi("e", I32, [4]), vi("seq", F, [2, 5, 3])],
   [vi("last", TensorProto.INT64, [3, 1]), vi("selu", F, [3, 4]), vi("celu", F, [3, 4]),
    vi("posinf", TensorProto.BOOL, [3, 4]), vi("shrink", F, [3, 4]), vi("mvn", F, [1, 3, 4, 4]),
    vi("drop", F, [3, 4]), vi("mask", TensorProto.BOOL, [3, 4]), vi("bn", F, [1, 3, 4, 4]),
    vi("bn_mean", F, [3]), vi("bn_var", F, [3]), vi("gemm", F, [3, 2]), vi("pow", F, [3, 4]),
    vi("ly", F, [2, 5, 1, 2]), vi("lh", F, [2, 1, 2]), vi("deconv", F, [1, 2, 10, 8])],
   [w("g3", 3), w("b3", 3), w("m3", 3), w("v3", 3), w("wg", 4, 2), w("cg", 3, 2),
    w("lw", 1, 8, 3), w("lr", 1, 8, 2), w("wt", 3, 2, 3, 3)])

# Before opset 7, a 1-D PRelu slope applied per channel.
save("prelu_legacy", [n("PRelu", ["x", "slope"], ["y"], name="prelu")],
     [vi("x", F, [2, 3, 4])], [vi("y", F, [2, 3, 4])], [w("slope", 3)], opset=6)
