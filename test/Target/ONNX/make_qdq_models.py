#!/usr/bin/env python3
"""Quantized (QDQ and AMCT deploy) models for quantization.test.

  qdq_cnn       int8 QDQ CNN as AMCT's ONNX export and onnxruntime's quantizer
                write it: Q/DQ on every cube input, weights as DQ of int8
                initializers (per output channel for the Convs and the Gemm,
                per tensor for the 1x1 Conv), a float bias, a DQ'd int32 bias,
                Relu and global pooling in between, a Gemm with transB.
  qdq_matmul    x -> Q -> DQ -> MatMul(DQ(int8 [K, N] per N)).
  qdq_uint8     onnxruntime's default: uint8 activations with a zero point
                (CANN's AscendQuant is int8; stays generic with the reason).
  amct_deploy   AMCT's deploy form: AscendQuant -> int8 Conv -> AscendDequant
                (deq_scale as uint64, the fp32 scale in its low 32 bits).
  run_input/    a test_data_set_0-style folder with qdq_cnn's input.
  amct_run/     amct_deploy's input and the output CANN's kernels compute,
                emulated in NumPy: x to fp16, times the fp16 scale, rounded to
                nearest even and saturated to int8; the int8 convolution
                summed exactly; the int32 sum times the fp32 deq_scale in fp32.

Usage: make_qdq_models.py OUT_DIR
"""
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(31)
n = h.make_node


def init(name, array):
    return nh.from_array(np.asarray(array), name)


def save(name, nodes, inputs, outputs, inits, opset=13, check=True):
    graph = h.make_graph(nodes, name, inputs, outputs, inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    model.ir_version = 8
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))


def int8_weights(shape, axis):
    """Symmetric int8 weights with one scale per `axis` entry (or one)."""
    w = rng.standard_normal(shape).astype(np.float32)
    if axis is None:
        scale = np.array(np.abs(w).max() / 127, np.float32)
    else:
        other = tuple(d for d in range(len(shape)) if d != axis)
        scale = (np.abs(w).max(axis=other) / 127).astype(np.float32)
    shaped = scale if axis is None else scale.reshape(
        [-1 if d == axis else 1 for d in range(len(shape))])
    q = np.clip(np.rint(w / shaped), -127, 127).astype(np.int8)
    return q, scale


def qdq(x, name, scale):
    """Q then DQ of activation `x` with an int8 zero point of 0."""
    return [n("QuantizeLinear", [x, name + "_s", name + "_z"], [name + "_q"], name=name + "/Q"),
            n("DequantizeLinear", [name + "_q", name + "_s", name + "_z"], [name + "_dq"],
              name=name + "/DQ")], \
        [init(name + "_s", np.float32(scale)), init(name + "_z", np.int8(0))]


def weight_dq(name, q, scale, axis):
    attrs = {} if axis is None else {"axis": axis}
    return n("DequantizeLinear", [name + "_q", name + "_s"], [name], name=name + "/DQ", **attrs), \
        [init(name + "_q", q), init(name + "_s", scale)]


# qdq_cnn
nodes, inits = [], []
x_nodes, x_inits = qdq("x", "a0", 1 / 32)
nodes += x_nodes
inits += x_inits
w1, s1 = int8_weights((8, 3, 3, 3), 0)
dq, i = weight_dq("w1", w1, s1, 0)
nodes.append(dq)
inits += i + [init("b1", (rng.standard_normal(8) * 0.1).astype(np.float32))]
nodes += [n("Conv", ["a0_dq", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
          n("Relu", ["c1"], ["r1"], name="relu1")]
a1_nodes, a1_inits = qdq("r1", "a1", 1 / 16)
nodes += a1_nodes
inits += a1_inits
w2, s2 = int8_weights((16, 8, 1, 1), None)
dq, i = weight_dq("w2", w2, s2, None)
nodes.append(dq)
inits += i
# The int32 bias as onnxruntime's quantizer writes it: scale x_scale * w_scale.
b2_scale = np.float32(np.float32(1 / 16) * s2)
b2 = np.rint(rng.standard_normal(16) * 0.1 / b2_scale).astype(np.int32)
nodes.append(n("DequantizeLinear", ["b2_q", "b2_s"], ["b2"], name="b2/DQ"))
inits += [init("b2_q", b2), init("b2_s", b2_scale)]
nodes += [n("Conv", ["a1_dq", "w2", "b2"], ["c2"], name="conv2"),
          n("GlobalAveragePool", ["c2"], ["p"], name="pool"),
          n("Flatten", ["p"], ["f"], name="flatten")]
a2_nodes, a2_inits = qdq("f", "a2", 1 / 8)
nodes += a2_nodes
inits += a2_inits
w3, s3 = int8_weights((10, 16), 0)
dq, i = weight_dq("w3", w3, s3, 0)
nodes.append(dq)
inits += i + [init("b3", (rng.standard_normal(10) * 0.1).astype(np.float32))]
nodes.append(n("Gemm", ["a2_dq", "w3", "b3"], ["y"], name="fc", transB=1))
save("qdq_cnn", nodes, [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 12, 12])],
     [h.make_tensor_value_info("y", T.FLOAT, [1, 10])], inits)
