// PM-6: force_fp32 computes in fp32 where a kernel has it, even for an fp16
// origin; Conv2D on Ascend910 has no fp32 kernel and uses fp16.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp32" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %h: tensor<8xf16>)
    -> (tensor<1x4x8x8xf32>, tensor<8xf16>) {
  // CHECK: ascend.Conv2D {{.*}}origin = f32, compute = f16, inputs = [f16, f16], outputs = [f16], engine = aicore_cube, list = none, rule = "PM-6"
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: ascend.Relu {{.*}}origin = f32, compute = f32{{.*}}rule = "PM-6"
  %r = ascend.Relu %c {name = "relu"} : tensor<1x4x8x8xf32>
  // CHECK: ascend.Exp {{.*}}origin = f16, compute = f32, inputs = [f32], outputs = [f32]{{.*}}rule = "PM-6"
  %e = ascend.Exp %h {name = "exp"} : tensor<8xf16>
  return %r, %e : tensor<1x4x8x8xf32>, tensor<8xf16>
}
