// The prec-graph-prepare pipeline on the bundled example: node names are
// checked, then canonicalization removes what never changes a value.
// RUN: prec-opt %ascendprec_src/examples/cnn_transformer.mlir --prec-graph-prepare | FileCheck %s
// RUN: prec-opt %s --prec-graph-prepare -verify-diagnostics
// RUN: prec-opt %s --prec-graph-prepare=rename-duplicates=true | FileCheck %s --check-prefix=RENAME

// CHECK-LABEL: func.func @main
// The fp16 weight and its Cast became one f32 constant, named after the Cast.
// CHECK: %[[WQ:.*]] = ascend.Const dense<0.0200042725> : tensor<32x32xf32> {absorbed = ["attn.q.weight"], name = "attn.q.weight.cast"}
// CHECK-NOT: ascend.Cast
// CHECK: ascend.BatchMatMulV2 %{{.*}}, %[[WQ]] {name = "attn.q"}
// The Reshape chain collapsed and the identity Transpose is gone.
// CHECK-NOT: name = "tokens.view"
// CHECK-NOT: name = "tokens.noop"
// CHECK: %[[Y:.*]], %{{.*}}, %{{.*}} = ascend.LayerNorm
// The exact f32 -> f64 -> f32 round trip is gone: mlp.fc reads LayerNorm.
// CHECK: ascend.BatchMatMulV2 %[[Y]], %{{.*}} {name = "mlp.fc"}
// CHECK: ascend.Gelu

// A duplicate node name fails the pipeline unless renaming is asked for.
// RENAME-LABEL: func.func @dup
// RENAME: name = "relu_1"
func.func @dup(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{first used here}}
  %0 = ascend.Relu %x {name = "relu"} : tensor<4xf32>
  // expected-error @+1 {{node name 'relu' is used by more than one op}}
  %1 = ascend.Relu %0 {name = "relu"} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
