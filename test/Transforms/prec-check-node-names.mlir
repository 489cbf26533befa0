// RUN: prec-opt %s --prec-check-node-names -split-input-file -verify-diagnostics

// Unique names pass untouched.
func.func @unique(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ascend.Relu %x {name = "a"} : tensor<4xf32>
  %1 = ascend.Relu %0 {name = "b"} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @duplicate(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{first used here}}
  %0 = ascend.Relu %x {name = "relu"} : tensor<4xf32>
  // expected-error @+1 {{node name 'relu' is used by more than one op}}
  %1 = ascend.Relu %0 {name = "relu"} : tensor<4xf32>
  // The rename skips names already taken.
  %2 = ascend.Abs %1 {name = "relu_1"} : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Names absorbed by fusion count as used (FU-3): a later op cannot take one.
func.func @absorbed(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{first used here}}
  %0 = ascend.Relu %x {name = "conv1", absorbed = ["bn1"]} : tensor<4xf32>
  // expected-error @+1 {{node name 'bn1' is used by more than one op}}
  %1 = ascend.Relu %0 {name = "bn1"} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Names are unique across the module: a CANN graph is one namespace.
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{first used here}}
  %0 = ascend.Relu %x {name = "shared"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node name 'shared' is used by more than one op}}
  %0 = ascend.Relu %x {name = "shared"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
