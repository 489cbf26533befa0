"""An If on a sample-rate input whose branches window the signal by its
rate (as Silero VAD does): at a 512-sample input the 16 kHz branch's
shapes follow, the 8 kHz branch's Reshape to windows of 96 does not.

  branch_shapes.onnx   x: [1, n] float, sr: int64 scalar; y: [1, 1]
  branch_unranked.onnx the same, the 8 kHz branch squeezing its frames by
                       an axis given at run time (`axes`, an outer-scope
                       input): no rank follows, its ops stay generic
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


def branch(name, window, squeeze=False):
    shape = nh.from_array(np.array([-1, window], np.int64), f"{name}_shape")
    frames = f"{name}_frames"
    nodes = [h.make_node("Reshape", ["x", f"{name}_shape"], [frames], name=f"{name}/Reshape")]
    if squeeze:
        nodes.append(h.make_node("Squeeze", [frames, "axes"], [f"{name}_squeezed"],
                                 name=f"{name}/Squeeze"))
        frames = f"{name}_squeezed"
    nodes += [h.make_node("Relu", [frames], [f"{name}_relu"], name=f"{name}/Relu"),
             h.make_node("ReduceMean", [f"{name}_relu"], [f"{name}_y"], name=f"{name}/ReduceMean",
                         axes=[0, 1], keepdims=1)]
    return h.make_graph(nodes, name, [], [h.make_tensor_value_info(f"{name}_y", T.FLOAT, [1, 1])],
                        [shape])


def save(file, squeeze):
    is16k = h.make_node("Equal", ["sr", "k16000"], ["is16k"], name="is16k")
    cond = h.make_node("If", ["is16k"], ["y"], name="If_0", then_branch=branch("then16k", 128),
                       else_branch=branch("else8k", 96, squeeze))
    inputs = [h.make_tensor_value_info("x", T.FLOAT, [1, "n"]),
              h.make_tensor_value_info("sr", T.INT64, [])]
    if squeeze:
        inputs.append(h.make_tensor_value_info("axes", T.INT64, [1]))
    graph = h.make_graph([is16k, cond], "vad_like", inputs,
                         [h.make_tensor_value_info("y", T.FLOAT, [1, 1])],
                         [nh.from_array(np.array(16000, np.int64), "k16000")])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.save(model, os.path.join(out, file))


save("branch_shapes.onnx", squeeze=False)
save("branch_unranked.onnx", squeeze=True)
