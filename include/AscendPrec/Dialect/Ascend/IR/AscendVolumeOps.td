//===- AscendVolumeOps.td - 3-D convolution and pooling ----*- tablegen -*-===//
//
// The NCDHW forms of the convolution and pooling ops: CANN's Conv3D,
// Conv3DBackpropInput, MaxPool3D and AvgPool3D. Window attributes have one
// entry per spatial axis (`[d, h, w]`); `pads` one pair per axis
// (`[front, back, top, bottom, left, right]`), as the 2-D ops' pairs.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDVOLUMEOPS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDVOLUMEOPS_TD

def Ascend_Conv3DOp : Ascend_Op<"Conv3D"> {
  let summary = "3-D convolution (NCDHW input, OIDHW filter)";
  let description = [{
    Convolves `x` (`[N, C, D, H, W]`) with `filter`
    (`[Cout, C / groups, kD, kH, kW]`) and adds the optional `bias`
    (`[Cout]`). `strides` and `dilations` are `[d, h, w]`; `pads` is
    `[front, back, top, bottom, left, right]`. Runs on the cube unit.

    Example:
    ```mlir
    %y = ascend.Conv3D %x, %w {name = "conv1", strides = array<i64: 1, 1, 1>,
        pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>}
        : (tensor<1x3x4x8x8xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x4x2x6x6xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_Tensor:$filter,
                            Optional<Ascend_Tensor>:$bias,
                            DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                            DenseI64ArrayAttr:$dilations,
                            DefaultValuedAttr<I64Attr, "1">:$groups),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_Conv3DBackpropInputOp : Ascend_Op<"Conv3DBackpropInput"> {
  let summary = "transposed 3-D convolution (deconvolution)";
  let description = [{
    The transposed convolution of `x` (`[N, Cin, D, H, W]`) with `filter`
    (`[Cin, Cout / groups, kD, kH, kW]`), plus the optional `bias`
    (`[Cout]`); the output size per spatial axis is
    `(in - 1) * stride - pad_begin - pad_end + dilation * (k - 1) + output_padding + 1`
    (ONNX `ConvTranspose` on 5-D input).

    Example:
    ```mlir
    %y = ascend.Conv3DBackpropInput %x, %w {name = "deconv1",
        strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>,
        dilations = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>}
        : (tensor<1x4x2x4x4xf32>, tensor<4x2x2x2x2xf32>) -> tensor<1x2x4x8x8xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_Tensor:$filter,
                            Optional<Ascend_Tensor>:$bias,
                            DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                            DenseI64ArrayAttr:$dilations,
                            DenseI64ArrayAttr:$output_padding,
                            DefaultValuedAttr<I64Attr, "1">:$groups),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

class Ascend_Pool3DOp<string mnemonic, string what, dag extraAttrs = (ins)>
    : Ascend_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = "3-D " # what # " pooling";
  let description = "Takes the " # what # " over `ksize` (`[d, h, w]`) "
    # "windows of `x` (`[N, C, D, H, W]`) moved by `strides`, after padding "
    # "by `pads` (`[front, back, top, bottom, left, right]`). `ceil_mode` "
    # "rounds the output size up.\n\nExample:\n```mlir\n"
    # "%y = ascend." # mnemonic # " %x {name = \"pool1\", ksize = array<i64: 2, 2, 2>,"
    # " strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>}"
    # " : (tensor<1x4x8x8x8xf32>) -> tensor<1x4x4x4x4xf32>\n```";
  let arguments = !con((ins Ascend_Tensor:$x, DenseI64ArrayAttr:$ksize,
                            DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                            DefaultValuedAttr<BoolAttr, "false">:$ceil_mode),
                       extraAttrs, Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}
def Ascend_MaxPool3DOp : Ascend_Pool3DOp<"MaxPool3D", "maximum">;
// `exclusive`: padded elements are left out of the average (ONNX
// count_include_pad = 0).
def Ascend_AvgPool3DOp : Ascend_Pool3DOp<"AvgPool3D", "average",
    (ins DefaultValuedAttr<BoolAttr, "true">:$exclusive)>;

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDVOLUMEOPS_TD
