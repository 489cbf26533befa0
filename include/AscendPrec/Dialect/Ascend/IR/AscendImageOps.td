//===- AscendImageOps.td - sampling and local normalization -*- tablegen -*-===//
//
// Image ops of vision exports without a per-element formula: GridSampler2D
// (ONNX GridSample on NCHW input) and LRN.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDIMAGEOPS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDIMAGEOPS_TD

def Ascend_GridSampler2DOp : Ascend_Op<"GridSampler2D", [SameOperandsAndResultElementType]> {
  let summary = "samples an NCHW tensor at the points of a grid";
  let description = [{
    For every point of `grid` (`[N, Ho, Wo, 2]`, normalized x, y in
    [-1, 1]), samples `x` (`[N, C, H, W]`) with `interpolation_mode`
    (`bilinear`, `nearest` or `bicubic`); points outside are handled by
    `padding_mode` (`zeros`, `border` or `reflection`). With `align_corners`,
    -1 and 1 are the centres of the corner pixels, else their outer edges.
    The result is `[N, C, Ho, Wo]`.

    Example:
    ```mlir
    %y = ascend.GridSampler2D %x, %g {name = "warp"}
        : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x, Ascend_FloatTensor:$grid,
                            DefaultValuedAttr<Ascend_InterpolationAttr, "::ascendprec::ascend::Interpolation::Bilinear">:$interpolation_mode,
                            DefaultValuedAttr<Ascend_SamplePaddingAttr, "::ascendprec::ascend::SamplePadding::Zeros">:$padding_mode,
                            DefaultValuedAttr<BoolAttr, "false">:$align_corners),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y);
  let hasVerifier = 1;
}

def Ascend_LRNOp : Ascend_Op<"LRN", [SameOperandsAndResultType]> {
  let summary = "local response normalization across channels";
  let description = [{
    `y = x / (bias + alpha * sum(x[c - r .. c + r]^2)) ^ beta` over the
    `2 * depth_radius + 1` neighbouring channels of each element of `x`
    (`[N, C, H, W]`), as CANN's LRN: ONNX's `alpha / size` is `alpha` here.

    Example:
    ```mlir
    %y = ascend.LRN %x {name = "lrn", depth_radius = 2 : i64, bias = 1.0 : f32,
        alpha = 2.0e-05 : f32, beta = 0.75 : f32} : tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x, I64Attr:$depth_radius,
                            DefaultValuedAttr<F32Attr, "1.0f">:$bias,
                            DefaultValuedAttr<F32Attr, "1.0f">:$alpha,
                            DefaultValuedAttr<F32Attr, "0.5f">:$beta),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($y)";
  let hasVerifier = 1;
}

def Ascend_ROIAlignOp : Ascend_Op<"ROIAlign"> {
  let summary = "bilinear-sampled pooling of regions of interest";
  let description = [{
    For each row `[b, x1, y1, x2, y2]` of `rois` (`[R, 5]`, the batch index
    first, as CANN's ONNX parser builds it from ONNX's rois and
    batch_indices), pools `pooled_height` x `pooled_width` bins of image
    `b` of `features` (`[N, C, H, W]`), each the average (`mode = "avg"`)
    or maximum of `sample_num` x `sample_num` bilinear samples (0: as many
    as the bin is wide). Coordinates are scaled by `spatial_scale`; with
    `aligned` they are shifted by half a pixel (ONNX's half_pixel), else the
    region is at least one pixel (output_half_pixel). Samples and weights
    in fp32, each output rounded once. ONNX `RoiAlign`.

    Example:
    ```mlir
    %y = ascend.ROIAlign %x, %rois {name = "roi", pooled_height = 5 : i64, pooled_width = 5 : i64,
        spatial_scale = 1.0 : f32, sample_num = 2 : i64, aligned = true}
        : (tensor<1x1x10x10xf32>, tensor<3x5xf32>) -> tensor<3x1x5x5xf32>
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$features, Ascend_FloatTensor:$rois,
                            I64Attr:$pooled_height, I64Attr:$pooled_width,
                            DefaultValuedAttr<F32Attr, "1.0f">:$spatial_scale,
                            DefaultValuedAttr<I64Attr, "0">:$sample_num,
                            DefaultValuedAttr<BoolAttr, "false">:$aligned,
                            DefaultValuedAttr<StrAttr, "\"avg\"">:$mode),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y);
  let hasVerifier = 1;
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDIMAGEOPS_TD
