// Types follow the plan: results take their planned dtypes, a Cast goes on
// every edge whose dtypes differ (one per value and dtype), constants are
// converted at compile time, and the signature keeps its dtypes.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision" --prec-materialize-precision | FileCheck %s
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision" --prec-materialize-precision=keep-io-dtypes=false | FileCheck %s --check-prefix=IO

// CHECK-LABEL: func.func @net
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// IO-LABEL: func.func @net
// IO-SAME: (%{{.*}}: tensor<4x16xf16>) -> (tensor<4x8xf32>, tensor<4x8xf16>)
func.func @net(%x: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // The weight is converted at compile time: no runtime Cast of a constant.
  // The values it came from ride along for the fp32 reference of a run.
  // CHECK-DAG: %[[W16:.*]] = ascend.Const dense<5.000000e-01> : tensor<16x8xf16> {ascend.reference_value = dense<5.000000e-01> : tensor<16x8xf32>, name = "w/float16"}
  // CHECK-DAG: %[[X16:.*]] = ascend.Cast %[[X]] {ascend.inserted, name = "arg0/Cast_float16"} : tensor<4x16xf32> to tensor<4x16xf16>
  %w = ascend.Const dense<0.5> : tensor<16x8xf32> {name = "w"}
  // CHECK: %[[FC:.*]] = ascend.MatMulV2 %[[X16]], %[[W16]] {{.*}} : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
  %m = ascend.MatMulV2 %x, %w {name = "fc"} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  // One Cast serves both fp32 consumers of fc.
  // CHECK: %[[UP:.*]] = ascend.Cast %[[FC]] {ascend.inserted, name = "fc/Cast_float32"} : tensor<4x8xf16> to tensor<4x8xf32>
  // CHECK: %[[E:.*]] = ascend.Exp %[[UP]] {{.*}} : tensor<4x8xf32>
  %e = ascend.Exp %m {name = "exp"} : tensor<4x8xf32>
  // CHECK: ascend.Log %[[UP]] {{.*}} : tensor<4x8xf32>
  %l = ascend.Log %m {name = "log"} : tensor<4x8xf32>
  // CHECK: %[[R:.*]] = ascend.Relu %[[FC]] {{.*}} : tensor<4x8xf16>
  %r = ascend.Relu %m {name = "relu"} : tensor<4x8xf32>
  // The function still returns fp32: a Cast at the boundary.
  // CHECK: %[[OUT:.*]] = ascend.Cast %[[R]] {ascend.inserted, name = "relu/Cast_float32"}
  // CHECK: return %[[E]], %[[OUT]]
  // IO: return %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf16>
  %s = ascend.Add %e, %l {name = "sum"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e, %r : tensor<4x8xf32>, tensor<4x8xf32>
}
