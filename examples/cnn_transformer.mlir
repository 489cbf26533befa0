// A small model as an importer hands it over: a CNN stage (Conv2D, BatchNorm,
// Relu, pooling) feeding a transformer block (MatMulV2, SoftmaxV2, LayerNorm,
// Gelu). Like many exported graphs it carries clutter the prepare pipeline
// removes: fp16 weights stored as fp32 behind a Cast, an exact Cast round
// trip, a Reshape chain and an identity Transpose.
//
// Try: prec-opt examples/cnn_transformer.mlir --prec-graph-prepare

func.func @main(%image: tensor<1x3x16x16xf32>) -> tensor<1x16x8xf32> {
  // --- CNN stage -----------------------------------------------------------
  %w1 = ascend.Const dense<0.05> : tensor<8x3x3x3xf32> {name = "stem.conv.weight"}
  %b1 = ascend.Const dense<0.01> : tensor<8xf32> {name = "stem.conv.bias"}
  %conv = ascend.Conv2D %image, %w1, %b1 {name = "stem.conv",
      strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>,
      dilations = array<i64: 1, 1>}
      : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  %scale = ascend.Const dense<1.0> : tensor<8xf32> {name = "stem.bn.weight"}
  %offset = ascend.Const dense<0.0> : tensor<8xf32> {name = "stem.bn.bias"}
  %mean = ascend.Const dense<0.1> : tensor<8xf32> {name = "stem.bn.running_mean"}
  %var = ascend.Const dense<0.9> : tensor<8xf32> {name = "stem.bn.running_var"}
  %bn = ascend.BatchNorm %conv, %scale, %offset, %mean, %var {name = "stem.bn"}
      : (tensor<1x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
         tensor<8xf32>) -> tensor<1x8x16x16xf32>
  %relu = ascend.Relu %bn {name = "stem.relu"} : tensor<1x8x16x16xf32>
  %pool = ascend.MaxPool %relu {name = "stem.pool", ksize = array<i64: 2, 2>,
      strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>

  // --- Tokens: [1, 8, 8, 8] -> [1, 8, 64] -> [1, 64, 8] -> 16 tokens of 32 --
  %flat = ascend.Reshape %pool {name = "tokens.flatten"} : tensor<1x8x8x8xf32> to tensor<1x8x64xf32>
  %seq = ascend.Transpose %flat {name = "tokens.transpose", perm = array<i64: 0, 2, 1>}
      : (tensor<1x8x64xf32>) -> tensor<1x64x8xf32>
  %tok0 = ascend.Reshape %seq {name = "tokens.view"} : tensor<1x64x8xf32> to tensor<512xf32>
  %tok = ascend.Reshape %tok0 {name = "tokens.reshape"} : tensor<512xf32> to tensor<1x16x32xf32>
  %same = ascend.Transpose %tok {name = "tokens.noop", perm = array<i64: 0, 1, 2>}
      : (tensor<1x16x32xf32>) -> tensor<1x16x32xf32>

  // --- Attention -------------------------------------------------------------
  %wq16 = ascend.Const dense<0.02> : tensor<32x32xf16> {name = "attn.q.weight"}
  %wq = ascend.Cast %wq16 {name = "attn.q.weight.cast"} : tensor<32x32xf16> to tensor<32x32xf32>
  %q = ascend.BatchMatMulV2 %same, %wq {name = "attn.q"}
      : (tensor<1x16x32xf32>, tensor<32x32xf32>) -> tensor<1x16x32xf32>
  %scores = ascend.BatchMatMulV2 %q, %same {name = "attn.scores", adj_x2 = true}
      : (tensor<1x16x32xf32>, tensor<1x16x32xf32>) -> tensor<1x16x16xf32>
  %probs = ascend.SoftmaxV2 %scores {name = "attn.softmax", axes = array<i64: -1>}
      : tensor<1x16x16xf32>
  %ctx = ascend.BatchMatMulV2 %probs, %same {name = "attn.context"}
      : (tensor<1x16x16xf32>, tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %res = ascend.Add %ctx, %same {name = "attn.residual"}
      : (tensor<1x16x32xf32>, tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %gamma = ascend.Const dense<1.0> : tensor<32xf32> {name = "ln.weight"}
  %beta = ascend.Const dense<0.0> : tensor<32xf32> {name = "ln.bias"}
  %ln, %ln_mean, %ln_var = ascend.LayerNorm %res, %gamma, %beta {name = "ln",
      begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64}
      : (tensor<1x16x32xf32>, tensor<32xf32>, tensor<32xf32>)
      -> (tensor<1x16x32xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>)

  // --- MLP, with an exact f32 -> f64 -> f32 round trip left by an exporter ----
  %wide = ascend.Cast %ln {name = "mlp.in.cast"} : tensor<1x16x32xf32> to tensor<1x16x32xf64>
  %narrow = ascend.Cast %wide {name = "mlp.in.cast_back"} : tensor<1x16x32xf64> to tensor<1x16x32xf32>
  %w2 = ascend.Const dense<0.03> : tensor<32x8xf32> {name = "mlp.fc.weight"}
  %fc = ascend.BatchMatMulV2 %narrow, %w2 {name = "mlp.fc"}
      : (tensor<1x16x32xf32>, tensor<32x8xf32>) -> tensor<1x16x8xf32>
  %out = ascend.Gelu %fc {name = "mlp.gelu"} : tensor<1x16x8xf32>
  return %out : tensor<1x16x8xf32>
}
