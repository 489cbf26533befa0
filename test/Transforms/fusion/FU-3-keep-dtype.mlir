// FU-3: keep_dtype on a node that fusion absorbs is inherited by the fused
// op: under allow_fp32_to_fp16 the fused MatMul keeps fp32 because its
// absorbed Add 'fc.add' is listed, and the report names it.
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910 keep_dtype=%S/inputs/keep.cfg" \
// RUN:   --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_fp32_to_fp16 keep_dtype=%S/inputs/keep.cfg" \
// RUN:   | FileCheck %s

// CHECK: ascend.MatMulV2 {{.*}}absorbed = ["fc.add"]
// CHECK-SAME: compute = f32
// CHECK-SAME: rule = "KD-2"
func.func @kept(%v: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %fw = ascend.Const dense<1.0> : tensor<4x3xf32> {name = "fc.weight"}
  %fb = ascend.Const dense<1.0> : tensor<3xf32> {name = "fc.bias"}
  %m = ascend.MatMulV2 %v, %fw {name = "fc"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %a = ascend.Add %m, %fb {name = "fc.add"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}
