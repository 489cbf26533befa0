"""Einsum models in float32 as PyTorch exports torch.einsum (opset 13), each
in ONNX's backend-test layout (NAME/model.onnx, NAME/test_data_set_0/
input_<i>.pb and output_0.pb, the output computed with NumPy in float64).

Usage: make_einsum_models.py OUT_DIR
  bmm        bij,bjk->bik        a batched matmul
  attention  bhqd,bhkd->bhqk     attention scores (a transposed operand)
  proj       bij,jk->bik         a shared weight
  outer      i,j->ij             nothing contracted
  summed     bij,bjk->ik         a batch label summed away after the product
  onlyleft   abc,cd->bd          a label of the first operand alone (summed)
  implicit   ij,jk               NumPy's implicit output (ik)
  transpose  ij->ji              one operand
  rowsum     ij->i               one operand, summed
  diagonal   ii->i               a repeated label: stays Einsum (AI CPU)
  ellipsis   ...ij,...jk->...ik  stays Einsum (AI CPU)"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CASES = {
    "bmm": ("bij,bjk->bik", [(2, 3, 8), (2, 8, 5)]),
    "attention": ("bhqd,bhkd->bhqk", [(1, 2, 4, 16), (1, 2, 6, 16)]),
    "proj": ("bij,jk->bik", [(2, 5, 8), (8, 3)]),
    "outer": ("i,j->ij", [(5,), (7,)]),
    "summed": ("bij,bjk->ik", [(3, 4, 8), (3, 8, 2)]),
    "onlyleft": ("abc,cd->bd", [(3, 4, 5), (5, 2)]),
    "implicit": ("ij,jk", [(4, 6), (6, 3)]),
    "transpose": ("ij->ji", [(3, 5)]),
    "rowsum": ("ij->i", [(4, 9)]),
    "diagonal": ("ii->i", [(4, 4)]),
    "ellipsis": ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
}


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(7)
    for name, (equation, shapes) in CASES.items():
        names = [f"x{i}" for i in range(len(shapes))]
        values = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
        expected = np.einsum(equation, *[v.astype(np.float64) for v in values]).astype(np.float32)
        node = helper.make_node("Einsum", names, ["y"], name=f"/{name}/Einsum", equation=equation)
        graph = helper.make_graph(
            [node], name,
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(v.shape))
             for n, v in zip(names, values)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(expected.shape))])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        folder = os.path.join(out, name)
        os.makedirs(os.path.join(folder, "test_data_set_0"), exist_ok=True)
        onnx.save(model, os.path.join(folder, "model.onnx"))
        for i, (n, v) in enumerate(zip(names, values)):
            with open(os.path.join(folder, "test_data_set_0", f"input_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(v, n).SerializeToString())
        with open(os.path.join(folder, "test_data_set_0", "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(expected, "y").SerializeToString())


if __name__ == "__main__":
    main()
