// Invalid: the result type contradicts the operand.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = ascend.Relu %x {name = "relu"} : tensor<5xf32>
  return %r : tensor<4xf32>
}
