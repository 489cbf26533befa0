// IM-5: op_precision_mode sets impl modes by op type and node name. IM-6: an
// op with one mode uses it whatever was asked; a mode the op lacks is a
// warning and the default is used.
// RUN: prec-opt %s -verify-diagnostics --prec-plan-precision="soc_version=Ascend910 op_precision_mode=%S/../inputs/impl.ini" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  // CHECK: ascend.SoftmaxV2 {{.*}}impl_mode = #ascend.impl_mode<high_precision>, name = "sm"
  %a = ascend.SoftmaxV2 %x {name = "sm", axes = array<i64: 0>} : tensor<8xf32>
  // CHECK: ascend.SoftmaxV2 %{{.*}} {axes = array<i64: 0>, name = "sm2"
  // CHECK-NOT: impl_mode
  // expected-warning @+1 {{sm2 (SoftmaxV2) has no keep_fp16 mode (all_ops_impl_mode.ini lists high_precision, high_performance); its default is used [IM-6]}}
  %b = ascend.SoftmaxV2 %x {name = "sm2", axes = array<i64: 0>} : tensor<8xf32>
  // CHECK: ascend.Rsqrt {{.*}}impl_mode = #ascend.impl_mode<high_precision>
  // expected-warning @+1 {{r (Rsqrt) supports only high_precision; high_performance cannot apply [IM-6]}}
  %c = ascend.Rsqrt %x {name = "r"} : tensor<8xf32>
  return %a, %b, %c : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
