#!/usr/bin/env python3
"""Writes an ONNX model of BLOCKS transformer-style blocks with PyTorch-style
node names (/blocks.3/attn/MatMul, ...), about 10 ops per block, with a
symbolic batch dimension. For the HTML, Graphviz and browser tests.

  make_scoped_model.py BLOCKS OUT.onnx"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

blocks, out = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(3)
d = 16
nodes, inits = [], []


def weight(name, *shape):
    inits.append(numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name))
    return name


cur = "tokens"
for b in range(blocks):
    p = f"/blocks.{b}"
    q = f"{p}/attn/q_proj/MatMul_output_0"
    nodes += [
        helper.make_node("MatMul", [cur, weight(f"blocks.{b}.attn.q.weight", d, d)], [q], name=f"{p}/attn/q_proj/MatMul"),
        helper.make_node("Softmax", [q], [f"{p}/attn/Softmax_output_0"], name=f"{p}/attn/Softmax", axis=-1),
        helper.make_node("MatMul", [f"{p}/attn/Softmax_output_0", weight(f"blocks.{b}.attn.o.weight", d, d)],
                         [f"{p}/attn/o_proj/MatMul_output_0"], name=f"{p}/attn/o_proj/MatMul"),
        helper.make_node("Add", [cur, f"{p}/attn/o_proj/MatMul_output_0"], [f"{p}/Add_output_0"], name=f"{p}/Add"),
        helper.make_node("LayerNormalization", [f"{p}/Add_output_0", weight(f"blocks.{b}.ln.weight", d),
                                                weight(f"blocks.{b}.ln.bias", d)],
                         [f"{p}/ln/LayerNormalization_output_0"], name=f"{p}/ln/LayerNormalization", axis=-1),
        helper.make_node("MatMul", [f"{p}/ln/LayerNormalization_output_0", weight(f"blocks.{b}.mlp.fc1.weight", d, d)],
                         [f"{p}/mlp/fc1/MatMul_output_0"], name=f"{p}/mlp/fc1/MatMul"),
        helper.make_node("Relu", [f"{p}/mlp/fc1/MatMul_output_0"], [f"{p}/mlp/act/Relu_output_0"], name=f"{p}/mlp/act/Relu"),
        helper.make_node("MatMul", [f"{p}/mlp/act/Relu_output_0", weight(f"blocks.{b}.mlp.fc2.weight", d, d)],
                         [f"{p}/mlp/fc2/MatMul_output_0"], name=f"{p}/mlp/fc2/MatMul"),
        helper.make_node("Add", [f"{p}/ln/LayerNormalization_output_0", f"{p}/mlp/fc2/MatMul_output_0"],
                         [f"{p}/Add_1_output_0"], name=f"{p}/Add_1"),
        helper.make_node("Tanh", [f"{p}/Add_1_output_0"], [f"{p}/Tanh_output_0"], name=f"{p}/Tanh"),
    ]
    cur = f"{p}/Tanh_output_0"
graph = helper.make_graph(nodes, "scoped",
                          [helper.make_tensor_value_info("tokens", TensorProto.FLOAT, ["batch", 8, d])],
                          [helper.make_tensor_value_info(cur, TensorProto.FLOAT, ["batch", 8, d])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, out)
