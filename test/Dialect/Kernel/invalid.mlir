// Every akernel verifier rejects what the AI Core cannot do, with the figure
// that makes it impossible.
// RUN: prec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{needs an #akernel.target on an enclosing op}}
akernel.kernel @no_target attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
}

// -----

#t = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14,
    cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536,
    l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>
module attributes {akernel.target = #t} {
  // More blocks than cores (OP-3's aicore_num lowers the count, never raises it).
  // expected-error @+1 {{runs on 40 blocks, but the Ascend910 has 32 cube cores}}
  akernel.kernel @too_many_blocks attributes {block_dim = 40 : i64, engine = #akernel.engine<cube>, nodes = []} {
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  // 32 KiB of L0A fits once, not twice: double buffering counts.
  // expected-error @+1 {{needs 131072 bytes of l0a (double-buffered, 65536 per copy), but the Ascend910's l0a holds 65536; use smaller tiles}}
  akernel.kernel @l0a_overflow attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["fc"], double_buffer} {
    %a = akernel.alloc : memref<128x256xf16, #akernel.space<l0a>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  // expected-error @+1 {{argument #0 is 'memref<16xf16, #akernel.space<ub>>'; a kernel's arguments are buffers in #akernel.space<gm>}}
  akernel.kernel @local_argument attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
  ^bb0(%x: memref<16xf16, #akernel.space<ub>>):
  }
}

// -----

// expected-error @+1 {{allocates local buffers only; a GM buffer is a kernel argument}}
%0 = akernel.alloc : memref<16xf16, #akernel.space<gm>>

// -----

// expected-error @+1 {{needs a memref in an #akernel.space}}
%0 = akernel.alloc : memref<16xf16>

// -----

func.func @bad_path(%a: memref<16x16xf32, #akernel.space<l0c>>, %b: memref<16x16xf32, #akernel.space<gm>>) {
  // expected-error @+1 {{has no data path from l0c to gm (the accumulator leaves L0C through akernel.fixpipe)}}
  akernel.copy %a, %b : memref<16x16xf32, #akernel.space<l0c>>, memref<16x16xf32, #akernel.space<gm>>
  return
}

// -----

func.func @gm_to_l0a(%a: memref<16x16xf16, #akernel.space<gm>>, %b: memref<16x16xf16, #akernel.space<l0a>>) {
  // expected-error @+1 {{has no data path from gm to l0a}}
  akernel.copy %a, %b : memref<16x16xf16, #akernel.space<gm>>, memref<16x16xf16, #akernel.space<l0a>>
  return
}

// -----

func.func @copy_converts(%a: memref<16xf32, #akernel.space<gm>>, %b: memref<16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{does not convert 'f32' to 'f16'; use akernel.vcast or akernel.fixpipe}}
  akernel.copy %a, %b : memref<16xf32, #akernel.space<gm>>, memref<16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @copy_count(%a: memref<16xf16, #akernel.space<gm>>, %b: memref<32xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{copies 16 elements into 32}}
  akernel.copy %a, %b : memref<16xf16, #akernel.space<gm>>, memref<32xf16, #akernel.space<ub>>
  return
}

// -----

func.func @fixpipe_source(%a: memref<16x16xf32, #akernel.space<ub>>, %b: memref<16x16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{reads the accumulator: its source is in #akernel.space<l0c>}}
  akernel.fixpipe %a -> %b {round = #akernel.round<rint>} : memref<16x16xf32, #akernel.space<ub>> -> memref<16x16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @fixpipe_convert(%a: memref<16x16xf32, #akernel.space<l0c>>, %b: memref<16x16xi8, #akernel.space<ub>>) {
  // expected-error @+1 {{cannot convert the accumulator's 'f32' to 'i8'}}
  akernel.fixpipe %a -> %b {round = #akernel.round<rint>} : memref<16x16xf32, #akernel.space<l0c>> -> memref<16x16xi8, #akernel.space<ub>>
  return
}

// -----

func.func @fixpipe_bias(%a: memref<16x32xf32, #akernel.space<l0c>>, %b: memref<16x32xf16, #akernel.space<ub>>, %bias: memref<16xf32, #akernel.space<ub>>) {
  // expected-error @+1 {{takes one bias per output column: a 1-D memref of 32 elements}}
  akernel.fixpipe %a -> %b bias %bias {round = #akernel.round<rint>} : memref<16x32xf32, #akernel.space<l0c>> -> memref<16x32xf16, #akernel.space<ub>>, memref<16xf32, #akernel.space<ub>>
  return
}

// -----

func.func @fixpipe_bias_dtype(%a: memref<16x32xf32, #akernel.space<l0c>>, %b: memref<16x32xf16, #akernel.space<ub>>, %bias: memref<32xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{adds a bias in the accumulator's dtype 'f32', not 'f16'}}
  akernel.fixpipe %a -> %b bias %bias {round = #akernel.round<rint>} : memref<16x32xf32, #akernel.space<l0c>> -> memref<16x32xf16, #akernel.space<ub>>, memref<32xf16, #akernel.space<ub>>
  return
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  func.func @mmad_spaces(%a: memref<16x16xf16, #akernel.space<l1>>, %b: memref<16x16xf16, #akernel.space<l0b>>, %c: memref<16x16xf32, #akernel.space<l0c>>) {
    // expected-error @+1 {{multiplies L0A x L0B into L0C}}
    akernel.mmad %a, %b, %c : memref<16x16xf16, #akernel.space<l1>>, memref<16x16xf16, #akernel.space<l0b>>, memref<16x16xf32, #akernel.space<l0c>>
    return
  }
  func.func @mmad_acc(%a: memref<16x16xf16, #akernel.space<l0a>>, %b: memref<16x16xf16, #akernel.space<l0b>>, %c: memref<16x16xf16, #akernel.space<l0c>>) {
    // expected-error @+1 {{accumulates 'f16' inputs in 'f32' (f16/bf16/f32 -> f32, i8 -> i32), not 'f16'}}
    akernel.mmad %a, %b, %c : memref<16x16xf16, #akernel.space<l0a>>, memref<16x16xf16, #akernel.space<l0b>>, memref<16x16xf16, #akernel.space<l0c>>
    return
  }
  func.func @mmad_shapes(%a: memref<16x32xf16, #akernel.space<l0a>>, %b: memref<16x16xf16, #akernel.space<l0b>>, %c: memref<16x16xf32, #akernel.space<l0c>>) {
    // expected-error @+1 {{has mismatched tiles}}
    akernel.mmad %a, %b, %c : memref<16x32xf16, #akernel.space<l0a>>, memref<16x16xf16, #akernel.space<l0b>>, memref<16x16xf32, #akernel.space<l0c>>
    return
  }
  // The first-generation cube has no fp32 path.
  func.func @mmad_f32(%a: memref<16x16xf32, #akernel.space<l0a>>, %b: memref<16x16xf32, #akernel.space<l0b>>, %c: memref<16x16xf32, #akernel.space<l0c>>) {
    // expected-error @+1 {{the Ascend910's cube does not take 'f32' inputs (it takes f16, i8)}}
    akernel.mmad %a, %b, %c : memref<16x16xf32, #akernel.space<l0a>>, memref<16x16xf32, #akernel.space<l0b>>, memref<16x16xf32, #akernel.space<l0c>>
    return
  }
  // int8 fractals are 16 x 32: K = 16 is half a fractal.
  func.func @mmad_int8_fractal(%a: memref<16x16xi8, #akernel.space<l0a>>, %b: memref<16x16xi8, #akernel.space<l0b>>, %c: memref<16x16xi32, #akernel.space<l0c>>) {
    // expected-error @+1 {{tile 16x16x16 (MxKxN) is not aligned to the 'i8' fractal: M in 16s, K in 32s, N in 16s (pad the tile)}}
    akernel.mmad %a, %b, %c : memref<16x16xi8, #akernel.space<l0a>>, memref<16x16xi8, #akernel.space<l0b>>, memref<16x16xi32, #akernel.space<l0c>>
    return
  }
  func.func @mmad_fp16_fractal(%a: memref<8x16xf16, #akernel.space<l0a>>, %b: memref<16x16xf16, #akernel.space<l0b>>, %c: memref<8x16xf32, #akernel.space<l0c>>) {
    // expected-error @+1 {{tile 8x16x16 (MxKxN) is not aligned to the 'f16' fractal: M in 16s, K in 16s, N in 16s}}
    akernel.mmad %a, %b, %c : memref<8x16xf16, #akernel.space<l0a>>, memref<16x16xf16, #akernel.space<l0b>>, memref<8x16xf32, #akernel.space<l0c>>
    return
  }
}

// -----

func.func @vop_kind(%a: memref<16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{has an unknown kind 'frobnicate'}}
  akernel.vop "frobnicate" %a -> %a {compute = f16} : memref<16xf16, #akernel.space<ub>> -> memref<16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @vop_arity(%a: memref<16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{'add' takes 2 inputs, not 1}}
  akernel.vop "add" %a -> %a {compute = f16} : memref<16xf16, #akernel.space<ub>> -> memref<16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @vop_gm(%a: memref<16xf16, #akernel.space<gm>>, %b: memref<16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{works on UB: 'memref<16xf16, #akernel.space<gm>>' is not in #akernel.space<ub>}}
  akernel.vop "relu" %a -> %b {compute = f16} : memref<16xf16, #akernel.space<gm>> -> memref<16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @vop_compute(%a: memref<16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{computes in 'f64'; the vector unit computes in f16, f32, bf16 or integers}}
  akernel.vop "relu" %a -> %a {compute = f64} : memref<16xf16, #akernel.space<ub>> -> memref<16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @vop_newton(%a: memref<16xf32, #akernel.space<ub>>) {
  // expected-error @+1 {{has a Newton step, which refines reciprocal, rsqrt and div only}}
  akernel.vop "exp" %a -> %a {compute = f32, newton} : memref<16xf32, #akernel.space<ub>> -> memref<16xf32, #akernel.space<ub>>
  return
}

// -----

func.func @vop_sizes(%a: memref<16xf32, #akernel.space<ub>>, %b: memref<8xf32, #akernel.space<ub>>) {
  // expected-error @+1 {{mixes 8 and 16 elements (an input is the output's size, a scalar, or broadcasts along dimensions of 1)}}
  akernel.vop "add" %a, %b -> %a {compute = f32} : memref<16xf32, #akernel.space<ub>>, memref<8xf32, #akernel.space<ub>> -> memref<16xf32, #akernel.space<ub>>
  return
}

// -----

func.func @reduce_axis(%a: memref<4x16xf16, #akernel.space<ub>>, %b: memref<4xf32, #akernel.space<ub>>) {
  // expected-error @+1 {{has axis 2 for a rank-2 input}}
  akernel.vreduce "sum" %a -> %b {axes = array<i64: 2>, acc = f32, order = #akernel.order<tree>} : memref<4x16xf16, #akernel.space<ub>> -> memref<4xf32, #akernel.space<ub>>
  return
}

// -----

func.func @reduce_count(%a: memref<4x16xf16, #akernel.space<ub>>, %b: memref<16xf32, #akernel.space<ub>>) {
  // expected-error @+1 {{writes 16 elements; reducing axes [1] leaves 4}}
  akernel.vreduce "sum" %a -> %b {axes = array<i64: 1>, acc = f32, order = #akernel.order<tree>} : memref<4x16xf16, #akernel.space<ub>> -> memref<16xf32, #akernel.space<ub>>
  return
}

// -----

func.func @reduce_narrow_acc(%a: memref<4x16xf32, #akernel.space<ub>>, %b: memref<4xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{accumulates 'f32' in 'f16'; a sum accumulates in a dtype at least as wide}}
  akernel.vreduce "sum" %a -> %b {axes = array<i64: 1>, acc = f16, order = #akernel.order<tree>} : memref<4x16xf32, #akernel.space<ub>> -> memref<4xf16, #akernel.space<ub>>
  return
}

// -----

func.func @reduce_kind(%a: memref<4x16xf32, #akernel.space<ub>>, %b: memref<4xf32, #akernel.space<ub>>) {
  // expected-error @+1 {{has an unknown kind 'median'}}
  akernel.vreduce "median" %a -> %b {axes = array<i64: 1>, acc = f32, order = #akernel.order<tree>} : memref<4x16xf32, #akernel.space<ub>> -> memref<4xf32, #akernel.space<ub>>
  return
}

// -----

func.func @argmax_float_index(%a: memref<4x16xf16, #akernel.space<ub>>, %b: memref<4xf32, #akernel.space<ub>>) {
  // expected-error @+1 {{'argmax' writes indices in i32 or i64, not 'f32'}}
  akernel.vreduce "argmax" %a -> %b {axes = array<i64: 1>, acc = f16, order = #akernel.order<tree>} : memref<4x16xf16, #akernel.space<ub>> -> memref<4xf32, #akernel.space<ub>>
  return
}

// -----

func.func @argmin_wider_acc(%a: memref<4x16xf16, #akernel.space<ub>>, %b: memref<4xi64, #akernel.space<ub>>) {
  // expected-error @+1 {{'argmin' compares in the input's dtype 'f16', not 'f32'}}
  akernel.vreduce "argmin" %a -> %b {axes = array<i64: 1>, acc = f32, order = #akernel.order<tree>} : memref<4x16xf16, #akernel.space<ub>> -> memref<4xi64, #akernel.space<ub>>
  return
}

// -----

func.func @cast_same(%a: memref<16xf16, #akernel.space<ub>>, %b: memref<16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{converts between two dtypes; this one is 'f16' on both sides}}
  akernel.vcast %a -> %b {round = #akernel.round<rint>} : memref<16xf16, #akernel.space<ub>> -> memref<16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @cast_gm(%a: memref<16xf32, #akernel.space<gm>>, %b: memref<16xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{converts on UB}}
  akernel.vcast %a -> %b {round = #akernel.round<rint>} : memref<16xf32, #akernel.space<gm>> -> memref<16xf16, #akernel.space<ub>>
  return
}

// -----

func.func @cast_count(%a: memref<16xf32, #akernel.space<ub>>, %b: memref<8xf16, #akernel.space<ub>>) {
  // expected-error @+1 {{converts 16 elements into 8}}
  akernel.vcast %a -> %b {round = #akernel.round<rint>} : memref<16xf32, #akernel.space<ub>> -> memref<8xf16, #akernel.space<ub>>
  return
}

// -----

func.func @aicpu_outside(%a: memref<16xf32, #akernel.space<gm>>) {
  // expected-error @+1 {{runs only in a kernel whose engine is #akernel.engine<aicpu>}}
  akernel.aicpu_call "Unique" (%a) : memref<16xf32, #akernel.space<gm>>
  return
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @cpu attributes {block_dim = 1 : i64, engine = #akernel.engine<aicpu>, nodes = ["u"]} {
  ^bb0(%a: memref<16xf32, #akernel.space<gm>>):
    %u = akernel.alloc : memref<16xf32, #akernel.space<ub>>
    // expected-error @+1 {{takes GM buffers; 'memref<16xf32, #akernel.space<ub>>' is not in gm}}
    akernel.aicpu_call "Unique" (%a, %u) : memref<16xf32, #akernel.space<gm>>, memref<16xf32, #akernel.space<ub>>
  }
}

// -----

func.func @fixpipe_offsets(%a: memref<16x16xf32, #akernel.space<l0c>>, %b: memref<100x80xf16, #akernel.space<gm>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{takes one offset per GM dimension: 2, not 1}}
  akernel.fixpipe %a -> %b[%c0] {round = #akernel.round<rint>} : memref<16x16xf32, #akernel.space<l0c>> -> memref<100x80xf16, #akernel.space<gm>>
  return
}

// -----

func.func @load_space(%a: memref<100x80xf16, #akernel.space<gm>>, %t: memref<16x16xf16, #akernel.space<l0a>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{loads into l1 or ub (the cube's L0A/L0B fill from L1 by akernel.copy)}}
  akernel.load %a[%c0, %c0] -> %t : memref<100x80xf16, #akernel.space<gm>> -> memref<16x16xf16, #akernel.space<l0a>>
  return
}

// -----

func.func @load_dtype(%a: memref<100x80xf32, #akernel.space<gm>>, %t: memref<16x16xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{does not convert 'f32' to 'f16'; use akernel.vcast on UB}}
  akernel.load %a[%c0, %c0] -> %t : memref<100x80xf32, #akernel.space<gm>> -> memref<16x16xf16, #akernel.space<l1>>
  return
}

// -----

func.func @load_rank(%a: memref<80xf16, #akernel.space<gm>>, %t: memref<16x16xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{moves a rank-2 tile within a rank-1 GM buffer}}
  akernel.load %a[%c0] -> %t : memref<80xf16, #akernel.space<gm>> -> memref<16x16xf16, #akernel.space<l1>>
  return
}

// -----

func.func @load_broadcast(%a: memref<1x3x1x1xf16, #akernel.space<gm>>, %t: memref<256xf16, #akernel.space<ub>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot broadcast dimension of 3 to 4}}
  akernel.load %a[%c0] -> %t {broadcast = array<i64: 1, 4, 8, 8>} : memref<1x3x1x1xf16, #akernel.space<gm>> -> memref<256xf16, #akernel.space<ub>>
  return
}

// -----

func.func @load_img2col(%x: memref<1x3x8x8xf16, #akernel.space<gm>>, %t: memref<64x48xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{with img2col takes 3 offsets (leading dimensions, first row, first column)}}
  akernel.load %x[%c0, %c0] -> %t {img2col = #akernel.img2col<kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [8, 8], c0 = 4>} : memref<1x3x8x8xf16, #akernel.space<gm>> -> memref<64x48xf16, #akernel.space<l1>>
  return
}

// -----

func.func @img2col_granule(%x: memref<1x3x8x8xf16, #akernel.space<gm>>, %t: memref<64x48xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{img2col's channel granule c0 is 4 (small channel), 8, 16 or 32, not 3}}
  akernel.load %x[%c0, %c0, %c0] -> %t {img2col = #akernel.img2col<kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [8, 8], c0 = 3>} : memref<1x3x8x8xf16, #akernel.space<gm>> -> memref<64x48xf16, #akernel.space<l1>>
  return
}

// -----

func.func @store_source(%t: memref<16xf16, #akernel.space<l1>>, %y: memref<100xf16, #akernel.space<gm>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{writes a UB tile: its source is in #akernel.space<ub>}}
  akernel.store %t -> %y[%c0] : memref<16xf16, #akernel.space<l1>> -> memref<100xf16, #akernel.space<gm>>
  return
}

// -----

func.func @dma_kind(%x: memref<16xf16, #akernel.space<gm>>, %y: memref<16xf16, #akernel.space<gm>>) {
  // expected-error @+1 {{has an unknown kind 'shuffle'}}
  akernel.dma "shuffle" ins(%x) outs(%y) : (memref<16xf16, #akernel.space<gm>>) -> (memref<16xf16, #akernel.space<gm>>)
  return
}

// -----

func.func @dma_bounds(%x: memref<16xf16, #akernel.space<gm>>, %y: memref<16xf16, #akernel.space<gm>>) {
  // expected-error @+1 {{checks index bounds for gather and scatter only}}
  akernel.dma "transpose" ins(%x) outs(%y) {bounds_check} : (memref<16xf16, #akernel.space<gm>>) -> (memref<16xf16, #akernel.space<gm>>)
  return
}

// -----

func.func @block_idx_outside() -> index {
  // expected-error @+1 {{is only meaningful inside an akernel.kernel}}
  %b = akernel.block_idx : index
  return %b : index
}

// -----

func.func @view_count(%x: tensor<2x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{views 16 elements as 32}}
  %y = akernel.view %x : tensor<2x8xf16> -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

func.func @launch_missing(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{launches 'nowhere', which is not an akernel.kernel}}
  %y = akernel.launch @nowhere(%x) : (tensor<8xf16>) -> tensor<8xf16>
  return %y : tensor<8xf16>
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @k attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["k"]} {
  ^bb0(%x: memref<8xf16, #akernel.space<gm>>, %y: memref<8xf16, #akernel.space<gm>>):
  }
  func.func @launch_types(%x: tensor<8xf32>) -> tensor<8xf16> {
    // expected-error @+1 {{binds 'tensor<8xf32>' to @k's argument #0 of type 'memref<8xf16, #akernel.space<gm>>'}}
    %y = akernel.launch @k(%x) : (tensor<8xf32>) -> tensor<8xf16>
    return %y : tensor<8xf16>
  }
}

// -----

func.func @load_filter(%w: memref<8x9xf16, #akernel.space<gm>>, %t: memref<16x16xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{with transposed_filter reads a [..., Cin, Cout, kh*kw] filter into a 2-D tile}}
  akernel.load %w[%c0, %c0] -> %t {transposed_filter} : memref<8x9xf16, #akernel.space<gm>> -> memref<16x16xf16, #akernel.space<l1>>
  return
}

// -----

func.func @load_modes(%w: memref<1x4x2x4xf16, #akernel.space<gm>>, %t: memref<16x16xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{takes one of transpose, broadcast, img2col, transposed_filter and grouped_filter}}
  akernel.load %w[%c0, %c0, %c0] -> %t {transposed_filter, transpose} : memref<1x4x2x4xf16, #akernel.space<gm>> -> memref<16x16xf16, #akernel.space<l1>>
  return
}

// -----

func.func @grouped_filter_params(%w: memref<1x16x9xf16, #akernel.space<gm>>, %t: memref<144x16xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{with grouped_filter takes [groups packed, window size], both >= 1}}
  akernel.load %w[%c0, %c0, %c0] -> %t {grouped_filter = array<i64: 16>} : memref<1x16x9xf16, #akernel.space<gm>> -> memref<144x16xf16, #akernel.space<l1>>
  return
}

// -----

func.func @grouped_filter_shape(%w: memref<1x12x9xf16, #akernel.space<gm>>, %t: memref<144x16xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{with grouped_filter = [8, 9] needs the source's last two dimensions to be multiples of them (E * Cout/G and Cin/G * window)}}
  akernel.load %w[%c0, %c0, %c0] -> %t {grouped_filter = array<i64: 8, 9>} : memref<1x12x9xf16, #akernel.space<gm>> -> memref<144x16xf16, #akernel.space<l1>>
  return
}

// -----

func.func @grouped_filter_offsets(%w: memref<1x16x9xf16, #akernel.space<gm>>, %t: memref<144x16xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{takes one offset per GM dimension: 3, not 2}}
  akernel.load %w[%c0, %c0] -> %t {grouped_filter = array<i64: 16, 9>} : memref<1x16x9xf16, #akernel.space<gm>> -> memref<144x16xf16, #akernel.space<l1>>
  return
}

// -----

func.func @img2col_dilations(%x: memref<1x3x8x8xf16, #akernel.space<gm>>, %t: memref<64x48xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{img2col's input_dilations are 2 positive factors}}
  akernel.load %x[%c0, %c0, %c0] -> %t {img2col = #akernel.img2col<kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [8, 8], c0 = 4, input_dilations = [0, 2]>} : memref<1x3x8x8xf16, #akernel.space<gm>> -> memref<64x48xf16, #akernel.space<l1>>
  return
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @pool3d_window attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<2x4x8x8xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<2x2x4x4xf16, #akernel.space<ub>>
    // A volume has three spatial axes: a 2-D window does not fit it.
    // expected-error @+1 {{takes 3 window sizes, 3 strides and 6 pads for 3 spatial axes}}
    akernel.vpool "max" %x -> %y {acc = f16, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : memref<2x4x8x8xf16, #akernel.space<ub>> -> memref<2x2x4x4xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @pool_rank attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<2x4x8x8xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<2x4x4xf16, #akernel.space<ub>>
    // expected-error @+1 {{pools [planes, H, W] tiles into [planes, Ho, Wo] tiles, or [planes, D, H, W] into [planes, Do, Ho, Wo]}}
    akernel.vpool "max" %x -> %y {acc = f16, kernel = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>} : memref<2x4x8x8xf16, #akernel.space<ub>> -> memref<2x4x4xf16, #akernel.space<ub>>
  }
}

// -----

// A 3-D img2col reads an [..., C, D, H, W] map: one offset fewer than the
// map's rank would give a 2-D one.
func.func @img2col_volume_offsets(%x: memref<1x3x4x8x8xf16, #akernel.space<gm>>, %t: memref<64x48xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{with img2col takes 3 offsets (leading dimensions, first row, first column)}}
  akernel.load %x[%c0, %c0, %c0, %c0] -> %t {img2col = #akernel.img2col<kernel = [2, 3, 3], strides = [1, 1, 1], pads = [0, 0, 1, 1, 1, 1], dilations = [1, 1, 1], out = [3, 8, 8], c0 = 16>} : memref<1x3x4x8x8xf16, #akernel.space<gm>> -> memref<64x48xf16, #akernel.space<l1>>
  return
}

// -----

func.func @img2col_volume_pads(%x: memref<1x3x4x8x8xf16, #akernel.space<gm>>, %t: memref<64x48xf16, #akernel.space<l1>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{img2col takes 2 (or, for a 3-D convolution, 3) kernel sizes, strides, dilations and output sizes and a pair of pads per axis}}
  akernel.load %x[%c0, %c0, %c0] -> %t {img2col = #akernel.img2col<kernel = [2, 3, 3], strides = [1, 1, 1], pads = [1, 1, 1, 1], dilations = [1, 1, 1], out = [3, 8, 8], c0 = 16>} : memref<1x3x4x8x8xf16, #akernel.space<gm>> -> memref<64x48xf16, #akernel.space<l1>>
  return
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @interp_grid attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<4x8x8xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<4x16x16xf16, #akernel.space<ub>>
    %g = akernel.alloc : memref<16x8x2xf16, #akernel.space<ub>>
    // expected-error @+1 {{samples at a [Ho, Wo, 2] grid; this one is 'memref<16x8x2xf16, #akernel.space<ub>>'}}
    akernel.vinterp "bilinear" %x grid %g -> %y {acc = f32, coordinates = "half_pixel", padding = "zeros"} : memref<4x8x8xf16, #akernel.space<ub>>, memref<16x8x2xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @interp_mode attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<4x8x8xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<4x16x16xf16, #akernel.space<ub>>
    %g = akernel.alloc : memref<16x8x2xf16, #akernel.space<ub>>
    // expected-error @+1 {{interpolates with 'nearest', 'bilinear' or 'bicubic', not 'area'}}
    akernel.vinterp "area" %x -> %y {acc = f32, coordinates = "half_pixel", padding = "border"} : memref<4x8x8xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @interp_nearest_resize attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<4x8x8xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<4x16x16xf16, #akernel.space<ub>>
    %g = akernel.alloc : memref<16x8x2xf16, #akernel.space<ub>>
    // expected-error @+1 {{resizes by 'bilinear' or 'bicubic' (a nearest resize is a DMA)}}
    akernel.vinterp "nearest" %x -> %y {acc = f32, coordinates = "asymmetric", padding = "border"} : memref<4x8x8xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @interp_coordinates attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<4x8x8xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<4x16x16xf16, #akernel.space<ub>>
    %g = akernel.alloc : memref<16x8x2xf16, #akernel.space<ub>>
    // expected-error @+1 {{maps coordinates by 'align_corners', 'half_pixel' or 'asymmetric', not 'tf_crop_and_resize'}}
    akernel.vinterp "bilinear" %x -> %y {acc = f32, coordinates = "tf_crop_and_resize", padding = "border"} : memref<4x8x8xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @interp_window_without_plane attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<1x8x64xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<1x16x128xf16, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{takes a window's origins `at(...)` together with its `plane` sizes}}
    akernel.vinterp "bilinear" %x at(%c0, %c0, %c0, %c0) -> %y {acc = f32, coordinates = "half_pixel", padding = "border"} : memref<1x8x64xf16, #akernel.space<ub>> -> memref<1x16x128xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @interp_window_origins attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<1x8x64xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<1x16x128xf16, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{takes 4 origins (input row, input column, output row, output column) and 4 plane sizes [H, W, Ho, Wo]}}
    akernel.vinterp "bilinear" %x at(%c0, %c0) -> %y {acc = f32, coordinates = "half_pixel", padding = "border", plane = array<i64: 64, 64, 128, 128>} : memref<1x8x64xf16, #akernel.space<ub>> -> memref<1x16x128xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @interp_window_too_large attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<1x8x64xf16, #akernel.space<ub>>
    %y = akernel.alloc : memref<1x16x128xf16, #akernel.space<ub>>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{has an input window larger than its plane 4x64}}
    akernel.vinterp "bilinear" %x at(%c0, %c0, %c0, %c0) -> %y {acc = f32, coordinates = "half_pixel", padding = "border", plane = array<i64: 4, 64, 128, 128>} : memref<1x8x64xf16, #akernel.space<ub>> -> memref<1x16x128xf16, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  // The layer's cube and vector work needs a mix kernel.
  akernel.kernel @rnn_engine attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
  ^bb0(%x: memref<5x2x4xf16, #akernel.space<gm>>, %w: memref<1x8x4xf16, #akernel.space<gm>>, %r: memref<1x8x8xf16, #akernel.space<gm>>, %y: memref<5x1x2x8xf16, #akernel.space<gm>>, %h: memref<1x2x8xf16, #akernel.space<gm>>):
    // expected-error @+1 {{runs in a kernel whose engine is #akernel.engine<mix> (cube and vector)}}
    akernel.recurrent "rnn"(%x, %w, %r, %y, %h) {direction = "forward", hidden_size = 8 : i64} : memref<5x2x4xf16, #akernel.space<gm>>, memref<1x8x4xf16, #akernel.space<gm>>, memref<1x8x8xf16, #akernel.space<gm>>, memref<5x1x2x8xf16, #akernel.space<gm>>, memref<1x2x8xf16, #akernel.space<gm>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  // An lstm has a third result (y_c): one buffer is missing.
  akernel.kernel @lstm_buffers attributes {block_dim = 1 : i64, engine = #akernel.engine<mix>, nodes = []} {
  ^bb0(%x: memref<5x2x4xf16, #akernel.space<gm>>, %w: memref<1x32x4xf16, #akernel.space<gm>>, %r: memref<1x32x8xf16, #akernel.space<gm>>, %y: memref<5x1x2x8xf16, #akernel.space<gm>>, %h: memref<1x2x8xf16, #akernel.space<gm>>):
    // expected-error @+1 {{takes 6 buffers (x, w, r, the optional b, init_h, init_c, seq_length, then y, y_h and, for an lstm, y_c); 5 given}}
    akernel.recurrent "lstm"(%x, %w, %r, %y, %h) {direction = "forward", hidden_size = 8 : i64} : memref<5x2x4xf16, #akernel.space<gm>>, memref<1x32x4xf16, #akernel.space<gm>>, memref<1x32x8xf16, #akernel.space<gm>>, memref<5x1x2x8xf16, #akernel.space<gm>>, memref<1x2x8xf16, #akernel.space<gm>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @rnn_weights attributes {block_dim = 1 : i64, engine = #akernel.engine<mix>, nodes = []} {
  ^bb0(%x: memref<5x2x4xf16, #akernel.space<gm>>, %w: memref<1x8x3xf16, #akernel.space<gm>>, %r: memref<1x8x8xf16, #akernel.space<gm>>, %y: memref<5x1x2x8xf16, #akernel.space<gm>>, %h: memref<1x2x8xf16, #akernel.space<gm>>):
    // expected-error @+1 {{takes x [seq, batch, input] and w [dirs, gates*hidden, input]}}
    akernel.recurrent "rnn"(%x, %w, %r, %y, %h) {direction = "forward", hidden_size = 8 : i64} : memref<5x2x4xf16, #akernel.space<gm>>, memref<1x8x3xf16, #akernel.space<gm>>, memref<1x8x8xf16, #akernel.space<gm>>, memref<5x1x2x8xf16, #akernel.space<gm>>, memref<1x2x8xf16, #akernel.space<gm>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @topk_k attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<2x8x1xf16, #akernel.space<ub>>
    %v = akernel.alloc : memref<2x9x1xf16, #akernel.space<ub>>
    %i = akernel.alloc : memref<2x9x1xi32, #akernel.space<ub>>
    // expected-error @+1 {{selects [rows, k, inner] values and indices from [rows, n, inner] with k <= n}}
    akernel.vtopk %x -> %v, %i {largest} : memref<2x8x1xf16, #akernel.space<ub>> -> memref<2x9x1xf16, #akernel.space<ub>>, memref<2x9x1xi32, #akernel.space<ub>>
  }
}

// -----

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @topk_index attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = []} {
    %x = akernel.alloc : memref<2x8x1xf16, #akernel.space<ub>>
    %v = akernel.alloc : memref<2x3x1xf16, #akernel.space<ub>>
    %i = akernel.alloc : memref<2x3x1xf32, #akernel.space<ub>>
    // expected-error @+1 {{writes i32 or i64 indices, not 'f32'}}
    akernel.vtopk %x -> %v, %i {largest} : memref<2x8x1xf16, #akernel.space<ub>> -> memref<2x3x1xf16, #akernel.space<ub>>, memref<2x3x1xf32, #akernel.space<ub>>
  }
}
