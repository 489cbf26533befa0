// A Conv2D with a bias, a residual Add and a HardSwish: one UB group
// (TbeCommonRules0FusionPass) unless the switch file turns it off
// (ub-fusion-numerics.test).
func.func @main(%x: tensor<1x8x6x6xf32> {ascend.name = "x"}, %r: tensor<1x8x6x6xf32> {ascend.name = "r"}) -> tensor<1x8x6x6xf32> {
  %w = ascend.Const dense<0.37> : tensor<8x8x3x3xf32> {name = "w"}
  %b = ascend.Const dense<0.013> : tensor<8xf32> {name = "b"}
  %c = ascend.Conv2D %x, %w, %b {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %a = ascend.Add %c, %r {name = "residual"} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = ascend.HardSwish %a {name = "hswish"} : tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
