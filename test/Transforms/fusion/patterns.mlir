// The pattern fusions (FU-1): the decomposed LayerNorm, GELU's erf form,
// x * HardSigmoid(x) and Exp/ReduceSum/Div become LayerNorm, Gelu,
// HardSwish and SoftmaxV2, named after the op whose output they produce;
// the near misses stay as they are.
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910" -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[LN:[a-z0-9]+]], %{{.*}}, %{{.*}} = ascend.LayerNorm %arg0, %{{.*}}, %{{.*}} {absorbed = ["mean", "sub", "pow", "var", "add_eps", "sqrt", "div", "mul"], begin_norm_axis = 2 : i64, begin_params_axis = 2 : i64, epsilon = 9.99999997E-7 : f32, fused_by = ["LayerNormONNXFusionPass"], name = "add_beta"}
// CHECK-NEXT: return %[[LN]] :
func.func @layer_norm(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %two = ascend.Const dense<2.0> : tensor<f32> {name = "two"}
  %eps = ascend.Const dense<1.0e-6> : tensor<f32> {name = "eps"}
  %g = ascend.Const dense<1.5> : tensor<8xf32> {name = "gamma"}
  %b = ascend.Const dense<0.5> : tensor<8xf32> {name = "beta"}
  %m = ascend.ReduceMean %x {name = "mean", axes = array<i64: -1>, keep_dims = true} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
  %d = ascend.Sub %x, %m {name = "sub"} : (tensor<1x4x8xf32>, tensor<1x4x1xf32>) -> tensor<1x4x8xf32>
  %p = ascend.Pow %d, %two {name = "pow"} : (tensor<1x4x8xf32>, tensor<f32>) -> tensor<1x4x8xf32>
  %v = ascend.ReduceMean %p {name = "var", axes = array<i64: -1>, keep_dims = true} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
  %ve = ascend.Add %v, %eps {name = "add_eps"} : (tensor<1x4x1xf32>, tensor<f32>) -> tensor<1x4x1xf32>
  %s = ascend.Sqrt %ve {name = "sqrt"} : tensor<1x4x1xf32>
  %n = ascend.RealDiv %d, %s {name = "div"} : (tensor<1x4x8xf32>, tensor<1x4x1xf32>) -> tensor<1x4x8xf32>
  %sc = ascend.Mul %n, %g {name = "mul"} : (tensor<1x4x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %y = ascend.Add %sc, %b {name = "add_beta"} : (tensor<1x4x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Not a LayerNorm: the mean is over the middle axis.
// CHECK-LABEL: func.func @layer_norm_wrong_axis
// CHECK-NOT: ascend.LayerNorm
func.func @layer_norm_wrong_axis(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %two = ascend.Const dense<2.0> : tensor<f32> {name = "two"}
  %eps = ascend.Const dense<1.0e-5> : tensor<f32> {name = "eps"}
  %g = ascend.Const dense<1.5> : tensor<8xf32> {name = "gamma"}
  %b = ascend.Const dense<0.5> : tensor<8xf32> {name = "beta"}
  %m = ascend.ReduceMean %x {name = "mean", axes = array<i64: 1>, keep_dims = true} : (tensor<1x4x8xf32>) -> tensor<1x1x8xf32>
  %d = ascend.Sub %x, %m {name = "sub"} : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %p = ascend.Pow %d, %two {name = "pow"} : (tensor<1x4x8xf32>, tensor<f32>) -> tensor<1x4x8xf32>
  %v = ascend.ReduceMean %p {name = "var", axes = array<i64: 1>, keep_dims = true} : (tensor<1x4x8xf32>) -> tensor<1x1x8xf32>
  %ve = ascend.Add %v, %eps {name = "add_eps"} : (tensor<1x1x8xf32>, tensor<f32>) -> tensor<1x1x8xf32>
  %s = ascend.Sqrt %ve {name = "sqrt"} : tensor<1x1x8xf32>
  %n = ascend.RealDiv %d, %s {name = "div"} : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %sc = ascend.Mul %n, %g {name = "mul"} : (tensor<1x4x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %y = ascend.Add %sc, %b {name = "add_beta"} : (tensor<1x4x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @gelu
// CHECK: %[[G:.*]] = ascend.Gelu %arg0 {absorbed = ["div", "erf", "add", "mul"], fused_by = ["GeluONNXFusionPass"], name = "mul_half"}
// CHECK-NEXT: return %[[G]]
func.func @gelu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %sqrt2 = ascend.Const dense<1.41421354> : tensor<f32> {name = "sqrt2"}
  %one = ascend.Const dense<1.0> : tensor<f32> {name = "one"}
  %half = ascend.Const dense<0.5> : tensor<f32> {name = "half"}
  %0 = ascend.RealDiv %x, %sqrt2 {name = "div"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = ascend.Erf %0 {name = "erf"} : tensor<2x8xf32>
  %2 = ascend.Add %1, %one {name = "add"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = ascend.Mul %x, %2 {name = "mul"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = ascend.Mul %3, %half {name = "mul_half"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4 : tensor<2x8xf32>
}

// -----

// Not a GELU: the erf's argument is x / 2, and another op reads erf + 1.
// CHECK-LABEL: func.func @gelu_near_misses
// CHECK-NOT: ascend.Gelu
func.func @gelu_near_misses(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %two = ascend.Const dense<2.0> : tensor<f32> {name = "two"}
  %sqrt2 = ascend.Const dense<1.41421354> : tensor<f32> {name = "sqrt2"}
  %one = ascend.Const dense<1.0> : tensor<f32> {name = "one"}
  %half = ascend.Const dense<0.5> : tensor<f32> {name = "half"}
  %0 = ascend.RealDiv %x, %two {name = "div"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = ascend.Erf %0 {name = "erf"} : tensor<2x8xf32>
  %2 = ascend.Add %1, %one {name = "add"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = ascend.Mul %x, %2 {name = "mul"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = ascend.Mul %3, %half {name = "mul_half"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %5 = ascend.RealDiv %x, %sqrt2 {name = "div2"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %6 = ascend.Erf %5 {name = "erf2"} : tensor<2x8xf32>
  %7 = ascend.Add %6, %one {name = "add2"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %8 = ascend.Mul %x, %7 {name = "mul2"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %9 = ascend.Mul %8, %half {name = "mul_half2"} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4, %9, %7 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @hard_swish
// CHECK: ascend.HardSwish %arg0 {absorbed = ["hsig"], fused_by = ["HardSwishFusionPass"], name = "hswish"}
// A HardSigmoid with other parameters is left alone.
// CHECK: ascend.HardSigmoid
// CHECK: ascend.Mul
func.func @hard_swish(%x: tensor<1x4x2x2xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) {
  %0 = ascend.HardSigmoid %x {name = "hsig", alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : tensor<1x4x2x2xf32>
  %1 = ascend.Mul %0, %x {name = "hswish"} : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = ascend.HardSigmoid %x {name = "hsig2", alpha = 2.000000e-01 : f32, beta = 5.000000e-01 : f32} : tensor<1x4x2x2xf32>
  %3 = ascend.Mul %2, %x {name = "mul2"} : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %1, %3 : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>
}

// -----

// The stable form: x - ReduceMax(x) is absorbed too.
// CHECK-LABEL: func.func @softmax
// CHECK: ascend.SoftmaxV2 %arg0 {absorbed = ["max", "sub", "exp", "sum"], axes = array<i64: 1>, fused_by = ["SoftmaxFusionPass"], name = "div"}
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %m = ascend.ReduceMax %x {name = "max", axes = array<i64: -1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %s = ascend.Sub %x, %m {name = "sub"} : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %e = ascend.Exp %s {name = "exp"} : tensor<2x8xf32>
  %t = ascend.ReduceSum %e {name = "sum", axes = array<i64: 1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %y = ascend.RealDiv %e, %t {name = "div"} : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// Not a softmax: the Exp has a third user.
// CHECK-LABEL: func.func @softmax_exp_reused
// CHECK-NOT: ascend.SoftmaxV2
func.func @softmax_exp_reused(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %e = ascend.Exp %x {name = "exp"} : tensor<2x8xf32>
  %t = ascend.ReduceSum %e {name = "sum", axes = array<i64: 1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %y = ascend.RealDiv %e, %t {name = "div"} : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %z = ascend.Relu %e {name = "relu"} : tensor<2x8xf32>
  return %y, %z : tensor<2x8xf32>, tensor<2x8xf32>
}
