// EinsumPass (FU-1): an Einsum CANN has no AI Core kernel for is rewritten
// into ReduceSum, Transpose, Reshape and one BatchMatMulV2 that keeps the
// Einsum's name; equations the pass does not express, and fp64, stay.
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910B" -split-input-file | FileCheck %s
// RUN: echo '{"Switch": {"GraphFusion": {"EinsumPass": "off"}}}' > %t.json
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910B fusion_switch_file=%t.json" \
// RUN:   -split-input-file | FileCheck %s --check-prefix=OFF

// Attention scores: the second operand is transposed to [b*h, d, k].
// CHECK-LABEL: func.func @attention
// CHECK: %[[A:.*]] = ascend.Reshape %arg0 {name = "scores/ReshapeA"} : tensor<1x2x4x16xf32> to tensor<2x4x16xf32>
// CHECK: %[[BT:.*]] = ascend.Transpose %arg1 {name = "scores/TransposeB", perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x6x16xf32>) -> tensor<1x2x16x6xf32>
// CHECK: %[[B:.*]] = ascend.Reshape %[[BT]] {name = "scores/ReshapeB"} : tensor<1x2x16x6xf32> to tensor<2x16x6xf32>
// CHECK: %[[P:.*]] = ascend.BatchMatMulV2 %[[A]], %[[B]] {fused_by = ["EinsumPass"], name = "scores"} : (tensor<2x4x16xf32>, tensor<2x16x6xf32>) -> tensor<2x4x6xf32>
// CHECK: %[[Y:.*]] = ascend.Reshape %[[P]] {name = "scores/ReshapeOut"} : tensor<2x4x6xf32> to tensor<1x2x4x6xf32>
// CHECK-NEXT: return %[[Y]]
// OFF-LABEL: func.func @attention
// OFF: ascend.Einsum
func.func @attention(%q: tensor<1x2x4x16xf32>, %k: tensor<1x2x6x16xf32>) -> tensor<1x2x4x6xf32> {
  %y = ascend.Einsum %q, %k {name = "scores", equation = "bhqd,bhkd->bhqk"}
      : (tensor<1x2x4x16xf32>, tensor<1x2x6x16xf32>) -> tensor<1x2x4x6xf32>
  return %y : tensor<1x2x4x6xf32>
}

// -----

// A label of the first operand alone is summed away first; the output is
// transposed back to the equation's order.
// CHECK-LABEL: func.func @summed
// CHECK: ascend.ReduceSum %arg0 {axes = array<i64: 0>, name = "e/ReduceSumA"} : (tensor<3x4x5xf16>) -> tensor<4x5xf16>
// CHECK: ascend.BatchMatMulV2 {{.*}}name = "e"{{.*}} -> tensor<1x4x2xf16>
// CHECK: ascend.Transpose {{.*}}name = "e/TransposeOut", perm = array<i64: 1, 0>{{.*}} -> tensor<2x4xf16>
func.func @summed(%a: tensor<3x4x5xf16>, %b: tensor<5x2xf16>) -> tensor<2x4xf16> {
  %y = ascend.Einsum %a, %b {name = "e", equation = "abc,cd->db"}
      : (tensor<3x4x5xf16>, tensor<5x2xf16>) -> tensor<2x4xf16>
  return %y : tensor<2x4xf16>
}

// -----

// One operand: the sum, under the Einsum's name.
// CHECK-LABEL: func.func @rowsum
// CHECK: ascend.ReduceSum %arg0 {axes = array<i64: 1>, fused_by = ["EinsumPass"], name = "rows"}
func.func @rowsum(%a: tensor<4x9xf32>) -> tensor<4xf32> {
  %y = ascend.Einsum %a {name = "rows", equation = "ij->i"} : (tensor<4x9xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Left whole: an ellipsis, a repeated label, fp64.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: ascend.Einsum
func.func @kept(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %s: tensor<4x4xf32>,
                %d: tensor<3x4xf64>, %e: tensor<4x2xf64>)
    -> (tensor<2x3x5xf32>, tensor<4xf32>, tensor<3x2xf64>) {
  %y = ascend.Einsum %a, %b {name = "ellipsis", equation = "...ij,...jk->...ik"}
      : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %z = ascend.Einsum %s {name = "diagonal", equation = "ii->i"} : (tensor<4x4xf32>) -> tensor<4xf32>
  %w = ascend.Einsum %d, %e {name = "double", equation = "ij,jk->ik"}
      : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %y, %z, %w : tensor<2x3x5xf32>, tensor<4xf32>, tensor<3x2xf64>
}
