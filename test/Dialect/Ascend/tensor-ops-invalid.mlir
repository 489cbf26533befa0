// Verifier messages of the 3-D, tensor-building, image and Einsum ops.
// RUN: prec-opt %s -split-input-file -verify-diagnostics

func.func @conv3d_output(%x: tensor<1x3x4x8x8xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error @+1 {{expects result spatial size 0 to be 2, got 3}}
  %c = ascend.Conv3D %x, %w {name = "conv", strides = array<i64: 1, 1, 1>,
      pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>}
      : (tensor<1x3x4x8x8xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x3x6x6xf32>
  return
}

// -----

func.func @conv3d_pads(%x: tensor<1x3x4x8x8xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error @+1 {{expects 'pads' to have 6 entries, got 4}}
  %c = ascend.Conv3D %x, %w {name = "conv", strides = array<i64: 1, 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>}
      : (tensor<1x3x4x8x8xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x2x6x6xf32>
  return
}

// -----

func.func @pool3d_rank(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{expects input 'x' (NCDHW) of rank 5}}
  %p = ascend.AvgPool3D %x {name = "pool", ksize = array<i64: 2, 2, 2>,
      strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>}
      : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @fill_value(%s: tensor<2xi64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{expects 'value' to be a scalar, got 'tensor<2xf32>'}}
  %f = ascend.Fill %s, %v {name = "fill"} : (tensor<2xi64>, tensor<2xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @fill_rank(%s: tensor<2xi64>, %v: tensor<f32>) {
  // expected-error @+1 {{expects the length of 'dims' to be 3, got 2}}
  %f = ascend.Fill %s, %v {name = "fill"} : (tensor<2xi64>, tensor<f32>) -> tensor<?x?x?xf32>
  return
}

// -----

func.func @broadcast(%x: tensor<3x4xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{expects 'x' of type 'tensor<3x4xf32>' to broadcast to the result 'tensor<2x4xf32>'}}
  %b = ascend.BroadcastTo %x, %s {name = "expand"} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @tile(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{expects result dimension 1 to be 8, got 4}}
  %t = ascend.Tile %x {name = "tile", multiples = array<i64: 1, 2>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @tile_overflow(%x: tensor<4xf32>) {
  // expected-error @+1 {{tiles dimension 0 of 4 by 2305843009213693956, past 2^63 elements}}
  %t = ascend.Tile %x {name = "tile", multiples = array<i64: 2305843009213693956>} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @onehot(%i: tensor<3xi64>, %d: tensor<i64>, %on: tensor<f16>, %off: tensor<f32>) {
  // expected-error @+1 {{expects 'on_value' and 'off_value' of the result's element type 'f32'}}
  %o = ascend.OneHot %i, %d, %on, %off {name = "onehot"} : (tensor<3xi64>, tensor<i64>, tensor<f16>, tensor<f32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @topk(%x: tensor<2x4xf32>, %k: tensor<1xi64>) {
  // expected-error @+1 {{expects k (5) at most the size of dimension 1 (4)}}
  %v, %i = ascend.TopKV2 %x, %k {name = "topk"} : (tensor<2x4xf32>, tensor<1xi64>) -> (tensor<2x5xf32>, tensor<2x5xi64>)
  return
}

// -----

func.func @size(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{expects result of rank 0}}
  %n = ascend.Size %x {name = "size"} : (tensor<2x4xf32>) -> tensor<1xi64>
  return
}

// -----

func.func @range(%a: tensor<2xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{expects 'start' to be a scalar}}
  %r = ascend.Range %a, %b, %b {name = "range"} : (tensor<2xf32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return
}

// -----

func.func @grid_mode(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x5x2xf32>) {
  // expected-error @+2 {{expected ::ascendprec::ascend::Interpolation to be one of: bilinear, nearest, bicubic}}
  // expected-error @+1 {{failed to parse Ascend_InterpolationAttr parameter 'value'}}
  %s = ascend.GridSampler2D %x, %g {name = "grid", interpolation_mode = #ascend.interpolation<area>} : (tensor<1x3x8x8xf32>, tensor<1x4x5x2xf32>) -> tensor<1x3x4x5xf32>
  return
}

// -----

func.func @grid_shape(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x5x3xf32>) {
  // expected-error @+1 {{expects 'grid' dimension 3 (x, y) to be 2, got 3}}
  %s = ascend.GridSampler2D %x, %g {name = "grid"} : (tensor<1x3x8x8xf32>, tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
  return
}

// -----

func.func @lrn(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{expects 'depth_radius' >= 0, got -1}}
  %l = ascend.LRN %x {name = "lrn", depth_radius = -1 : i64} : tensor<1x3x8x8xf32>
  return
}

// -----

func.func @einsum_operands(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{expects 2 operands for equation 'ij,jk->ik', got 1}}
  %e = ascend.Einsum %a {name = "einsum", equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{expects operand #1 of rank 2 for term 'jk', got 'tensor<3xf32>'}}
  %e = ascend.Einsum %a, %b {name = "einsum", equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_implicit(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{expects an explicit output ('->') in equation 'ij'}}
  %e = ascend.Einsum %a {name = "einsum", equation = "ij"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
