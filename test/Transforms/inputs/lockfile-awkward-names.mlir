func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ascend.Relu %x {name = "a::b"} : tensor<4xf32>
  %1 = ascend.Relu %0 {name = "#hash"} : tensor<4xf32>
  %2 = ascend.Relu %1 {name = "x::InputDtype:y"} : tensor<4xf32>
  %3 = ascend.Relu %2 {name = "line\0Abreak"} : tensor<4xf32>
  return %3 : tensor<4xf32>
}
