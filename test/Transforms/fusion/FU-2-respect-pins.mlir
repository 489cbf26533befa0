// FU-2's opt-in (--fusion-respects-pins in prec-compile, respect-pins here):
// a match that would absorb a customize_dtypes or keep_dtype node is
// skipped, with a remark, so the pin holds; other matches still fuse.
// RUN: prec-opt %s --prec-graph-fusion="soc_version=Ascend910 customize_dtypes=%S/inputs/pins.cfg keep_dtype=%S/inputs/keep.cfg respect-pins=true" \
// RUN:   2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=DIAG < %t.err

// CHECK-LABEL: func.func @skipped
// CHECK: ascend.BatchNorm {{.*}}name = "bn"
// CHECK: ascend.Add {{.*}}name = "fc.add"
// CHECK: ascend.MatMulV2 {{.*}}absorbed = ["fc2.add"]
func.func @skipped(%x: tensor<1x1x4x4xf32>, %v: tensor<2x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w"}
  %s = ascend.Const dense<1.0> : tensor<2xf32> {name = "s"}
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  // DIAG: remark: ConvBatchnormFusionPass did not fuse BatchNorm 'bn' into Conv2D 'conv': its customize_dtypes entry
  %y = ascend.BatchNorm %c, %s, %s, %s, %s {name = "bn"}
      : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %fw = ascend.Const dense<1.0> : tensor<4x3xf32> {name = "fc.weight"}
  %fb = ascend.Const dense<1.0> : tensor<3xf32> {name = "fc.bias"}
  %m = ascend.MatMulV2 %v, %fw {name = "fc"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  // DIAG: remark: MatMulBiasAddFusionPass did not fuse Add 'fc.add' into MatMulV2 'fc': its keep_dtype entry
  %a = ascend.Add %m, %fb {name = "fc.add"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %m2 = ascend.MatMulV2 %v, %fw {name = "fc2"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %a2 = ascend.Add %m2, %fb {name = "fc2.add"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y, %a, %a2 : tensor<1x2x4x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
