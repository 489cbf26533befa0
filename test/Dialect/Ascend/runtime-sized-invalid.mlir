// Verifier errors of NonZero, NonMaxSuppressionV6 (AscendIndexVerifiers.cpp),
// ReverseSequence, MatrixDeterminant and ROIAlign (AscendTensorVerifiers.cpp).
// RUN: prec-opt %s -split-input-file -verify-diagnostics

func.func @nonzero_rank(%x: tensor<2x3xf32>) -> tensor<3x?xi64> {
  // expected-error @+1 {{'ascend.NonZero' op expects result dimension 0 (the rank of 'x') to be 2, got 3}}
  %y = ascend.NonZero %x {name = "nz"} : (tensor<2x3xf32>) -> tensor<3x?xi64>
  return %y : tensor<3x?xi64>
}

// -----

func.func @nms_boxes(%b: tensor<1x6x5xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  // expected-error @+1 {{dimension 2 of 'boxes'}}
  %y = ascend.NonMaxSuppressionV6 %b, %s, %m, %i, %t {name = "nms"} : (tensor<1x6x5xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %y : tensor<?x3xi64>
}

// -----

func.func @nms_scores(%b: tensor<1x6x4xf32>, %s: tensor<1x2x5xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  // expected-error @+1 {{dimension 2 of 'scores' (the boxes)}}
  %y = ascend.NonMaxSuppressionV6 %b, %s, %m, %i, %t {name = "nms"} : (tensor<1x6x4xf32>, tensor<1x2x5xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %y : tensor<?x3xi64>
}

// -----

func.func @nms_limit(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<2xi64>, %i: tensor<1xf32>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  // expected-error @+1 {{expects 'max_output_size' to hold one element}}
  %y = ascend.NonMaxSuppressionV6 %b, %s, %m, %i, %t {name = "nms"} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<2xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %y : tensor<?x3xi64>
}

// -----

func.func @nms_center(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  // expected-error @+1 {{expects 'center_point_box' 0 or 1, got 2}}
  %y = ascend.NonMaxSuppressionV6 %b, %s, %m, %i, %t {name = "nms", center_point_box = 2 : i64} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %y : tensor<?x3xi64>
}

// -----

func.func @reverse_same_dims(%x: tensor<4x4xf32>, %l: tensor<4xi64>) -> tensor<4x4xf32> {
  // expected-error @+1 {{expects different 'seq_dim' and 'batch_dim', got 0 for both}}
  %y = ascend.ReverseSequence %x, %l {name = "rev", seq_dim = 0 : i64, batch_dim = 0 : i64} : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

func.func @reverse_lengths(%x: tensor<4x3xf32>, %l: tensor<4xi64>) -> tensor<4x3xf32> {
  // expected-error @+1 {{the length of 'seq_lengths' (the batch)}}
  %y = ascend.ReverseSequence %x, %l {name = "rev", seq_dim = 0 : i64, batch_dim = 1 : i64} : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @det_not_square(%x: tensor<2x3x4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{the matrices' column count}}
  %y = ascend.MatrixDeterminant %x {name = "det"} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

func.func @det_result(%x: tensor<2x3x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{expects a result of x's element type and its leading 1 dimensions}}
  %y = ascend.MatrixDeterminant %x {name = "det"} : (tensor<2x3x3xf32>) -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}

// -----

func.func @roi_columns(%x: tensor<1x2x8x8xf32>, %r: tensor<3x4xf32>) -> tensor<3x2x2x2xf32> {
  // expected-error @+1 {{dimension 1 of 'rois' ([b, x1, y1, x2, y2])}}
  %y = ascend.ROIAlign %x, %r {name = "roi", pooled_height = 2 : i64, pooled_width = 2 : i64} : (tensor<1x2x8x8xf32>, tensor<3x4xf32>) -> tensor<3x2x2x2xf32>
  return %y : tensor<3x2x2x2xf32>
}

// -----

func.func @roi_mode(%x: tensor<1x2x8x8xf32>, %r: tensor<3x5xf32>) -> tensor<3x2x2x2xf32> {
  // expected-error @+1 {{expects 'mode' avg or max, got 'sum'}}
  %y = ascend.ROIAlign %x, %r {name = "roi", pooled_height = 2 : i64, pooled_width = 2 : i64, mode = "sum"} : (tensor<1x2x8x8xf32>, tensor<3x5xf32>) -> tensor<3x2x2x2xf32>
  return %y : tensor<3x2x2x2xf32>
}
