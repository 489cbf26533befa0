// A UB-fusion group (prec-buffer-fusion) is one kernel on the cube and the
// vector unit: the fixpipe moves the accumulator to UB in fp32 (FU-1), the
// chain computes in fp32 there, the group's exit Cast rounds once, and only
// the result goes to GM. A residual from outside is loaded tile by tile and
// converted on UB by the Cast the group owns.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=allow_mix_precision" \
// RUN:   --prec-lower-to-kernel | FileCheck %s

// CHECK-LABEL: akernel.kernel @conv
// CHECK-SAME: engine = #akernel.engine<mix>, nodes = ["conv", "relu", "relu/Cast_float16"]
// CHECK-SAME: ub_group = "conv"
// CHECK: akernel.mmad
// CHECK: akernel.fixpipe %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<{{[0-9]+}}x{{[0-9]+}}xf32, #akernel.space<l0c>> -> memref<{{[0-9]+}}x{{[0-9]+}}xf32, #akernel.space<ub>>
// CHECK-NEXT: akernel.vop "relu" %{{.*}} -> %{{.*}} {compute = f32}
// CHECK-NEXT: akernel.vcast %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<{{.*}}xf32, #akernel.space<ub>> -> memref<{{.*}}xf16, #akernel.space<ub>>
// CHECK-NEXT: akernel.store %{{.*}} -> %{{.*}} {transpose} : memref<{{.*}}xf16, #akernel.space<ub>> -> memref<1x1x2x16xf16
// CHECK-LABEL: func.func @conv_relu
// CHECK: akernel.launch @conv(
// CHECK-NOT: akernel.launch
// CHECK: return
func.func @conv_relu(%x: tensor<1x1x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf16> {name = "w"}
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf16>, tensor<2x1x1x1xf16>) -> tensor<1x2x4x4xf16>
  %y = ascend.Relu %c {name = "relu"} : tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}

// CHECK-LABEL: akernel.kernel @mm
// CHECK-SAME: nodes = ["mm", "arg2/Cast_float32", "res", "res/Cast_float16"]
// CHECK: akernel.fixpipe %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<{{.*}}xf32, #akernel.space<l0c>> -> memref<{{.*}}xf32, #akernel.space<ub>>
// CHECK: akernel.load %{{.*}} -> %[[R16:.*]] : memref<1x16x32xf16, {{.*}}> -> memref<{{.*}}xf16, #akernel.space<ub>>
// CHECK: akernel.vcast %[[R16]] -> %[[R32:.*]] {round = #akernel.round<rint>}
// CHECK: akernel.vop "add" %{{.*}}, %[[R32]] -> %{{.*}} {compute = f32}
// CHECK: akernel.vcast
// CHECK: akernel.store
func.func @matmul_residual(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>, %r: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %m = ascend.MatMulV2 %a, %b {name = "mm"} : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %y = ascend.Add %m, %r {name = "res"} : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}
