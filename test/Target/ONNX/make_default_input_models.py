#!/usr/bin/env python3
"""A graph input with an initializer of its name (issue 55), as exporters
write it: y = x * w, w listed as an input and initialized to 0, 100, ...
500. Usage: make_default_input_models.py OUT_DIR
  defaults.onnx  IR version 8: w stays an input, the initializer its default
  old_ir.onnx    IR version 3: every initializer is listed as an input, and
                 w is a constant
  w_given/       a run folder giving x and w (input_0.pb, input_1.pb)
  w_absent/      a run folder giving x alone"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(ir_version):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    weight = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3) * 100, "w")
    graph = helper.make_graph([helper.make_node("Mul", ["x", "w"], ["y"], name="mul")], "g",
                              [x, w], [y], [weight])
    result = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    result.ir_version = ir_version
    return result


def save(folder, name, array):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as stream:
        stream.write(numpy_helper.from_array(array).SerializeToString())


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
onnx.save(model(8), os.path.join(out, "defaults.onnx"))
onnx.save(model(3), os.path.join(out, "old_ir.onnx"))
x = np.full((2, 3), 0.5, dtype=np.float32)
save(os.path.join(out, "w_given"), "input_0.pb", x)
save(os.path.join(out, "w_given"), "input_1.pb", np.full((2, 3), 2.0, dtype=np.float32))
save(os.path.join(out, "w_absent"), "input_0.pb", x)
