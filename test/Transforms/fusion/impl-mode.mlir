// Impl modes through fusion (IM-5, docs/decisions.md): an op_precision_mode
// [ByNodeName] entry for an absorbed name sets the fused op's mode, and an
// impl_mode set on an absorbed op before planning is inherited.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16 op_precision_mode=%S/inputs/impl.ini" \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @by_node_name
// CHECK: ascend.MatMulV2 {{.*}}absorbed = ["fc.add"]{{.*}}impl_mode = #ascend.impl_mode<high_precision>
func.func @by_node_name(%v: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %fw = ascend.Const dense<1.0> : tensor<4x3xf32> {name = "fc.weight"}
  %fb = ascend.Const dense<1.0> : tensor<3xf32> {name = "fc.bias"}
  %m = ascend.MatMulV2 %v, %fw {name = "fc"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %a = ascend.Add %m, %fb {name = "fc.add"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @inherited_attribute
// CHECK: ascend.MatMulV2 {{.*}}absorbed = ["fc2.add"]{{.*}}impl_mode = #ascend.impl_mode<high_performance>
func.func @inherited_attribute(%v: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %fw = ascend.Const dense<1.0> : tensor<4x3xf32> {name = "fc2.weight"}
  %fb = ascend.Const dense<1.0> : tensor<3xf32> {name = "fc2.bias"}
  %m = ascend.MatMulV2 %v, %fw {name = "fc2"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %a = ascend.Add %m, %fb {name = "fc2.add", impl_mode = #ascend.impl_mode<high_performance>}
      : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}
