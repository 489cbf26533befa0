// PM-5: force_fp16 (and its PM-3 alias fp16): every op with an fp16 kernel
// computes in fp16, whatever its origin.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp16" | FileCheck %s
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode_v2=fp16" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x8x8xbf16>)
    -> (tensor<1x4x4x4xf32>, tensor<1x4x8x8xbf16>) {
  // CHECK: ascend.Conv2D {{.*}}precision = #ascend.precision<origin = f32, compute = f16, inputs = [f16, f16], outputs = [f16], engine = aicore_cube, list = none, rule = "PM-5", source = "built-in">
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: ascend.Relu {{.*}}compute = f16, inputs = [f16], outputs = [f16], engine = aicore_vector{{.*}}rule = "PM-5"
  %r = ascend.Relu %c {name = "relu"} : tensor<1x4x8x8xf32>
  // CHECK: ascend.MaxPool {{.*}}compute = f16{{.*}}rule = "PM-5"
  %p = ascend.MaxPool %r {name = "pool", ksize = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  // A bf16 origin is lowered too (PM-5: "fp32 and bf16 are lowered").
  // CHECK: ascend.Sigmoid {{.*}}origin = bf16, compute = f16{{.*}}rule = "PM-5"
  %s = ascend.Sigmoid %b {name = "sig"} : tensor<1x4x8x8xbf16>
  return %p, %s : tensor<1x4x4x4xf32>, tensor<1x4x8x8xbf16>
}
