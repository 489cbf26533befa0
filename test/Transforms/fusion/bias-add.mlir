// AABiasaddConvFusion and MatMulBiasAddFusionPass (FU-1): a constant bias
// added to a Conv2D's channels or a MatMulV2's columns joins the op.
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910" | FileCheck %s

// CHECK-LABEL: func.func @conv_add
// CHECK: %[[B:.*]] = ascend.Const dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32> {name = "conv.b"}
// CHECK: ascend.Conv2D %arg0, %{{.*}}, %[[B]] {absorbed = ["add"], {{.*}}fused_by = ["AABiasaddConvFusion"], {{.*}}name = "conv"
// CHECK-NOT: ascend.Add
func.func @conv_add(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w"}
  %b0 = ascend.Const dense<[0.5, 0.5]> : tensor<2xf32> {name = "conv.b"}
  %b = ascend.Const dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32> {name = "bias"}
  %c = ascend.Conv2D %x, %w, %b0 {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.Add %c, %b {name = "add"} : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// BiasAdd after a Conv without bias: the BiasAdd's constant becomes the bias.
// CHECK-LABEL: func.func @conv_biasadd
// CHECK: ascend.Conv2D {{.*}}absorbed = ["ba"]
func.func @conv_biasadd(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w4"}
  %b = ascend.Const dense<[1.0, 2.0]> : tensor<2xf32> {name = "bias4"}
  %c = ascend.Conv2D %x, %w {name = "conv4", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.BiasAdd %c, %b {name = "ba"} : (tensor<1x2x4x4xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// Not fused: a [C] constant added to NCHW broadcasts along W, not the
// channel; and a bias computed at run time.
// CHECK-LABEL: func.func @not_a_channel_bias
// CHECK: ascend.Add
// CHECK: ascend.Add
func.func @not_a_channel_bias(%x: tensor<1x1x4x4xf32>, %r: tensor<2x1x1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w5"}
  %b = ascend.Const dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> {name = "row"}
  %c = ascend.Conv2D %x, %w {name = "conv5", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.Add %c, %b {name = "add5"} : (tensor<1x2x4x4xf32>, tensor<4xf32>) -> tensor<1x2x4x4xf32>
  %d = ascend.Conv2D %x, %w {name = "conv6", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %z = ascend.Add %d, %r {name = "add6"} : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %y, %z : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// MatMul + Add of a [1, N] constant: the bias joins as [N].
// CHECK-LABEL: func.func @matmul_add
// CHECK: %[[B:.*]] = ascend.Const dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32> {name = "fc.bias"}
// CHECK: ascend.MatMulV2 %arg0, %{{.*}}, %[[B]] {absorbed = ["fc.add"], fused_by = ["MatMulBiasAddFusionPass"], name = "fc"}
func.func @matmul_add(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = ascend.Const dense<1.0> : tensor<4x3xf32> {name = "fc.weight"}
  %b = ascend.Const dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32> {name = "fc.bias"}
  %m = ascend.MatMulV2 %x, %w {name = "fc"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = ascend.Add %m, %b {name = "fc.add"} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// Not fused: the MatMul already has a bias, or the Add's other operand is
// a full [M, N] tensor.
// CHECK-LABEL: func.func @matmul_not
// CHECK-COUNT-2: ascend.Add
func.func @matmul_not(%x: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %w = ascend.Const dense<1.0> : tensor<4x3xf32> {name = "w7"}
  %b = ascend.Const dense<1.0> : tensor<3xf32> {name = "b7"}
  %full = ascend.Const dense<1.0> : tensor<2x3xf32> {name = "full"}
  %m = ascend.MatMulV2 %x, %w, %b {name = "fc7"} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = ascend.Add %m, %b {name = "add7"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %n = ascend.MatMulV2 %x, %w {name = "fc8"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %z = ascend.Add %n, %full {name = "add8"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y, %z : tensor<2x3xf32>, tensor<2x3xf32>
}

// A transformer's Linear on [B, S, D] (BatchMatMulV2) + Add of a [D]
// constant: the bias joins the BatchMatMulV2.
// CHECK-LABEL: func.func @batch_matmul_add
// CHECK: ascend.BatchMatMulV2 %arg0, %{{.*}}, %{{.*}} {absorbed = ["proj.add"], fused_by = ["MatMulBiasAddFusionPass"], name = "proj"}
// CHECK-NOT: ascend.Add
func.func @batch_matmul_add(%x: tensor<2x5x4xf32>) -> tensor<2x5x3xf32> {
  %w = ascend.Const dense<1.0> : tensor<4x3xf32> {name = "proj.weight"}
  %b = ascend.Const dense<[1.0, 2.0, 3.0]> : tensor<3xf32> {name = "proj.bias"}
  %m = ascend.BatchMatMulV2 %x, %w {name = "proj"} : (tensor<2x5x4xf32>, tensor<4x3xf32>) -> tensor<2x5x3xf32>
  %y = ascend.Add %m, %b {name = "proj.add"} : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  return %y : tensor<2x5x3xf32>
}
