// Cube lowering: MatMulV2, BatchMatMulV2 and Conv2D become one cube kernel
// each: fp16 tiles in L1 and L0A/L0B padded to the 16x16 fractal, fp32
// accumulation in L0C, one rounding (rint) in the fixpipe on the way to GM.
// Tiles come from the SoC's buffer sizes, blocks from its cube cores.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16" \
// RUN:   --prec-lower-to-kernel | FileCheck %s
// OP-3: without the small-channel path a 3-channel convolution pads C to 16;
// aicore_num bounds the blocks.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16 enable_small_channel=0 aicore_num=8|8" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefix=OPTS
// Ascend910B's cube multiplies fp32 (K in 8s); force_fp32 keeps it there.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=force_fp32" \
// RUN:   --prec-lower-to-kernel | FileCheck %s --check-prefix=FP32

// The target comes from data/ops/Ascend910/platform_config/Ascend910A.ini
// (soc_version Ascend910 reads the 910A's file).
// CHECK: module attributes {akernel.target = #akernel.target<soc = "Ascend910A", cube_cores = 32, vector_cores = 32, aicpu_cores = 4, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 32, l2_rate = 110, cube_inputs = [f16, i8], ddr_write_rate = 32, l1_l0a_rate = 512, l1_l0b_rate = 256, ub_ddr_rate = 64>

// A 100x72 x 72x80 product: M 100 -> 112, K 72 -> 80 (the fractal), 21
// output tiles of 16x32 for 21 cores.
// CHECK-LABEL: akernel.kernel @fc
// CHECK-SAME: block_dim = 21 : i64, double_buffer, engine = #akernel.engine<cube>, nodes = ["fc"], tiling = {k = 80 : i64, k_padded = 80 : i64, m = 16 : i64, m_padded = 112 : i64, n = 32 : i64, n_padded = 96 : i64, tiles = 21 : i64}
// CHECK-DAG: akernel.alloc : memref<16x80xf16, #akernel.space<l0a>>
// CHECK-DAG: akernel.alloc : memref<80x32xf16, #akernel.space<l0b>>
// CHECK-DAG: akernel.alloc : memref<16x32xf32, #akernel.space<l0c>>
// CHECK: %[[BLOCK:.*]] = akernel.block_idx : index
// CHECK: scf.for %{{.*}} = %[[BLOCK]] to %{{.*}} step %{{.*}} {
// transpose_x2: the right-hand matrix is read transposed.
// CHECK: akernel.load %{{.*}} -> %{{.*}} {transpose} : memref<1x80x72xf16, {{.*}}> -> memref<80x32xf16, #akernel.space<l1>>
// CHECK: akernel.mmad %{{.*}}, %{{.*}}, %{{.*}} init(%{{.*}}) : memref<16x80xf16, #akernel.space<l0a>>, memref<80x32xf16, #akernel.space<l0b>>, memref<16x32xf32, #akernel.space<l0c>>
// The bias is added in fp32 before the one rounding.
// CHECK: akernel.vcast %{{.*}} -> %{{.*}} {round = #akernel.round<rint>} : memref<32xf16, #akernel.space<ub>> -> memref<32xf32, #akernel.space<ub>>
// CHECK: akernel.fixpipe %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] bias %{{.*}} {round = #akernel.round<rint>} : memref<16x32xf32, #akernel.space<l0c>> -> memref<1x100x80xf16
// The tiles are independent (each writes its own part of the output): the
// host may give each block a contiguous run of them.
// CHECK-NEXT: } {akernel.independent_tiles}
// The graph function launches each kernel on tensors.
// CHECK-LABEL: func.func @matmul
// CHECK: akernel.launch @fc(%{{.*}}, %{{.*}}, %{{.*}}) {nodes = ["fc"]} : (tensor<100x72xf16>, tensor<80x72xf16>, tensor<80xf16>) -> tensor<100x80xf16>
// FP32-LABEL: akernel.kernel @fc
// FP32: akernel.mmad {{.*}} : memref<{{[0-9]+}}x{{[0-9]+}}xf32, #akernel.space<l0a>>, memref<{{[0-9]+}}x{{[0-9]+}}xf32, #akernel.space<l0b>>, memref<{{[0-9]+}}x{{[0-9]+}}xf32, #akernel.space<l0c>>
func.func @matmul(%a: tensor<100x72xf32>, %b: tensor<80x72xf32>) -> tensor<100x80xf32> {
  %bias = ascend.Const dense<1.0> : tensor<80xf32> {name = "fc.bias"}
  %y = ascend.MatMulV2 %a, %b, %bias {name = "fc", transpose_x2 = true}
      : (tensor<100x72xf32>, tensor<80x72xf32>, tensor<80xf32>) -> tensor<100x80xf32>
  return %y : tensor<100x80xf32>
}

