// prec-convert-kernel-to-std on vector kernels: each kernel becomes a
// function of its GM buffers, a scratch region and the block index; a 16-bit compute dtype
// computes each step in f32 and rounds it back (truncf/extf) before the
// next; an f32 compute dtype (high_precision, IM-7) rounds once at the end;
// Ascend910 saturates (Inf -> max, NaN -> 0) and Ascend910B3 does not;
// `reference` widens f16 to f32. Loads and stores call the runtime. An
// f32 exp or tanh is DoubleExp.h's double-precision steps inline (fused
// multiply-adds as llvm.intr.fma, never a libm call, which would keep the
// loop scalar).
// RUN: prec-opt %s --prec-convert-kernel-to-std | FileCheck %s
// RUN: prec-opt %s --prec-convert-kernel-to-std="overflow=ieee" | FileCheck %s --check-prefix=IEEE
// RUN: prec-opt %s --prec-convert-kernel-to-std="reference=true" | FileCheck %s --check-prefix=REF
// RUN: not prec-opt %s --prec-convert-kernel-to-std="overflow=wrap" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: overflow must be soc, ieee or saturation, not 'wrap'

module attributes {akernel.target = #akernel.target<soc = "Ascend910A", cube_cores = 32,
    vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16,
    freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144,
    l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {

  // CHECK-LABEL: func.func @sigmoid_fp16(
  // CHECK-SAME: %{{.*}}: memref<256xf16>, %{{.*}}: memref<256xf16>, %[[SCRATCH:[^:]*]]: memref<512xi8>, %[[BLOCK:[^:]*]]: index)
  // CHECK-SAME: akernel.block_dim = 2 : i64, akernel.engine = "vector"
  // CHECK-SAME: akernel.scratch_bytes = 512 : i64
  // CHECK: memref.view %[[SCRATCH]][%{{.*}}][] : memref<512xi8> to memref<128xf16>
  // CHECK-NOT: memref.alloc
  // CHECK: scf.for %{{.*}} = %[[BLOCK]] to
  // Whole tiles compute on GM (TileCopyElision.cpp): sigmoid =
  // 1 / (1 + exp(-x)), three steps, each rounded to fp16.
  // CHECK: scf.if
  // CHECK: %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
  // CHECK: %[[NEG:.*]] = arith.negf %[[X]]
  // CHECK-NOT: math.exp
  // CHECK: arith.extf %[[NEG]] : f32 to f64
  // CHECK-COUNT-15: llvm.intr.fma
  // CHECK: %[[E:.*]] = arith.truncf %{{.*}} : f64 to f32
  // CHECK-NEXT: arith.truncf %[[E]] : f32 to f16
  // CHECK-NEXT: arith.extf
  // Ascend910 saturates after every rounding.
  // CHECK: arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
  // CHECK: arith.addf
  // CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
  // CHECK: arith.divf
  // CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
  // A tile past GM's edge is copied in and out by the runtime.
  // CHECK: } else {
  // CHECK: call @ascendprec_rt_load__mf16_mf16_mi64_mi64_i32_i32
  // CHECK: llvm.intr.fma
  // CHECK: call @ascendprec_rt_store__mf16_mf16_mi64_i32_i32_i32_i32
  // CHECK-NOT: memref.dealloc
  // CHECK: return
  // IEEE-LABEL: func.func @sigmoid_fp16(
  // IEEE-NOT: arith.cmpf oeq
  // IEEE: return
  // REF-LABEL: func.func @sigmoid_fp16(
  // REF-SAME: memref<256xf32>, %{{.*}}: memref<256xf32>
  // REF-NOT: arith.truncf {{.*}} to f16
  // REF: return
  akernel.kernel @sigmoid_fp16 attributes {block_dim = 2 : i64, engine = #akernel.engine<vector>, nodes = ["s"]} {
  ^bb0(%x: memref<256xf16, #akernel.space<gm>>, %y: memref<256xf16, #akernel.space<gm>>):
    %in = akernel.alloc : memref<128xf16, #akernel.space<ub>>
    %out = akernel.alloc : memref<128xf16, #akernel.space<ub>>
    %b = akernel.block_idx : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    scf.for %t = %b to %c2 step %c2 {
      %off = arith.muli %t, %c128 : index
      akernel.load %x[%off] -> %in : memref<256xf16, #akernel.space<gm>> -> memref<128xf16, #akernel.space<ub>>
      akernel.vop "sigmoid" %in -> %out {compute = f16} : memref<128xf16, #akernel.space<ub>> -> memref<128xf16, #akernel.space<ub>>
      akernel.store %out -> %y[%off] : memref<128xf16, #akernel.space<ub>> -> memref<256xf16, #akernel.space<gm>>
    }
  }

  // fp32 compute on fp16 data: one rounding, on the way out.
  // IEEE-LABEL: func.func @exp_precise(
  // IEEE: arith.extf %{{.*}} : f16 to f32
  // IEEE-NOT: arith.truncf
  // IEEE: arith.truncf %{{.*}} : f64 to f32
  // IEEE-NEXT: arith.truncf %{{.*}} : f32 to f16
  // IEEE-NEXT: memref.store
  akernel.kernel @exp_precise attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["e"]} {
  ^bb0(%x: memref<128xf16, #akernel.space<gm>>, %y: memref<128xf16, #akernel.space<gm>>):
    %in = akernel.alloc : memref<128xf16, #akernel.space<ub>>
    %out = akernel.alloc : memref<128xf16, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    akernel.load %x[%c0] -> %in : memref<128xf16, #akernel.space<gm>> -> memref<128xf16, #akernel.space<ub>>
    akernel.vop "exp" %in -> %out {compute = f32} : memref<128xf16, #akernel.space<ub>> -> memref<128xf16, #akernel.space<ub>>
    akernel.store %out -> %y[%c0] : memref<128xf16, #akernel.space<ub>> -> memref<128xf16, #akernel.space<gm>>
  }

  // fp32 tanh: exp(2|x|) in double, (e - 1) / (e + 1), the +-1 and x
  // branches chosen by selects (no call, so the loop vectorizes).
  // CHECK-LABEL: func.func @tanh_fp32(
  // CHECK-NOT: call @tanhf
  // CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
  // CHECK: llvm.intr.fma
  // CHECK: arith.divf %{{.*}}, %{{.*}} : f64
  // CHECK: arith.select
  // CHECK-NOT: math.tanh
  // CHECK: return
  akernel.kernel @tanh_fp32 attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["t"]} {
  ^bb0(%x: memref<64xf32, #akernel.space<gm>>, %y: memref<64xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    akernel.load %x[%c0] -> %in : memref<64xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
    akernel.vop "tanh" %in -> %out {compute = f32} : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<ub>>
    akernel.store %out -> %y[%c0] : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<gm>>
  }

  // A row's max, broadcast along the row (a softmax's x - max): loaded in
  // the loop over rows, before the loop along the row, which then holds
  // no load LLVM could not tell from its stores.
  // CHECK-LABEL: func.func @row_broadcast(
  // CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
  // CHECK-NEXT: %[[MAX:.*]] = memref.load %{{.*}}[%[[ROW]], %{{.*}}, %{{.*}}] : memref<4x1x1xf32>
  // CHECK: scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step
  // CHECK-NOT: memref<4x1x1xf32>
  // CHECK: arith.subf %{{.*}}, %[[MAX]]
  // CHECK: memref.store
  akernel.kernel @row_broadcast attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["sub"]} {
  ^bb0(%x: memref<4x8x1xf32, #akernel.space<gm>>, %m: memref<4x1x1xf32, #akernel.space<gm>>, %y: memref<4x8x1xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<4x8x1xf32, #akernel.space<ub>>
    %max = akernel.alloc : memref<4x1x1xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<4x8x1xf32, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    akernel.load %x[%c0, %c0, %c0] -> %in : memref<4x8x1xf32, #akernel.space<gm>> -> memref<4x8x1xf32, #akernel.space<ub>>
    akernel.load %m[%c0, %c0, %c0] -> %max : memref<4x1x1xf32, #akernel.space<gm>> -> memref<4x1x1xf32, #akernel.space<ub>>
    akernel.vop "sub" %in, %max -> %out {compute = f32} : memref<4x8x1xf32, #akernel.space<ub>>, memref<4x1x1xf32, #akernel.space<ub>> -> memref<4x8x1xf32, #akernel.space<ub>>
    akernel.store %out -> %y[%c0, %c0, %c0] : memref<4x8x1xf32, #akernel.space<ub>> -> memref<4x8x1xf32, #akernel.space<gm>>
  }

  // A cast in a mode other than rint calls the runtime's exact rounding;
  // float to integer goes through the runtime's clamping conversion.
  // CHECK-LABEL: func.func @casts(
  // CHECK: call @ascendprec_rt_round_float__f64_i32_i32_i32
  // CHECK: arith.truncf %{{.*}} : f32 to f16
  // CHECK: call @ascendprec_rt_round_int__f64_i32_i32_i32
  // CHECK: arith.trunci %{{.*}} : i64 to i32
  akernel.kernel @casts attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["c"]} {
  ^bb0(%x: memref<64xf32, #akernel.space<gm>>, %y: memref<64xf16, #akernel.space<gm>>, %z: memref<64xi32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %h = akernel.alloc : memref<64xf16, #akernel.space<ub>>
    %i = akernel.alloc : memref<64xi32, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    akernel.load %x[%c0] -> %in : memref<64xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
    akernel.vcast %in -> %h {round = #akernel.round<floor>} : memref<64xf32, #akernel.space<ub>> -> memref<64xf16, #akernel.space<ub>>
    akernel.vcast %in -> %i {round = #akernel.round<trunc>} : memref<64xf32, #akernel.space<ub>> -> memref<64xi32, #akernel.space<ub>>
    akernel.store %h -> %y[%c0] : memref<64xf16, #akernel.space<ub>> -> memref<64xf16, #akernel.space<gm>>
    akernel.store %i -> %z[%c0] : memref<64xi32, #akernel.space<ub>> -> memref<64xi32, #akernel.space<gm>>
  }

  // A broadcast input (dimensions of 1) gets one loop per output dimension.
  // CHECK-LABEL: func.func @bias(
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: memref.load %{{.*}}[%c0{{.*}}, %{{.*}}] : memref<1x16xf16>
  akernel.kernel @bias attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["b"]} {
  ^bb0(%x: memref<8x16xf16, #akernel.space<gm>>, %b: memref<1x16xf16, #akernel.space<gm>>, %y: memref<8x16xf16, #akernel.space<gm>>):
    %in = akernel.alloc : memref<8x16xf16, #akernel.space<ub>>
    %bias = akernel.alloc : memref<1x16xf16, #akernel.space<ub>>
    %out = akernel.alloc : memref<8x16xf16, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    akernel.load %x[%c0, %c0] -> %in : memref<8x16xf16, #akernel.space<gm>> -> memref<8x16xf16, #akernel.space<ub>>
    akernel.load %b[%c0, %c0] -> %bias : memref<1x16xf16, #akernel.space<gm>> -> memref<1x16xf16, #akernel.space<ub>>
    akernel.vop "add" %in, %bias -> %out {compute = f16} : memref<8x16xf16, #akernel.space<ub>>, memref<1x16xf16, #akernel.space<ub>> -> memref<8x16xf16, #akernel.space<ub>>
    akernel.store %out -> %y[%c0, %c0] : memref<8x16xf16, #akernel.space<ub>> -> memref<8x16xf16, #akernel.space<gm>>
  }

  // A scalar operand (a Clip's bounds) is read once, before the element
  // loop: a load of it inside the loop, which LLVM cannot tell from the
  // loop's stores into the same scratch region, would keep the loop scalar.
  // CHECK-LABEL: func.func @scalar_bounds(
  // CHECK: %[[LO:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<1xf32
  // CHECK: %[[HI:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<1xf32
  // CHECK: scf.for
  // CHECK-NOT: memref<1xf32
  // CHECK: arith.maximumf %{{.*}}, %[[LO]]
  // CHECK: arith.minimumf %{{.*}}, %[[HI]]
  // CHECK: memref.store %{{.*}} : memref<64xf32>
  // CHECK-NEXT: }
  akernel.kernel @scalar_bounds attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["clip"]} {
  ^bb0(%x: memref<64xf32, #akernel.space<gm>>, %l: memref<1xf32, #akernel.space<gm>>, %h: memref<1xf32, #akernel.space<gm>>, %y: memref<64xf32, #akernel.space<gm>>):
    %in = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %lo = akernel.alloc : memref<1xf32, #akernel.space<ub>>
    %hi = akernel.alloc : memref<1xf32, #akernel.space<ub>>
    %out = akernel.alloc : memref<64xf32, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    akernel.load %x[%c0] -> %in : memref<64xf32, #akernel.space<gm>> -> memref<64xf32, #akernel.space<ub>>
    akernel.load %l[%c0] -> %lo : memref<1xf32, #akernel.space<gm>> -> memref<1xf32, #akernel.space<ub>>
    akernel.load %h[%c0] -> %hi : memref<1xf32, #akernel.space<gm>> -> memref<1xf32, #akernel.space<ub>>
    akernel.vop "clip" %in, %lo, %hi -> %out {compute = f32} : memref<64xf32, #akernel.space<ub>>, memref<1xf32, #akernel.space<ub>>, memref<1xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<ub>>
    akernel.store %out -> %y[%c0] : memref<64xf32, #akernel.space<ub>> -> memref<64xf32, #akernel.space<gm>>
  }
}
