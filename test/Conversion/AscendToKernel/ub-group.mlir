// A UB-fusion group (prec-buffer-fusion) is one kernel on the cube and the
// vector unit (FU-4): the fixpipe converts the accumulator to the cube op's
// planned output dtype on its way into UB, a Conv2D's bias is added after
// that in the output dtype on a SoC with no FixPipe (Ascend910), each chain
// op computes on the tile as it would alone, and only the result goes to
// GM. A residual from outside is loaded tile by tile.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=allow_mix_precision" \
// RUN:   --prec-lower-to-kernel | FileCheck %s
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B1 precision_mode=allow_mix_precision" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefix=FIXPIPE
// The 310P converts into UB like the 910 (no FixPipe).
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend310P3 precision_mode=allow_mix_precision" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefix=P310
// A chain op's impl mode holds in the group as alone: high_precision
// computes an fp16 Sigmoid in fp32 (IM-7).
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16 op_select_implmode=high_precision" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefix=IMPL

// CHECK-LABEL: akernel.kernel @conv
// CHECK-SAME: engine = #akernel.engine<mix>, nodes = ["conv", "relu"]
// CHECK-SAME: ub_group = "conv"
// CHECK: akernel.mmad
// CHECK: akernel.fixpipe %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<{{[0-9]+}}x{{[0-9]+}}xf32, #akernel.space<l0c>> -> memref<{{[0-9]+}}x{{[0-9]+}}xf16, #akernel.space<ub>>
// CHECK-NEXT: akernel.vop "relu" %{{.*}} -> %{{.*}} {compute = f16}
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

// FU_4_conv_bias: on Ascend910 the fixpipe converts without the bias, the
// bias row is loaded in fp16 and added in fp16 (conv_compute.py's
// _handle_fp16_bias_add); then the HardSwish computes in fp32 inside, as
// TBE's hard_swish does alone. On Ascend910B1 the fixpipe adds the bias in
// fp32 before it converts.
// CHECK-LABEL: akernel.kernel @conv_b
// CHECK: akernel.fixpipe %{{.*}} -> %[[T:[^ ]*]] {round = #akernel.round<rint>} : memref<{{.*}}xf32, #akernel.space<l0c>> -> memref<{{.*}}xf16, #akernel.space<ub>>
// CHECK-NEXT: akernel.load %{{.*}} -> %[[B:[^ ]*]] : memref<1x2xf16, {{.*}}> -> memref<1x{{[0-9]+}}xf16, #akernel.space<ub>>
// CHECK-NEXT: akernel.vop "add" %[[T]], %[[B]] -> %[[T]] {compute = f16}
// CHECK-NEXT: akernel.vop "hard_swish" %[[T]] -> %{{.*}} {compute = f32}
// P310-LABEL: akernel.kernel @conv_b
// P310: akernel.fixpipe %{{.*}} -> %[[T:[^ ]*]] {round = #akernel.round<rint>} : memref<{{.*}}xf32, #akernel.space<l0c>> -> memref<{{.*}}xf16, #akernel.space<ub>>
// P310-NEXT: akernel.load
// P310-NEXT: akernel.vop "add" %[[T]], %{{.*}} -> %[[T]] {compute = f16}
// FIXPIPE-LABEL: akernel.kernel @conv_b
// FIXPIPE: akernel.fixpipe %{{.*}} -> %{{.*}} bias %{{.*}} {round = #akernel.round<rint>}
// FIXPIPE-NOT: akernel.vop "add"
// FIXPIPE: akernel.vop "hard_swish" %{{.*}} -> %{{.*}} {compute = f32}
func.func @conv_bias_hswish(%x: tensor<1x1x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf16> {name = "w_b"}
  %b = ascend.Const dense<0.5> : tensor<2xf16> {name = "b_b"}
  %c = ascend.Conv2D %x, %w, %b {name = "conv_b", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf16>, tensor<2x1x1x1xf16>, tensor<2xf16>) -> tensor<1x2x4x4xf16>
  %y = ascend.HardSwish %c {name = "hswish_b"} : tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}

// A matmul's residual Add reads the fp16 result and the fp16 residual as
// they are: one fp16 add, as alone.
// CHECK-LABEL: akernel.kernel @mm
// CHECK-SAME: nodes = ["mm", "res"]
// CHECK: akernel.fixpipe %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<{{.*}}xf32, #akernel.space<l0c>> -> memref<{{.*}}xf16, #akernel.space<ub>>
// CHECK: akernel.load %{{.*}} -> %[[R16:.*]] : memref<1x16x32xf16, {{.*}}> -> memref<{{.*}}xf16, #akernel.space<ub>>
// CHECK: akernel.vop "add" %{{.*}}, %[[R16]] -> %{{.*}} {compute = f16}
// CHECK-NOT: akernel.vcast
// CHECK: akernel.store
func.func @matmul_residual(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>, %r: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %m = ascend.MatMulV2 %a, %b {name = "mm"} : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %y = ascend.Add %m, %r {name = "res"} : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// IMPL-LABEL: akernel.kernel @conv_s
// IMPL: akernel.fixpipe {{.*}} -> memref<{{.*}}xf16, #akernel.space<ub>>
// IMPL: akernel.vop "sigmoid" %{{.*}} -> %{{.*}} {compute = f32}
// CHECK-LABEL: akernel.kernel @conv_s
// CHECK: akernel.vop "sigmoid" %{{.*}} -> %{{.*}} {compute = f16}
func.func @conv_sigmoid(%x: tensor<1x1x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf16> {name = "w_s"}
  %c = ascend.Conv2D %x, %w {name = "conv_s", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf16>, tensor<2x1x1x1xf16>) -> tensor<1x2x4x4xf16>
  %y = ascend.Sigmoid %c {name = "sig_s"} : tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}
