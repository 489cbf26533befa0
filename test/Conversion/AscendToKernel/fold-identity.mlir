// The lowering folds an op whose folder returns its input (an identity
// Reshape, Cast or Transpose) instead of launching a kernel for it, as the
// DialectConversion driver it replaced did; the ops after it lower as usual.
// RUN: prec-opt %s --prec-convert-ascend-to-kernel | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NOT: akernel.view
// CHECK: %[[Y:.*]] = akernel.launch @relu(%[[X]]) {nodes = ["relu"]}
// CHECK: return %[[Y]]
module attributes {ascend.policy = #ascend.policy<soc_version = "Ascend910B1", precision_mode = "force_fp16", options = {soc_version = "Ascend910B1"}>} {
  func.func @main(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
    %r = ascend.Reshape %x {name = "same_shape", precision = #ascend.precision<origin = f16, compute = f16, inputs = [f16], outputs = [f16], engine = aicore_vector, list = none, rule = "PM-5", source = "built-in">} : tensor<2x8xf16> to tensor<2x8xf16>
    %y = ascend.Relu %r {name = "relu", precision = #ascend.precision<origin = f16, compute = f16, inputs = [f16], outputs = [f16], engine = aicore_vector, list = none, rule = "PM-5", source = "built-in">} : tensor<2x8xf16>
    return %y : tensor<2x8xf16>
  }
}
