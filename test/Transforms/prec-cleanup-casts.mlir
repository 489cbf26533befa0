// Casts that change no value go; a lossy round trip the plan put there stays.
// RUN: prec-opt %s --prec-cleanup-casts | FileCheck %s

// Five Casts go: a, b, d2, u2 and same.
// CHECK: module attributes {ascend.casts_removed = 5 : i64}
// CHECK-LABEL: func.func @cleanup
func.func @cleanup(%x: tensor<4xf16>, %y: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // Exact round trip f16 -> f32 -> f16: removed.
  %a = ascend.Cast %x {name = "a"} : tensor<4xf16> to tensor<4xf32>
  %b = ascend.Cast %a {name = "b"} : tensor<4xf32> to tensor<4xf16>
  // Duplicate Casts of one value to one dtype: merged, names kept.
  // CHECK: %[[D:.*]] = ascend.Cast %arg1 {absorbed = ["d2"], name = "d1"} : tensor<4xf32> to tensor<4xf16>
  %d1 = ascend.Cast %y {name = "d1"} : tensor<4xf32> to tensor<4xf16>
  %d2 = ascend.Cast %y {name = "d2"} : tensor<4xf32> to tensor<4xf16>
  // CHECK-NOT: name = "d2"
  // The lossy round trip f32 -> f16 -> f32 stays.
  // CHECK: %[[U1:.*]] = ascend.Cast %[[D]] {absorbed = ["u2"], name = "u1"} : tensor<4xf16> to tensor<4xf32>
  %u1 = ascend.Cast %d1 {name = "u1"} : tensor<4xf16> to tensor<4xf32>
  %u2 = ascend.Cast %d2 {name = "u2"} : tensor<4xf16> to tensor<4xf32>
  // u2 became a duplicate of u1 once d2 merged into d1.
  // CHECK: return %arg0, %[[U1]], %[[U1]], %arg1
  %same = ascend.Cast %y {name = "same"} : tensor<4xf32> to tensor<4xf32>
  return %b, %u1, %u2, %same : tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
