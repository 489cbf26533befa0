// PM-10: in a mixed mode the mixlist decides. ML-2: white ops reduce to
// fp16. ML-3: black ops keep their origin dtype. ML-4: gray ops follow their
// first non-constant producer, looking through a non-black low->fp32 Cast;
// with no producer they keep the origin where supported (PM-8).
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision" | FileCheck %s
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode_v2=mixed_float16" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %v: tensor<1x4x8x8xf32>)
    -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  // CHECK: ascend.Conv2D {{.*}}compute = f16{{.*}}list = white, rule = "ML-2", source = "built-in"
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: ascend.Relu {{.*}}name = "relu", {{.*}}compute = f16{{.*}}list = gray, rule = "ML-4"
  %r = ascend.Relu %c {name = "relu"} : tensor<1x4x8x8xf32>
  // CHECK: ascend.SoftmaxV2 {{.*}}compute = f32, inputs = [f32], outputs = [f32]{{.*}}list = black, rule = "ML-3"
  %s = ascend.SoftmaxV2 %r {name = "softmax", axes = array<i64: -1>} : tensor<1x4x8x8xf32>
  // A graph input has no producer: PM-8 on the origin keeps fp32.
  // CHECK: ascend.Relu {{.*}}name = "relu_in", {{.*}}compute = f32{{.*}}list = gray, rule = "ML-4"
  %e = ascend.Relu %v {name = "relu_in"} : tensor<1x4x8x8xf32>
  // Add(fp16 producer, fp32 producer) computes in fp16 (the ML-4 example).
  // CHECK: ascend.Add {{.*}}compute = f16, inputs = [f16, f16], outputs = [f16]{{.*}}rule = "ML-4"
  %a = ascend.Add %r, %e {name = "add"} : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // Constants are visited last: this Add follows %s (fp32), not the constant.
  // CHECK: ascend.Add {{.*}}name = "add_const", {{.*}}compute = f32{{.*}}rule = "ML-4"
  %k = ascend.Const dense<1.0> : tensor<1x4x8x8xf32> {name = "k"}
  %b = ascend.Add %k, %s {name = "add_const"} : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // A model Cast from fp16 to fp32 (not black) is looked through.
  %h = ascend.Cast %c {name = "to_half"} : tensor<1x4x8x8xf32> to tensor<1x4x8x8xf16>
  %u = ascend.Cast %h {name = "up"} : tensor<1x4x8x8xf16> to tensor<1x4x8x8xf32>
  // CHECK: ascend.Tanh {{.*}}compute = f16{{.*}}rule = "ML-4"
  %t = ascend.Tanh %u {name = "tanh"} : tensor<1x4x8x8xf32>
  return %a, %b, %t, %s : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}

// ML-4: a graph input is passed over like a constant, so a residual Add
// follows its op-produced input whichever side it is on (docs/decisions.md).
// CHECK-LABEL: func.func @residual
func.func @residual(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = ascend.MatMulV2 %x, %w {name = "fc"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // CHECK: ascend.Add {{.*}}name = "x_first"{{.*}}compute = f16{{.*}}list = gray, rule = "ML-4"
  %a = ascend.Add %x, %m {name = "x_first"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: ascend.Add {{.*}}name = "fc_first"{{.*}}compute = f16{{.*}}list = gray, rule = "ML-4"
  %b = ascend.Add %m, %x {name = "fc_first"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
