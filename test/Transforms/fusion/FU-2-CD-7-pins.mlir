// FU-2 / CD-7: a customize_dtypes pin by name on a node that fusion absorbs
// is dropped, as CANN drops it, with a warning naming the entry, the node,
// the fused op and the pass; a pin on the op that survives still applies.
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910 customize_dtypes=%S/inputs/pins.cfg" \
// RUN:   2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=DIAG < %t.err

// CHECK-LABEL: func.func @pinned_bn
// CHECK: ascend.Conv2D {{.*}}absorbed = ["bn"]
func.func @pinned_bn(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w"}
  %s = ascend.Const dense<1.0> : tensor<2xf32> {name = "s"}
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  // DIAG: FU-2-CD-7-pins.mlir:[[@LINE+1]]:8: warning: customize_dtypes entry for 'bn' ({{.*}}pins.cfg:2) has no effect: ConvBatchnormFusionPass fused BatchNorm 'bn' into Conv2D 'conv', and CANN drops a pin on a fused node (CD-7); --fusion-respects-pins keeps the node unfused [FU-2]
  %y = ascend.BatchNorm %c, %s, %s, %s, %s {name = "bn"}
      : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}


// A pin on the op that survives is not affected: no warning for 'conv'.
// CHECK-LABEL: func.func @pinned_conv
// CHECK: ascend.Conv2D {{.*}}absorbed = ["bn.other"]
func.func @pinned_conv(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w"}
  %s = ascend.Const dense<1.0> : tensor<2xf32> {name = "s"}
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.BatchNorm %c, %s, %s, %s, %s {name = "bn.other"}
      : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
// DIAG-NEXT: %y = ascend.BatchNorm
// DIAG: pins.cfg:2:1: note: the entry is here
// DIAG-NOT: conv::
