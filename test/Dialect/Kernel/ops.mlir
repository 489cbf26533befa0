// The akernel ops parse, verify and print back: a tiled fp16 MatMul on the
// cube with its fixpipe, a small-channel convolution through img2col, a
// broadcast elementwise kernel, a DMA kernel and its launch, a vector kernel with an fp32-internal Exp and a
// reduction, and an AI CPU kernel.
// RUN: prec-opt %s | FileCheck %s
// RUN: prec-opt %s | prec-opt | FileCheck %s

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32,
    vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16,
    freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432,
    ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {

  // CHECK-LABEL: akernel.kernel @mm
  // CHECK-SAME: block_dim = 4 : i64, double_buffer, engine = #akernel.engine<cube>, nodes = ["fc1"]
  // CHECK: %[[B:.*]] = akernel.block_idx : index
  // CHECK: scf.for %{{.*}} = %[[B]] to
  // CHECK: akernel.load %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}} : memref<100x72xf16, #akernel.space<gm>> -> memref<64x32xf16, #akernel.space<l1>>
  // CHECK: akernel.load %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}} {transpose} : memref<80x72xf16, #akernel.space<gm>> -> memref<32x64xf16, #akernel.space<l1>>
  // CHECK: akernel.mmad %{{.*}}, %{{.*}}, %{{.*}} init(%{{.*}}) : memref<64x32xf16, #akernel.space<l0a>>, memref<32x64xf16, #akernel.space<l0b>>, memref<64x64xf32, #akernel.space<l0c>>
  // CHECK: akernel.fixpipe %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] bias %{{.*}} {relu, round = #akernel.round<rint>}
  akernel.kernel @mm attributes {block_dim = 4 : i64, engine = #akernel.engine<cube>,
      nodes = ["fc1"], double_buffer, tiling = {m = 64 : i64, n = 64 : i64, k = 32 : i64}} {
  ^bb0(%a: memref<100x72xf16, #akernel.space<gm>>, %b: memref<80x72xf16, #akernel.space<gm>>,
       %bias: memref<80xf32, #akernel.space<gm>>, %y: memref<100x80xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<64x32xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<32x64xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<64x32xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<32x64xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<64x64xf32, #akernel.space<l0c>>
    %bias_ub = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %blk = akernel.block_idx : index
    scf.for %t = %blk to %c4 step %c4 {
      %mi = arith.divui %t, %c2 : index
      %ni = arith.remui %t, %c2 : index
      %m = arith.muli %mi, %c64 : index
      %n = arith.muli %ni, %c64 : index
      scf.for %k = %c0 to %c96 step %c32 {
        %first = arith.cmpi eq, %k, %c0 : index
        akernel.load %a[%m, %k] -> %a1 : memref<100x72xf16, #akernel.space<gm>> -> memref<64x32xf16, #akernel.space<l1>>
        akernel.load %b[%n, %k] -> %b1 {transpose} : memref<80x72xf16, #akernel.space<gm>> -> memref<32x64xf16, #akernel.space<l1>>
        akernel.copy %a1, %a0 : memref<64x32xf16, #akernel.space<l1>>, memref<64x32xf16, #akernel.space<l0a>>
        akernel.copy %b1, %b0 : memref<32x64xf16, #akernel.space<l1>>, memref<32x64xf16, #akernel.space<l0b>>
        akernel.mmad %a0, %b0, %acc init(%first) : memref<64x32xf16, #akernel.space<l0a>>,
            memref<32x64xf16, #akernel.space<l0b>>, memref<64x64xf32, #akernel.space<l0c>>
      }
      akernel.load %bias[%n] -> %bias_ub : memref<80xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
      akernel.fixpipe %acc -> %y[%m, %n] bias %bias_ub {round = #akernel.round<rint>, relu}
          : memref<64x64xf32, #akernel.space<l0c>> -> memref<100x80xf16, #akernel.space<gm>>,
            memref<64xf32, #akernel.space<ub>>
    }
  }

  // CHECK-LABEL: akernel.kernel @conv
  // CHECK: akernel.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}} {img2col = #akernel.img2col<kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [8, 8], c0 = 4>}
  // CHECK: akernel.fixpipe %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {round = #akernel.round<rint>, transpose}
  akernel.kernel @conv attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>,
      nodes = ["stem"]} {
  ^bb0(%x: memref<1x3x8x8xf16, #akernel.space<gm>>, %w: memref<16x27xf16, #akernel.space<gm>>,
       %y: memref<1x16x64xf16, #akernel.space<gm>>):
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %a1 = akernel.alloc : memref<64x48xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<48x16xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<64x48xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<48x16xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<64x16xf32, #akernel.space<l0c>>
    akernel.load %x[%c0, %c0, %c0] -> %a1 {img2col = #akernel.img2col<kernel = [3, 3],
        strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [8, 8], c0 = 4>}
        : memref<1x3x8x8xf16, #akernel.space<gm>> -> memref<64x48xf16, #akernel.space<l1>>
    akernel.load %w[%c0, %c0] -> %b1 {transpose} : memref<16x27xf16, #akernel.space<gm>> -> memref<48x16xf16, #akernel.space<l1>>
    akernel.copy %a1, %a0 : memref<64x48xf16, #akernel.space<l1>>, memref<64x48xf16, #akernel.space<l0a>>
    akernel.copy %b1, %b0 : memref<48x16xf16, #akernel.space<l1>>, memref<48x16xf16, #akernel.space<l0b>>
    akernel.mmad %a0, %b0, %acc init(%true) : memref<64x48xf16, #akernel.space<l0a>>,
        memref<48x16xf16, #akernel.space<l0b>>, memref<64x16xf32, #akernel.space<l0c>>
    akernel.fixpipe %acc -> %y[%c0, %c0, %c0] {round = #akernel.round<rint>, transpose}
        : memref<64x16xf32, #akernel.space<l0c>> -> memref<1x16x64xf16, #akernel.space<gm>>
  }

  // CHECK-LABEL: akernel.kernel @bias_add
  // CHECK: akernel.load %{{.*}}[%{{.*}}] -> %{{.*}} {broadcast = array<i64: 1, 16, 8, 8>}
  // CHECK: akernel.vop "add" %{{.*}}, %{{.*}} -> %{{.*}} {compute = f16}
  // CHECK: akernel.store %{{.*}} -> %{{.*}}[%{{.*}}] {atomic}
  akernel.kernel @bias_add attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>,
      nodes = ["bias"]} {
  ^bb0(%x: memref<1024xf16, #akernel.space<gm>>, %b: memref<1x16x1x1xf16, #akernel.space<gm>>,
       %y: memref<1024xf16, #akernel.space<gm>>):
    %c0 = arith.constant 0 : index
    %xu = akernel.alloc : memref<1024xf16, #akernel.space<ub>>
    %bu = akernel.alloc : memref<1024xf16, #akernel.space<ub>>
    akernel.load %x[%c0] -> %xu : memref<1024xf16, #akernel.space<gm>> -> memref<1024xf16, #akernel.space<ub>>
    akernel.load %b[%c0] -> %bu {broadcast = array<i64: 1, 16, 8, 8>}
        : memref<1x16x1x1xf16, #akernel.space<gm>> -> memref<1024xf16, #akernel.space<ub>>
    akernel.vop "add" %xu, %bu -> %xu {compute = f16}
        : memref<1024xf16, #akernel.space<ub>>, memref<1024xf16, #akernel.space<ub>> -> memref<1024xf16, #akernel.space<ub>>
    akernel.store %xu -> %y[%c0] {atomic} : memref<1024xf16, #akernel.space<ub>> -> memref<1024xf16, #akernel.space<gm>>
  }

  // CHECK-LABEL: akernel.kernel @move
  // CHECK: akernel.dma "transpose" ins(%{{.*}}) outs(%{{.*}}) {params = {perm = array<i64: 1, 0>}}
  akernel.kernel @move attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>,
      nodes = ["t"]} {
  ^bb0(%x: memref<8x64xf16, #akernel.space<gm>>, %y: memref<64x8xf16, #akernel.space<gm>>):
    akernel.dma "transpose" ins(%x) outs(%y) {params = {perm = array<i64: 1, 0>}}
        : (memref<8x64xf16, #akernel.space<gm>>) -> (memref<64x8xf16, #akernel.space<gm>>)
  }

  // CHECK-LABEL: func.func @graph
  // CHECK: akernel.view %{{.*}} : tensor<8x8x8xf16> -> tensor<8x64xf16>
  // CHECK: akernel.launch @move(%{{.*}}) : (tensor<8x64xf16>) -> tensor<64x8xf16>
  func.func @graph(%x: tensor<8x8x8xf16>) -> tensor<64x8xf16> {
    %v = akernel.view %x : tensor<8x8x8xf16> -> tensor<8x64xf16>
    %y = akernel.launch @move(%v) : (tensor<8x64xf16>) -> tensor<64x8xf16>
    return %y : tensor<64x8xf16>
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
    %c0 = arith.constant 0 : index
    akernel.load %x[%c0, %c0] -> %xu : memref<16x256xf16, #akernel.space<gm>> -> memref<16x256xf16, #akernel.space<ub>>
    akernel.vop "exp" %xu -> %e {compute = f32}
        : memref<16x256xf16, #akernel.space<ub>> -> memref<16x256xf16, #akernel.space<ub>>
    akernel.vreduce "sum" %e -> %sum {axes = array<i64: 1>, acc = f32, order = #akernel.order<tree>}
        : memref<16x256xf16, #akernel.space<ub>> -> memref<16x1xf32, #akernel.space<ub>>
    akernel.vop "reciprocal" %sum -> %inv {compute = f32, newton}
        : memref<16x1xf32, #akernel.space<ub>> -> memref<16x1xf32, #akernel.space<ub>>
    akernel.vcast %inv -> %out {round = #akernel.round<rint>}
        : memref<16x1xf32, #akernel.space<ub>> -> memref<16x1xf16, #akernel.space<ub>>
    akernel.store %out -> %s[%c0, %c0] : memref<16x1xf16, #akernel.space<ub>> -> memref<16x1xf16, #akernel.space<gm>>
  }

  // A resize (no grid) and a grid sample (the image's [Ho, Wo, 2] grid).
  // CHECK-LABEL: akernel.kernel @interp
  // CHECK: akernel.vinterp "bilinear" %{{.*}} -> %{{.*}} {acc = f32, coordinates = "half_pixel", padding = "border"} : memref<4x8x8xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
  // CHECK: akernel.vinterp "bicubic" %{{.*}} grid %{{.*}} -> %{{.*}} {acc = f32, coordinates = "align_corners", padding = "reflection"} : memref<4x8x8xf16, #akernel.space<ub>>, memref<16x16x2xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
  akernel.kernel @interp attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>,
      nodes = ["up"]} {
    %x = akernel.alloc : memref<4x8x8xf16, #akernel.space<ub>>
    %g = akernel.alloc : memref<16x16x2xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<4x16x16xf16, #akernel.space<ub>>
    akernel.vinterp "bilinear" %x -> %y {acc = f32, coordinates = "half_pixel", padding = "border"}
        : memref<4x8x8xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
    akernel.vinterp "bicubic" %x grid %g -> %y {acc = f32, coordinates = "align_corners", padding = "reflection"}
        : memref<4x8x8xf16, #akernel.space<ub>>, memref<16x16x2xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
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
