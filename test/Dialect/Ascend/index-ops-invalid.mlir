// Verifier errors of the element-indexed ops (AscendIndexVerifiers.cpp).
// RUN: prec-opt %s -split-input-file -verify-diagnostics

func.func @gather_elements_shape(%x: tensor<2x5xf32>, %i: tensor<2x3xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ascend.GatherElements' op expects the result}}
  %y = ascend.GatherElements %x, %i {name = "g", dim = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

func.func @gather_elements_dim(%x: tensor<2x5xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dim'}}
  %y = ascend.GatherElements %x, %i {name = "g", dim = 2 : i64} : (tensor<2x5xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

func.func @scatter_reduction(%x: tensor<2x5xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{expects 'reduction' to be none, add, mul, max or min, got 'mean'}}
  %y = ascend.ScatterElements %x, %i, %u {name = "s", reduction = "mean"} : (tensor<2x5xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// -----

func.func @gather_nd_depth(%x: tensor<2x5xf32>, %t: tensor<3x3xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{expects tuples of 1 to 2 coordinates after 0 batch dimensions, got 3}}
  %y = ascend.GatherNd %x, %t {name = "g"} : (tensor<2x5xf32>, tensor<3x3xi64>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

func.func @scatter_nd_updates(%x: tensor<4x3xf32>, %t: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'updates' dimension 1}}
  %y = ascend.TensorScatterUpdate %x, %t, %u {name = "s"} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @triangle_rank(%x: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'x'}}
  %y = ascend.Triu %x {name = "t"} : (tensor<5xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @triangle_k(%x: tensor<3x3xf32>, %k: tensor<2xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{expects 'k' to hold one element, got 'tensor<2xi64>'}}
  %y = ascend.Tril %x, %k {name = "t"} : (tensor<3x3xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}

// -----

func.func @cumsum_axis(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %a = ascend.Const dense<2> : tensor<i64> {name = "axis"}
  // expected-error @+1 {{'axis'}}
  %y = ascend.Cumsum %x, %a {name = "c"} : (tensor<2x5xf32>, tensor<i64>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}
