// The akernel ops parse, verify and print back: a tiled fp16 MatMul on the
// cube with its fixpipe, a vector kernel with an fp32-internal Exp and a
// reduction, and an AI CPU kernel.
// RUN: prec-opt %s | FileCheck %s
// RUN: prec-opt %s | prec-opt | FileCheck %s

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32,
    vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16,
    freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144,
    ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {

  // CHECK-LABEL: akernel.kernel @mm
  // CHECK-SAME: block_dim = 4 : i64, double_buffer, engine = #akernel.engine<cube>, nodes = ["fc1"]
  // CHECK: akernel.mmad %{{.*}}, %{{.*}}, %{{.*}} {init} : memref<64x32xf16, #akernel.space<l0a>>, memref<32x64xf16, #akernel.space<l0b>>, memref<64x64xf32, #akernel.space<l0c>>
  // CHECK: akernel.fixpipe %{{.*}}, %{{.*}} bias %{{.*}} {relu, round = #akernel.round<rint>}
  akernel.kernel @mm attributes {block_dim = 4 : i64, engine = #akernel.engine<cube>,
      nodes = ["fc1"], double_buffer, tiling = {m = 64 : i64, n = 64 : i64, k = 32 : i64}} {
  ^bb0(%a: memref<64x32xf16, #akernel.space<gm>>, %b: memref<32x64xf16, #akernel.space<gm>>,
       %bias: memref<64xf32, #akernel.space<gm>>, %y: memref<64x64xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<64x32xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<32x64xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<64x32xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<32x64xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<64x64xf32, #akernel.space<l0c>>
    %bias_ub = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    akernel.copy %a, %a1 : memref<64x32xf16, #akernel.space<gm>>, memref<64x32xf16, #akernel.space<l1>>
    akernel.copy %b, %b1 : memref<32x64xf16, #akernel.space<gm>>, memref<32x64xf16, #akernel.space<l1>>
    akernel.copy %a1, %a0 : memref<64x32xf16, #akernel.space<l1>>, memref<64x32xf16, #akernel.space<l0a>>
    akernel.copy %b1, %b0 : memref<32x64xf16, #akernel.space<l1>>, memref<32x64xf16, #akernel.space<l0b>>
    akernel.copy %bias, %bias_ub : memref<64xf32, #akernel.space<gm>>, memref<64xf32, #akernel.space<ub>>
    akernel.mmad %a0, %b0, %acc {init} : memref<64x32xf16, #akernel.space<l0a>>,
        memref<32x64xf16, #akernel.space<l0b>>, memref<64x64xf32, #akernel.space<l0c>>
    akernel.fixpipe %acc, %y bias %bias_ub {round = #akernel.round<rint>, relu}
        : memref<64x64xf32, #akernel.space<l0c>>, memref<64x64xf16, #akernel.space<gm>>,
          memref<64xf32, #akernel.space<ub>>
  }

  // CHECK-LABEL: akernel.kernel @softmax_part
  // CHECK: akernel.vop "exp" %{{.*}} -> %{{.*}} {compute = f32}
  // CHECK: akernel.vreduce "sum" %{{.*}} -> %{{.*}} {acc = f32, axes = array<i64: 1>, order = #akernel.order<tree>}
  // CHECK: akernel.vop "reciprocal" %{{.*}} -> %{{.*}} {compute = f32, newton}
  // CHECK: akernel.vcast %{{.*}} -> %{{.*}} {round = #akernel.round<rint>}
  akernel.kernel @softmax_part attributes {block_dim = 16 : i64,
      engine = #akernel.engine<vector>, nodes = ["attn.softmax"]} {
  ^bb0(%x: memref<16x256xf16, #akernel.space<gm>>, %s: memref<16x1xf16, #akernel.space<gm>>):
    %xu = akernel.alloc : memref<16x256xf16, #akernel.space<ub>>
    %e = akernel.alloc : memref<16x256xf16, #akernel.space<ub>>
    %sum = akernel.alloc : memref<16x1xf32, #akernel.space<ub>>
    %inv = akernel.alloc : memref<16x1xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<16x1xf16, #akernel.space<ub>>
    akernel.copy %x, %xu : memref<16x256xf16, #akernel.space<gm>>, memref<16x256xf16, #akernel.space<ub>>
    akernel.vop "exp" %xu -> %e {compute = f32}
        : memref<16x256xf16, #akernel.space<ub>> -> memref<16x256xf16, #akernel.space<ub>>
    akernel.vreduce "sum" %e -> %sum {axes = array<i64: 1>, acc = f32, order = #akernel.order<tree>}
        : memref<16x256xf16, #akernel.space<ub>> -> memref<16x1xf32, #akernel.space<ub>>
    akernel.vop "reciprocal" %sum -> %inv {compute = f32, newton}
        : memref<16x1xf32, #akernel.space<ub>> -> memref<16x1xf32, #akernel.space<ub>>
    akernel.vcast %inv -> %out {round = #akernel.round<rint>}
        : memref<16x1xf32, #akernel.space<ub>> -> memref<16x1xf16, #akernel.space<ub>>
    akernel.copy %out, %s : memref<16x1xf16, #akernel.space<ub>>, memref<16x1xf16, #akernel.space<gm>>
  }

  // CHECK-LABEL: akernel.kernel @nms
  // CHECK: akernel.aicpu_call "NonMaxSuppression"(%{{.*}}, %{{.*}})
  akernel.kernel @nms attributes {block_dim = 1 : i64, engine = #akernel.engine<aicpu>,
      nodes = ["nms"]} {
  ^bb0(%boxes: memref<1x100x4xf32, #akernel.space<gm>>, %keep: memref<100xi32, #akernel.space<gm>>):
    akernel.aicpu_call "NonMaxSuppression" (%boxes, %keep)
        : memref<1x100x4xf32, #akernel.space<gm>>, memref<100xi32, #akernel.space<gm>>
  }
}
