"""Models for the --run tests, exported the way PyTorch does (opset 13).
Usage: make_run_models.py OUT_DIR
  dynamic.onnx   x: [batch, 8] -> Relu(x @ W)           (a dynamic batch)
  generic.onnx   x: [1, 8, 2, 2] -> Relu(LpNormalization(x))  (a generic op: no kernel)
  reduce.onnx    x: [1, 1048576] -> ReduceSum over axis 1 (split across cores)
  small_input.pb a [1, 2] float TensorProto (the wrong shape)
  x_2x8.pb       a [2, 8] float TensorProto named x
  huge_dims.pb   a TensorProto claiming [2^40, 2^40] int64 elements with 2
                 values (what a sequence file can parse as)"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(0)


def save(nodes, inputs, outputs, inits, name):
    graph = helper.make_graph(nodes, name, inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, f"{out}/{name}.onnx")


w = numpy_helper.from_array(rng.standard_normal((8, 4)).astype(np.float32), "W")
save([helper.make_node("MatMul", ["x", "W"], ["h"], name="fc"),
      helper.make_node("Relu", ["h"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8])],
     [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])], [w], "dynamic")
save([helper.make_node("LpNormalization", ["x"], ["h"], name="lpnorm", axis=1, p=2),
      helper.make_node("Relu", ["h"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 2, 2])],
     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 2, 2])], [], "generic")
axes = numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")
save([helper.make_node("ReduceSum", ["x", "axes"], ["y"], name="sum", keepdims=0)],
     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1048576])],
     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], [axes], "reduce")
small = numpy_helper.from_array(np.zeros((1, 2), dtype=np.float32), "image")
open(f"{out}/small_input.pb", "wb").write(small.SerializeToString())
x = numpy_helper.from_array(rng.uniform(-1, 1, (2, 8)).astype(np.float32), "x")
open(f"{out}/x_2x8.pb", "wb").write(x.SerializeToString())
huge = TensorProto(name="x", data_type=TensorProto.INT64, dims=[1 << 40, 1 << 40], int64_data=[1, 2])
open(f"{out}/huge_dims.pb", "wb").write(huge.SerializeToString())
