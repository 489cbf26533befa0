#!/usr/bin/env python3
"""Writes a synthetic ascend-dialect graph of about N ops.

  gen_graph.py {transformer|cnn} N OUT.mlir

transformer: repeated blocks of MatMulV2 + bias Add + Gelu + MatMulV2 +
residual Add + LayerNorm + SoftmaxV2 on [16, 64] activations.
cnn: repeated Conv2D + BatchNorm + Relu + Conv2D + residual Add + Relu on
[1, 16, 8, 8] activations. Weights are splat constants (one per op, like a
real model's initializers). Node names are unique."""

import sys


def transformer(n, out):
    t = "tensor<16x64xf32>"
    out.write("func.func @main(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {\n")
    out.write('  %w = ascend.Const dense<0.01> : tensor<64x64xf32> {name = "w"}\n')
    out.write('  %b = ascend.Const dense<0.1> : tensor<64xf32> {name = "b"}\n')
    out.write('  %g = ascend.Const dense<1.0> : tensor<64xf32> {name = "g"}\n')
    count, i, cur = 3, 0, "%x"
    while count < n:
        p = f"b{i}"
        out.write(
            f'  %{p}q = ascend.MatMulV2 {cur}, %w {{name = "{p}.q"}} : ({t}, tensor<64x64xf32>) -> {t}\n'
            f'  %{p}a = ascend.Add %{p}q, %b {{name = "{p}.bias"}} : ({t}, tensor<64xf32>) -> {t}\n'
            f'  %{p}g = ascend.Gelu %{p}a {{name = "{p}.gelu"}} : {t}\n'
            f'  %{p}o = ascend.MatMulV2 %{p}g, %w {{name = "{p}.o"}} : ({t}, tensor<64x64xf32>) -> {t}\n'
            f'  %{p}r = ascend.Add %{p}o, {cur} {{name = "{p}.res"}} : ({t}, {t}) -> {t}\n'
            f'  %{p}n, %{p}m, %{p}v = ascend.LayerNorm %{p}r, %g, %g {{name = "{p}.ln", '
            f'begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64}} : ({t}, tensor<64xf32>, '
            f'tensor<64xf32>) -> ({t}, tensor<16x1xf32>, tensor<16x1xf32>)\n'
            f'  %{p}s = ascend.SoftmaxV2 %{p}n {{name = "{p}.sm", axes = array<i64: -1>}} : {t}\n')
        cur = f"%{p}s"
        count += 7
        i += 1
    out.write(f"  return {cur} : {t}\n}}\n")
    return count


def cnn(n, out):
    t = "tensor<1x16x8x8xf32>"
    attrs = "strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>"
    out.write(f"func.func @main(%x: {t}) -> {t} {{\n")
    out.write('  %s = ascend.Const dense<1.0> : tensor<16xf32> {name = "bn"}\n')
    count, i, cur = 1, 0, "%x"
    while count < n:
        p = f"c{i}"
        out.write(
            f'  %{p}w1 = ascend.Const dense<0.02> : tensor<16x16x3x3xf32> {{name = "{p}.w1"}}\n'
            f'  %{p}c1 = ascend.Conv2D {cur}, %{p}w1 {{name = "{p}.conv1", {attrs}}} : ({t}, tensor<16x16x3x3xf32>) -> {t}\n'
            f'  %{p}bn = ascend.BatchNorm %{p}c1, %s, %s, %s, %s {{name = "{p}.bn"}} : ({t}, tensor<16xf32>, '
            f'tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> {t}\n'
            f'  %{p}r1 = ascend.Relu %{p}bn {{name = "{p}.relu1"}} : {t}\n'
            f'  %{p}w2 = ascend.Const dense<0.02> : tensor<16x16x3x3xf32> {{name = "{p}.w2"}}\n'
            f'  %{p}c2 = ascend.Conv2D %{p}r1, %{p}w2 {{name = "{p}.conv2", {attrs}}} : ({t}, tensor<16x16x3x3xf32>) -> {t}\n'
            f'  %{p}a = ascend.Add %{p}c2, {cur} {{name = "{p}.res"}} : ({t}, {t}) -> {t}\n'
            f'  %{p}r2 = ascend.Relu %{p}a {{name = "{p}.relu2"}} : {t}\n')
        cur = f"%{p}r2"
        count += 8
        i += 1
    out.write(f"  return {cur} : {t}\n}}\n")
    return count


def main():
    kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(path, "w") as out:
        count = {"transformer": transformer, "cnn": cnn}[kind](n, out)
    print(f"{path}: {count} ops")


if __name__ == "__main__":
    main()
