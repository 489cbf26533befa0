"""Recurrent layers beyond ONNX's own test models (which run forward only),
with expected outputs from a float64 NumPy reference of ONNX's equations.
Usage: make_recurrent_models.py OUT_DIR
  lstm_bidirectional/   LSTM, both directions, biases, initial h and c
  gru_reverse_lbr/      GRU, reverse, linear_before_reset=1, biases, initial h
  rnn_bidirectional/    simple RNN, both directions, biases
  lstm_bidirectional_lens/, gru_reverse_lens/, rnn_forward_lens/
                        the same with a padded batch: sequence_lens (int32
                        [3, 1] and [0, 4]; an int64 input for the GRU, as
                        some exporters write it) as the model's second input
Each folder holds model.onnx and test_data_set_0/ (input_<i>.pb, output_<i>.pb
for Y, Y_h and, for the LSTM, Y_c)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(7)
SEQ, BATCH, INPUT, HIDDEN = 4, 2, 3, 5


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def run_direction(cell, x, w, r, b, h, c, reverse, linear_before_reset, length=None):
    """ONNX's equations for one direction (of one batch row when `length`
    is given: its first `length` steps, y 0 after): every step's h, h, c."""
    length = len(x) if length is None else length
    ys = [np.zeros_like(h)] * len(x)
    wb, rb = np.split(b, 2)
    steps = range(length - 1, -1, -1) if reverse else range(length)
    for t in steps:
        if cell == "LSTM":
            g = x[t] @ w.T + h @ r.T + wb + rb
            i, o, f, cc = np.split(g, 4, axis=-1)
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(cc)
            h = sigmoid(o) * np.tanh(c)
        elif cell == "GRU":
            wz, wr, wh = np.split(w, 3)
            rz, rr, rh = np.split(r, 3)
            wbz, wbr, wbh = np.split(wb, 3)
            rbz, rbr, rbh = np.split(rb, 3)
            z = sigmoid(x[t] @ wz.T + h @ rz.T + wbz + rbz)
            rt = sigmoid(x[t] @ wr.T + h @ rr.T + wbr + rbr)
            if linear_before_reset:
                hh = np.tanh(x[t] @ wh.T + rt * (h @ rh.T + rbh) + wbh)
            else:
                hh = np.tanh(x[t] @ wh.T + (rt * h) @ rh.T + rbh + wbh)
            h = (1 - z) * hh + z * h
        else:
            h = np.tanh(x[t] @ w.T + h @ r.T + wb + rb)
        ys[t] = h
    return np.stack(ys), h, c


def make(name, cell, direction, with_init_c, linear_before_reset=0, lengths=None,
         lengths_type=TensorProto.INT32):
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[cell]
    dirs = 2 if direction == "bidirectional" else 1
    x = rng.uniform(-1, 1, (SEQ, BATCH, INPUT))
    w = rng.uniform(-0.6, 0.6, (dirs, gates * HIDDEN, INPUT))
    r = rng.uniform(-0.6, 0.6, (dirs, gates * HIDDEN, HIDDEN))
    b = rng.uniform(-0.3, 0.3, (dirs, 2 * gates * HIDDEN))
    h0 = rng.uniform(-0.5, 0.5, (dirs, BATCH, HIDDEN))
    c0 = rng.uniform(-0.5, 0.5, (dirs, BATCH, HIDDEN))
    # The float32 values the model holds are what the reference computes on.
    x, w, r, b, h0, c0 = (a.astype(np.float32).astype(np.float64) for a in (x, w, r, b, h0, c0))
    ys, hs, cs = [], [], []
    for d in range(dirs):
        reverse = direction == "reverse" or d == 1
        if lengths is None:
            y, h, c = run_direction(cell, x, w[d], r[d], b[d], h0[d], c0[d], reverse,
                                    linear_before_reset)
        else:
            # Each batch row on its own, with its own length.
            rows = [run_direction(cell, x[:, n:n + 1], w[d], r[d], b[d], h0[d][n:n + 1],
                                  c0[d][n:n + 1], reverse, linear_before_reset, lengths[n])
                    for n in range(BATCH)]
            y = np.concatenate([row[0] for row in rows], axis=1)
            h = np.concatenate([row[1] for row in rows], axis=0)
            c = np.concatenate([row[2] for row in rows], axis=0)
        ys.append(y)
        hs.append(h)
        cs.append(c)
    expected = [np.stack(ys, axis=1), np.stack(hs), np.stack(cs)]
    inits = [numpy_helper.from_array(a.astype(np.float32), n)
             for a, n in ((w, "W"), (r, "R"), (b, "B"), (h0, "initial_h"), (c0, "initial_c"))]
    inputs = ["X", "W", "R", "B", "" if lengths is None else "sequence_lens",
              "initial_h"] + (["initial_c"] if with_init_c else [])
    outputs = ["Y", "Y_h"] + (["Y_c"] if cell == "LSTM" else [])
    attrs = {"hidden_size": HIDDEN, "direction": direction}
    if cell == "GRU":
        attrs["linear_before_reset"] = linear_before_reset
    node = helper.make_node(cell, inputs, outputs, name=name, **attrs)
    shapes = {"Y": [SEQ, dirs, BATCH, HIDDEN], "Y_h": [dirs, BATCH, HIDDEN],
              "Y_c": [dirs, BATCH, HIDDEN]}
    graph_inputs = [helper.make_tensor_value_info("X", TensorProto.FLOAT, [SEQ, BATCH, INPUT])]
    nodes = [node]
    if lengths is not None:
        graph_inputs.append(helper.make_tensor_value_info("lens", lengths_type, [BATCH]))
        if lengths_type == TensorProto.INT32:
            node.input[4] = "lens"
        else:
            nodes.insert(0, helper.make_node("Cast", ["lens"], ["sequence_lens"],
                                             to=TensorProto.INT32, name=name + "/lens"))
    graph = helper.make_graph(
        nodes, name, graph_inputs,
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, shapes[o]) for o in outputs],
        inits if with_init_c else inits[:-1])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    folder = os.path.join(out, name)
    os.makedirs(os.path.join(folder, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    data = os.path.join(folder, "test_data_set_0")
    tensor = numpy_helper.from_array(x.astype(np.float32), "X")
    open(os.path.join(data, "input_0.pb"), "wb").write(tensor.SerializeToString())
    if lengths is not None:
        dtype = np.int32 if lengths_type == TensorProto.INT32 else np.int64
        tensor = numpy_helper.from_array(np.array(lengths, dtype), "lens")
        open(os.path.join(data, "input_1.pb"), "wb").write(tensor.SerializeToString())
    for i, o in enumerate(outputs):
        tensor = numpy_helper.from_array(expected[i].astype(np.float32), o)
        open(os.path.join(data, f"output_{i}.pb"), "wb").write(tensor.SerializeToString())


make("lstm_bidirectional", "LSTM", "bidirectional", with_init_c=True)
make("gru_reverse_lbr", "GRU", "reverse", with_init_c=False, linear_before_reset=1)
make("rnn_bidirectional", "RNN", "bidirectional", with_init_c=False)
make("lstm_bidirectional_lens", "LSTM", "bidirectional", with_init_c=True, lengths=[3, 1])
make("gru_reverse_lens", "GRU", "reverse", with_init_c=False, linear_before_reset=1,
     lengths=[0, 4], lengths_type=TensorProto.INT64)
make("rnn_forward_lens", "RNN", "forward", with_init_c=False, lengths=[2, 4])
