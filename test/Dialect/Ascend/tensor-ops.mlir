// Round trip of the 3-D, tensor-building, image and Einsum ops.
// RUN: prec-opt %s | prec-opt | FileCheck %s

// CHECK-LABEL: func @volume
func.func @volume(%x: tensor<1x3x4x8x8xf32>, %w: tensor<4x3x3x3x3xf32>) -> tensor<1x4x1x3x3xf32> {
  // CHECK: ascend.Conv3D %{{.*}} -> tensor<1x4x2x6x6xf32>
  %c = ascend.Conv3D %x, %w {name = "conv", strides = array<i64: 1, 1, 1>,
      pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>}
      : (tensor<1x3x4x8x8xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x2x6x6xf32>
  // CHECK: ascend.MaxPool3D
  %p = ascend.MaxPool3D %c {name = "pool", ksize = array<i64: 2, 2, 2>,
      strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>}
      : (tensor<1x4x2x6x6xf32>) -> tensor<1x4x1x3x3xf32>
  return %p : tensor<1x4x1x3x3xf32>
}

// CHECK-LABEL: func @built
func.func @built(%x: tensor<?x4xf32>, %s: tensor<2xi64>, %k: tensor<1xi64>, %i: tensor<3xi64>,
                 %d: tensor<i64>, %on: tensor<f32>, %off: tensor<f32>) {
  // CHECK: ascend.Fill
  %f = ascend.Fill %s, %on {name = "fill"} : (tensor<2xi64>, tensor<f32>) -> tensor<?x?xf32>
  // CHECK: ascend.BroadcastTo
  %b = ascend.BroadcastTo %x, %s {name = "expand"} : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  // CHECK: ascend.Tile
  %t = ascend.Tile %x {name = "tile", multiples = array<i64: 2, 3>} : (tensor<?x4xf32>) -> tensor<?x12xf32>
  // CHECK: ascend.TopKV2
  %v, %ix = ascend.TopKV2 %x, %k {name = "topk"} : (tensor<?x4xf32>, tensor<1xi64>) -> (tensor<?x2xf32>, tensor<?x2xi64>)
  // CHECK: ascend.OneHot
  %o = ascend.OneHot %i, %d, %on, %off {name = "onehot", axis = 0 : i64} : (tensor<3xi64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?x3xf32>
  // CHECK: ascend.Size
  %n = ascend.Size %x {name = "size"} : (tensor<?x4xf32>) -> tensor<i64>
  // CHECK: ascend.Range
  %r = ascend.Range %on, %off, %on {name = "range"} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return
}

// CHECK-LABEL: func @image
func.func @image(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x5x2xf32>, %a: tensor<2x3xf32>, %b: tensor<5x3xf32>) {
  // CHECK: ascend.GridSampler2D {{.*}}interpolation_mode = #ascend.interpolation<nearest>
  %s = ascend.GridSampler2D %x, %g {name = "grid", interpolation_mode = #ascend.interpolation<nearest>} : (tensor<1x3x8x8xf32>, tensor<1x4x5x2xf32>) -> tensor<1x3x4x5xf32>
  // CHECK: ascend.LRN
  %l = ascend.LRN %x {name = "lrn", depth_radius = 2 : i64} : tensor<1x3x8x8xf32>
  // CHECK: ascend.ResizeBicubic
  %c = ascend.ResizeBicubic %x {name = "cubic", size = array<i64: 16, 16>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
  // CHECK: ascend.Einsum {{.*}}equation = "ij,kj->ik"
  %e = ascend.Einsum %a, %b {name = "einsum", equation = "ij,kj->ik"} : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<2x5xf32>
  // CHECK: ascend.Mod
  %m = ascend.Mod %a, %a {name = "mod"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