// A batched product with a shared right-hand matrix: the batch is an outer
// tile index, the weight's batch offset stays 0.
// CHECK-LABEL: akernel.kernel @proj
// CHECK-SAME: block_dim = 32 : i64
// CHECK-SAME: tiles = 32 : i64
// CHECK: akernel.load %{{.*}}[%c0, %{{.*}}, %{{.*}}] -> %{{.*}} : memref<1x64x32xf16
// CHECK: akernel.fixpipe
func.func @batched(%x: tensor<4x64x64xf16>, %w: tensor<64x32xf16>) -> tensor<4x64x32xf16> {
  %y = ascend.BatchMatMulV2 %x, %w {name = "proj"}
      : (tensor<4x64x64xf16>, tensor<64x32xf16>) -> tensor<4x64x32xf16>
  return %y : tensor<4x64x32xf16>
}

// Conv2D through img2col: M = 16*16 output positions, N = 16 channels,
// K = 3 channels x 3x3 padded: to 4 channels (48) on the small-channel
// path, to 16 (144) without it.
// CHECK-LABEL: akernel.kernel @stem
// CHECK-SAME: tiling = {k = 48 : i64, k_padded = 48 : i64
// CHECK: akernel.load {{.*}} {img2col = #akernel.img2col<kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [16, 16], c0 = 4>} : memref<2x1x3x16x16xf16
// CHECK: akernel.load {{.*}} {transpose} : memref<1x16x27xf16
// CHECK: akernel.fixpipe {{.*}} {round = #akernel.round<rint>, transpose} : memref<16x16xf32, #akernel.space<l0c>> -> memref<2x1x16x256xf16
// OPTS-LABEL: akernel.kernel @stem
// OPTS-SAME: block_dim = 8 : i64
// OPTS-SAME: tiling = {k = 144 : i64
// OPTS: c0 = 16>
func.func @conv(%x: tensor<2x3x16x16xf32>) -> tensor<2x16x16x16xf32> {
  %w = ascend.Const dense<0.5> : tensor<16x3x3x3xf32> {name = "stem.w"}
  %y = ascend.Conv2D %x, %w {name = "stem", strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<2x3x16x16xf32>, tensor<16x3x3x3xf32>) -> tensor<2x16x16x16xf32>
  return %y : tensor<2x16x16x16xf32>
}

