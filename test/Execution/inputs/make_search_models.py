#!/usr/bin/env python3
"""Models for the --search-precision tests, exported the way PyTorch and
Paddle export them (opset 13). Usage: make_search_models.py OUT_DIR
  cnn.onnx        Paddle-style CNN on [1, 3, 128, 128]: three Conv (no bias) +
                  BatchNormalization + Relu, global pool, Flatten, Gemm
  attention.onnx  PyTorch-style encoder layer on [1, 128, 256]: decomposed
                  LayerNorm, single-head attention (MatMul, Div by sqrt(d),
                  Softmax, MatMul), output Linear, residual, Erf-form GELU MLP
  t5_norm.onnx    T5-style blocks on [1, 32, 512] whose activations reach a
                  few thousand: each decomposed LayerNorm's Pow overflows
                  fp16 (x^2 > 65504) although every value of the model is
                  finite in fp32"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
n = h.make_node


def w(name, *shape, scale=0.1):
    return nh.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)


def const(name, value):
    return nh.from_array(np.array(value, dtype=np.float32), name)


def save(nodes, inits, inputs, outputs, name):
    graph = h.make_graph(nodes, name, inputs, outputs, inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)],
                         producer_name="pytorch", producer_version="2.1.0")
    onnx.save(model, f"{out}/{name}.onnx")


def cnn():
    nodes, inits, x, c_in = [], [], "x", 3
    for i, c in enumerate([32, 64, 64]):
        inits += [w(f"conv2d_{i}.w_0", c, c_in, 3, 3, scale=0.3),
                  nh.from_array((1 + 0.1 * rng.standard_normal(c)).astype(np.float32), f"batch_norm_{i}.w_0"),
                  w(f"batch_norm_{i}.b_0", c),
                  w(f"batch_norm_{i}.w_1", c),
                  nh.from_array((0.5 + rng.random(c)).astype(np.float32), f"batch_norm_{i}.w_2")]
        nodes += [n("Conv", [x, f"conv2d_{i}.w_0"], [f"conv2d_{i}.tmp_0"], name=f"conv2d_{i}",
                    pads=[1, 1, 1, 1]),
                  n("BatchNormalization", [f"conv2d_{i}.tmp_0", f"batch_norm_{i}.w_0", f"batch_norm_{i}.b_0",
                                           f"batch_norm_{i}.w_1", f"batch_norm_{i}.w_2"],
                    [f"batch_norm_{i}.tmp_2"], name=f"batch_norm_{i}", epsilon=1e-5),
                  n("Relu", [f"batch_norm_{i}.tmp_2"], [f"relu_{i}.tmp_0"], name=f"relu_{i}")]
        x, c_in = f"relu_{i}.tmp_0", c
    inits += [w("linear_0.w_0", 10, c_in), w("linear_0.b_0", 10)]
    nodes += [n("GlobalAveragePool", [x], ["pool2d_0.tmp_0"], name="pool2d_0"),
              n("Flatten", ["pool2d_0.tmp_0"], ["flatten_0.tmp_0"], name="flatten_0"),
              n("Gemm", ["flatten_0.tmp_0", "linear_0.w_0", "linear_0.b_0"], ["linear_0.tmp_1"],
                name="linear_0", transB=1)]
    save(nodes, inits, [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 128, 128])],
         [h.make_tensor_value_info("linear_0.tmp_1", T.FLOAT, [1, 10])], "cnn")


def layer_norm(prefix, x, d, inits):
    """PyTorch's decomposed LayerNorm export."""
    inits += [nh.from_array(np.ones(d, np.float32), f"{prefix}.weight"),
              nh.from_array(np.zeros(d, np.float32), f"{prefix}.bias")]
    p = f"/{prefix}"
    return [
        n("ReduceMean", [x], [f"{p}/ReduceMean_output_0"], name=f"{p}/ReduceMean", axes=[-1]),
        n("Sub", [x, f"{p}/ReduceMean_output_0"], [f"{p}/Sub_output_0"], name=f"{p}/Sub"),
        n("Pow", [f"{p}/Sub_output_0", "two"], [f"{p}/Pow_output_0"], name=f"{p}/Pow"),
        n("ReduceMean", [f"{p}/Pow_output_0"], [f"{p}/ReduceMean_1_output_0"], name=f"{p}/ReduceMean_1",
          axes=[-1]),
        n("Add", [f"{p}/ReduceMean_1_output_0", "eps"], [f"{p}/Add_output_0"], name=f"{p}/Add"),
        n("Sqrt", [f"{p}/Add_output_0"], [f"{p}/Sqrt_output_0"], name=f"{p}/Sqrt"),
        n("Div", [f"{p}/Sub_output_0", f"{p}/Sqrt_output_0"], [f"{p}/Div_output_0"], name=f"{p}/Div"),
        n("Mul", [f"{p}/Div_output_0", f"{prefix}.weight"], [f"{p}/Mul_output_0"], name=f"{p}/Mul"),
        n("Add", [f"{p}/Mul_output_0", f"{prefix}.bias"], [f"{p}/Add_1_output_0"], name=f"{p}/Add_1"),
    ], f"{p}/Add_1_output_0"


