// Quantized forms and ops without a mapping are errors: planning must see
// the whole graph.
// RUN: prec-opt %s --convert-tosa-to-ascend -split-input-file -verify-diagnostics

func.func @shift(%a: tensor<4xi32>) -> tensor<4xi32> {
  %shift = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{failed to legalize operation 'tosa.mul'}}
  %0 = tosa.mul %a, %a, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @unmapped(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'tosa.sin'}}
  %0 = tosa.sin %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
