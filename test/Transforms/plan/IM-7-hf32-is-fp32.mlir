// IM-7 (docs/decisions.md): enable_hi_float_32_execution is kept on the op as
// asked but changes nothing, and says so: the CANN modelled does not support
// HF32, so the MatMul computes in fp32. enable_float_32_execution says nothing.
// RUN: prec-opt %s -verify-diagnostics --prec-plan-precision="soc_version=Ascend910B3 precision_mode=must_keep_origin_dtype op_precision_mode=%S/../inputs/hf32.ini" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %v: tensor<2x8x8xf32>)
    -> (tensor<4x8xf32>, tensor<2x8x8xf32>) {
  // CHECK: ascend.MatMulV2 {{.*}}impl_mode = #ascend.impl_mode<enable_hi_float_32_execution>, name = "fc", precision = #ascend.precision<origin = f32, compute = f32, inputs = [f32, f32]
  // expected-warning @+1 {{fc (MatMulV2): enable_hi_float_32_execution changes nothing: CANN does not support HF32 in this version, so the op computes in fp32 and is estimated at the fp32 cube rate [IM-7]}}
  %m = ascend.MatMulV2 %x, %w {name = "fc"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // CHECK: ascend.BatchMatMulV2 {{.*}}impl_mode = #ascend.impl_mode<enable_float_32_execution>
  %b = ascend.BatchMatMulV2 %v, %v {name = "bmm"} : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %m, %b : tensor<4x8xf32>, tensor<2x8x8xf32>
}
