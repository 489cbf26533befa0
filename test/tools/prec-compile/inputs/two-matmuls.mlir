func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = ascend.MatMulV2 %a, %b {name = "fc1"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = ascend.MatMulV2 %0, %b {name = "fc2"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = ascend.Relu %1 {name = "relu"} : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
