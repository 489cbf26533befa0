// Vector lowering: one kernel per elementwise op, UB tiles shared by the
// vector cores; the impl mode decides the kernel (IM-7): high_precision
// computes fp16 data of a costly function in fp32, high_performance stays
// in fp16; Rsqrt supports only high_precision (IM-6) and refines with a
// Newton step. Broadcast inputs load through `broadcast`, scalar
// constants ride in `params`, and Casts round as ONNX's Cast does.
// (TbeEltwiseFusionPass is off: chains of these ops are eltwise-group.mlir's.)
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=must_keep_origin_dtype op_precision_mode=%S/inputs/impl-modes.ini fusion_switch_file=%S/inputs/eltwise-off.json" \
// RUN:   --prec-lower-to-kernel 2>/dev/null | FileCheck %s

// CHECK-LABEL: akernel.kernel @exp_precise
// CHECK-SAME: engine = #akernel.engine<vector>
// CHECK: akernel.vop "exp" %{{.*}} -> %{{.*}} {compute = f32} : memref<{{[0-9]+}}xf16, #akernel.space<ub>> -> memref<{{[0-9]+}}xf16, #akernel.space<ub>>
// CHECK-LABEL: akernel.kernel @exp_fast
// CHECK: akernel.vop "exp" %{{.*}} -> %{{.*}} {compute = f16}
// CHECK-LABEL: akernel.kernel @rsqrt
// CHECK: akernel.vop "rsqrt" %{{.*}} -> %{{.*}} {compute = f16, newton}
func.func @modes(%x: tensor<4x256xf16>) -> (tensor<4x256xf16>, tensor<4x256xf16>, tensor<4x256xf16>) {
  %a = ascend.Exp %x {name = "exp_precise"} : tensor<4x256xf16>
  %b = ascend.Exp %x {name = "exp_fast"} : tensor<4x256xf16>
  %c = ascend.Rsqrt %x {name = "rsqrt"} : tensor<4x256xf16>
  return %a, %b, %c : tensor<4x256xf16>, tensor<4x256xf16>, tensor<4x256xf16>
}

// CHECK-LABEL: akernel.kernel @add_bias
// CHECK-SAME: tiling = {tile = 32 : i64, tiles = 32 : i64}
// CHECK: akernel.load %{{.*}}[%{{.*}}] -> %{{.*}} : memref<1024xf16, strided<[1]>, #akernel.space<gm>> -> memref<32xf16, #akernel.space<ub>>
// CHECK: akernel.load %{{.*}}[%{{.*}}] -> %{{.*}} {broadcast = array<i64: 1, 16, 8, 8>} : memref<1x16x1x1xf16
// CHECK: akernel.vop "add" %{{.*}}, %{{.*}} -> %{{.*}} {compute = f16}
// CHECK: akernel.store %{{.*}} -> %{{.*}}[%{{.*}}] : memref<32xf16, #akernel.space<ub>> -> memref<1024xf16
// CHECK-LABEL: akernel.kernel @leaky
// CHECK: akernel.vop "leaky_relu" %{{.*}} -> %{{.*}} {compute = f16, params = array<f64: 1.250000e-01>}
func.func @broadcast(%x: tensor<1x16x8x8xf16>, %b: tensor<16x1x1xf16>) -> tensor<1x16x8x8xf16> {
  %y = ascend.Add %x, %b {name = "add_bias"} : (tensor<1x16x8x8xf16>, tensor<16x1x1xf16>) -> tensor<1x16x8x8xf16>
  %z = ascend.LeakyRelu %y {name = "leaky", negative_slope = 0.125 : f32} : tensor<1x16x8x8xf16>
  return %z : tensor<1x16x8x8xf16>
}

// Float to integer truncates toward zero; narrowing floats round to nearest
// even.
// CHECK-LABEL: akernel.kernel @to_int
// CHECK: akernel.vcast %{{.*}} -> %{{.*}} {round = #akernel.round<trunc>} : memref<32xf32, #akernel.space<ub>> -> memref<32xi32, #akernel.space<ub>>
// The model's own Cast to f16 keeps its rounding in the fp32 reference
// (model_rounding); a Cast planning inserted does not, and the two do not
// share a kernel though their types are the same.
// CHECK-LABEL: akernel.kernel @to_half
// CHECK: akernel.vcast %{{.*}} -> %{{.*}} {model_rounding, round = #akernel.round<rint>} : memref<{{[0-9]+}}xf32, #akernel.space<ub>> -> memref<{{[0-9]+}}xf16, #akernel.space<ub>>
// CHECK-LABEL: akernel.kernel @"x/Cast_float16"
// CHECK: akernel.vcast %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<{{[0-9]+}}xf32, #akernel.space<ub>> -> memref<{{[0-9]+}}xf16, #akernel.space<ub>>
func.func @casts(%x: tensor<1000xf32>, %x2: tensor<1000xf32>) -> (tensor<1000xi32>, tensor<1000xf16>, tensor<1000xf16>) {
  %y = ascend.Cast %x {name = "to_int"} : tensor<1000xf32> to tensor<1000xi32>
  %z = ascend.Cast %x {name = "to_half"} : tensor<1000xf32> to tensor<1000xf16>
  %w = ascend.Cast %x2 {name = "x/Cast_float16", ascend.inserted} : tensor<1000xf32> to tensor<1000xf16>
  return %y, %z, %w : tensor<1000xi32>, tensor<1000xf16>, tensor<1000xf16>
}

// BatchNorm (inference, outside a Conv+BN fusion): per-channel statistics
// broadcast along dimension 1.
// CHECK-LABEL: akernel.kernel @bn
// The statistics stay fp32 (planning keeps BatchNorm's parameters).
// CHECK-COUNT-4: akernel.load %{{.*}}[%{{.*}}] -> %{{.*}} {broadcast = array<i64: 2, 8, 4, 4>} : memref<1x8x1x1xf32
// CHECK: akernel.vop "adds" {{.*}}params = array<f64: 1.000000e-03>
// CHECK: akernel.vop "rsqrt"
// CHECK: akernel.vop "sub"
// CHECK: akernel.vop "add"
func.func @batchnorm(%x: tensor<2x8x4x4xf16>, %s: tensor<8xf16>, %o: tensor<8xf16>, %m: tensor<8xf16>, %v: tensor<8xf16>) -> tensor<2x8x4x4xf16> {
  %y = ascend.BatchNorm %x, %s, %o, %m, %v {name = "bn", epsilon = 1.0e-3 : f32}
      : (tensor<2x8x4x4xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<2x8x4x4xf16>
  return %y : tensor<2x8x4x4xf16>
}

// An empty tensor (ONNX allows zero-size dimensions) has no tiles; its
// kernel runs on one block and does nothing.
// CHECK-LABEL: akernel.kernel @empty
// CHECK-SAME: block_dim = 1 : i64
func.func @empty(%x: tensor<0x4xf16>) -> tensor<0x4xf16> {
  %y = ascend.Relu %x {name = "empty"} : tensor<0x4xf16>
  return %y : tensor<0x4xf16>
}