// Grouped (depthwise) convolution: as CANN does, groups are packed into
// one cube group until the packed channels fill a C0 granule and a 16-wide
// fractal (at most all 8 groups here), the filter read block-diagonally.
// CHECK-LABEL: akernel.kernel @dw
// CHECK-SAME: tiling = {k = 144 : i64, k_padded = 144 : i64, m = 16 : i64, m_padded = 64 : i64, n = 16 : i64
// CHECK: akernel.load {{.*}}img2col{{.*}} : memref<1x1x8x8x8xf16
// CHECK: akernel.load {{.*}} {grouped_filter = array<i64: 8, 9>} : memref<1x8x9xf16
func.func @grouped(%x: tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16> {
  %w = ascend.Const dense<0.5> : tensor<8x1x3x3xf16> {name = "dw.w"}
  %y = ascend.Conv2D %x, %w {name = "dw", groups = 8 : i64, strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x8x8x8xf16>, tensor<8x1x3x3xf16>) -> tensor<1x8x8x8xf16>
  return %y : tensor<1x8x8x8xf16>
}

// 24 depthwise groups: CANN's factor, 16, does not divide 24, so 12 groups
// share each of two cube groups (docs/decisions.md).
// CHECK-LABEL: akernel.kernel @dw24
// CHECK: akernel.load {{.*}}img2col{{.*}} : memref<1x2x12x8x8xf16
// CHECK: akernel.load {{.*}} {grouped_filter = array<i64: 12, 9>} : memref<2x12x9xf16
func.func @grouped24(%x: tensor<1x24x8x8xf16>) -> tensor<1x24x8x8xf16> {
  %w = ascend.Const dense<0.5> : tensor<24x1x3x3xf16> {name = "dw24.w"}
  %y = ascend.Conv2D %x, %w {name = "dw24", groups = 24 : i64, strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x24x8x8xf16>, tensor<24x1x3x3xf16>) -> tensor<1x24x8x8xf16>
  return %y : tensor<1x24x8x8xf16>
}

// Two channels in and out per group: 8 (= 16 / 2) groups fill the granule
// and the fractal; there are 4, so all 4 share one cube group.
// CHECK-LABEL: akernel.kernel @g4
// CHECK: akernel.load {{.*}}img2col{{.*}} : memref<1x1x8x8x8xf16
// CHECK: akernel.load {{.*}} {grouped_filter = array<i64: 4, 9>} : memref<1x8x18xf16
func.func @grouped4(%x: tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16> {
  %w = ascend.Const dense<0.5> : tensor<8x2x3x3xf16> {name = "g4.w"}
  %y = ascend.Conv2D %x, %w {name = "g4", groups = 4 : i64, strides = array<i64: 1, 1>,
      pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x8x8x8xf16>, tensor<8x2x3x3xf16>) -> tensor<1x8x8x8xf16>
  return %y : tensor<1x8x8x8xf16>
}

// Ops with the same shapes, dtypes and attributes share one kernel (CANN
// compiles a kernel once per signature); each launch names its node.
// CHECK-LABEL: akernel.kernel @layer0
// CHECK-NOT: akernel.kernel @layer1
// CHECK-LABEL: func.func @repeated
// CHECK: akernel.launch @layer0(%{{.*}}, %{{.*}}) {nodes = ["layer0"]}
// CHECK: akernel.launch @layer0(%{{.*}}, %{{.*}}) {nodes = ["layer1"]}
func.func @repeated(%x: tensor<32x64xf16>, %w0: tensor<64x64xf16>, %w1: tensor<64x64xf16>) -> tensor<32x64xf16> {
  %a = ascend.MatMulV2 %x, %w0 {name = "layer0"} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf16>
  %b = ascend.MatMulV2 %a, %w1 {name = "layer1"} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf16>
  return %b : tensor<32x64xf16>
}

// A transposed convolution (ONNX ConvTranspose) is the stride-1 convolution
// of its input spread out by the strides (input_dilations), padded by
// dilation * (k - 1) - pad, with the flipped filter (transposed_filter).
// CHECK-LABEL: akernel.kernel @up
// CHECK: akernel.load {{.*}} {img2col = #akernel.img2col<kernel = [2, 2], strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], out = [8, 8], c0 = 4, input_dilations = [2, 2]>}
// CHECK: akernel.load {{.*}} {transposed_filter} : memref<1x4x2x4xf16
// CHECK: akernel.fixpipe {{.*}} {round = #akernel.round<rint>, transpose} : memref<16x16xf32, #akernel.space<l0c>> -> memref<1x1x2x64xf16
func.func @deconv(%x: tensor<1x4x4x4xf16>) -> tensor<1x2x8x8xf16> {
  %w = ascend.Const dense<0.5> : tensor<4x2x2x2xf16> {name = "up.w"}
  %y = ascend.Conv2DBackpropInput %x, %w {name = "up", strides = array<i64: 2, 2>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>}
      : (tensor<1x4x4x4xf16>, tensor<4x2x2x2xf16>) -> tensor<1x2x8x8xf16>
  return %y : tensor<1x2x8x8xf16>
}

// Conv3D through the same skeleton: M = 2*4*4 output positions, K = the
// 16-channel granule times the 2x3x3 window; the img2col attribute has a
// depth entry first (pads front, back, top, bottom, left, right).
// CHECK-LABEL: akernel.kernel @vol
// CHECK: akernel.load {{.*}} {img2col = #akernel.img2col<kernel = [2, 3, 3], strides = [1, 2, 2], pads = [0, 0, 1, 1, 1, 1], dilations = [1, 1, 1], out = [2, 4, 4], c0 = 16>} : memref<1x1x8x3x8x8xf16
// CHECK: akernel.fixpipe {{.*}} -> memref<1x1x4x32xf16
func.func @conv3d(%x: tensor<1x8x3x8x8xf16>) -> tensor<1x4x2x4x4xf16> {
  %w = ascend.Const dense<0.5> : tensor<4x8x2x3x3xf16> {name = "vol.w"}
  %y = ascend.Conv3D %x, %w {name = "vol", strides = array<i64: 1, 2, 2>,
      pads = array<i64: 0, 0, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>}
      : (tensor<1x8x3x8x8xf16>, tensor<4x8x2x3x3xf16>) -> tensor<1x4x2x4x4xf16>
  return %y : tensor<1x4x2x4x4xf16>
}

// A transposed 3-D convolution: the input spread out along all three axes,
// the filter flipped over its whole window (kd*kh*kw); 4 channels take the
// small-channel granule (OP-3).
// CHECK-LABEL: akernel.kernel @up3d
// CHECK: akernel.load {{.*}} {img2col = #akernel.img2col<kernel = [2, 2, 2], strides = [1, 1, 1], pads = [1, 1, 1, 1, 1, 1], dilations = [1, 1, 1], out = [4, 8, 8], c0 = 4, input_dilations = [2, 2, 2]>}
// CHECK: akernel.load {{.*}} {transposed_filter} : memref<1x4x2x8xf16
func.func @deconv3d(%x: tensor<1x4x2x4x4xf16>) -> tensor<1x2x4x8x8xf16> {
  %w = ascend.Const dense<0.5> : tensor<4x2x2x2x2xf16> {name = "up3d.w"}
  %y = ascend.Conv3DBackpropInput %x, %w {name = "up3d", strides = array<i64: 2, 2, 2>,
      pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>}
      : (tensor<1x4x2x4x4xf16>, tensor<4x2x2x2x2xf16>) -> tensor<1x2x4x8x8xf16>
  return %y : tensor<1x2x4x8x8xf16>
}
