// Token ids into a 100-row table, times a float input (run-inputs.test).
func.func @main(%ids: tensor<2x4xi64> {ascend.name = "ids"}, %x: tensor<2x4x8xf32> {ascend.name = "x"}) -> (tensor<2x4x8xf32> {ascend.name = "y"}) {
  %table = ascend.Const dense<0.5> : tensor<100x8xf32> {name = "table"}
  %e = ascend.GatherV2 %table, %ids {axis = 0 : i64, name = "emb"} : (tensor<100x8xf32>, tensor<2x4xi64>) -> tensor<2x4x8xf32>
  %y = ascend.Mul %e, %x {name = "mul"} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}
