// KD-3 / CD-6: keep_dtype and customize_dtypes have no effect under
// must_keep_origin_dtype; each warns once.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B precision_mode=must_keep_origin_dtype keep_dtype=%S/../inputs/keep.cfg customize_dtypes=%S/../inputs/pins.cfg" 2>&1 >/dev/null | FileCheck %s
// Both options come from the pass options, so the warnings point at the model.
// CHECK: KD-3-CD-6-origin.mlir:0:0: warning: keep_dtype has no effect under must_keep_origin_dtype{{.*}}[KD-3]
// CHECK: KD-3-CD-6-origin.mlir:0:0: warning: customize_dtypes has no effect under must_keep_origin_dtype [CD-6]
func.func @net(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = ascend.Relu %x {name = "relu"} : tensor<8xf32>
  return %r : tensor<8xf32>
}
