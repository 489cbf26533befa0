// The quantization ops lower to vector kernels that compute in CANN's
// dtypes (QuantLowering.cpp): AscendQuant converts fp32 to fp16 and scales
// in fp16; AscendDequant multiplies in fp16 on Ascend910 (the v100 dequant)
// and in fp32 on Ascend910B; AscendAntiQuant computes in fp16.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=must_keep_origin_dtype" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefixes=CHECK,B
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefixes=CHECK,A

func.func @qdq(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xi8>, %b: tensor<4xi32>, %s: tensor<4xf32>)
    -> (tensor<1x4x6x6xf32>, tensor<1x3x8x8xf16>) {
  %q = ascend.AscendQuant %x {name = "q", scale = 50.0 : f32, offset = 3.0 : f32, round_mode = "Floor"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xi8>
  %c = ascend.Conv2D %q, %w, %b {name = "c", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>) -> tensor<1x4x6x6xi32>
  %y = ascend.AscendDequant %c, %s {name = "dq", relu_flag = true} : (tensor<1x4x6x6xi32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %a = ascend.AscendAntiQuant %q {name = "aq", scale = 0.02 : f32, offset = -3.0 : f32} : (tensor<1x3x8x8xi8>) -> tensor<1x3x8x8xf16>
  return %y, %a : tensor<1x4x6x6xf32>, tensor<1x3x8x8xf16>
}

// CHECK-LABEL: akernel.kernel @q
// CHECK: akernel.vcast %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<{{.*}}xf32, {{.*}}> -> memref<{{.*}}xf16
// CHECK: akernel.vop "muls" {{.*}} {compute = f16, params = array<f64: 5.000000e+01>}
// CHECK: akernel.vop "adds" {{.*}} {compute = f16, params = array<f64: 3.000000e+00>}
// CHECK: akernel.vcast {{.*}} {round = #akernel.round<floor>} : memref<{{.*}}xf16, {{.*}}> -> memref<{{.*}}xi8

// The int8 convolution accumulates in int32 in L0C, with K padded to the
// int8 fractal of 32 (3 channels x 9 taps -> 32 x 9).
// CHECK-LABEL: akernel.kernel @c
// CHECK-SAME: k_padded = 288
// CHECK: akernel.mmad {{.*}} : memref<{{.*}}xi8, #akernel.space<l0a>>, memref<{{.*}}xi8, #akernel.space<l0b>>, memref<{{.*}}xi32, #akernel.space<l0c>>

// CHECK-LABEL: akernel.kernel @dq
// CHECK: akernel.load {{.*}}{broadcast = array<i64: 1, 4, 6, 6>} : memref<1x4x1x1xf32
// B: akernel.vcast {{.*}} : memref<{{.*}}xi32, {{.*}}> -> memref<{{.*}}xf32
// B: akernel.vop "mul" {{.*}} {compute = f32}
// B: akernel.vop "relu" {{.*}} {compute = f32}
// A: akernel.vcast {{.*}} : memref<{{.*}}xi32, {{.*}}> -> memref<{{.*}}xf16
// A: akernel.vcast {{.*}} : memref<{{.*}}xf32, {{.*}}> -> memref<{{.*}}xf16
// A: akernel.vop "mul" {{.*}} {compute = f16}
// A: akernel.vop "relu" {{.*}} {compute = f16}

// CHECK-LABEL: akernel.kernel @aq
// CHECK: akernel.vcast {{.*}} : memref<{{.*}}xi8, {{.*}}> -> memref<{{.*}}xf16
// CHECK: akernel.vop "adds" {{.*}} {compute = f16, params = array<f64: -3.000000e+00>}
// CHECK: akernel.vop "muls" {{.*}} {compute = f16, params = array<f64: 2.000000e-02>}
