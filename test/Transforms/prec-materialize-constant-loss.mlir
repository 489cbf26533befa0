// A constant converted to fp16 for its op that becomes 0, Inf or flips sign
// changes what the op computes: a warning naming the op and the constant
// (issue 54: a log-mel front end's Clip(min=1e-10) became 0 unannounced).
// Rounding alone is no warning, nor is an absent bound (FLT_MAX), nor a
// weight whose tiny elements are the export's rounding noise.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B3 precision_mode=force_fp16" \
// RUN:   --prec-materialize-precision -verify-diagnostics -o /dev/null

func.func @clips(%x: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) {
  %tiny = ascend.Const dense<1.0e-10> : tensor<f32> {name = "clip_min"}
  %huge = ascend.Const dense<3.4028234663852886e+38> : tensor<f32> {name = "clip_max"}
  // expected-warning@+1 {{constant 'clip_min' converted to float16 for this op: 1.000000e-10 becomes 0; that changes what the op computes: keep the op in fp32 (keep_dtype) or change the constant}}
  %0 = ascend.ClipByValue %x, %tiny, %huge {name = "clip"} : (tensor<1x8xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8xf32>
  %mask = ascend.Const dense<[[-1.0e9, 0.0, 0.0, 0.0, -1.0e9, 0.0, 0.0, 0.0]]> : tensor<1x8xf32> {name = "mask"}
  // expected-warning@+1 {{constant 'mask' converted to float16 for this op: 2 of 8 elements become Inf (e.g. -1.000000e+09)}}
  %1 = ascend.Add %x, %mask {name = "masked"} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  // 0.1 rounds in fp16, and 1e-20 next to 1.0 is the export's noise: no warning.
  %scale = ascend.Const dense<[[0.1, 1.0, 1.0e-20, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<1x8xf32> {name = "scale"}
  %2 = ascend.Mul %x, %scale {name = "scaled"} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return %0, %1, %2 : tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>
}
