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
