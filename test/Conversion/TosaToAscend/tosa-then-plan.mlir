// A tosa graph handed over by another compiler is planned like any other.
// RUN: prec-opt %s --convert-tosa-to-ascend --prec-graph-prepare \
// RUN:   --prec-precision-pipeline="soc_version=Ascend910 precision_mode=allow_mix_precision" | FileCheck %s

// CHECK-LABEL: func.func @mlp
func.func @mlp(%x: tensor<1x4x16xf32>, %w: tensor<1x16x8xf32>) -> tensor<1x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: ascend.BatchMatMulV2 {{.*}}name = "fc"{{.*}}compute = f16{{.*}}list = white, rule = "ML-2"
  %0 = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32> loc("fc")
  // CHECK: ascend.Exp {{.*}}compute = f32{{.*}}list = black, rule = "ML-3"
  %1 = tosa.exp %0 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %1 : tensor<1x4x8xf32>
}
