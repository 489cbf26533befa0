// A cube kernel's K loop (load, copy to L0, mmad) becomes one call of the
// runtime's fused cube loop and its fixpipe another, on unranked memrefs
// (dtypes as ElementType codes: f16 = 0, f32 = 2); the parameter arrays and
// descriptors are made once at the function's entry, not per tile. DMA
// kernels and the host graph are not compiled (the executor runs them), and
// `prec-kernel-to-llvm` takes the result to LLVM. cube-loop.mlir has the
// loops that stay op by op.
// RUN: prec-opt %s --prec-convert-kernel-to-std | FileCheck %s
// RUN: prec-opt %s --prec-kernel-to-llvm | FileCheck %s --check-prefix=LLVM

module attributes {akernel.target = #akernel.target<soc = "Ascend910B3", cube_cores = 20,
    vector_cores = 40, aicpu_cores = 6, cube_m = 16, cube_n = 16, cube_k = 16,
    freq_mhz = 1800, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, ub = 196608,
    l2 = 201326592, ddr_rate = 32, l2_rate = 110, cube_inputs = [f16, i8, f32, bf16]>} {

  // CHECK-NOT: @transpose
  // CHECK-NOT: func.func @main
  // CHECK-LABEL: func.func @mm(
  // CHECK: memref.alloca() : memref<2xi64>
  // CHECK: call @ascendprec_rt_block_begin_()
  // CHECK-NOT: scf.for
  // CHECK: call @ascendprec_rt_cube_loop__mf16_mi64_mi64_mf16_mi64_mi64_mf16_mf16_mf32_i64_i64_i64_i32_i32_i32_i32_i32_i32_i32_i32(
  // CHECK-NOT: ascendprec_rt_copy
  // CHECK: call @ascendprec_rt_fixpipe__mf32_mf16_mi64_mf32_i32_i32_i32_i32_i32
  // LLVM: llvm.func @mm(
  // LLVM: llvm.call @ascendprec_rt_cube_loop__
  // LLVM-NOT: akernel.
  akernel.kernel @mm attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["fc"]} {
  ^bb0(%a: memref<32x32xf16, #akernel.space<gm>>, %b: memref<32x32xf16, #akernel.space<gm>>, %y: memref<32x32xf16, #akernel.space<gm>>):
    %a1 = akernel.alloc : memref<32x32xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<32x32xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<32x32xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<32x32xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<32x32xf32, #akernel.space<l0c>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c16 = arith.constant 16 : index
    scf.for %k = %c0 to %c32 step %c16 {
      akernel.load %a[%c0, %c0] -> %a1 : memref<32x32xf16, #akernel.space<gm>> -> memref<32x32xf16, #akernel.space<l1>>
      akernel.load %b[%c0, %c0] -> %b1 {transpose} : memref<32x32xf16, #akernel.space<gm>> -> memref<32x32xf16, #akernel.space<l1>>
      akernel.copy %a1, %a0 : memref<32x32xf16, #akernel.space<l1>>, memref<32x32xf16, #akernel.space<l0a>>
      akernel.copy %b1, %b0 : memref<32x32xf16, #akernel.space<l1>>, memref<32x32xf16, #akernel.space<l0b>>
      %first = arith.cmpi eq, %k, %c0 : index
      akernel.mmad %a0, %b0, %acc init(%first) : memref<32x32xf16, #akernel.space<l0a>>, memref<32x32xf16, #akernel.space<l0b>>, memref<32x32xf32, #akernel.space<l0c>>
    }
    akernel.fixpipe %acc -> %y[%c0, %c0] {round = #akernel.round<rint>} : memref<32x32xf32, #akernel.space<l0c>> -> memref<32x32xf16, #akernel.space<gm>>
  }

  akernel.kernel @transpose attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["t"]} {
  ^bb0(%x: memref<4x8xf16, #akernel.space<gm>>, %y: memref<8x4xf16, #akernel.space<gm>>):
    akernel.dma "transpose" ins(%x) outs(%y) {params = {perm = array<i64: 1, 0>}} : (memref<4x8xf16, #akernel.space<gm>>) -> (memref<8x4xf16, #akernel.space<gm>>)
  }

  func.func @main(%a: tensor<32x32xf16>, %b: tensor<32x32xf16>) -> tensor<32x32xf16> {
    %y = akernel.launch @mm(%a, %b) : (tensor<32x32xf16>, tensor<32x32xf16>) -> tensor<32x32xf16>
    return %y : tensor<32x32xf16>
  }
}
