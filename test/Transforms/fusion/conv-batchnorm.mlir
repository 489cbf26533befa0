// ConvBatchnormFusionPass (FU-1): an inference BatchNorm with constant
// statistics after a Conv2D with a constant filter is folded into the
// filter and bias in fp32; the Conv keeps its name and records the BatchNorm.
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910" | FileCheck %s

// filter 2x1x1x1 = [1, 2], bias [0.5, 0.5]; bn: scale [2, 3], offset [1, -1],
// mean [0.5, 1.5], variance [3, 8], epsilon 1: factor = [1, 1]
// -> filter [1, 2], bias [(0.5-0.5)*1+1, (0.5-1.5)*1-1] = [1, -2]
// CHECK-LABEL: func.func @folds
// CHECK-DAG: %[[W:.*]] = ascend.Const dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]]]> : tensor<2x1x1x1xf32> {name = "w"}
// CHECK-DAG: %[[B:.*]] = ascend.Const dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32> {name = "b"}
// CHECK: %[[Y:.*]] = ascend.Conv2D %arg0, %[[W]], %[[B]] {absorbed = ["bn"], {{.*}}fused_by = ["ConvBatchnormFusionPass"], {{.*}}name = "conv"
// CHECK-NOT: ascend.BatchNorm
// CHECK: return %[[Y]]
func.func @folds(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32> {name = "w"}
  %b = ascend.Const dense<[0.5, 0.5]> : tensor<2xf32> {name = "b"}
  %s = ascend.Const dense<[2.0, 3.0]> : tensor<2xf32> {name = "s"}
  %o = ascend.Const dense<[1.0, -1.0]> : tensor<2xf32> {name = "o"}
  %m = ascend.Const dense<[0.5, 1.5]> : tensor<2xf32> {name = "m"}
  %v = ascend.Const dense<[3.0, 8.0]> : tensor<2xf32> {name = "v"}
  %c = ascend.Conv2D %x, %w, %b {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.BatchNorm %c, %s, %o, %m, %v {name = "bn", epsilon = 1.0 : f32}
      : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// Not fused: the Conv's result has a second user.
// CHECK-LABEL: func.func @two_users
// CHECK: ascend.Conv2D
// CHECK-NOT: absorbed
// CHECK: ascend.BatchNorm
func.func @two_users(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w2"}
  %s = ascend.Const dense<1.0> : tensor<2xf32> {name = "s2"}
  %c = ascend.Conv2D %x, %w {name = "conv2", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.BatchNorm %c, %s, %s, %s, %s {name = "bn2"}
      : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// Not fused: the filter is not a constant.
// CHECK-LABEL: func.func @runtime_filter
// CHECK: ascend.BatchNorm
func.func @runtime_filter(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %s = ascend.Const dense<1.0> : tensor<2xf32> {name = "s3"}
  %c = ascend.Conv2D %x, %w {name = "conv3", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.BatchNorm %c, %s, %s, %s, %s {name = "bn3"}
      : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
