// A cube kernel's K loop (load A, load B, copy both to L0, mmad initialised
// at k = 0) becomes one call of ascendprec_rt_cube_loop: the L0 tiles go,
// the L1 tiles stay as the runtime's scratch, the loads' offsets are passed
// with the slot of k (-1: none), and B is marked read-only when the kernel
// never writes its GM buffer (the runtime then reuses its tiles for the
// block run that ascendprec_rt_block_begin starts). A loop of any other
// shape keeps its ops, each lowered to its own call. The L1 tiles and the
// accumulator are views of the scratch region (64-byte aligned offsets); the
// L0 tiles take none of it.
// RUN: prec-opt %s --prec-convert-kernel-to-std | FileCheck %s

module attributes {akernel.target = #akernel.target<soc = "Ascend910B3", cube_cores = 20,
    vector_cores = 40, aicpu_cores = 6, cube_m = 16, cube_n = 16, cube_k = 16,
    freq_mhz = 1800, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, ub = 196608,
    l2 = 201326592, ddr_rate = 32, l2_rate = 110, cube_inputs = [f16, i8, f32, bf16]>} {

  // A convolution: img2col tiles of x, transposed tiles of the filter
  // (read through a view, never written).
  // CHECK-LABEL: func.func @conv(
  // CHECK-SAME: %[[SCRATCH:[^:]*]]: memref<11776xi8>, %{{.*}}: index)
  // CHECK-SAME: akernel.scratch_bytes = 11776 : i64
  // CHECK: call @ascendprec_rt_block_begin_()
  // CHECK: memref.view %[[SCRATCH]][%c0{{.*}}][] : memref<11776xi8> to memref<64x48xf16>
  // CHECK: memref.view %[[SCRATCH]][%c6144{{.*}}][] : memref<11776xi8> to memref<48x16xf16>
  // CHECK: memref.view %[[SCRATCH]][%c7680{{.*}}][] : memref<11776xi8> to memref<64x16xf32>
  // CHECK-NOT: memref.view
  // CHECK-NOT: memref.alloc()
  // CHECK-NOT: scf.for
  // CHECK: arith.constant 3 : i32
  // CHECK-NEXT: arith.constant 3 : i32
  // CHECK-NEXT: arith.constant 1 : i32
  // CHECK-NEXT: arith.constant 2 : i32
  // CHECK-NEXT: arith.constant 0 : i32
  // CHECK-NEXT: arith.constant 2 : i32
  // CHECK-NEXT: arith.constant 1 : i32
  // CHECK-NEXT: arith.constant 1 : i32
  // CHECK-NEXT: call @ascendprec_rt_cube_loop__
  // CHECK-NOT: ascendprec_rt_mmad
  // CHECK: call @ascendprec_rt_fixpipe__
  akernel.kernel @conv attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["conv"]} {
  ^bb0(%x: memref<1x1x16x8x8xf16, #akernel.space<gm>>, %w: memref<16x16x3x3xf16, #akernel.space<gm>>, %y: memref<1x16x64xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<64x48xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<48x16xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<64x48xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<48x16xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<64x16xf32, #akernel.space<l0c>>
    %wv = memref.reinterpret_cast %w to offset: [0], sizes: [1, 16, 144], strides: [2304, 144, 1] : memref<16x16x3x3xf16, #akernel.space<gm>> to memref<1x16x144xf16, strided<[2304, 144, 1]>, #akernel.space<gm>>
    %c0 = arith.constant 0 : index
    %c48 = arith.constant 48 : index
    %c144 = arith.constant 144 : index
    scf.for %k = %c0 to %c144 step %c48 {
      %first = arith.cmpi eq, %k, %c0 : index
      akernel.load %x[%c0, %c0, %c0, %k] -> %a1 {img2col = #akernel.img2col<kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [8, 8], c0 = 16>} : memref<1x1x16x8x8xf16, #akernel.space<gm>> -> memref<64x48xf16, #akernel.space<l1>>
      akernel.load %wv[%c0, %c0, %k] -> %b1 {transpose} : memref<1x16x144xf16, strided<[2304, 144, 1]>, #akernel.space<gm>> -> memref<48x16xf16, #akernel.space<l1>>
      akernel.copy %a1, %a0 : memref<64x48xf16, #akernel.space<l1>>, memref<64x48xf16, #akernel.space<l0a>>
      akernel.copy %b1, %b0 : memref<48x16xf16, #akernel.space<l1>>, memref<48x16xf16, #akernel.space<l0b>>
      akernel.mmad %a0, %b0, %acc init(%first) : memref<64x48xf16, #akernel.space<l0a>>, memref<48x16xf16, #akernel.space<l0b>>, memref<64x16xf32, #akernel.space<l0c>>
    }
    akernel.fixpipe %acc -> %y[%c0, %c0, %c0] {round = #akernel.round<rint>, transpose} : memref<64x16xf32, #akernel.space<l0c>> -> memref<1x16x64xf16, #akernel.space<gm>>
  }

  // B's buffer is also written (by the fixpipe): its tiles are not kept
  // (the last flag). `0 == k` initialises as `k == 0` does.
  // CHECK-LABEL: func.func @written_b(
  // CHECK: arith.constant 2 : i32
  // CHECK-NEXT: arith.constant 1 : i32
  // CHECK-NEXT: arith.constant 0 : i32
  // CHECK-NEXT: call @ascendprec_rt_cube_loop__
  akernel.kernel @written_b attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["mm"]} {
  ^bb0(%a: memref<32x32xf16, #akernel.space<gm>>, %b: memref<32x32xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<32x16xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<16x32xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<32x16xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<16x32xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<32x32xf32, #akernel.space<l0c>>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    scf.for %k = %c0 to %c32 step %c16 {
      %first = arith.cmpi eq, %c0, %k : index
      akernel.load %a[%c0, %k] -> %a1 : memref<32x32xf16, #akernel.space<gm>> -> memref<32x16xf16, #akernel.space<l1>>
      akernel.load %b[%c0, %k] -> %b1 {transpose} : memref<32x32xf16, #akernel.space<gm>> -> memref<16x32xf16, #akernel.space<l1>>
      akernel.copy %a1, %a0 : memref<32x16xf16, #akernel.space<l1>>, memref<32x16xf16, #akernel.space<l0a>>
      akernel.copy %b1, %b0 : memref<16x32xf16, #akernel.space<l1>>, memref<16x32xf16, #akernel.space<l0b>>
      akernel.mmad %a0, %b0, %acc init(%first) : memref<32x16xf16, #akernel.space<l0a>>, memref<16x32xf16, #akernel.space<l0b>>, memref<32x32xf32, #akernel.space<l0c>>
    }
    akernel.fixpipe %acc -> %b[%c0, %c0] {round = #akernel.round<rint>} : memref<32x32xf32, #akernel.space<l0c>> -> memref<32x32xf16, #akernel.space<gm>>
  }

  // Not fused: an offset computed in the loop. Each op is its own call.
  // CHECK-LABEL: func.func @offset_in_loop(
  // CHECK: scf.for
  // CHECK: call @ascendprec_rt_load__
  // CHECK: call @ascendprec_rt_load__
  // CHECK: call @ascendprec_rt_copy__
  // CHECK: call @ascendprec_rt_copy__
  // CHECK: %[[INIT:.*]] = arith.extui %{{.*}} : i1 to i32
  // CHECK: call @ascendprec_rt_mmad__mf16_mf16_mf32_i32_i32(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i32{{.*}}, %[[INIT]])
  // CHECK-NOT: ascendprec_rt_cube_loop
  // CHECK: return
  akernel.kernel @offset_in_loop attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["mm"]} {
  ^bb0(%a: memref<32x48xf16, #akernel.space<gm>>, %b: memref<48x32xf16, #akernel.space<gm>>, %y: memref<32x32xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<32x16xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<16x32xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<32x16xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<16x32xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<32x32xf32, #akernel.space<l0c>>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    scf.for %k = %c0 to %c32 step %c16 {
      %first = arith.cmpi eq, %k, %c0 : index
      %k1 = arith.addi %k, %c16 : index
      akernel.load %a[%c0, %k1] -> %a1 : memref<32x48xf16, #akernel.space<gm>> -> memref<32x16xf16, #akernel.space<l1>>
      akernel.load %b[%k1, %c0] -> %b1 : memref<48x32xf16, #akernel.space<gm>> -> memref<16x32xf16, #akernel.space<l1>>
      akernel.copy %a1, %a0 : memref<32x16xf16, #akernel.space<l1>>, memref<32x16xf16, #akernel.space<l0a>>
      akernel.copy %b1, %b0 : memref<16x32xf16, #akernel.space<l1>>, memref<16x32xf16, #akernel.space<l0b>>
      akernel.mmad %a0, %b0, %acc init(%first) : memref<32x16xf16, #akernel.space<l0a>>, memref<16x32xf16, #akernel.space<l0b>>, memref<32x32xf32, #akernel.space<l0c>>
    }
    akernel.fixpipe %acc -> %y[%c0, %c0] {round = #akernel.round<rint>} : memref<32x32xf32, #akernel.space<l0c>> -> memref<32x32xf16, #akernel.space<gm>>
  }

  // Not fused: the accumulator is initialised at k = 16, not at k = 0.
  // CHECK-LABEL: func.func @init_elsewhere(
  // CHECK: scf.for
  // CHECK: call @ascendprec_rt_mmad__
  // CHECK-NOT: ascendprec_rt_cube_loop
  // CHECK: return
  akernel.kernel @init_elsewhere attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["mm"]} {
  ^bb0(%a: memref<32x32xf16, #akernel.space<gm>>, %b: memref<32x32xf16, #akernel.space<gm>>, %y: memref<32x32xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<32x16xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<16x32xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<32x16xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<16x32xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<32x32xf32, #akernel.space<l0c>>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    scf.for %k = %c0 to %c32 step %c16 {
      %first = arith.cmpi eq, %k, %c16 : index
      akernel.load %a[%c0, %k] -> %a1 : memref<32x32xf16, #akernel.space<gm>> -> memref<32x16xf16, #akernel.space<l1>>
      akernel.load %b[%k, %c0] -> %b1 : memref<32x32xf16, #akernel.space<gm>> -> memref<16x32xf16, #akernel.space<l1>>
      akernel.copy %a1, %a0 : memref<32x16xf16, #akernel.space<l1>>, memref<32x16xf16, #akernel.space<l0a>>
      akernel.copy %b1, %b0 : memref<16x32xf16, #akernel.space<l1>>, memref<16x32xf16, #akernel.space<l0b>>
      akernel.mmad %a0, %b0, %acc init(%first) : memref<32x16xf16, #akernel.space<l0a>>, memref<16x32xf16, #akernel.space<l0b>>, memref<32x32xf32, #akernel.space<l0c>>
    }
    akernel.fixpipe %acc -> %y[%c0, %c0] {round = #akernel.round<rint>} : memref<32x32xf32, #akernel.space<l0c>> -> memref<32x32xf16, #akernel.space<gm>>
  }

  // Not fused: the L1 tile of A is read after the loop.
  // CHECK-LABEL: func.func @tile_used_after(
  // CHECK: scf.for
  // CHECK: call @ascendprec_rt_mmad__
  // CHECK-NOT: ascendprec_rt_cube_loop
  // CHECK: return
  akernel.kernel @tile_used_after attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["mm"]} {
  ^bb0(%a: memref<32x32xf16, #akernel.space<gm>>, %b: memref<32x32xf16, #akernel.space<gm>>, %y: memref<32x32xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<32x16xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<16x32xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<32x16xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<16x32xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<32x32xf32, #akernel.space<l0c>>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    scf.for %k = %c0 to %c32 step %c16 {
      %first = arith.cmpi eq, %k, %c0 : index
      akernel.load %a[%c0, %k] -> %a1 : memref<32x32xf16, #akernel.space<gm>> -> memref<32x16xf16, #akernel.space<l1>>
      akernel.load %b[%k, %c0] -> %b1 : memref<32x32xf16, #akernel.space<gm>> -> memref<16x32xf16, #akernel.space<l1>>
      akernel.copy %a1, %a0 : memref<32x16xf16, #akernel.space<l1>>, memref<32x16xf16, #akernel.space<l0a>>
      akernel.copy %b1, %b0 : memref<16x32xf16, #akernel.space<l1>>, memref<16x32xf16, #akernel.space<l0b>>
      akernel.mmad %a0, %b0, %acc init(%first) : memref<32x16xf16, #akernel.space<l0a>>, memref<16x32xf16, #akernel.space<l0b>>, memref<32x32xf32, #akernel.space<l0c>>
    }
    akernel.copy %a1, %a0 : memref<32x16xf16, #akernel.space<l1>>, memref<32x16xf16, #akernel.space<l0a>>
    akernel.fixpipe %acc -> %y[%c0, %c0] {round = #akernel.round<rint>} : memref<32x32xf32, #akernel.space<l0c>> -> memref<32x32xf16, #akernel.space<gm>>
  }

  // Not fused: the copy to L0A reshapes the tile (the loop multiplies the
  // L0 shapes, the runtime would take the loads').
  // CHECK-LABEL: func.func @reshaping_copy(
  // CHECK: scf.for
  // CHECK: call @ascendprec_rt_mmad__
  // CHECK-NOT: ascendprec_rt_cube_loop
  // CHECK: return
  akernel.kernel @reshaping_copy attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["mm"]} {
  ^bb0(%a: memref<32x32xf16, #akernel.space<gm>>, %b: memref<32x32xf16, #akernel.space<gm>>, %y: memref<16x32xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<8x64xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<32x32xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<16x32xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<32x32xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<16x32xf32, #akernel.space<l0c>>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    scf.for %k = %c0 to %c32 step %c32 {
      %first = arith.cmpi eq, %k, %c0 : index
      akernel.load %a[%c0, %k] -> %a1 : memref<32x32xf16, #akernel.space<gm>> -> memref<8x64xf16, #akernel.space<l1>>
      akernel.load %b[%k, %c0] -> %b1 : memref<32x32xf16, #akernel.space<gm>> -> memref<32x32xf16, #akernel.space<l1>>
      akernel.copy %a1, %a0 : memref<8x64xf16, #akernel.space<l1>>, memref<16x32xf16, #akernel.space<l0a>>
      akernel.copy %b1, %b0 : memref<32x32xf16, #akernel.space<l1>>, memref<32x32xf16, #akernel.space<l0b>>
      akernel.mmad %a0, %b0, %acc init(%first) : memref<16x32xf16, #akernel.space<l0a>>, memref<32x32xf16, #akernel.space<l0b>>, memref<16x32xf32, #akernel.space<l0c>>
    }
    akernel.fixpipe %acc -> %y[%c0, %c0] {round = #akernel.round<rint>} : memref<16x32xf32, #akernel.space<l0c>> -> memref<16x32xf16, #akernel.space<gm>>
  }
}
