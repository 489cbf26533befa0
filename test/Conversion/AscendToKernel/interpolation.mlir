// Resizing and grid sampling on the vector unit: whole [H, W] planes in UB
// through akernel.vinterp; 16-bit data weighed in fp32. The coordinate
// mapping comes from align_corners / half_pixel_centers; a resize's taps
// past the edge read the edge.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16" \
// RUN:   --prec-lower-to-kernel | FileCheck %s

// CHECK-LABEL: akernel.kernel @up
// CHECK-SAME: engine = #akernel.engine<vector>
// CHECK: akernel.load {{.*}} : memref<32x8x8xf16, {{.*}}#akernel.space<gm>> -> memref<{{[0-9]+}}x8x8xf16, #akernel.space<ub>>
// CHECK: akernel.vinterp "bilinear" %{{.*}} -> %{{.*}} {acc = f32, coordinates = "half_pixel", padding = "border"} : memref<{{[0-9]+}}x8x8xf16, #akernel.space<ub>> -> memref<{{[0-9]+}}x16x16xf16, #akernel.space<ub>>
// CHECK-LABEL: akernel.kernel @cubic
// CHECK: akernel.vinterp "bicubic" %{{.*}} -> %{{.*}} {acc = f32, coordinates = "align_corners", padding = "border"}
// CHECK-LABEL: akernel.kernel @corner
// CHECK: akernel.vinterp "bilinear" %{{.*}} -> %{{.*}} {acc = f32, coordinates = "asymmetric", padding = "border"}
func.func @resize(%x: tensor<2x16x8x8xf16>) -> (tensor<2x16x16x16xf16>, tensor<2x16x16x16xf16>, tensor<2x16x4x4xf16>) {
  %y = ascend.ResizeBilinearV2 %x {name = "up", size = array<i64: 16, 16>, half_pixel_centers = true} : (tensor<2x16x8x8xf16>) -> tensor<2x16x16x16xf16>
  %z = ascend.ResizeBicubic %x {name = "cubic", size = array<i64: 16, 16>, align_corners = true} : (tensor<2x16x8x8xf16>) -> tensor<2x16x16x16xf16>
  %w = ascend.ResizeBilinearV2 %x {name = "corner", size = array<i64: 4, 4>} : (tensor<2x16x8x8xf16>) -> tensor<2x16x4x4xf16>
  return %y, %z, %w : tensor<2x16x16x16xf16>, tensor<2x16x16x16xf16>, tensor<2x16x4x4xf16>
}

// A grid sampler's step takes channels of one image (here all 3) and that
// image's grid: step = image, the planes from image * 3.
// CHECK-LABEL: akernel.kernel @warp
// CHECK-SAME: tiling = {planes = 3 : i64, tiles = 2 : i64}
// CHECK: %[[IMAGE:.*]] = arith.divui
// CHECK: akernel.load %{{.*}}[%[[IMAGE]], %{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}} : memref<2x4x4x2xf16, #akernel.space<gm>> -> memref<4x4x2xf16, #akernel.space<ub>>
// CHECK: akernel.vinterp "nearest" %{{.*}} grid %{{.*}} -> %{{.*}} {acc = f32, coordinates = "half_pixel", padding = "reflection"}
func.func @grid(%x: tensor<2x3x8x8xf16>, %g: tensor<2x4x4x2xf16>) -> tensor<2x3x4x4xf16> {
  %y = ascend.GridSampler2D %x, %g {name = "warp", interpolation_mode = #ascend.interpolation<nearest>, padding_mode = #ascend.sample_padding<reflection>}
      : (tensor<2x3x8x8xf16>, tensor<2x4x4x2xf16>) -> tensor<2x3x4x4xf16>
  return %y : tensor<2x3x4x4xf16>
}

// A plane too large for UB is resized in windows (CANN's ResizeBilinearV2
// walks output rows, W in segments): 16 output rows of 2048 per step read
// the 11 input rows their taps need, from row floor(src(first)) - 2 clamped
// to [0, 1024 - 11]. A row too long for UB is cut into columns too.
// CHECK-LABEL: akernel.kernel @big_up
// CHECK-SAME: tiling = {columns = 2048 : i64, planes = 1 : i64, rows = 16 : i64, tiles = 256 : i64}
// CHECK: %[[START:.*]] = arith.maxsi
// CHECK: %[[ROW:.*]] = arith.minsi %[[START]], %c1013
// CHECK: akernel.load %{{.*}}[%{{.*}}, %[[ROW]], %{{.*}}] -> %{{.*}} : memref<2x1024x1024xf16, {{.*}}> -> memref<1x11x1024xf16, #akernel.space<ub>>
// CHECK: akernel.vinterp "bilinear" %{{.*}} at(%[[ROW]], %{{.*}}, %{{.*}}, %{{.*}}) -> %{{.*}} {{{.*}}plane = array<i64: 1024, 1024, 2048, 2048>} : memref<1x11x1024xf16, #akernel.space<ub>> -> memref<1x16x2048xf16, #akernel.space<ub>>
// CHECK-LABEL: akernel.kernel @wide
// CHECK-SAME: tiling = {columns = 18750 : i64, planes = 1 : i64, rows = 1 : i64, tiles = 16 : i64}
// CHECK: akernel.vinterp "bicubic" {{.*}}plane = array<i64: 3, 100000, 2, 150000>} : memref<1x3x12505xf16, #akernel.space<ub>> -> memref<1x1x18750xf16, #akernel.space<ub>>
func.func @large(%x: tensor<1x2x1024x1024xf16>, %w: tensor<1x1x3x100000xf32>) -> (tensor<1x2x2048x2048xf16>, tensor<1x1x2x150000xf32>) {
  %y = ascend.ResizeBilinearV2 %x {name = "big_up", size = array<i64: 2048, 2048>, half_pixel_centers = true} : (tensor<1x2x1024x1024xf16>) -> tensor<1x2x2048x2048xf16>
  %z = ascend.ResizeBicubic %w {name = "wide", size = array<i64: 2, 150000>, align_corners = true} : (tensor<1x1x3x100000xf32>) -> tensor<1x1x2x150000xf32>
  return %y, %z : tensor<1x2x2048x2048xf16>, tensor<1x1x2x150000xf32>
}
