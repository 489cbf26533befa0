"""Models at CANN's structural limits (ST-1, ST-2), as MLIR and run inputs.

  pools.mlir   MaxPools of [1, 2, 64, 64]: a 16x16 window (256 elements)
               padded by 1, a 15x17 one (255) and a 2x2 one with stride 64
  concat.mlir  a ConcatV2 of 130 inputs along C
  run/input_0.pb  the pools' input: every value -1e5, below fp16's range,
               which the AI CPU path's -65504 padding beats
"""
import os
import sys

import numpy as np
from onnx import numpy_helper

out = sys.argv[1]
os.makedirs(os.path.join(out, "run"), exist_ok=True)
with open(os.path.join(out, "pools.mlir"), "w") as f:
    f.write("""func.func @pools(%x: tensor<1x2x64x64xf32>) -> (tensor<1x2x51x51xf32>, tensor<1x2x50x48xf32>, tensor<1x2x1x1xf32>) {
  %a = ascend.MaxPool %x {name = "big_window", ksize = array<i64: 16, 16>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x64x64xf32>) -> tensor<1x2x51x51xf32>
  %b = ascend.MaxPool %x {name = "window_255", ksize = array<i64: 15, 17>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2x64x64xf32>) -> tensor<1x2x50x48xf32>
  %c = ascend.MaxPool %x {name = "stride_64", ksize = array<i64: 2, 2>, strides = array<i64: 64, 64>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2x64x64xf32>) -> tensor<1x2x1x1xf32>
  return %a, %b, %c : tensor<1x2x51x51xf32>, tensor<1x2x50x48xf32>, tensor<1x2x1x1xf32>
}
""")
n = 130
args = ", ".join(f"%x{i}: tensor<1x1x4x4xf16>" for i in range(n))
operands = ", ".join(f"%x{i}" for i in range(n))
types = ", ".join("tensor<1x1x4x4xf16>" for _ in range(n))
with open(os.path.join(out, "concat.mlir"), "w") as f:
    f.write(f"""func.func @wide({args}) -> tensor<1x{n}x4x4xf16> {{
  %y = ascend.ConcatV2 {operands} {{name = "cat", concat_dim = 1 : i64}} : ({types}) -> tensor<1x{n}x4x4xf16>
  return %y : tensor<1x{n}x4x4xf16>
}}
""")
x = np.full((1, 2, 64, 64), -1e5, np.float32)
x[0, 1] = np.linspace(-3, 3, 64 * 64, dtype=np.float32).reshape(64, 64)
with open(os.path.join(out, "run", "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(x, "x").SerializeToString())
