// prec-convert-kernel-to-std computes straight on GM where a loop body only
// loads whole 1-D tiles, computes elementwise (vop, vcast) and stores whole
// 1-D tiles: `scf.if` every tile lies inside its GM buffer, the body on
// subviews of GM with no runtime call; else (the last, partial tile, read
// with zeros past the edge) the copies as before. Anything else keeps its
// copies: broadcast loads, 2-D tiles, atomic stores, a buffer used after the
// loop, a kernel storing into a buffer it also loads.
// RUN: prec-opt %s --prec-convert-kernel-to-std | FileCheck %s

module attributes {akernel.target = #akernel.target<soc = "Ascend910B3", cube_cores = 20,
    vector_cores = 40, aicpu_cores = 6, cube_m = 16, cube_n = 16, cube_k = 16,
    freq_mhz = 1800, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, ub = 196608,
    l2 = 201326592, ddr_rate = 32, l2_rate = 110, cube_inputs = [f16, i8, f32, bf16]>} {

  // CHECK-LABEL: func.func @whole_tiles(
  // CHECK-SAME: %[[X:[^:]*]]: memref<1000xf32>, %[[S:[^:]*]]: memref<1xf32>, %[[Y:[^:]*]]: memref<1000xf16>
  // CHECK: scf.for
  // CHECK: %[[END:.*]] = arith.addi %[[OFF:.*]], %c256
  // CHECK: %[[DIM:.*]] = memref.dim %[[X]], %c0
  // CHECK: arith.cmpi ule, %[[END]], %[[DIM]]
  // CHECK: scf.if
  // CHECK-NEXT: memref.subview %[[X]][%[[OFF]]] [256] [1]
  // CHECK-NEXT: memref.subview %[[S]][%c0{{.*}}] [1] [1]
  // CHECK-NEXT: memref.subview %[[Y]][%[[OFF]]] [256] [1]
  // CHECK-NOT: call
  // CHECK: arith.addf
  // CHECK-NOT: call
  // CHECK: arith.truncf %{{.*}} : f32 to f16
  // CHECK-NOT: call
  // CHECK: } else {
  // CHECK: call @ascendprec_rt_load
  // CHECK: call @ascendprec_rt_load
  // CHECK: call @ascendprec_rt_store
  akernel.kernel @whole_tiles attributes {block_dim = 4 : i64, engine = #akernel.engine<vector>, nodes = ["w"]} {
  ^bb0(%x: memref<1000xf32, #akernel.space<gm>>, %s: memref<1xf32, #akernel.space<gm>>, %y: memref<1000xf16, #akernel.space<gm>>):
    %in = akernel.alloc : memref<256xf32, #akernel.space<ub>>
    %scalar = akernel.alloc : memref<1xf32, #akernel.space<ub>>
    %sum = akernel.alloc : memref<256xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<256xf16, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    scf.for %t = %b to %c4 step %c4 {
      %off = arith.muli %t, %c256 : index
      akernel.load %x[%off] -> %in : memref<1000xf32, #akernel.space<gm>> -> memref<256xf32, #akernel.space<ub>>
      %c0 = arith.constant 0 : index
      akernel.load %s[%c0] -> %scalar : memref<1xf32, #akernel.space<gm>> -> memref<1xf32, #akernel.space<ub>>
      akernel.vop "add" %in, %scalar -> %sum {compute = f32} : memref<256xf32, #akernel.space<ub>>, memref<1xf32, #akernel.space<ub>> -> memref<256xf32, #akernel.space<ub>>
      akernel.vcast %sum -> %out {round = #akernel.round<rint>} : memref<256xf32, #akernel.space<ub>> -> memref<256xf16, #akernel.space<ub>>
      akernel.store %out -> %y[%off] : memref<256xf16, #akernel.space<ub>> -> memref<1000xf16, #akernel.space<gm>>
    }
  }

  // A broadcast load stays a call on both paths; the output goes to GM.
  // CHECK-LABEL: func.func @broadcast_input(
  // CHECK: scf.if
  // CHECK-NEXT: memref.subview
  // CHECK-NOT: memref.subview
  // CHECK: call @ascendprec_rt_load
  // CHECK: arith.mulf
  // CHECK-NOT: call @ascendprec_rt_store
  // CHECK: } else {
  // CHECK: call @ascendprec_rt_store
  akernel.kernel @broadcast_input attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["b"]} {
  ^bb0(%x: memref<4x1xf32, #akernel.space<gm>>, %y: memref<64xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c1 = arith.constant 1 : index
    scf.for %t = %b to %c1 step %c1 {
      %c0 = arith.constant 0 : index
      akernel.load %x[%c0] -> %in {broadcast = array<i64: 4, 16>} : memref<4x1xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
      akernel.vop "mul" %in, %in -> %out {compute = f32} : memref<64xf32, #akernel.space<ub>>, memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<ub>>
      akernel.store %out -> %y[%c0] : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<gm>>
    }
  }

  // CHECK-LABEL: func.func @two_d_tiles(
  // CHECK-NOT: scf.if
  // CHECK: return
  akernel.kernel @two_d_tiles attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["t"]} {
  ^bb0(%x: memref<8x16xf32, #akernel.space<gm>>, %y: memref<8x16xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<8x16xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<8x16xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c1 = arith.constant 1 : index
    scf.for %t = %b to %c1 step %c1 {
      %c0 = arith.constant 0 : index
      akernel.load %x[%c0, %c0] -> %in : memref<8x16xf32, #akernel.space<gm>> -> memref<8x16xf32, #akernel.space<ub>>
      akernel.vop "relu" %in -> %out {compute = f32} : memref<8x16xf32, #akernel.space<ub>> -> memref<8x16xf32, #akernel.space<ub>>
      akernel.store %out -> %y[%c0, %c0] : memref<8x16xf32, #akernel.space<ub>> -> memref<8x16xf32, #akernel.space<gm>>
    }
  }

  // The input still comes straight from GM; the atomic store adds.
  // CHECK-LABEL: func.func @atomic_store(
  // CHECK: scf.if
  // CHECK-NEXT: memref.subview
  // CHECK-NOT: memref.subview
  // CHECK: call @ascendprec_rt_store
  // CHECK: } else {
  akernel.kernel @atomic_store attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["a"]} {
  ^bb0(%x: memref<64xf32, #akernel.space<gm>>, %y: memref<64xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c1 = arith.constant 1 : index
    scf.for %t = %b to %c1 step %c1 {
      %c0 = arith.constant 0 : index
      akernel.load %x[%c0] -> %in : memref<64xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
      akernel.vop "relu" %in -> %out {compute = f32} : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<ub>>
      akernel.store %out -> %y[%c0] {atomic} : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<gm>>
    }
  }

  // The result tile is stored again after the loop: it must stay in UB.
  // CHECK-LABEL: func.func @used_after_loop(
  // CHECK: scf.if
  // CHECK-NEXT: memref.subview
  // CHECK-NOT: memref.subview
  // CHECK: call @ascendprec_rt_store
  // CHECK: } else {
  akernel.kernel @used_after_loop attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["u"]} {
  ^bb0(%x: memref<64xf32, #akernel.space<gm>>, %y: memref<64xf32, #akernel.space<gm>>, %z: memref<64xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    scf.for %t = %b to %c1 step %c1 {
      akernel.load %x[%c0] -> %in : memref<64xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
      akernel.vop "relu" %in -> %out {compute = f32} : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<ub>>
      akernel.store %out -> %y[%c0] : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<gm>>
    }
    akernel.store %out -> %z[%c0] : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<gm>>
  }

  // Reading and writing one GM buffer: computing on it would read results.
  // CHECK-LABEL: func.func @in_place(
  // CHECK-NOT: scf.if
  // CHECK: return
  akernel.kernel @in_place attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["i"]} {
  ^bb0(%x: memref<64xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c1 = arith.constant 1 : index
    scf.for %t = %b to %c1 step %c1 {
      %c0 = arith.constant 0 : index
      akernel.load %x[%c0] -> %in : memref<64xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
      akernel.vop "relu" %in -> %out {compute = f32} : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<ub>>
      akernel.store %out -> %x[%c0] : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<gm>>
    }
  }
}
