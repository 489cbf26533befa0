"""Models and input files for the hostile-run tests (issue 34).

Usage: make_hostile_models.py OUT_DIR
  relu2.onnx            x: [n, m] -> Relu (dynamic: --input_shape decides)
  static_big.onnx       x: [1048576, 1048576] -> Relu (4 TB as declared)
  huge_static.onnx      x: [2^32, 2^32] -> Relu (an element count past 2^62)
  huge_header/input_0.pb  a [3, 4, 5000000000] float header with 60 values
  overflow.onnx         x * 70000 (fp16 overflows; fp32 does not)
  nanref.onnx           Relu(Sqrt(x)) (NaN in fp32 for x < 0)
  onehot_bad.onnx       OneHot with the constant depth 0, declared 10 wide
  gather_computed.onnx  Gather whose indices the model shifts out of range
  gather_bad/           ONNX's test_gather_0 data with index 8 (axis of 5)"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(nodes, inputs, outputs, inits, name):
    graph = helper.make_graph(nodes, name, inputs, outputs, inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              os.path.join(out, name + ".onnx"))


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


relu = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
save(relu, [value("x", TensorProto.FLOAT, ["n", "m"])], [value("y", TensorProto.FLOAT, ["n", "m"])],
     [], "relu2")
save(relu, [value("x", TensorProto.FLOAT, [1048576, 1048576])],
     [value("y", TensorProto.FLOAT, [1048576, 1048576])], [], "static_big")
save(relu, [value("x", TensorProto.FLOAT, [2**32, 2**32])],
     [value("y", TensorProto.FLOAT, [2**32, 2**32])], [], "huge_static")

os.makedirs(os.path.join(out, "huge_header"), exist_ok=True)
tensor = numpy_helper.from_array(np.zeros((3, 4, 5), np.float32), "x")
del tensor.dims[:]
tensor.dims.extend([3, 4, 5000000000])
with open(os.path.join(out, "huge_header", "input_0.pb"), "wb") as f:
    f.write(tensor.SerializeToString())

scale = numpy_helper.from_array(np.array(70000.0, np.float32), "c")
save([helper.make_node("Mul", ["x", "c"], ["y"], name="scale")],
     [value("x", TensorProto.FLOAT, [4, 4])], [value("y", TensorProto.FLOAT, [4, 4])], [scale],
     "overflow")
save([helper.make_node("Sqrt", ["x"], ["h"], name="sqrt"),
      helper.make_node("Relu", ["h"], ["y"], name="relu")],
     [value("x", TensorProto.FLOAT, [4, 4])], [value("y", TensorProto.FLOAT, [4, 4])], [], "nanref")

depth = numpy_helper.from_array(np.array(0, np.int64), "depth")
values = numpy_helper.from_array(np.array([0, 1], np.float32), "values")
save([helper.make_node("OneHot", ["idx", "depth", "values"], ["y"], name="onehot", axis=-1)],
     [value("idx", TensorProto.INT64, [3])], [value("y", TensorProto.FLOAT, [3, 10])],
     [depth, values], "onehot_bad")

data = numpy_helper.from_array(np.ones((5, 3), np.float32), "data")
shift = numpy_helper.from_array(np.array(100, np.int64), "c")
save([helper.make_node("Add", ["idx", "c"], ["i2"], name="shift"),
      helper.make_node("Gather", ["data", "i2"], ["y"], name="gather", axis=0)],
     [value("idx", TensorProto.INT64, [2])], [value("y", TensorProto.FLOAT, [2, 3])],
     [data, shift], "gather_computed")

source = "/usr/share/libonnx-testdata/data/node/test_gather_0/test_data_set_0"
if os.path.isdir(source):
    os.makedirs(os.path.join(out, "gather_bad"), exist_ok=True)
    with open(os.path.join(source, "input_0.pb"), "rb") as f:
        open(os.path.join(out, "gather_bad", "input_0.pb"), "wb").write(f.read())
    indices = onnx.TensorProto()
    with open(os.path.join(source, "input_1.pb"), "rb") as f:
        indices.ParseFromString(f.read())
    array = numpy_helper.to_array(indices).copy()
    array[0] = 8
    with open(os.path.join(out, "gather_bad", "input_1.pb"), "wb") as f:
        f.write(numpy_helper.from_array(array, indices.name).SerializeToString())
