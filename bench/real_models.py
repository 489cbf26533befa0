#!/usr/bin/env python3
"""Models exported the way public exporters write them (issue 31), with
random weights: what matters is the graph's shape, not what it learned.

  svtr  Paddle2ONNX-style text recognizer: Conv/BN/Swish stem, Squeeze,
        attention whose Reshape targets are computed as
        Concat(Cast(Constant), Cast(Slice(Cast(Shape(t)))), ...), as
        Paddle's int32 shape tensors are exported.
  vad   Silero-style voice-activity detector: the whole body sits in an If on
        the sample-rate input (16 kHz / 8 kHz branches); the branches read the
        outer graph's input, LSTM state and weights by name, and ONNX writes no
        types for the branch values.
  bert  BERT-style encoder layer: token embedding through Gather, a causal
        mask from Trilu and Where, a GatherElements head.
  yolo  YOLOv8-style detector as Ultralytics exports it with NMS: a SiLU
        (Sigmoid * Mul) conv backbone, a head of 4 + C channels per cell
        reshaped to [1, 4 + C, N], Split into center boxes and class
        scores, Transpose, Sigmoid, and NonMaxSuppression (center boxes,
        IoU and score thresholds) as the model's output.
  dbnet DBNet-style text detector as Paddle2ONNX exports PaddleOCR's det
        model: a strided Conv/BN/ReLU backbone, an FPN whose top-down path
        upsamples with Resize (nearest, scales) and adds, the four levels
        resized to 1/4 and concatenated, and a head of Conv/BN/ReLU, two
        ConvTranspose (stride 2) upsamplings and a Sigmoid probability map.
  qdq_cnn  int8 QDQ CNN as AMCT's ONNX export and onnxruntime's quantizer
        write it: QuantizeLinear/DequantizeLinear before every Conv and the
        Gemm, weights as DequantizeLinear of int8 initializers with one scale
        per output channel, int32 biases through DequantizeLinear, a
        residual Add, Relu, MaxPool and global pooling in float between.

Usage: real_models.py OUT_DIR [--only NAME,...]
Writes NAME.onnx and NAME.inputs.txt (an --input_shape suggestion) for each.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


class Graph:
    """Collects nodes and initializers with Paddle/PyTorch-like names."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.count = {}

    def name(self, op):
        k = self.count.get(op, 0)
        self.count[op] = k + 1
        return f"{op.lower()}_{k}"

    def node(self, op, inputs, outputs=1, **attrs):
        name = self.name(op)
        outs = [f"{name}.tmp_{i}" for i in range(outputs)] if isinstance(outputs, int) else outputs
        self.nodes.append(h.make_node(op, inputs, outs, name=name, **attrs))
        return outs[0] if len(outs) == 1 else outs

    def weight(self, *shape, scale=None):
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
        scale = scale if scale is not None else 1.0 / np.sqrt(fan_in)
        name = self.name("w")
        self.inits.append(nh.from_array((self.rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def const(self, values, dtype):
        name = self.name("fill_constant")
        arr = np.array(values, dtype=dtype)
        self.nodes.append(h.make_node("Constant", [], [name], name=name + "_node",
                                      value=nh.from_array(arr, name)))
        return name

    def init(self, values, dtype):
        name = self.name("c")
        self.inits.append(nh.from_array(np.array(values, dtype=dtype), name))
        return name


# --- svtr -------------------------------------------------------------------

def paddle_shape_entry(g, t, start):
    """Paddle's shape(t)[start]: int32 shape, sliced, cast back to int64."""
    s = g.node("Shape", [t])
    s32 = g.node("Cast", [s], to=T.INT32)
    sl = g.node("Slice", [s32, g.init([start], np.int64), g.init([start + 1], np.int64),
                          g.init([0], np.int64)])
    return g.node("Cast", [sl], to=T.INT64)


def paddle_const_entry(g, value):
    return g.node("Cast", [g.const([value], np.int32)], to=T.INT64)


def conv_bn_swish(g, x, cin, cout, k, stride, pad):
    y = g.node("Conv", [x, g.weight(cout, cin, k, k)], kernel_shape=[k, k],
               strides=stride, pads=[pad] * 4)
    scale = g.init(1 + 0.1 * g.rng.standard_normal(cout), np.float32)
    bias = g.init(0.1 * g.rng.standard_normal(cout), np.float32)
    mean = g.init(0.1 * g.rng.standard_normal(cout), np.float32)
    var = g.init(1 + 0.2 * np.abs(g.rng.standard_normal(cout)), np.float32)
    y = g.node("BatchNormalization", [y, scale, bias, mean, var], epsilon=1e-5)
    return g.node("Mul", [y, g.node("Sigmoid", [y])])


def svtr(path):
    g = Graph(31)
    x = conv_bn_swish(g, "x", 3, 32, 3, [2, 2], 1)        # 24 x 160
    x = conv_bn_swish(g, x, 32, 64, 3, [2, 2], 1)          # 12 x 80
    x = conv_bn_swish(g, x, 64, 64, 3, [2, 1], 1)          # 6 x 80
    x = g.node("Conv", [x, g.weight(64, 64, 6, 1)], kernel_shape=[6, 1])  # 1 x 80
    seq = g.node("Transpose", [g.node("Squeeze", [x], axes=[2])], perm=[0, 2, 1])  # B,80,64
    dim, heads = 64, 2
    for block in range(2):
        ln_in = seq
        qkv = g.node("Add", [g.node("MatMul", [seq, g.weight(dim, 3 * dim)]),
                             g.init(0.02 * g.rng.standard_normal(3 * dim), np.float32)])
        # reshape(qkv, [0, -1, 3, heads, dim/heads]) with -1 read from shape(qkv)[1]
        target = g.node("Concat", [paddle_const_entry(g, 0), paddle_shape_entry(g, qkv, 1),
                                   paddle_const_entry(g, 3), paddle_const_entry(g, heads),
                                   paddle_const_entry(g, dim // heads)], axis=0)
        qkv = g.node("Transpose", [g.node("Reshape", [qkv, target])], perm=[2, 0, 3, 1, 4])
        q, k, v = (g.node("Squeeze", [g.node("Slice", [qkv, g.init([i], np.int64),
                                                       g.init([i + 1], np.int64),
                                                       g.init([0], np.int64)])], axes=[0])
                   for i in range(3))
        scores = g.node("Mul", [g.node("MatMul", [q, g.node("Transpose", [k], perm=[0, 1, 3, 2])]),
                                g.init(1.0 / np.sqrt(dim // heads), np.float32)])
        attn = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
        attn = g.node("Transpose", [attn], perm=[0, 2, 1, 3])
        target = g.node("Concat", [paddle_const_entry(g, 0), paddle_shape_entry(g, attn, 1),
                                   paddle_const_entry(g, dim)], axis=0)
        attn = g.node("Reshape", [attn, target])
        seq = g.node("Add", [ln_in, g.node("MatMul", [attn, g.weight(dim, dim)])])
        mean = g.node("ReduceMean", [seq], axes=[-1])
        centered = g.node("Sub", [seq, mean])
        var = g.node("ReduceMean", [g.node("Mul", [centered, centered])], axes=[-1])
        seq = g.node("Div", [centered, g.node("Sqrt", [g.node("Add", [var, g.init(1e-5, np.float32)])])])
    logits = g.node("Add", [g.node("MatMul", [seq, g.weight(dim, 97)]),
                            g.init(np.zeros(97), np.float32)])
    probs = g.node("Softmax", [logits], outputs=["softmax_out"], axis=2)
    graph = h.make_graph(g.nodes, "svtr", [h.make_tensor_value_info("x", T.FLOAT, ["p2o.DynamicDimension.0", 3, 48, 320])],
                         [h.make_tensor_value_info(probs, T.FLOAT, ["p2o.DynamicDimension.0", 80, 97])], g.inits)
    save(graph, path, 11, "x:1,3,48,320")


# --- vad --------------------------------------------------------------------

def vad_branch(g, name, window, hop, state_h, state_c, lstm):
    """One sample-rate branch: framing conv (an STFT as a Conv1d), magnitude,
    encoder, LSTM on the outer state, decoder and mean over time."""
    b = Graph(0)
    b.rng, b.count = g.rng, g.count
    x = b.node("Unsqueeze", ["input", b.init([1], np.int64)])                 # B,1,S
    x = b.node("Pad", [x, b.init([0, 0, window // 2, 0, 0, window // 2], np.int64)], mode="reflect")
    bins = window // 2 + 1
    basis = g.weight(2 * bins, 1, window)                                   # outer-scope weight
    spec = b.node("Conv", [x, basis], kernel_shape=[window], strides=[hop])   # B,2F,T
    real = b.node("Slice", [spec, b.init([0], np.int64), b.init([bins], np.int64), b.init([1], np.int64)])
    imag = b.node("Slice", [spec, b.init([bins], np.int64), b.init([2 * bins], np.int64), b.init([1], np.int64)])
    mag = b.node("Sqrt", [b.node("Add", [b.node("Mul", [real, real]), b.node("Mul", [imag, imag])])])
    y = b.node("Relu", [b.node("Conv", [mag, g.weight(32, bins, 3), g.init(np.zeros(32), np.float32)],
                                kernel_shape=[3], pads=[1, 1])])
    y = b.node("Relu", [b.node("Conv", [y, g.weight(64, 32, 3), g.init(np.zeros(64), np.float32)],
                                kernel_shape=[3], pads=[1, 1], strides=[2])])
    seq = b.node("Transpose", [y], perm=[2, 0, 1])                            # T,B,64
    W, R, B = lstm
    Y, Yh, Yc = b.node("LSTM", [seq, W, R, B, "", state_h, state_c],
                       outputs=[f"{name}/Y", f"{name}/hn", f"{name}/cn"], hidden_size=64)
    y = b.node("Transpose", [b.node("Squeeze", [Y, b.init([1], np.int64)])], perm=[1, 2, 0])
    y = b.node("Sigmoid", [b.node("Conv", [b.node("Relu", [y]), g.weight(1, 64, 1), g.init([0.0], np.float32)],
                                   kernel_shape=[1])])
    out = b.node("ReduceMean", [y], outputs=[f"{name}/out"], axes=[2], keepdims=0)
    # Exporters leave the branch outputs untyped.
    outputs = [h.make_tensor_value_info(n, T.FLOAT, None) for n in (out, Yh, Yc)]
    for o in outputs:
        o.type.tensor_type.ClearField("shape")
    return h.make_graph(b.nodes, name, [], outputs, b.inits)


def vad(path):
    g = Graph(7)
    lstm = (g.weight(1, 256, 64), g.weight(1, 256, 64), g.init(np.zeros((1, 512)), np.float32))
    then_g = vad_branch(g, "sr16k", 64, 32, "h", "c", lstm)
    else_g = vad_branch(g, "sr8k", 32, 16, "h", "c", lstm)
    is16k = g.node("Equal", ["sr", g.init(16000, np.int64)])
    g.node("If", [is16k], outputs=["output", "hn", "cn"], then_branch=then_g, else_branch=else_g)
    graph = h.make_graph(
        g.nodes, "vad",
        [h.make_tensor_value_info("input", T.FLOAT, ["batch", "samples"]),
         h.make_tensor_value_info("sr", T.INT64, []),
         h.make_tensor_value_info("h", T.FLOAT, [1, "batch", 64]),
         h.make_tensor_value_info("c", T.FLOAT, [1, "batch", 64])],
        [h.make_tensor_value_info("output", T.FLOAT, ["batch", 1]),
         h.make_tensor_value_info("hn", T.FLOAT, [1, "batch", 64]),
         h.make_tensor_value_info("cn", T.FLOAT, [1, "batch", 64])], g.inits)
    save(graph, path, 16, "input:1,512;sr:;h:1,1,64;c:1,1,64")


# --- bert -------------------------------------------------------------------

def bert(path):
    """A BERT-style encoder layer as PyTorch's dynamo exporter writes it: a
    causal mask built with Trilu and Where on the attention scores, token ids
    through Gather (embedding), a GatherElements picking each position's
    score of its own token (a log-likelihood head), and the sequence length
    read through Shape/Gather/Range."""
    g = Graph(11)
    vocab, dim, heads, seq = 100, 32, 2, 16
    table = g.weight(vocab, dim, scale=0.5)
    x = g.node("Gather", [table, "ids"], axis=0)                              # B,S,D
    positions = g.node("Range", [g.init(0, np.int64),
                                 g.node("Gather", [g.node("Shape", ["ids"]), g.init(1, np.int64)], axis=0),
                                 g.init(1, np.int64)])
    x = g.node("Add", [x, g.node("Gather", [g.weight(seq, dim, scale=0.5), positions], axis=0)])
    q = g.node("Transpose", [g.node("Reshape", [g.node("MatMul", [x, g.weight(dim, dim)]),
                                                g.init([0, seq, heads, dim // heads], np.int64)])],
               perm=[0, 2, 1, 3])
    k = g.node("Transpose", [g.node("Reshape", [g.node("MatMul", [x, g.weight(dim, dim)]),
                                                g.init([0, seq, heads, dim // heads], np.int64)])],
               perm=[0, 2, 3, 1])
    v = g.node("Transpose", [g.node("Reshape", [g.node("MatMul", [x, g.weight(dim, dim)]),
                                                g.init([0, seq, heads, dim // heads], np.int64)])],
               perm=[0, 2, 1, 3])
    scores = g.node("Div", [g.node("MatMul", [q, k]), g.init(np.sqrt(dim // heads), np.float32)])
    ones = g.node("ConstantOfShape", [g.init([seq, seq], np.int64)],
                  value=nh.from_array(np.array([1], np.float32)))
    causal = g.node("Cast", [g.node("Trilu", [ones, g.init(0, np.int64)], upper=0)], to=T.BOOL)
    scores = g.node("Where", [causal, scores, g.init(-1e4, np.float32)])
    attn = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
    attn = g.node("Reshape", [g.node("Transpose", [attn], perm=[0, 2, 1, 3]),
                              g.init([0, seq, dim], np.int64)])
    hidden = g.node("Add", [x, g.node("MatMul", [attn, g.weight(dim, dim)])])
    hidden = g.node("LayerNormalization", [hidden, g.init(np.ones(dim), np.float32),
                                           g.init(np.zeros(dim), np.float32)], axis=-1, epsilon=1e-5)
    logits = g.node("MatMul", [hidden, g.weight(dim, vocab)])
    logp = g.node("LogSoftmax", [logits], axis=-1)
    own = g.node("GatherElements", [logp, g.node("Unsqueeze", ["ids", g.init([2], np.int64)])], axis=2)
    g.node("Squeeze", [own, g.init([2], np.int64)], outputs=["token_logp"])
    graph = h.make_graph(g.nodes, "bert", [h.make_tensor_value_info("ids", T.INT64, ["batch", seq])],
                         [h.make_tensor_value_info("token_logp", T.FLOAT, ["batch", seq])], g.inits)
    save(graph, path, 17, "ids:2,16")


# --- yolo -------------------------------------------------------------------

def yolo(path):
    g = Graph(23)
    classes = 3

    def conv_silu(x, cin, cout, k, stride):
        y = g.node("Conv", [x, g.weight(cout, cin, k, k), g.weight(cout, scale=0.1)],
                   kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4)
        return g.node("Mul", [y, g.node("Sigmoid", [y])])

    x = conv_silu("images", 3, 16, 3, 2)
    x = conv_silu(x, 16, 32, 3, 2)
    x = conv_silu(x, 32, 32, 3, 2)                                         # 1,32,8,8
    head = g.node("Conv", [x, g.weight(4 + classes, 32, 1, 1), g.weight(4 + classes, scale=0.5)],
                  kernel_shape=[1, 1])
    flat = g.node("Reshape", [head, g.init([1, 4 + classes, -1], np.int64)])  # 1,7,64
    # Box centers and sizes in pixels, as the exporter's decode leaves them.
    xywh, cls = g.node("Split", [flat, g.init([4, classes], np.int64)], outputs=2, axis=1)
    # Decoded per grid cell: centers = (sigmoid + cell) * stride, sizes up
    # to three cells.
    cells = np.stack(np.meshgrid(np.arange(8), np.arange(8)), 0).reshape(2, -1)
    offset = np.concatenate([cells * 8.0, np.zeros((2, 64))], 0)[None].astype(np.float32)
    stride = np.array([8, 8, 24, 24], np.float32).reshape(1, 4, 1)
    xywh = g.node("Add", [g.node("Mul", [g.node("Sigmoid", [xywh]), g.init(stride, np.float32)]),
                          g.init(offset, np.float32)])
    boxes = g.node("Transpose", [xywh], perm=[0, 2, 1])                    # 1,64,4
    scores = g.node("Sigmoid", [cls])                                      # 1,3,64
    g.node("NonMaxSuppression", [boxes, scores, g.init([10], np.int64), g.init([0.45], np.float32),
                                 g.init([0.1], np.float32)], outputs=["selected"], center_point_box=1)
    graph = h.make_graph(g.nodes, "yolo", [h.make_tensor_value_info("images", T.FLOAT, [1, 3, 64, 64])],
                         [h.make_tensor_value_info("selected", T.INT64, ["n", 3])], g.inits)
    save(graph, path, 13, "images:1,3,64,64")


# --- dbnet ------------------------------------------------------------------

def dbnet(path):
    g = Graph(53)

    def conv_bn(x, cin, cout, k, stride, relu=True):
        y = g.node("Conv", [x, g.weight(cout, cin, k, k)], kernel_shape=[k, k],
                   strides=[stride, stride], pads=[k // 2] * 4)
        scale = g.init(1 + 0.1 * g.rng.standard_normal(cout), np.float32)
        bias = g.init(0.1 * g.rng.standard_normal(cout), np.float32)
        mean = g.init(0.1 * g.rng.standard_normal(cout), np.float32)
        var = g.init(1 + 0.2 * np.abs(g.rng.standard_normal(cout)), np.float32)
        y = g.node("BatchNormalization", [y, scale, bias, mean, var], epsilon=1e-5)
        return g.node("Relu", [y]) if relu else y

    def upsample(x, factor):
        # Paddle2ONNX writes F.upsample(scale_factor=2, mode="nearest") as
        # Resize with an empty roi and float scales.
        return g.node("Resize", [x, g.init(np.zeros(0, np.float32), np.float32),
                                 g.init([1, 1, factor, factor], np.float32)],
                      mode="nearest", coordinate_transformation_mode="asymmetric",
                      nearest_mode="floor")

    c = conv_bn("x", 3, 16, 3, 2)                       # 1/2
    c2 = conv_bn(c, 16, 16, 3, 2)                       # 1/4
    c3 = conv_bn(c2, 16, 24, 3, 2)                      # 1/8
    c4 = conv_bn(c3, 24, 32, 3, 2)                      # 1/16
    c5 = conv_bn(c4, 32, 48, 3, 2)                      # 1/32
    inner = 24
    in5, in4, in3, in2 = (g.node("Conv", [f, g.weight(inner, cin, 1, 1)], kernel_shape=[1, 1])
                          for f, cin in ((c5, 48), (c4, 32), (c3, 24), (c2, 16)))
    out4 = g.node("Add", [in4, upsample(in5, 2)])
    out3 = g.node("Add", [in3, upsample(out4, 2)])
    out2 = g.node("Add", [in2, upsample(out3, 2)])
    p5, p4, p3, p2 = (g.node("Conv", [f, g.weight(inner // 4, inner, 3, 3)], kernel_shape=[3, 3],
                             pads=[1] * 4) for f in (in5, out4, out3, out2))
    fuse = g.node("Concat", [upsample(p5, 8), upsample(p4, 4), upsample(p3, 2), p2], axis=1)
    y = conv_bn(fuse, inner, inner // 4, 3, 1)
    y = g.node("ConvTranspose", [y, g.weight(inner // 4, inner // 4, 2, 2), g.weight(inner // 4, scale=0.1)],
               kernel_shape=[2, 2], strides=[2, 2])
    y = g.node("Relu", [g.node("BatchNormalization",
                               [y, g.init(np.ones(inner // 4), np.float32),
                                g.init(np.zeros(inner // 4), np.float32),
                                g.init(0.1 * g.rng.standard_normal(inner // 4), np.float32),
                                g.init(1 + 0.2 * np.abs(g.rng.standard_normal(inner // 4)), np.float32)],
                               epsilon=1e-5)])
    y = g.node("ConvTranspose", [y, g.weight(inner // 4, 1, 2, 2), g.weight(1, scale=0.1)],
               kernel_shape=[2, 2], strides=[2, 2])
    g.node("Sigmoid", [y], outputs=["sigmoid_0.tmp_0"])
    graph = h.make_graph(g.nodes, "dbnet",
                         [h.make_tensor_value_info("x", T.FLOAT, ["p2o.DynamicDimension.0", 3,
                                                                  "p2o.DynamicDimension.1",
                                                                  "p2o.DynamicDimension.2"])],
                         [h.make_tensor_value_info("sigmoid_0.tmp_0", T.FLOAT,
                                                   ["p2o.DynamicDimension.0", 1,
                                                    "p2o.DynamicDimension.3",
                                                    "p2o.DynamicDimension.4"])], g.inits)
    save(graph, path, 11, "x:1,3,96,128")


# --- qdq_cnn ----------------------------------------------------------------

def qdq_cnn(path):
    """Symmetric int8 QDQ: activation scales from a calibration-like range,
    weights per output channel, biases int32 with scale x_scale * w_scale."""
    g = Graph(41)

    def qdq(x, scale):
        s, z = g.init(scale, np.float32), g.init(0, np.int8)
        return g.node("DequantizeLinear", [g.node("QuantizeLinear", [x, s, z]), s, z])

    def qconv(x, x_scale, cin, cout, k, stride=1, group=1):
        w = g.rng.standard_normal((cout, cin // group, k, k)).astype(np.float32) / np.sqrt(cin * k * k / group)
        w_scale = (np.abs(w).reshape(cout, -1).max(axis=1) / 127).astype(np.float32)
        w_q = np.clip(np.rint(w / w_scale[:, None, None, None]), -127, 127).astype(np.int8)
        b_scale = (np.float32(x_scale) * w_scale).astype(np.float32)
        b_q = np.rint(g.rng.standard_normal(cout) * 0.05 / b_scale).astype(np.int32)
        wq, ws, bq, bs = (g.init(w_q, np.int8), g.init(w_scale, np.float32),
                          g.init(b_q, np.int32), g.init(b_scale, np.float32))
        w_dq = g.node("DequantizeLinear", [wq, ws], axis=0)
        b_dq = g.node("DequantizeLinear", [bq, bs], axis=0)
        pad = k // 2
        return g.node("Conv", [qdq(x, x_scale), w_dq, b_dq], kernel_shape=[k, k],
                      strides=[stride, stride], pads=[pad] * 4, group=group)

    x = g.node("Relu", [qconv("image", 1 / 64, 3, 16, 3, 2)])
    x = g.node("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
    y = g.node("Relu", [qconv(x, 1 / 16, 16, 16, 3)])
    y = qconv(y, 1 / 16, 16, 16, 3, group=4)
    x = g.node("Relu", [g.node("Add", [x, y])])
    x = g.node("Relu", [qconv(x, 1 / 16, 16, 32, 1)])
    x = g.node("Flatten", [g.node("GlobalAveragePool", [x])])
    w = (g.rng.standard_normal((10, 32)) / np.sqrt(32)).astype(np.float32)
    w_scale = (np.abs(w).max(axis=1) / 127).astype(np.float32)
    w_q = np.clip(np.rint(w / w_scale[:, None]), -127, 127).astype(np.int8)
    w_dq = g.node("DequantizeLinear", [g.init(w_q, np.int8), g.init(w_scale, np.float32)], axis=0)
    g.node("Gemm", [qdq(x, 1 / 32), w_dq, g.init(g.rng.standard_normal(10) * 0.1, np.float32)],
           outputs=["logits"], transB=1)
    graph = h.make_graph(g.nodes, "qdq_cnn", [h.make_tensor_value_info("image", T.FLOAT, [1, 3, 64, 64])],
                         [h.make_tensor_value_info("logits", T.FLOAT, [1, 10])], g.inits)
    save(graph, path, 13, "image:1,3,64,64")


def save(graph, path, opset, shapes):
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)],
                         producer_name="real_models.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)
    with open(path[:-len(".onnx")] + ".inputs.txt", "w") as f:
        f.write(shapes + "\n")


MODELS = {"svtr": svtr, "vad": vad, "bert": bert, "yolo": yolo, "dbnet": dbnet,
          "qdq_cnn": qdq_cnn}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--only", default=",".join(MODELS))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.only.split(","):
        MODELS[name](os.path.join(args.out, name + ".onnx"))
        print(os.path.join(args.out, name + ".onnx"))


if __name__ == "__main__":
    main()
