"""Writes input_0.pb for a one-input model: the same seeded random values
prec-compile --run draws (mt19937_64 seed 0, 53-bit doubles, [-1, 1),
rounded to float32), so that a run folder reproduces a random run.
Usage: write_input.py MODEL.onnx FOLDER [SCALE]
  SCALE multiplies the values (1e5 makes an fp16 plan overflow)."""
import sys

import numpy as np
import onnx
from onnx import numpy_helper

model = onnx.load(sys.argv[1])
graph_input = model.graph.input[0]
shape = [d.dim_value for d in graph_input.type.tensor_type.shape.dim]
count = int(np.prod(shape))
# numpy's MT19937 seeds differently from std::mt19937_64: reimplement it.
MASK = (1 << 64) - 1
state = [0] * 312
state[0] = 0
for i in range(1, 312):
    state[i] = (6364136223846793005 * (state[i - 1] ^ (state[i - 1] >> 62)) + i) & MASK
index = 312


def next_value():
    global index
    if index >= 312:
        for i in range(312):
            x = (state[i] & 0xFFFFFFFF80000000) | (state[(i + 1) % 312] & 0x7FFFFFFF)
            xa = x >> 1
            if x & 1:
                xa ^= 0xB5026F5AA96619E9
            state[i] = state[(i + 156) % 312] ^ xa
        index = 0
    y = state[index]
    index += 1
    y ^= (y >> 29) & 0x5555555555555555
    y ^= (y << 17) & 0x71D67FFFEDA60000
    y ^= (y << 37) & 0xFFF7EEE000000000
    y ^= y >> 43
    return y & MASK


scale = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
values = np.array([((next_value() >> 11) * 2.0 ** -53 * 2 - 1) * scale for _ in range(count)],
                  dtype=np.float32).reshape(shape)
tensor = numpy_helper.from_array(values, graph_input.name)
open(sys.argv[2] + "/input_0.pb", "wb").write(tensor.SerializeToString())