run = os.path.join(out, "run_input")
os.makedirs(run, exist_ok=True)
x = rng.uniform(-2, 2, (1, 3, 12, 12)).astype(np.float32)
with open(os.path.join(run, "input_0.pb"), "wb") as f:
    f.write(nh.from_array(x, "x").SerializeToString())

# qdq_matmul
nodes, inits = qdq("x", "a", 1 / 64)
w, s = int8_weights((32, 24), 1)
dq, i = weight_dq("w", w, s, 1)
save("qdq_matmul", nodes + [dq, n("MatMul", ["a_dq", "w"], ["y"], name="mm")],
     [h.make_tensor_value_info("x", T.FLOAT, [4, 32])],
     [h.make_tensor_value_info("y", T.FLOAT, [4, 24])], inits + i)

# qdq_wide: a layer of 512 output channels, whose per-channel weight scales
# (2 KiB) the importer holds as a resource blob, as ResNet-50's later
# stages have; the weights also reach a plain DequantizeLinear (folded).
nodes, inits = qdq("x", "a", 1 / 32)
w, s = int8_weights((512, 16, 1, 1), 0)
dq, i = weight_dq("w", w, s, 0)
w_f, s_f = int8_weights((512, 16), 0)
dq_f, i_f = weight_dq("wf", w_f, s_f, 0)
save("qdq_wide", nodes + [dq, n("Conv", ["a_dq", "w"], ["y"], name="wide"), dq_f],
     [h.make_tensor_value_info("x", T.FLOAT, [1, 16, 4, 4])],
     [h.make_tensor_value_info("y", T.FLOAT, [1, 512, 4, 4]),
      h.make_tensor_value_info("wf", T.FLOAT, [512, 16])], inits + i + i_f)

# qdq_uint8
nodes = [n("QuantizeLinear", ["x", "s", "z"], ["q"], name="q"),
         n("DequantizeLinear", ["q", "s", "z"], ["y"], name="dq")]
save("qdq_uint8", nodes, [h.make_tensor_value_info("x", T.FLOAT, [2, 8])],
     [h.make_tensor_value_info("y", T.FLOAT, [2, 8])],
     [init("s", np.float32(0.05)), init("z", np.uint8(128))])

# amct_deploy: CANN's quantization ops, in a domain of their own (ONNX's
# checker rejects unknown ops in the default domain).
w, s = int8_weights((4, 3, 3, 3), 0)
deq = (np.float32(1 / 32) * s).astype(np.float32)
packed = np.array([struct.unpack("<I", struct.pack("<f", v))[0] for v in deq], np.uint64)
nodes = [n("AscendQuant", ["x"], ["q"], name="quant", domain="amct", scale=32.0, offset=0.0),
         n("Conv", ["q", "w"], ["acc"], name="conv"),
         n("AscendDequant", ["acc", "deq"], ["y"], name="dequant", domain="amct", dtype=0)]
graph = h.make_graph(nodes, "amct_deploy", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 6, 6])],
                     [init("w", w), init("deq", packed)],
                     value_info=[h.make_tensor_value_info("q", T.INT8, [1, 3, 8, 8])])
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("amct", 1)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "amct_deploy.onnx"))

x = rng.uniform(-3, 3, (1, 3, 8, 8)).astype(np.float32)
q = np.clip(np.rint((x.astype(np.float16) * np.float16(32.0)).astype(np.float16)), -128, 127)
q = q.astype(np.int64)
acc = np.zeros((1, 4, 6, 6), np.int64)
for i in range(6):
    for j in range(6):
        patch = q[0, :, i:i + 3, j:j + 3]
        acc[0, :, i, j] = (patch[None] * w.astype(np.int64)).sum(axis=(1, 2, 3))
y = (acc.astype(np.float32) * deq[None, :, None, None]).astype(np.float32)
run = os.path.join(out, "amct_run")
os.makedirs(run, exist_ok=True)
with open(os.path.join(run, "input_0.pb"), "wb") as f:
    f.write(nh.from_array(x, "x").SerializeToString())
with open(os.path.join(run, "output_0.pb"), "wb") as f:
    f.write(nh.from_array(y, "y").SerializeToString())
