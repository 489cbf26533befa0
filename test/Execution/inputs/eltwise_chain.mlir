// A chain of elementwise ops (one TbeEltwiseFusionPass group unless the
// switch file turns it off; ub-fusion-numerics.test): a scalar Add, a
// Clip, a per-channel Mul (broadcast), an Exp (fp32 under
// allow_mix_precision: Casts inside the group) and a Div by the input.
func.func @main(%x: tensor<1x8x6x6xf32> {ascend.name = "x"}) -> tensor<1x8x6x6xf32> {
  %three = ascend.Const dense<0.3> : tensor<f32> {name = "k"}
  %lo = ascend.Const dense<-1.5> : tensor<f32> {name = "lo"}
  %hi = ascend.Const dense<1.5> : tensor<f32> {name = "hi"}
  %scale = ascend.Const dense<[[[[0.5]], [[1.1]], [[1.5]], [[2.0]], [[2.5]], [[3.0]], [[3.7]], [[4.0]]]]> : tensor<1x8x1x1xf32> {name = "scale"}
  %0 = ascend.Add %x, %three {name = "add"} : (tensor<1x8x6x6xf32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  %1 = ascend.ClipByValue %0, %lo, %hi {name = "clip"} : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  %2 = ascend.Mul %1, %scale {name = "mul"} : (tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %3 = ascend.Exp %2 {name = "exp"} : tensor<1x8x6x6xf32>
  %y = ascend.RealDiv %3, %x {name = "div"} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
