// Element-indexed ops lower to DMA kernels of their own kinds, with the
// graph op's attributes as params; Tril and Triu share the `triangle` kind
// and say which side they keep; a run-time k or axis is a kernel input.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=must_keep_origin_dtype" \
// RUN:   --prec-lower-to-kernel | FileCheck %s

// CHECK-LABEL: akernel.kernel @take
// CHECK: akernel.dma "gather_elements" ins(%{{.*}}, %{{.*}}) outs(%{{.*}}) {params = {dim = 1 : i64}}
// CHECK-LABEL: akernel.kernel @put
// CHECK: akernel.dma "scatter_elements" ins(%{{.*}}, %{{.*}}, %{{.*}}) outs(%{{.*}}) {params = {axis = 0 : i64, reduction = "add"}}
// CHECK-LABEL: akernel.kernel @upper
// CHECK: akernel.dma "triangle" ins(%{{.*}}) outs(%{{.*}}) {params = {diagonal = -1 : i64, upper = true}}
// CHECK-LABEL: akernel.kernel @lower
// CHECK: akernel.dma "triangle" ins(%{{.*}}, %{{.*}}) outs(%{{.*}}) {params = {diagonal = 0 : i64, upper = false}}
// CHECK-LABEL: akernel.kernel @cs
// CHECK: akernel.dma "cumsum" ins(%{{.*}}, %{{.*}}) outs(%{{.*}}) {params = {exclusive = false, reverse = true}}
func.func @index(%x: tensor<4x6xf32>, %i: tensor<4x3xi64>, %u: tensor<4x3xf32>, %k: tensor<i64>)
    -> (tensor<4x3xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %a = ascend.GatherElements %x, %i {name = "take", dim = 1 : i64} : (tensor<4x6xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  %b = ascend.ScatterElements %x, %i, %u {name = "put", axis = 0 : i64, reduction = "add"} : (tensor<4x6xf32>, tensor<4x3xi64>, tensor<4x3xf32>) -> tensor<4x6xf32>
  %c = ascend.Triu %x {name = "upper", diagonal = -1 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %d = ascend.Tril %x, %k {name = "lower", diagonal = 0 : i64} : (tensor<4x6xf32>, tensor<i64>) -> tensor<4x6xf32>
  %axis = ascend.Const dense<1> : tensor<i64> {name = "axis"}
  %e = ascend.Cumsum %x, %axis {name = "cs", exclusive = false, reverse = true} : (tensor<4x6xf32>, tensor<i64>) -> tensor<4x6xf32>
  return %a, %b, %c, %d, %e : tensor<4x3xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
