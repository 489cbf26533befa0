#!/usr/bin/env python3
"""Graph patterns that exporters write and ONNX's own shape inference cannot
follow (issue 31), for exporter-patterns.test.

  paddle_reshape  Paddle2ONNX's reshape target: Concat of int32 constants and
                  Slice(Cast(Shape(t))), each cast back to int64.
  torchscript_pad TorchScript's F.pad: the pads built by Concat/ConstantOfShape,
                  Reshape, a reversed Slice of a 2-D tensor, Transpose, Reshape
                  and Cast.
  if_outer        An If on an input whose branches compute from outer values
                  and come untyped from the exporter; a nested If whose
                  condition is a shape test (`if x.size(-1) == 1`).

Usage: make_exporter_models.py OUT_DIR
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
rng = np.random.default_rng(7)
n = h.make_node


def const(name, values, dtype):
    return n("Constant", [], [name], name=name, value=nh.from_array(np.array(values, dtype), name))


def save(name, nodes, inputs, outputs, inits=(), opset=11):
    graph = h.make_graph(nodes, name, inputs, outputs, list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))


def untyped(name):
    info = h.make_tensor_value_info(name, T.FLOAT, None)
    info.type.tensor_type.ClearField("shape")
    return info


# paddle_reshape: x [batch, 3, 4, 5] -> Relu -> Reshape to [0, shape(r)[1], -1]
# -> Sigmoid -> MatMul by a [20, 6] weight.
save("paddle_reshape", [
    n("Relu", ["x"], ["r"], name="p2o.Relu.0"),
    n("Shape", ["r"], ["shape"], name="p2o.Shape.0"),
    n("Cast", ["shape"], ["shape32"], name="p2o.Cast.0", to=T.INT32),
    n("Slice", ["shape32", "s1", "s2", "s0"], ["dim1"], name="p2o.Slice.0"),
    const("c_zero", [0], np.int32), const("c_minus1", [-1], np.int32),
    n("Cast", ["c_zero"], ["e0"], name="p2o.Cast.1", to=T.INT64),
    n("Cast", ["dim1"], ["e1"], name="p2o.Cast.2", to=T.INT64),
    n("Cast", ["c_minus1"], ["e2"], name="p2o.Cast.3", to=T.INT64),
    n("Concat", ["e0", "e1", "e2"], ["target"], name="p2o.Concat.0", axis=0),
    n("Reshape", ["r", "target"], ["flat"], name="p2o.Reshape.0"),
    n("Sigmoid", ["flat"], ["sig"], name="p2o.Sigmoid.0"),
    n("MatMul", ["sig", "w"], ["y"], name="p2o.MatMul.0"),
], [h.make_tensor_value_info("x", T.FLOAT, ["p2o.DynamicDimension.0", 3, 4, 5])],
   [h.make_tensor_value_info("y", T.FLOAT, ["p2o.DynamicDimension.0", 3, 6])],
   [nh.from_array(np.array([0], np.int64), "s0"), nh.from_array(np.array([1], np.int64), "s1"),
    nh.from_array(np.array([2], np.int64), "s2"),
    nh.from_array(rng.standard_normal((20, 6)).astype(np.float32), "w")])

# torchscript_pad: F.pad(x, (2, 3)) on the last axis of [1, 2, 8].
save("torchscript_pad", [
    const("/pad/Constant", [2, 3], np.int64),
    const("/pad/Constant_1", [4], np.int64),
    n("ConstantOfShape", ["/pad/Constant_1"], ["/pad/zeros"], name="/pad/ConstantOfShape",
      value=nh.from_array(np.array([0], np.int64), "v")),
    n("Concat", ["/pad/Constant", "/pad/zeros"], ["/pad/cat"], name="/pad/Concat", axis=0),
    const("/pad/Constant_2", [-1, 2], np.int64),
    n("Reshape", ["/pad/cat", "/pad/Constant_2"], ["/pad/pairs"], name="/pad/Reshape"),
    const("/pad/start", [-1], np.int64), const("/pad/end", [-(2 ** 63)], np.int64),
    const("/pad/axes", [0], np.int64), const("/pad/steps", [-1], np.int64),
    n("Slice", ["/pad/pairs", "/pad/start", "/pad/end", "/pad/axes", "/pad/steps"],
      ["/pad/reversed"], name="/pad/Slice"),
    n("Transpose", ["/pad/reversed"], ["/pad/t"], name="/pad/Transpose", perm=[1, 0]),
    const("/pad/Constant_3", [-1], np.int64),
    n("Reshape", ["/pad/t", "/pad/Constant_3"], ["/pad/flat"], name="/pad/Reshape_1"),
    n("Cast", ["/pad/flat"], ["/pad/pads"], name="/pad/Cast", to=T.INT64),
    n("Pad", ["x", "/pad/pads"], ["y"], name="/pad/Pad", mode="reflect"),
], [h.make_tensor_value_info("x", T.FLOAT, [1, 2, 8])],
   [h.make_tensor_value_info("y", T.FLOAT, [1, 2, 13])], opset=13)

# if_outer: If(c) { Conv over the outer x with the outer weight, then a
# nested `if y.size(-1) == 1: squeeze` } else { Sigmoid(x) }.
squeeze_g = h.make_graph([n("Squeeze", ["conv", "axis_last"], ["sq"], name="/then/If/Squeeze")],
                         "squeeze", [], [untyped("sq")])
keep_g = h.make_graph([n("Identity", ["conv"], ["kept"], name="/then/If/Identity")], "keep", [],
                      [untyped("kept")])
then_g = h.make_graph([
    n("Conv", ["x", "k"], ["conv"], name="/then/Conv", kernel_shape=[3], pads=[1, 1]),
    n("Shape", ["conv"], ["cshape"], name="/then/Shape"),
    n("Gather", ["cshape", "axis_last"], ["clast"], name="/then/Gather", axis=0),
    n("Equal", ["clast", "one"], ["is_one"], name="/then/Equal"),
    n("If", ["is_one"], ["maybe"], name="/then/If", then_branch=squeeze_g, else_branch=keep_g),
    n("Relu", ["maybe"], ["t"], name="/then/Relu"),
], "then", [], [untyped("t")])
else_g = h.make_graph([n("Sigmoid", ["x"], ["e"], name="/else/Sigmoid")], "else", [], [untyped("e")])
save("if_outer", [
    n("If", ["c"], ["y"], name="/If", then_branch=then_g, else_branch=else_g),
], [h.make_tensor_value_info("c", T.BOOL, []), h.make_tensor_value_info("x", T.FLOAT, [1, 4, 6])],
   [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 6])],
   [nh.from_array(rng.standard_normal((4, 4, 3)).astype(np.float32), "k"),
    nh.from_array(np.array(-1, np.int64), "axis_last"), nh.from_array(np.array(1, np.int64), "one")],
   opset=13)
