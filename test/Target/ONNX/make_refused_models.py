#!/usr/bin/env python3
"""Models ATC refuses with E13010 (a node whose parser key no CANN plugin
registers, data/onnx/parser-plugins.tsv), and one it converts, for
atc-refusals.test (issue 56). Usage: make_refused_models.py OUT_DIR

  dynamic_quant.onnx  a Conv and a MatMul dynamically quantized as
                      onnxruntime's quantize_dynamic writes them (opset 13):
                      DynamicQuantizeLinear of each activation ('<input>_
                      QuantizeLinear'), ConvInteger / MatMulInteger
                      ('<node>_quant') on uint8 weights, a Cast of the int32
                      result and two Muls by the scales
  opset19.onnx        x * 2 (a Constant node, which needs no plugin) -> Relu,
                      exported at opset 19: no standard op has a plugin there
  clean17.onnx        the same graph at opset 17
  if_qdq.onnx         an If (opset 13) whose else branch quantizes its input
                      with a QuantizeLinear / DequantizeLinear pair (int8,
                      constant scale): the If has a plugin, the branch's Q and
                      DQ do not
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(56)
n = h.make_node


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = h.make_graph(nodes, name, inputs, outputs, list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))


def uint8_weights(name, shape):
    """uint8 weights with a zero point of 128 and one scale, as
    quantize_dynamic's default (weight_type=QUInt8) stores them."""
    w = rng.standard_normal(shape).astype(np.float32)
    scale = np.float32(np.abs(w).max() / 127)
    q = np.clip(np.rint(w / scale) + 128, 0, 255).astype(np.uint8)
    return [nh.from_array(q, name + "_quantized"),
            nh.from_array(np.array(scale, np.float32), name + "_scale"),
            nh.from_array(np.array(128, np.uint8), name + "_zero_point")]


def dynamic_quant(x, weight, node, op):
    """DynamicQuantizeLinear of `x`, `op` (ConvInteger or MatMulInteger) with
    the uint8 `weight`, and the float result `node` + '_out'."""
    q = x + "_quantized"
    return [
        n("DynamicQuantizeLinear", [x], [q, x + "_scale", x + "_zero_point"],
          name=x + "_QuantizeLinear"),
        n(op, [q, weight + "_quantized", x + "_zero_point", weight + "_zero_point"],
          [node + "_out_quantized"], name=node + "_quant"),
        n("Cast", [node + "_out_quantized"], [node + "_out_quantized_cast_output"],
          name=node + "_out_quantized_cast", to=T.FLOAT),
        n("Mul", [x + "_scale", weight + "_scale"], [node + "_scales_mul:0"],
          name=node + "_scales_mul"),
        n("Mul", [node + "_out_quantized_cast_output", node + "_scales_mul:0"], [node + "_out"],
          name=node + "_output_scale_mul"),
    ]


# dynamic_quant: x [1, 3, 8, 8] -> ConvInteger -> Relu -> Flatten -> MatMulInteger -> y [1, 10]
nodes = dynamic_quant("x", "conv.weight", "conv", "ConvInteger")
nodes += [n("Relu", ["conv_out"], ["relu"], name="relu"),
          n("Flatten", ["relu"], ["flat"], name="flatten")]
nodes += dynamic_quant("flat", "fc.weight", "fc", "MatMulInteger")
nodes[-1].output[0] = "y"
save("dynamic_quant", nodes, [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
     [h.make_tensor_value_info("y", T.FLOAT, [1, 10])],
     uint8_weights("conv.weight", (4, 3, 3, 3)) + uint8_weights("fc.weight", (144, 10)))

# opset19 / clean17: the same three nodes.
for name, opset in (("opset19", 19), ("clean17", 17)):
    save(name,
         [n("Constant", [], ["two"], name="two",
            value=nh.from_array(np.array(2.0, np.float32), "two")),
          n("Mul", ["x", "two"], ["scaled"], name="scale"),
          n("Relu", ["scaled"], ["y"], name="relu")],
         [h.make_tensor_value_info("x", T.FLOAT, [2, 8])],
         [h.make_tensor_value_info("y", T.FLOAT, [2, 8])], opset=opset)

# if_qdq: If(flag) then Relu(x) else DQ(Q(x)), int8 with a constant scale.
then_branch = h.make_graph([n("Relu", ["x"], ["t"], name="then/relu")], "then", [],
                           [h.make_tensor_value_info("t", T.FLOAT, [2, 8])])
else_branch = h.make_graph(
    [n("QuantizeLinear", ["x", "s", "z"], ["q"], name="else/q"),
     n("DequantizeLinear", ["q", "s", "z"], ["e"], name="else/dq")], "else", [],
    [h.make_tensor_value_info("e", T.FLOAT, [2, 8])])
save("if_qdq", [n("If", ["flag"], ["y"], name="branch", then_branch=then_branch,
                  else_branch=else_branch)],
     [h.make_tensor_value_info("x", T.FLOAT, [2, 8]),
      h.make_tensor_value_info("flag", T.BOOL, [])],
     [h.make_tensor_value_info("y", T.FLOAT, [2, 8])],
     [nh.from_array(np.array(0.05, np.float32), "s"), nh.from_array(np.array(0, np.int8), "z")])
