// Verifier errors of the quantization ops (AscendQuantVerifiers.cpp).
// RUN: prec-opt %s -split-input-file -verify-diagnostics

func.func @quant_zero_scale(%x: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @+1 {{'ascend.AscendQuant' op expects a finite, non-zero 'scale', got 0}}
  %y = ascend.AscendQuant %x {name = "q", scale = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

func.func @quant_round_mode(%x: tensor<4xf16>) -> tensor<4xi8> {
  // expected-error @+1 {{expects 'round_mode' to be Round, Floor, Ceil or Trunc, got 'Away'}}
  %y = ascend.AscendQuant %x {name = "q", scale = 2.0 : f32, round_mode = "Away"} : (tensor<4xf16>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

func.func @quant_uint8(%x: tensor<4xf32>) -> tensor<4xui8> {
  // expected-error @+1 {{result #0 must be ranked tensor of 8-bit signless integer values}}
  %y = ascend.AscendQuant %x {name = "q", scale = 2.0 : f32} : (tensor<4xf32>) -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// -----

func.func @dequant_scales(%x: tensor<1x8x4x4xi32>, %s: tensor<4xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+1 {{expects 'deq_scale' to hold 1 or 8 scales (dimension 1 of 'x'), got 4}}
  %y = ascend.AscendDequant %x, %s {name = "dq"} : (tensor<1x8x4x4xi32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// -----

func.func @dequant_axis(%x: tensor<4x8xi32>, %s: tensor<8xf32>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'channel_axis'}}
  %y = ascend.AscendDequant %x, %s {name = "dq", channel_axis = 2 : i64} : (tensor<4x8xi32>, tensor<8xf32>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

func.func @dequant_sqrt(%x: tensor<4x8xi32>, %s: tensor<1xf32>) -> tensor<4x8xf16> {
  // expected-error @+1 {{sqrt_mode is not supported}}
  %y = ascend.AscendDequant %x, %s {name = "dq", sqrt_mode = true} : (tensor<4x8xi32>, tensor<1xf32>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

func.func @dequant_int8_input(%x: tensor<4x8xi8>, %s: tensor<1xf32>) -> tensor<4x8xf16> {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit signless integer values}}
  %y = ascend.AscendDequant %x, %s {name = "dq"} : (tensor<4x8xi8>, tensor<1xf32>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

func.func @antiquant_nan(%x: tensor<4xi8>) -> tensor<4xf16> {
  // expected-error @+1 {{expects a finite 'offset'}}
  %y = ascend.AscendAntiQuant %x {name = "aq", scale = 0.5 : f32, offset = 0x7FC00000 : f32} : (tensor<4xi8>) -> tensor<4xf16>
  return %y : tensor<4xf16>
}
