#!/usr/bin/env python3
"""Models with the patterns CANN fuses, exported the way PyTorch and Paddle
export them. Usage: make_fusion_models.py OUT_DIR [--deploy]
  --deploy: the same graphs at deployment sizes (batch 8, 224x224 / 56x56
  images, a BERT-base-sized block on [8, 128, 768]) instead of tiny ones,
  for device-time estimates (the PM-13 order test)
  paddle_convbn.onnx      Paddle-style CNN: Conv (no bias) + BatchNormalization
                          + Relu, a Conv + Add of a [1,C,1,1] bias, global
                          pool, Flatten, Gemm (a Linear)
  transformer_block.onnx  PyTorch-style block on [1, S, D]: decomposed
                          LayerNorm, Linear as MatMul + Add, Erf-form GELU,
                          residual Add
  mobilenetv3_block.onnx  PyTorch-style MobileNetV3 block: Conv + BN,
                          x * HardSigmoid(x), squeeze-excite with HardSigmoid
"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh

rng = np.random.default_rng(0)
n = h.make_node

# Sizes of the tiny graphs (default) and of --deploy.
SIZES = {"batch": 1, "image": 16, "S": 8, "D": 16, "F": 32, "C": 16, "E": 32, "se": 8, "hw": 8,
         "widths": [8, 16]}
DEPLOY = {"batch": 8, "image": 224, "S": 128, "D": 768, "F": 3072, "C": 40, "E": 240, "se": 64,
          "hw": 28, "widths": [32, 64]}


def w(name, *shape, scale=0.1):
    return nh.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)


def const(name, value):
    return nh.from_array(np.array(value, np.float32), name)


def bn_params(prefix, c):
    return [w(f"{prefix}.weight", c), w(f"{prefix}.bias", c), w(f"{prefix}.running_mean", c),
            nh.from_array(np.abs(rng.standard_normal(c)).astype(np.float32) + 0.5,
                          f"{prefix}.running_var")]


def save(graph, path, opset=13):
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)],
                         producer_name="make_fusion_models")
    onnx.checker.check_model(model)
    onnx.save(model, path)


def paddle_convbn(path):
    nodes, inits, x, c_in = [], [], "x", 3
    c1, c2 = SIZES["widths"]
    for i, c in enumerate([c1, c2]):
        inits += [w(f"conv2d_{i}.w_0", c, c_in, 3, 3)] + bn_params(f"batch_norm_{i}", c)
        nodes += [n("Conv", [x, f"conv2d_{i}.w_0"], [f"conv2d_{i}.tmp_0"], name=f"conv2d_{i}",
                    pads=[1, 1, 1, 1]),
                  n("BatchNormalization", [f"conv2d_{i}.tmp_0"] + [p.name for p in inits[-4:]],
                    [f"batch_norm_{i}.tmp_2"], name=f"batch_norm_{i}", epsilon=1e-5),
                  n("Relu", [f"batch_norm_{i}.tmp_2"], [f"relu_{i}.tmp_0"], name=f"relu_{i}")]
        x, c_in = f"relu_{i}.tmp_0", c
    inits += [w("conv2d_2.w_0", c2, c2, 1, 1), w("conv2d_2.b_0", 1, c2, 1, 1)]
    nodes += [n("Conv", [x, "conv2d_2.w_0"], ["conv2d_2.tmp_0"], name="conv2d_2"),
              n("Add", ["conv2d_2.tmp_0", "conv2d_2.b_0"], ["conv2d_2.tmp_1"], name="elementwise_add_0"),
              n("GlobalAveragePool", ["conv2d_2.tmp_1"], ["pool2d_0.tmp_0"], name="pool2d_0"),
              n("Flatten", ["pool2d_0.tmp_0"], ["flatten_0.tmp_0"], name="flatten_0"),
              n("Gemm", ["flatten_0.tmp_0", "linear_0.w_0", "linear_0.b_0"], ["linear_0.tmp_1"],
                name="linear_0", transB=1)]
    inits += [w("linear_0.w_0", 10, c2), w("linear_0.b_0", 10)]
    b, hw = SIZES["batch"], SIZES["image"]
    graph = h.make_graph(nodes, "paddle_convbn",
                         [h.make_tensor_value_info("x", T.FLOAT, [b, 3, hw, hw])],
                         [h.make_tensor_value_info("linear_0.tmp_1", T.FLOAT, [b, 10])], inits)
    save(graph, path)


def transformer_block(path):
    S, D, F = SIZES["S"], SIZES["D"], SIZES["F"]
    inits = [const("/ln/axes_eps", 1e-5), const("/ln/two", 2.0), w("ln.weight", D), w("ln.bias", D),
             w("fc1.weight_T", D, F), w("fc1.bias", F), w("fc2.weight_T", F, D), w("fc2.bias", D),
             const("/gelu/sqrt2", 1.4142135), const("/gelu/one", 1.0), const("/gelu/half", 0.5)]
    ln = "/ln"
    nodes = [
        # LayerNorm as torch.onnx exports it below opset 17
        n("ReduceMean", ["x"], [f"{ln}/ReduceMean_output_0"], name=f"{ln}/ReduceMean", axes=[-1]),
        n("Sub", ["x", f"{ln}/ReduceMean_output_0"], [f"{ln}/Sub_output_0"], name=f"{ln}/Sub"),
        n("Pow", [f"{ln}/Sub_output_0", "/ln/two"], [f"{ln}/Pow_output_0"], name=f"{ln}/Pow"),
        n("ReduceMean", [f"{ln}/Pow_output_0"], [f"{ln}/ReduceMean_1_output_0"],
          name=f"{ln}/ReduceMean_1", axes=[-1]),
        n("Add", [f"{ln}/ReduceMean_1_output_0", "/ln/axes_eps"], [f"{ln}/Add_output_0"], name=f"{ln}/Add"),
        n("Sqrt", [f"{ln}/Add_output_0"], [f"{ln}/Sqrt_output_0"], name=f"{ln}/Sqrt"),
        n("Div", [f"{ln}/Sub_output_0", f"{ln}/Sqrt_output_0"], [f"{ln}/Div_output_0"], name=f"{ln}/Div"),
        n("Mul", [f"{ln}/Div_output_0", "ln.weight"], [f"{ln}/Mul_output_0"], name=f"{ln}/Mul"),
        n("Add", [f"{ln}/Mul_output_0", "ln.bias"], [f"{ln}/Add_1_output_0"], name=f"{ln}/Add_1"),
        # Linear -> MatMul + Add
        n("MatMul", [f"{ln}/Add_1_output_0", "fc1.weight_T"], ["/fc1/MatMul_output_0"], name="/fc1/MatMul"),
        n("Add", ["fc1.bias", "/fc1/MatMul_output_0"], ["/fc1/Add_output_0"], name="/fc1/Add"),
        # GELU, erf form
        n("Div", ["/fc1/Add_output_0", "/gelu/sqrt2"], ["/act/Div_output_0"], name="/act/Div"),
        n("Erf", ["/act/Div_output_0"], ["/act/Erf_output_0"], name="/act/Erf"),
        n("Add", ["/act/Erf_output_0", "/gelu/one"], ["/act/Add_output_0"], name="/act/Add"),
        n("Mul", ["/fc1/Add_output_0", "/act/Add_output_0"], ["/act/Mul_output_0"], name="/act/Mul"),
        n("Mul", ["/act/Mul_output_0", "/gelu/half"], ["/act/Mul_1_output_0"], name="/act/Mul_1"),
        n("MatMul", ["/act/Mul_1_output_0", "fc2.weight_T"], ["/fc2/MatMul_output_0"], name="/fc2/MatMul"),
        n("Add", ["fc2.bias", "/fc2/MatMul_output_0"], ["/fc2/Add_output_0"], name="/fc2/Add"),
        n("Add", ["x", "/fc2/Add_output_0"], ["y"], name="/Add"),
    ]
    graph = h.make_graph(nodes, "transformer_block",
                         [h.make_tensor_value_info("x", T.FLOAT, [SIZES["batch"], S, D])],
                         [h.make_tensor_value_info("y", T.FLOAT, [SIZES["batch"], S, D])], inits)
    save(graph, path)


def mobilenetv3_block(path):
    C, E, SE = SIZES["C"], SIZES["E"], SIZES["se"]
    inits = [w("conv1.weight", E, C, 1, 1)] + bn_params("bn1", E) + [
        w("dw.weight", E, 1, 3, 3)] + bn_params("bn2", E) + [
        w("se.fc1.weight", SE, E, 1, 1), w("se.fc1.bias", SE), w("se.fc2.weight", E, SE, 1, 1),
        w("se.fc2.bias", E), w("proj.weight", C, E, 1, 1)] + bn_params("bn3", C)
    nodes = [
        n("Conv", ["x", "conv1.weight"], ["/conv1/Conv_output_0"], name="/conv1/Conv"),
        n("BatchNormalization", ["/conv1/Conv_output_0", "bn1.weight", "bn1.bias", "bn1.running_mean",
                                 "bn1.running_var"], ["/bn1/out"], name="/bn1/BatchNormalization"),
        n("HardSigmoid", ["/bn1/out"], ["/act1/HardSigmoid_output_0"], name="/act1/HardSigmoid",
          alpha=1.0 / 6),
        n("Mul", ["/bn1/out", "/act1/HardSigmoid_output_0"], ["/act1/Mul_output_0"], name="/act1/Mul"),
        n("Conv", ["/act1/Mul_output_0", "dw.weight"], ["/dw/Conv_output_0"], name="/dw/Conv",
          group=E, pads=[1, 1, 1, 1]),
        n("BatchNormalization", ["/dw/Conv_output_0", "bn2.weight", "bn2.bias", "bn2.running_mean",
                                 "bn2.running_var"], ["/bn2/out"], name="/bn2/BatchNormalization"),
        n("HardSigmoid", ["/bn2/out"], ["/act2/HardSigmoid_output_0"], name="/act2/HardSigmoid",
          alpha=1.0 / 6),
        n("Mul", ["/bn2/out", "/act2/HardSigmoid_output_0"], ["/act2/Mul_output_0"], name="/act2/Mul"),
        # squeeze-excite
        n("GlobalAveragePool", ["/act2/Mul_output_0"], ["/se/pool"], name="/se/GlobalAveragePool"),
        n("Conv", ["/se/pool", "se.fc1.weight", "se.fc1.bias"], ["/se/fc1"], name="/se/fc1/Conv"),
        n("Relu", ["/se/fc1"], ["/se/relu"], name="/se/Relu"),
        n("Conv", ["/se/relu", "se.fc2.weight", "se.fc2.bias"], ["/se/fc2"], name="/se/fc2/Conv"),
        n("HardSigmoid", ["/se/fc2"], ["/se/scale"], name="/se/HardSigmoid", alpha=1.0 / 6),
        n("Mul", ["/act2/Mul_output_0", "/se/scale"], ["/se/Mul_output_0"], name="/se/Mul"),
        n("Conv", ["/se/Mul_output_0", "proj.weight"], ["/proj/Conv_output_0"], name="/proj/Conv"),
        n("BatchNormalization", ["/proj/Conv_output_0", "bn3.weight", "bn3.bias", "bn3.running_mean",
                                 "bn3.running_var"], ["/bn3/out"], name="/bn3/BatchNormalization"),
        n("Add", ["x", "/bn3/out"], ["y"], name="/Add"),
    ]
    graph = h.make_graph(nodes, "mobilenetv3_block",
                         [h.make_tensor_value_info("x", T.FLOAT, [SIZES["batch"], C, SIZES["hw"], SIZES["hw"]])],
                         [h.make_tensor_value_info("y", T.FLOAT, [SIZES["batch"], C, SIZES["hw"], SIZES["hw"]])], inits)
    save(graph, path)


if __name__ == "__main__":
    out = Path(sys.argv[1])
    if "--deploy" in sys.argv[2:]:
        SIZES.update(DEPLOY)
    out.mkdir(parents=True, exist_ok=True)
    paddle_convbn(out / "paddle_convbn.onnx")
    transformer_block(out / "transformer_block.onnx")
    mobilenetv3_block(out / "mobilenetv3_block.onnx")
