// prec-convert-kernel-to-std gives each block a contiguous run of a tile
// loop marked akernel.independent_tiles: block b runs tiles
// [b * chunk, min(tiles, (b + 1) * chunk)) with chunk = ceil(tiles /
// block_dim), step 1, instead of b, b + block_dim, ... A kernel that adds
// into its outputs (atomic stores) keeps the device's order, and so does
// an unmarked loop or one whose step is not block_dim. The marker goes.
// RUN: prec-opt %s --prec-convert-kernel-to-std | FileCheck %s

module attributes {akernel.target = #akernel.target<soc = "Ascend910B3", cube_cores = 20,
    vector_cores = 40, aicpu_cores = 6, cube_m = 16, cube_n = 16, cube_k = 16,
    freq_mhz = 1800, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, ub = 196608,
    l2 = 201326592, ddr_rate = 32, l2_rate = 110, cube_inputs = [f16, i8, f32, bf16]>} {

  // CHECK-LABEL: func.func @independent(
  // CHECK-SAME: %[[BLOCK:[^:]*]]: index)
  // CHECK: %[[TILES:.*]] = arith.constant 10 : index
  // CHECK: %[[DIM:.*]] = arith.constant 4 : index
  // CHECK-NEXT: %[[CHUNK:.*]] = arith.ceildivui %[[TILES]], %[[DIM]] : index
  // CHECK: %[[BEGIN:.*]] = arith.muli %[[BLOCK]], %[[CHUNK]] : index
  // CHECK: %[[NEXT:.*]] = arith.addi %[[BEGIN]], %[[CHUNK]] : index
  // CHECK: %[[END:.*]] = arith.minui %[[TILES]], %[[NEXT]] : index
  // CHECK: %[[ONE:.*]] = arith.constant 1 : index
  // CHECK: scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %[[ONE]] {
  // CHECK-NOT: akernel.independent_tiles
  // CHECK: return
  akernel.kernel @independent attributes {block_dim = 4 : i64, engine = #akernel.engine<vector>, nodes = ["i"]} {
  ^bb0(%x: memref<160xf32, #akernel.space<gm>>, %y: memref<160xf32, #akernel.space<gm>>):
    %t16 = akernel.alloc : memref<16xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %b to %c10 step %c4 {
      %off = arith.muli %t, %c16 : index
      akernel.load %x[%off] -> %t16 : memref<160xf32, #akernel.space<gm>> -> memref<16xf32, #akernel.space<ub>>
      akernel.store %t16 -> %y[%off] : memref<16xf32, #akernel.space<ub>> -> memref<160xf32, #akernel.space<gm>>
    } {akernel.independent_tiles}
  }

  // CHECK-LABEL: func.func @adds_into_output(
  // CHECK-SAME: %[[BLOCK:[^:]*]]: index)
  // CHECK: %[[DIM:.*]] = arith.constant 4 : index
  // CHECK-NOT: arith.ceildivui
  // CHECK: scf.for %{{.*}} = %[[BLOCK]] to %{{.*}} step %[[DIM]] {
  // CHECK-NOT: akernel.independent_tiles
  // CHECK: return
  akernel.kernel @adds_into_output attributes {block_dim = 4 : i64, engine = #akernel.engine<vector>, nodes = ["a"]} {
  ^bb0(%x: memref<160xf32, #akernel.space<gm>>, %y: memref<16xf32, #akernel.space<gm>>):
    %t16 = akernel.alloc : memref<16xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %b to %c10 step %c4 {
      %off = arith.muli %t, %c16 : index
      akernel.load %x[%off] -> %t16 : memref<160xf32, #akernel.space<gm>> -> memref<16xf32, #akernel.space<ub>>
      akernel.store %t16 -> %y[%c0] {atomic} : memref<16xf32, #akernel.space<ub>> -> memref<16xf32, #akernel.space<gm>>
    } {akernel.independent_tiles}
  }

  // CHECK-LABEL: func.func @unmarked(
  // CHECK-SAME: %[[BLOCK:[^:]*]]: index)
  // CHECK: %[[DIM:.*]] = arith.constant 4 : index
  // CHECK-NOT: arith.ceildivui
  // CHECK: scf.for %{{.*}} = %[[BLOCK]] to %{{.*}} step %[[DIM]] {
  akernel.kernel @unmarked attributes {block_dim = 4 : i64, engine = #akernel.engine<vector>, nodes = ["u"]} {
  ^bb0(%x: memref<160xf32, #akernel.space<gm>>, %y: memref<160xf32, #akernel.space<gm>>):
    %t16 = akernel.alloc : memref<16xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %b to %c10 step %c4 {
      %off = arith.muli %t, %c16 : index
      akernel.load %x[%off] -> %t16 : memref<160xf32, #akernel.space<gm>> -> memref<16xf32, #akernel.space<ub>>
      akernel.store %t16 -> %y[%off] : memref<16xf32, #akernel.space<ub>> -> memref<160xf32, #akernel.space<gm>>
    }
  }

  // A step other than block_dim: not the tile loop the marker describes.
  // CHECK-LABEL: func.func @other_step(
  // CHECK-NOT: arith.ceildivui
  // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-NOT: akernel.independent_tiles
  // CHECK: return
  akernel.kernel @other_step attributes {block_dim = 4 : i64, engine = #akernel.engine<vector>, nodes = ["o"]} {
  ^bb0(%x: memref<160xf32, #akernel.space<gm>>, %y: memref<160xf32, #akernel.space<gm>>):
    %t16 = akernel.alloc : memref<16xf32, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c2 = arith.constant 2 : index
    %c10 = arith.constant 10 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %b to %c10 step %c2 {
      %off = arith.muli %t, %c16 : index
      akernel.load %x[%off] -> %t16 : memref<160xf32, #akernel.space<gm>> -> memref<16xf32, #akernel.space<ub>>
      akernel.store %t16 -> %y[%off] : memref<16xf32, #akernel.space<ub>> -> memref<160xf32, #akernel.space<gm>>
    } {akernel.independent_tiles}
  }
}
