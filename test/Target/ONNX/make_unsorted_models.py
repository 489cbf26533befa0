#!/usr/bin/env python3
"""Graphs whose nodes are not in topological order, as some exporters write
them (issue 56): a Cast of the input appended at the end of the node list
after export, a value an If branch reads made after the If, and the two
faults GE's parser refuses too. Usage: make_unsorted_models.py OUT_DIR
  sorted.onnx      x -> Cast(float) -> Relu -> Mul(2) -> y, in order
  unsorted.onnx    the same nodes with the Cast last
  if_outer.onnx    an If whose branches read 'scaled', made by a Mul that
                   comes after the If in the file
  cycle.onnx       a -> b -> a
  unmade.onnx      a node reads 'ghost', which nothing makes
  inputs/          a run folder (input_0.pb)"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(nodes, name, inputs=None, outputs=None, initializers=()):
    inputs = inputs or [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 8])]
    outputs = outputs or [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])]
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    with open(os.path.join(out, name), "wb") as stream:
        stream.write(model.SerializeToString())  # onnx.save would not check; nor does this


out = sys.argv[1]
os.makedirs(os.path.join(out, "inputs"), exist_ok=True)
two = numpy_helper.from_array(np.array(2.0, dtype=np.float32), "two")
cast = helper.make_node("Cast", ["x"], ["xf"], name="x/Cast", to=TensorProto.FLOAT)
relu = helper.make_node("Relu", ["xf"], ["r"], name="relu")
mul = helper.make_node("Mul", ["r", "two"], ["y"], name="mul")
save([cast, relu, mul], "sorted.onnx", initializers=[two])
save([relu, mul, cast], "unsorted.onnx", initializers=[two])

flag = helper.make_tensor_value_info("flag", TensorProto.BOOL, [])
then_branch = helper.make_graph(
    [helper.make_node("Relu", ["scaled"], ["t"], name="then/relu")], "then", [],
    [helper.make_tensor_value_info("t", TensorProto.FLOAT, [2, 8])])
else_branch = helper.make_graph(
    [helper.make_node("Neg", ["scaled"], ["e"], name="else/neg")], "else", [],
    [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2, 8])])
branch = helper.make_node("If", ["flag"], ["y"], name="if", then_branch=then_branch,
                          else_branch=else_branch)
scale = helper.make_node("Mul", ["xf", "two"], ["scaled"], name="scale")
save([branch, scale, cast], "if_outer.onnx", initializers=[two],
     inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 8]), flag])

a = helper.make_node("Relu", ["b_out"], ["a_out"], name="a")
b = helper.make_node("Add", ["a_out", "xf"], ["b_out"], name="b")
c = helper.make_node("Identity", ["a_out"], ["y"], name="c")
save([cast, a, b, c], "cycle.onnx")
save([cast, helper.make_node("Add", ["xf", "ghost"], ["y"], name="haunted")], "unmade.onnx")

x = (np.arange(16, dtype=np.float32).reshape(2, 8) - 8) / 4
with open(os.path.join(out, "inputs", "input_0.pb"), "wb") as stream:
    stream.write(numpy_helper.from_array(x.astype(np.float16), "x").SerializeToString())
