// host-blocks: kernels lowered for the host executor (--run). A cube
// kernel keeps the device's K tiling (k, k_padded: every sum adds the same
// products in the same order) and grows its M tile to leave about
// host-blocks tiles, marked host_tiling (its buffers may exceed the SoC's,
// which the verifier then does not check). Without the option the same
// kernels are the device's.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=force_fp16" \
// RUN:   --prec-convert-ascend-to-kernel | FileCheck %s --check-prefix=DEVICE
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=force_fp16" \
// RUN:   --prec-convert-ascend-to-kernel="host-blocks=8" | FileCheck %s --check-prefix=HOST

// PP-OCR's 5x5 depthwise convolution: 48 tiles of 32 positions for 20
// cores on the device, 8 tiles of the whole map (192 positions) for the
// host, one per packed group.
// DEVICE-LABEL: akernel.kernel @dw
// DEVICE-NOT: host_tiling
// DEVICE-SAME: tiling = {k = 400 : i64, k_padded = 400 : i64, m = 32 : i64, m_padded = 192 : i64, n = 16 : i64, n_padded = 16 : i64, tiles = 48 : i64}
// HOST-LABEL: akernel.kernel @dw
// HOST-SAME: block_dim = 8 : i64
// HOST-SAME: host_tiling
// HOST-SAME: tiling = {k = 400 : i64, k_padded = 400 : i64, m = 192 : i64, m_padded = 192 : i64, n = 16 : i64, n_padded = 16 : i64, tiles = 8 : i64}
// HOST: akernel.alloc : memref<192x16xf32, #akernel.space<l0c>>
func.func @depthwise(%x: tensor<1x104x3x96xf16>) -> tensor<1x104x2x96xf16> {
  %w = ascend.Const dense<0.5> : tensor<104x1x5x5xf16> {name = "dw.w"}
  %y = ascend.Conv2D %x, %w {name = "dw", groups = 104 : i64, strides = array<i64: 2, 1>,
      pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 1, 1>}
      : (tensor<1x104x3x96xf16>, tensor<104x1x5x5xf16>) -> tensor<1x104x2x96xf16>
  return %y : tensor<1x104x2x96xf16>
}

// K in 4 steps of 64 on both. The host's M tile stops where its fp32
// accumulator would pass 256 KiB (624 x 64: 16 tiles; 1040 x 64 would
// leave 8); between two choices of 16 tiles, the one padding M least.
// DEVICE-LABEL: akernel.kernel @fc
// DEVICE-SAME: tiling = {k = 64 : i64, k_padded = 256 : i64, m = 208 : i64, m_padded = 1040 : i64, n = 64 : i64, n_padded = 512 : i64, tiles = 40 : i64}
// HOST-LABEL: akernel.kernel @fc
// HOST-SAME: host_tiling
// HOST-SAME: tiling = {band = 2 : i64, k = 64 : i64, k_padded = 256 : i64, m = 624 : i64, m_padded = 1248 : i64, n = 64 : i64, n_padded = 512 : i64, tiles = 16 : i64}
func.func @matmul(%a: tensor<1000x256xf16>, %b: tensor<256x512xf16>) -> tensor<1000x512xf16> {
  %y = ascend.MatMulV2 %a, %b {name = "fc"}
      : (tensor<1000x256xf16>, tensor<256x512xf16>) -> tensor<1000x512xf16>
  return %y : tensor<1000x512xf16>
}

// Two tiles on the device already: nothing to merge, a device kernel.
// HOST-LABEL: akernel.kernel @tiny
// HOST-NOT: host_tiling
// HOST-SAME: tiling = {k = 64 : i64, k_padded = 64 : i64, m = 16 : i64, m_padded = 16 : i64, n = 16 : i64, n_padded = 32 : i64, tiles = 2 : i64}
func.func @small(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %y = ascend.MatMulV2 %a, %b {name = "tiny"}
      : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}