def linear(prefix, x, d_in, d_out, inits, scale=None):
    inits += [w(f"{prefix}.weight_T", d_in, d_out, scale=scale or d_in ** -0.5), w(f"{prefix}.bias", d_out)]
    p = f"/{prefix}"
    return [n("MatMul", [x, f"{prefix}.weight_T"], [f"{p}/MatMul_output_0"], name=f"{p}/MatMul"),
            n("Add", [f"{p}/MatMul_output_0", f"{prefix}.bias"], [f"{p}/Add_output_0"], name=f"{p}/Add")], \
        f"{p}/Add_output_0"


def gelu(prefix, x):
    p = f"/{prefix}"
    return [n("Div", [x, "sqrt2"], [f"{p}/Div_output_0"], name=f"{p}/Div"),
            n("Erf", [f"{p}/Div_output_0"], [f"{p}/Erf_output_0"], name=f"{p}/Erf"),
            n("Add", [f"{p}/Erf_output_0", "one"], [f"{p}/Add_output_0"], name=f"{p}/Add"),
            n("Mul", [x, f"{p}/Add_output_0"], [f"{p}/Mul_output_0"], name=f"{p}/Mul"),
            n("Mul", [f"{p}/Mul_output_0", "half"], [f"{p}/Mul_1_output_0"], name=f"{p}/Mul_1")], \
        f"{p}/Mul_1_output_0"


def common_constants():
    return [const("two", 2.0), const("eps", 1e-5), const("sqrt2", 2 ** 0.5), const("one", 1.0),
            const("half", 0.5)]


def attention():
    S, D, F = 128, 256, 1024
    inits = common_constants() + [const("scale", D ** 0.5)]
    nodes, ln = layer_norm("ln1", "x", D, inits)
    for name in ["q", "k", "v"]:
        more, _ = linear(f"attn.{name}", ln, D, D, inits)
        nodes += more
    nodes += [
        n("Transpose", ["/attn.k/Add_output_0"], ["/attn/Transpose_output_0"], name="/attn/Transpose",
          perm=[0, 2, 1]),
        n("MatMul", ["/attn.q/Add_output_0", "/attn/Transpose_output_0"], ["/attn/MatMul_output_0"],
          name="/attn/MatMul"),
        n("Div", ["/attn/MatMul_output_0", "scale"], ["/attn/Div_output_0"], name="/attn/Div"),
        n("Softmax", ["/attn/Div_output_0"], ["/attn/Softmax_output_0"], name="/attn/Softmax", axis=-1),
        n("MatMul", ["/attn/Softmax_output_0", "/attn.v/Add_output_0"], ["/attn/MatMul_1_output_0"],
          name="/attn/MatMul_1")]
    more, o = linear("attn.out", "/attn/MatMul_1_output_0", D, D, inits)
    nodes += more + [n("Add", ["x", o], ["/Add_output_0"], name="/Add")]
    more, ln2 = layer_norm("ln2", "/Add_output_0", D, inits)
    nodes += more
    more, f1 = linear("mlp.fc1", ln2, D, F, inits)
    nodes += more
    more, g = gelu("mlp.act", f1)
    nodes += more
    more, f2 = linear("mlp.fc2", g, F, D, inits)
    nodes += more + [n("Add", ["/Add_output_0", f2], ["y"], name="/Add_1")]
    save(nodes, inits, [h.make_tensor_value_info("x", T.FLOAT, [1, S, D])],
         [h.make_tensor_value_info("y", T.FLOAT, [1, S, D])], "attention")


def t5_norm():
    S, D, F = 32, 512, 2048
    inits = common_constants()
    # Two feed-forward blocks whose weights grow the activations to a few
    # thousand, as in T5; each ends in a LayerNorm.
    nodes, x = [], "x"
    for block in ["ff", "ff2"]:
        more, f1 = linear(f"{block}.wi", x, D, F, inits, scale=3.0)
        nodes += more + [n("Relu", [f1], [f"/{block}/Relu_output_0"], name=f"/{block}/Relu")]
        more, f2 = linear(f"{block}.wo", f"/{block}/Relu_output_0", F, D, inits, scale=3.0)
        nodes += more
        more, x = layer_norm(f"{block}.ln", f2, D, inits)
        nodes += more
    more, y = linear("head", x, D, D, inits)
    nodes += more + [n("Tanh", [y], ["y"], name="/head/Tanh")]
    save(nodes, inits, [h.make_tensor_value_info("x", T.FLOAT, [1, S, D])],
         [h.make_tensor_value_info("y", T.FLOAT, [1, S, D])], "t5_norm")


cnn()
attention()
t5_norm()
