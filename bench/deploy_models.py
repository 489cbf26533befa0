#!/usr/bin/env python3
"""Deployment-size models for bench/deploy_speed.py, exported as PyTorch's
TorchScript exporter writes them (weights random: speed does not depend on
them):

- bert_base: a BERT-base encoder (12 layers, hidden 768, 12 heads, FFN
  3072) over token ids [8, 128] and an attention mask, embeddings included;
  LayerNorm as LayerNormalization (opset 17), GELU in its erf form, the mask
  turned into an additive bias through Unsqueeze/Cast/Sub/Mul.
- resnet50: torchvision's ResNet-50 (bottlenecks 3/4/6/3, BatchNorm after
  every Conv, stride on the 3x3) at batch 64 of 224x224, and resnet50_int8,
  the same with every Conv's input and weights in symmetric int8 QDQ (as
  AMCT or onnxruntime's quantizer writes them), for the cost model's
  calibration (bench/cost_calibration.py).
- lstm: a speech-style recognizer: features [1, 200, 80] (batch first), two
  bidirectional LSTM layers of 256 (nn.LSTM(batch_first=True) exports a
  Transpose to sequence-first, then per layer LSTM, Transpose and Reshape of
  the two directions), a Linear to 32 classes and LogSoftmax.

Usage: deploy_models.py OUT_DIR [--only bert_base,lstm,resnet50,resnet50_int8] [--layers 12]
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


class Graph:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.count = [], [], 0

    def init(self, name, value, dtype=np.float32):
        self.inits.append(nh.from_array(np.asarray(value, dtype), name))
        return name

    def weight(self, name, *shape, scale=0.05):
        return self.init(name, self.rng.standard_normal(shape) * scale)

    def node(self, op, inputs, name, outputs=1, **attrs):
        outs = [f"{name}_output_{i}" for i in range(outputs)]
        self.nodes.append(h.make_node(op, inputs, outs, name=name, **attrs))
        return outs[0] if outputs == 1 else outs


def save(g, path, name, inputs, outputs, opset):
    graph = h.make_graph(g.nodes, name, inputs, outputs, g.inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)],
                         producer_name="pytorch", producer_version="2.1.0")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def bert_base(path, layers):
    g = Graph(1)
    vocab, dim, heads, ffn, seq = 30522, 768, 12, 3072, 128
    head = dim // heads

    def linear(x, prefix, cin, cout):
        y = g.node("MatMul", [x, g.weight(f"{prefix}.weight_T", cin, cout)], f"{prefix}/MatMul")
        return g.node("Add", [g.weight(f"{prefix}.bias", cout, scale=0.02), y], f"{prefix}/Add")

    def layer_norm(x, prefix):
        return g.node("LayerNormalization",
                      [x, g.init(f"{prefix}.weight", 1 + 0.05 * g.rng.standard_normal(dim)),
                       g.init(f"{prefix}.bias", 0.02 * g.rng.standard_normal(dim))],
                      f"{prefix}/LayerNormalization", axis=-1, epsilon=1e-12)

    def heads_of(x, prefix, perm):
        shaped = g.node("Reshape", [x, g.init(f"{prefix}/shape", [0, 0, heads, head], np.int64)],
                        f"{prefix}/Reshape")
        return g.node("Transpose", [shaped], f"{prefix}/Transpose", perm=perm)

    words = g.node("Gather", [g.weight("embeddings.word_embeddings.weight", vocab, dim),
                              "input_ids"], "/embeddings/word_embeddings/Gather")
    positions = g.init("embeddings.position_ids", np.arange(seq)[None], np.int64)
    where = g.node("Gather", [g.weight("embeddings.position_embeddings.weight", 512, dim),
                              positions], "/embeddings/position_embeddings/Gather")
    x = g.node("Add", [words, where], "/embeddings/Add")
    x = layer_norm(x, "/embeddings/LayerNorm")
    # (1 - mask) * -10000, broadcast over heads and query positions.
    mask = g.node("Unsqueeze", ["attention_mask", g.init("/mask_axes", [1, 2], np.int64)],
                  "/Unsqueeze")
    mask = g.node("Cast", [mask], "/Cast", to=T.FLOAT)
    mask = g.node("Sub", [g.init("/one", 1.0), mask], "/Sub")
    bias = g.node("Mul", [mask, g.init("/min", -10000.0)], "/Mul")
    for i in range(layers):
        p = f"/encoder/layer.{i}"
        q = heads_of(linear(x, f"{p}/attention/self/query", dim, dim), f"{p}/q", [0, 2, 1, 3])
        k = heads_of(linear(x, f"{p}/attention/self/key", dim, dim), f"{p}/k", [0, 2, 3, 1])
        v = heads_of(linear(x, f"{p}/attention/self/value", dim, dim), f"{p}/v", [0, 2, 1, 3])
        scores = g.node("MatMul", [q, k], f"{p}/attention/self/MatMul")
        scores = g.node("Div", [scores, g.init(f"{p}/sqrt_d", np.sqrt(head))],
                        f"{p}/attention/self/Div")
        scores = g.node("Add", [scores, bias], f"{p}/attention/self/Add")
        probs = g.node("Softmax", [scores], f"{p}/attention/self/Softmax", axis=-1)
        context = g.node("MatMul", [probs, v], f"{p}/attention/self/MatMul_1")
        context = g.node("Transpose", [context], f"{p}/attention/self/Transpose_3",
                         perm=[0, 2, 1, 3])
        context = g.node("Reshape", [context, g.init(f"{p}/merge", [0, 0, dim], np.int64)],
                         f"{p}/attention/self/Reshape_3")
        attn = linear(context, f"{p}/attention/output/dense", dim, dim)
        x = layer_norm(g.node("Add", [attn, x], f"{p}/attention/output/Add"),
                       f"{p}/attention/output/LayerNorm")
        up = linear(x, f"{p}/intermediate/dense", dim, ffn)
        erf = g.node("Erf", [g.node("Div", [up, g.init(f"{p}/sqrt2", 1.4142135)],
                                    f"{p}/intermediate/intermediate_act_fn/Div")],
                     f"{p}/intermediate/intermediate_act_fn/Erf")
        gelu = g.node("Mul", [g.node("Mul", [up, g.node("Add", [erf, g.init(f"{p}/one", 1.0)],
                                                        f"{p}/intermediate/intermediate_act_fn/Add")],
                                     f"{p}/intermediate/intermediate_act_fn/Mul"),
                              g.init(f"{p}/half", 0.5)],
                      f"{p}/intermediate/intermediate_act_fn/Mul_1")
        down = linear(gelu, f"{p}/output/dense", ffn, dim)
        x = layer_norm(g.node("Add", [down, x], f"{p}/output/Add"), f"{p}/output/LayerNorm")
    g.nodes.append(h.make_node("Identity", [x], ["last_hidden_state"], name="/Identity"))
    save(g, path, "bert_base",
         [h.make_tensor_value_info("input_ids", T.INT64, ["batch", seq]),
          h.make_tensor_value_info("attention_mask", T.INT64, ["batch", seq])],
         [h.make_tensor_value_info("last_hidden_state", T.FLOAT, ["batch", seq, dim])], 17)
    return "input_ids:8,128;attention_mask:8,128"


def lstm(path):
    g = Graph(2)
    features, hidden, classes = 80, 256, 32
    x = g.node("Transpose", ["features"], "/Transpose", perm=[1, 0, 2])      # S, B, F
    width = features
    for i in range(2):
        p = f"/lstm/layer{i}"
        w = g.weight(f"lstm.W_{i}", 2, 4 * hidden, width, scale=0.06)
        r = g.weight(f"lstm.R_{i}", 2, 4 * hidden, hidden, scale=0.06)
        b = g.weight(f"lstm.B_{i}", 2, 8 * hidden, scale=0.02)
        zeros = g.init(f"{p}/initial", np.zeros((2, 1, hidden)))
        y, _, _ = g.node("LSTM", [x, w, r, b, "", zeros, zeros], f"{p}/LSTM", outputs=3,
                         hidden_size=hidden, direction="bidirectional")      # S, 2, B, H
        y = g.node("Transpose", [y], f"{p}/Transpose", perm=[0, 2, 1, 3])   # S, B, 2, H
        x = g.node("Reshape", [y, g.init(f"{p}/shape", [0, 0, -1], np.int64)], f"{p}/Reshape")
        width = 2 * hidden
    x = g.node("Transpose", [x], "/Transpose_1", perm=[1, 0, 2])            # B, S, 2H
    logits = g.node("Add", [g.weight("fc.bias", classes, scale=0.02),
                            g.node("MatMul", [x, g.weight("fc.weight_T", width, classes)],
                                   "/fc/MatMul")], "/fc/Add")
    g.nodes.append(h.make_node("LogSoftmax", [logits], ["log_probs"], name="/LogSoftmax", axis=-1))
    save(g, path, "lstm", [h.make_tensor_value_info("features", T.FLOAT, [1, "frames", features])],
         [h.make_tensor_value_info("log_probs", T.FLOAT, [1, "frames", classes])], 14)
    return "features:1,200,80"


def resnet50(path, int8=False):
    g = Graph(3)

    def quantized_conv_inputs(x, prefix, cin, cout, k):
        # Symmetric int8 QDQ as AMCT and onnxruntime's quantizer write it:
        # the activation through QuantizeLinear/DequantizeLinear, the
        # weights int8 per output channel with a DequantizeLinear.
        scale, zero = g.init(f"{prefix}.x_scale", 1 / 32.0), g.init(f"{prefix}.x_zero", 0, np.int8)
        x = g.node("DequantizeLinear", [g.node("QuantizeLinear", [x, scale, zero], f"{prefix}/QuantizeLinear"),
                                        scale, zero], f"{prefix}/DequantizeLinear")
        w = g.rng.standard_normal((cout, cin, k, k)) * 0.05
        w_scale = np.abs(w).reshape(cout, -1).max(axis=1) / 127
        w_q = np.clip(np.rint(w / w_scale[:, None, None, None]), -127, 127)
        w = g.node("DequantizeLinear", [g.init(f"{prefix}.weight_q", w_q, np.int8),
                                        g.init(f"{prefix}.weight_scale", w_scale)],
                   f"{prefix}/weight/DequantizeLinear", axis=0)
        return x, w

    def conv_bn(x, prefix, cin, cout, k, stride, relu=True):
        if int8:
            x, w = quantized_conv_inputs(x, prefix, cin, cout, k)
        else:
            w = g.weight(f"{prefix}.weight", cout, cin, k, k, scale=0.05)
        y = g.node("Conv", [x, w], f"{prefix}/Conv", kernel_shape=[k, k], strides=[stride, stride],
                   pads=[k // 2] * 4)
        if int8:
            # A quantized export has BatchNorm folded into the weights.
            return g.node("Relu", [y], f"{prefix}/Relu") if relu else y
        y = g.node("BatchNormalization",
                   [y, g.init(f"{prefix}.bn.weight", np.ones(cout)),
                    g.init(f"{prefix}.bn.bias", np.zeros(cout)),
                    g.init(f"{prefix}.bn.running_mean", np.zeros(cout)),
                    g.init(f"{prefix}.bn.running_var", np.ones(cout))],
                   f"{prefix}/BatchNormalization", epsilon=1e-5)
        return g.node("Relu", [y], f"{prefix}/Relu") if relu else y

    x = conv_bn("input", "/conv1", 3, 64, 7, 2)
    x = g.node("MaxPool", [x], "/maxpool/MaxPool", kernel_shape=[3, 3], strides=[2, 2],
               pads=[1, 1, 1, 1])
    cin = 64
    for stage, (blocks, width) in enumerate(((3, 64), (4, 128), (6, 256), (3, 512))):
        for b in range(blocks):
            p = f"/layer{stage + 1}/layer{stage + 1}.{b}"
            stride = 2 if b == 0 and stage > 0 else 1
            y = conv_bn(x, f"{p}/conv1", cin, width, 1, 1)
            y = conv_bn(y, f"{p}/conv2", width, width, 3, stride)
            y = conv_bn(y, f"{p}/conv3", width, 4 * width, 1, 1, relu=False)
            shortcut = x if b > 0 else conv_bn(x, f"{p}/downsample", cin, 4 * width, 1, stride,
                                               relu=False)
            x = g.node("Relu", [g.node("Add", [y, shortcut], f"{p}/Add")], f"{p}/Relu_2")
            cin = 4 * width
    x = g.node("Flatten", [g.node("GlobalAveragePool", [x], "/avgpool/GlobalAveragePool")],
               "/Flatten", axis=1)
    g.nodes.append(h.make_node("Gemm", [x, g.weight("fc.weight", 1000, 2048), g.weight("fc.bias", 1000)],
                               ["output"], name="/fc/Gemm", transB=1))
    save(g, path, "resnet50", [h.make_tensor_value_info("input", T.FLOAT, ["batch", 3, 224, 224])],
         [h.make_tensor_value_info("output", T.FLOAT, ["batch", 1000])], 13)
    return "input:64,3,224,224"


def resnet50_int8(path):
    resnet50(path, int8=True)
    return "input:1,3,224,224"


MODELS = {"bert_base": bert_base, "lstm": lstm, "resnet50": resnet50,
          "resnet50_int8": resnet50_int8}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--only", default="bert_base,lstm")
    parser.add_argument("--layers", type=int, default=12, help="BERT's encoder layers")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.only.split(","):
        path = os.path.join(args.out, name + ".onnx")
        shapes = MODELS[name](path, args.layers) if name == "bert_base" else MODELS[name](path)
        with open(path[:-len(".onnx")] + ".inputs.txt", "w") as f:
            f.write(shapes + "\n")
        print(path)


if __name__ == "__main__":
    main()
