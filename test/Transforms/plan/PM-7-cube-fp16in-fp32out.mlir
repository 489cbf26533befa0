// PM-7: cube ops take fp16 in / fp32 out when a kernel has it; vector ops
// behave as under force_fp32.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=cube_fp16in_fp32out" | FileCheck %s
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode_v2=cube_fp16in_fp32out" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  // CHECK: ascend.MatMulV2 {{.*}}origin = f32, compute = f16, inputs = [f16, f16], outputs = [f32], engine = aicore_cube, list = none, rule = "PM-7"
  %m = ascend.MatMulV2 %a, %b {name = "fc"} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  // CHECK: ascend.Relu {{.*}}compute = f32{{.*}}rule = "PM-7"
  %r = ascend.Relu %m {name = "relu"} : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
