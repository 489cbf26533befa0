#!/usr/bin/env python3
"""Writes the bundled example model: a small CNN stage (Conv, BatchNormalization,
Relu, MaxPool) feeding a transformer block (MatMul attention, Softmax, a
residual Add, LayerNormalization and an MLP with Gelu). ONNX has no Gelu op
before opset 20, so Gelu appears as PyTorch exports it at opset 17:
0.5 * x * (1 + erf(x / sqrt(2))). Weights come from a fixed seed, so the file
is the same on every run. Needs Debian's python3-onnx and python3-numpy (run
with /usr/bin/python3).

  /usr/bin/python3 examples/make_example_model.py OUT.onnx
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "example.onnx"
    rng = np.random.default_rng(20261122)

    def weight(name, *shape, scale=0.1):
        return numpy_helper.from_array(
            (rng.standard_normal(shape) * scale).astype(np.float32), name)

    inits = [
        weight("stem.conv.weight", 8, 3, 3, 3),
        weight("stem.conv.bias", 8),
        numpy_helper.from_array(np.ones(8, np.float32), "stem.bn.weight"),
        numpy_helper.from_array(np.zeros(8, np.float32), "stem.bn.bias"),
        weight("stem.bn.running_mean", 8, scale=0.05),
        numpy_helper.from_array((1 + rng.random(8) * 0.2).astype(np.float32),
                                "stem.bn.running_var"),
        numpy_helper.from_array(np.array([1, 8, 64], np.int64), "tokens.shape"),
        weight("attn.q.weight", 8, 8),
        weight("attn.k.weight", 8, 8),
        weight("attn.v.weight", 8, 8),
        numpy_helper.from_array(np.ones(8, np.float32), "ln.weight"),
        numpy_helper.from_array(np.zeros(8, np.float32), "ln.bias"),
        weight("mlp.fc1.weight", 8, 16),
        numpy_helper.from_array(np.array(1 / np.sqrt(2), np.float32), "gelu.inv_sqrt2"),
        numpy_helper.from_array(np.array(1.0, np.float32), "gelu.one"),
        numpy_helper.from_array(np.array(0.5, np.float32), "gelu.half"),
        weight("mlp.fc2.weight", 16, 8),
    ]
    n = helper.make_node
    nodes = [
        # CNN stage: [1, 3, 16, 16] -> [1, 8, 8, 8]
        n("Conv", ["image", "stem.conv.weight", "stem.conv.bias"], ["c1"], name="stem.conv",
          kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]),
        n("BatchNormalization", ["c1", "stem.bn.weight", "stem.bn.bias",
                                 "stem.bn.running_mean", "stem.bn.running_var"], ["b1"],
          name="stem.bn", epsilon=1e-5),
        n("Relu", ["b1"], ["r1"], name="stem.relu"),
        n("MaxPool", ["r1"], ["p1"], name="stem.pool", kernel_shape=[2, 2], strides=[2, 2]),
        # Tokens: [1, 8, 8, 8] -> [1, 8, 64] -> [1, 64, 8]
        n("Reshape", ["p1", "tokens.shape"], ["t0"], name="tokens.flatten"),
        n("Transpose", ["t0"], ["x"], name="tokens.transpose", perm=[0, 2, 1]),
        # Attention
        n("MatMul", ["x", "attn.q.weight"], ["q"], name="attn.q"),
        n("MatMul", ["x", "attn.k.weight"], ["k"], name="attn.k"),
        n("MatMul", ["x", "attn.v.weight"], ["v"], name="attn.v"),
        n("Transpose", ["k"], ["kt"], name="attn.k.transpose", perm=[0, 2, 1]),
        n("MatMul", ["q", "kt"], ["scores"], name="attn.scores"),
        n("Softmax", ["scores"], ["probs"], name="attn.softmax", axis=-1),
        n("MatMul", ["probs", "v"], ["ctx"], name="attn.context"),
        n("Add", ["ctx", "x"], ["res"], name="attn.residual"),
        n("LayerNormalization", ["res", "ln.weight", "ln.bias"], ["ln"], name="ln",
          axis=-1, epsilon=1e-5),
        # MLP with Gelu as PyTorch exports it: 0.5 * x * (1 + erf(x / sqrt(2)))
        n("MatMul", ["ln", "mlp.fc1.weight"], ["h"], name="mlp.fc1"),
        n("Mul", ["h", "gelu.inv_sqrt2"], ["g0"], name="mlp.gelu.scale"),
        n("Erf", ["g0"], ["g1"], name="mlp.gelu.erf"),
        n("Add", ["g1", "gelu.one"], ["g2"], name="mlp.gelu.add"),
        n("Mul", ["h", "g2"], ["g3"], name="mlp.gelu.mul"),
        n("Mul", ["g3", "gelu.half"], ["g4"], name="mlp.gelu.half"),
        n("MatMul", ["g4", "mlp.fc2.weight"], ["out"], name="mlp.fc2"),
    ]
    graph = helper.make_graph(
        nodes, "cnn_transformer",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 64, 8])],
        initializer=inits)
    model = helper.make_model(graph, producer_name="ascendprec-example",
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, out)
    print(f"{out}: {len(nodes)} nodes, {len(inits)} initializers (opset 17)")


if __name__ == "__main__":
    main()
