// RUN: prec-opt %s -split-input-file -verify-diagnostics

// NLLLoss (AscendLossOps.td): [N, C] rows, [N] targets, [C] weights.
func.func @bad_reduction(%x: tensor<3x5xf32>, %t: tensor<3xi32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{expects 'reduction' none, sum or mean, got 'max'}}
  %y, %total = ascend.NLLLoss %x, %t, %w {name = "loss", reduction = "max"}
      : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @spatial_scores(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{expects 'x' ([N, C]) of rank 2, got rank 3}}
  %y, %total = ascend.NLLLoss %x, %t, %w {name = "loss"}
      : (tensor<3x5x2xf32>, tensor<3x2xi32>, tensor<5xf32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @weight_per_row(%x: tensor<3x5xf32>, %t: tensor<3xi32>, %w: tensor<3xf32>) {
  // expected-error @+1 {{expects dimension 0 of 'weight' (the classes of 'x') to be 5, got 3}}
  %y, %total = ascend.NLLLoss %x, %t, %w {name = "loss"}
      : (tensor<3x5xf32>, tensor<3xi32>, tensor<3xf32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @none_is_per_row(%x: tensor<3x5xf32>, %t: tensor<3xi32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{expects 'y' of rank 1, got rank 0}}
  %y, %total = ascend.NLLLoss %x, %t, %w {name = "loss", reduction = "none"}
      : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf32>) -> (tensor<f32>, tensor<f32>)
  return
}
