// The mode-matrix graph (docs/mode-matrix.md): Conv2D, BatchNorm, Relu,
// MatMulV2, SoftmaxV2, LayerNorm, an Add fed by producers that plan to
// different dtypes under mixed precision, a Cast and Consts.
func.func @matrix(%img: tensor<1x3x8x8xf32>) -> tensor<4x16xf16> {
  %w = ascend.Const dense<0.1> : tensor<4x3x3x3xf32> {name = "conv.w"}
  %conv = ascend.Conv2D %img, %w {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %c = ascend.Const dense<1.0> : tensor<4xf32> {name = "bn.param"}
  %bn = ascend.BatchNorm %conv, %c, %c, %c, %c {name = "bn"}
      : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      -> tensor<1x4x8x8xf32>
  %relu = ascend.Relu %bn {name = "relu"} : tensor<1x4x8x8xf32>
  %flat = ascend.Reshape %relu {name = "flatten"} : tensor<1x4x8x8xf32> to tensor<4x64xf32>
  %fw = ascend.Const dense<0.01> : tensor<64x16xf32> {name = "fc.w"}
  %fc = ascend.MatMulV2 %flat, %fw {name = "fc"} : (tensor<4x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
  %sm = ascend.SoftmaxV2 %fc {name = "softmax", axes = array<i64: -1>} : tensor<4x16xf32>
  %act = ascend.Relu %fc {name = "fc.relu"} : tensor<4x16xf32>
  %add = ascend.Add %act, %sm {name = "add"} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %g = ascend.Const dense<1.0> : tensor<16xf32> {name = "ln.gamma"}
  %y, %mean, %var = ascend.LayerNorm %add, %g, %g {name = "ln",
      begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64}
      : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>)
      -> (tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  %half = ascend.Cast %y {name = "to_half"} : tensor<4x16xf32> to tensor<4x16xf16>
  return %half : tensor<4x16xf16>
}
