//===- AscendQuantOps.td - int8 quantization ops -----------*- tablegen -*-===//
//
// The ops a quantized (AMCT) model runs between its int8 cube ops: float to
// int8 (AscendQuant), the cube's int32 accumulator back to float
// (AscendDequant) and int8 data back to float (AscendAntiQuant). Their
// dtypes are fixed by the quantization (QT-1 in docs/quantization.md):
// precision modes and lists do not change them.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDQUANTOPS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDQUANTOPS_TD

def Ascend_Int8Tensor : RankedTensorOf<[I8]>;
def Ascend_Int32Tensor : RankedTensorOf<[I32]>;
def Ascend_HalfOrFloatTensor : RankedTensorOf<[F16, F32]>;

def Ascend_AscendQuantOp : Ascend_Op<"AscendQuant", [SameOperandsAndResultShape]> {
  let summary = "quantizes float data to int8 with one scale and offset";
  let description = [{
    `y = saturate(round_mode(x * scale + offset))` to int8, computed the way
    CANN's AscendQuant kernel does: fp32 input converted to fp16 first, and
    `scale` and `offset` as fp16 constants (docs/quantization.md). With
    `sqrt_mode` the scale is applied twice. `round_mode` is `Round` (to
    nearest, ties to even), `Floor`, `Ceil` or `Trunc`. ONNX
    `QuantizeLinear` with an int8 per-tensor zero point: `scale` is
    1 / y_scale and `offset` the zero point.

    Example:
    ```mlir
    %q = ascend.AscendQuant %x {name = "q", scale = 50.0 : f32, offset = 0.0 : f32}
        : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xi8>
    ```
  }];
  let arguments = !con((ins Ascend_HalfOrFloatTensor:$x, F32Attr:$scale,
                            DefaultValuedAttr<F32Attr, "0.0f">:$offset,
                            DefaultValuedAttr<BoolAttr, "false">:$sqrt_mode,
                            DefaultValuedAttr<StrAttr, "\"Round\"">:$round_mode),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Int8Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_AscendDequantOp : Ascend_Op<"AscendDequant"> {
  let summary = "turns an int32 cube accumulator back into float";
  let description = [{
    `y = x * deq_scale` (then max(y, 0) with `relu_flag`), where `deq_scale`
    holds one fp32 scale per channel of `channel_axis` (or one for all):
    the product of the input's and the weight's quantization scales. On
    Ascend910 the accumulator is converted to fp16 and multiplied in fp16
    (the v100 vector dequant); on Ascend910B and Ascend310P the product is
    taken in fp32 and rounded once to `y`'s dtype (the fixpipe and v200
    dequant). CANN stores `deq_scale` as uint64 with the fp32 scale in its
    low 32 bits; here it is the fp32 tensor itself.

    Example:
    ```mlir
    %y = ascend.AscendDequant %acc, %s {name = "conv/dequant", channel_axis = 1 : i64}
        : (tensor<1x8x6x6xi32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Int32Tensor:$x, RankedTensorOf<[F32]>:$deq_scale,
                            DefaultValuedAttr<I64Attr, "1">:$channel_axis,
                            DefaultValuedAttr<BoolAttr, "false">:$sqrt_mode,
                            DefaultValuedAttr<BoolAttr, "false">:$relu_flag),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_HalfOrFloatTensor:$y);
  let hasVerifier = 1;
}

def Ascend_AscendAntiQuantOp : Ascend_Op<"AscendAntiQuant", [SameOperandsAndResultShape]> {
  let summary = "turns int8 data back into float with one scale and offset";
  let description = [{
    `y = (x + offset) * scale`, in fp16 as CANN's AscendAntiQuant kernel
    computes it, then converted to `y`'s dtype. With `sqrt_mode` the scale
    is applied twice. ONNX `DequantizeLinear` of int8 data with a
    per-tensor scale: `offset` is minus the zero point.

    Example:
    ```mlir
    %y = ascend.AscendAntiQuant %q {name = "dq", scale = 0.02 : f32, offset = 0.0 : f32}
        : (tensor<1x3x8x8xi8>) -> tensor<1x3x8x8xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Int8Tensor:$x, F32Attr:$scale,
                            DefaultValuedAttr<F32Attr, "0.0f">:$offset,
                            DefaultValuedAttr<BoolAttr, "false">:$sqrt_mode),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_HalfOrFloatTensor:$y);
  let hasVerifier = 1;
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDQUANTOPS_TD
