// explain=true: one remark per op saying what it computes in and why.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision modify_mixlist=%S/../inputs/mixlist-relu-white.json explain=true" -o /dev/null 2>&1 | FileCheck %s

func.func @net(%x: tensor<4x16xf32>, %y: tensor<16x8xf32>) -> tensor<4x8xf32> {
  // CHECK: explain.mlir:[[@LINE+1]]:{{.*}}remark: fc computes in f16 on aicore_cube: white list (built-in, Ascend910) [ML-2, built-in]
  %m = ascend.MatMulV2 %x, %y {name = "fc"} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  // CHECK: remark: gelu computes in f16 on aicore_vector: gray: follows fc (f16) [ML-4, built-in]
  %g = ascend.Gelu %m {name = "gelu"} : tensor<4x8xf32>
  // CHECK: remark: relu computes in f16 on aicore_vector: white list ({{.*}}mixlist-relu-white.json:3) [ML-6, {{.*}}mixlist-relu-white.json:3]
  %r = ascend.Relu %g {name = "relu"} : tensor<4x8xf32>
  // CHECK: remark: exp computes in f32 on aicore_vector: black list (built-in, Ascend910) [ML-3, built-in]
  %e = ascend.Exp %r {name = "exp"} : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
