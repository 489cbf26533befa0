// The hand-written assembly forms (include/AscendPrec/Support/
// AttrDictAssembly.h) of the commonest ops print what the declarative
// formats printed, attributes in name order, and read it back.
// RUN: prec-opt %s | FileCheck %s
// RUN: prec-opt %s | prec-opt | FileCheck %s

// CHECK-LABEL: func.func @forms
func.func @forms(%x: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf16> {
  // CHECK: %[[C:.*]] = ascend.Const dense<5.000000e-01> : tensor<4xf32> {absorbed = ["c0"], name = "c"}
  %c = ascend.Const dense<0.5> : tensor<4xf32> {name = "c", absorbed = ["c0"]}
  // Discardable and inherent attributes sort together by name.
  // CHECK: %[[A:.*]] = ascend.Add %{{.*}}, %[[C]] {ascend.tag, impl_mode = #ascend.impl_mode<high_precision>, name = "add"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %a = ascend.Add %x, %c {name = "add", impl_mode = #ascend.impl_mode<high_precision>, ascend.tag} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // CHECK: %[[R:.*]] = ascend.Relu %[[A]] {name = "relu"} : tensor<2x4xf32>
  %r = ascend.Relu %a {name = "relu"} : tensor<2x4xf32>
  // A unary op with default-valued attributes keeps the declarative form,
  // which leaves a default out.
  // CHECK: %[[L:.*]] = ascend.LeakyRelu %[[R]] {name = "leaky"} : tensor<2x4xf32>
  %l = ascend.LeakyRelu %r {name = "leaky", negative_slope = 0.0 : f32} : tensor<2x4xf32>
  // CHECK: %[[E:.*]] = ascend.Elu %[[L]] {alpha = 2.000000e+00 : f32, name = "elu"} : tensor<2x4xf32>
  %e = ascend.Elu %l {name = "elu", alpha = 2.0 : f32} : tensor<2x4xf32>
  // CHECK: ascend.Cast %[[E]] {name = "cast"} : tensor<2x4xf32> to tensor<2x4xf16>
  %h = ascend.Cast %e {name = "cast"} : tensor<2x4xf32> to tensor<2x4xf16>
  return %h : tensor<2x4xf16>
}
