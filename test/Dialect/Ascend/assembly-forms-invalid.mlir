// The hand-written assembly forms check inherent attributes and types as
// the declarative parsers do.
// RUN: prec-opt %s -split-input-file -verify-diagnostics

func.func @name_not_a_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ascend.Add' op attribute 'name' failed to satisfy constraint: string attribute}}
  %y = ascend.Add %x, %x {name = 5} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @operand_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{number of operands and types do not match: got 2 operands and 1 types}}
  %y = ascend.Add %x, %x {name = "a"} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @unary_needs_ranked_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{invalid kind of type specified}}
  %y = ascend.Relu %x {name = "r"} : f32
  return %y : tensor<4xf32>
}

// -----

func.func @cast_needs_to(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{expected 'to'}}
  %y = ascend.Cast %x {name = "c"} : tensor<4xf32> tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

func.func @const_name_not_a_string() -> tensor<4xf32> {
  // expected-error @+1 {{'ascend.Const' op attribute 'name' failed to satisfy constraint: string attribute}}
  %c = ascend.Const dense<0.5> : tensor<4xf32> {name = 1}
  return %c : tensor<4xf32>
}
