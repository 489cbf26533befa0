// A Conv2D with a bias and the hard-swish opset-9 exporters write after
// it, y * Clip(y + 3, 0, 6) / 6: one UB group
// (TbeConv2dAddClipMulDivFusionPass) unless the switch file turns it off
// (ub-fusion-numerics.test).
func.func @main(%x: tensor<1x8x6x6xf32> {ascend.name = "x"}) -> tensor<1x8x6x6xf32> {
  %w = ascend.Const dense<0.37> : tensor<8x8x3x3xf32> {name = "w"}
  %b = ascend.Const dense<0.013> : tensor<8xf32> {name = "b"}
  %three = ascend.Const dense<3.0> : tensor<f32> {name = "three"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi"}
  %six = ascend.Const dense<6.0> : tensor<f32> {name = "six"}
  %c = ascend.Conv2D %x, %w, %b {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %0 = ascend.Add %c, %three {name = "add"} : (tensor<1x8x6x6xf32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  %1 = ascend.ClipByValue %0, %lo, %hi {name = "clip"} : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  %2 = ascend.Mul %c, %1 {name = "mul"} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = ascend.RealDiv %2, %six {name = "div"} : (tensor<1x8x6x6xf32>, tensor<f32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
