//===- AscendOps.td - `ascend` graph operators -------------*- tablegen -*-===//
//
// One op per Ascend IR op type; the mnemonic is the op type itself so the
// name that mixlists and `OpType::` entries use is visible in the IR.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDOPS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDOPS_TD

include "AscendPrec/Dialect/Ascend/IR/AscendDialect.td"
include "AscendPrec/Dialect/Ascend/IR/AscendAttrs.td"
include "AscendPrec/Dialect/Ascend/IR/AscendInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Types and shared pieces
//===----------------------------------------------------------------------===//

def Ascend_Tensor : RankedTensorOf<[AnyFloat, AnyInteger]>;
def Ascend_FloatTensor : RankedTensorOf<[AnyFloat]>;
def Ascend_IndexTensor : RankedTensorOf<[I32, I64]>;
// Casts also convert values of unknown rank (results of ascend.generic ops
// whose shape ONNX could not infer).
def Ascend_AnyRankTensor : TensorOf<[AnyFloat, AnyInteger]>;

// Every op carries these: node name, impl mode, precision decision, and the
// node names of ops fused into it.
defvar Ascend_CommonAttrs = (ins
  StrAttr:$name,
  OptionalAttr<Ascend_ImplModeAttr>:$impl_mode,
  OptionalAttr<Ascend_PrecisionAttr>:$precision,
  OptionalAttr<StrArrayAttr>:$absorbed,
  OptionalAttr<StrArrayAttr>:$fused_by
);

class Ascend_OpBase<string mnemonic, list<Trait> traits = []>
    : Op<Ascend_Dialect, mnemonic, !listconcat([Pure], traits)>;

// An op with a dedicated mnemonic: its op type is its mnemonic.
class Ascend_Op<string mnemonic, list<Trait> traits = []>
    : Ascend_OpBase<mnemonic, !listconcat([Ascend_AscendOpInterface], traits)> {
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Elementwise families
//===----------------------------------------------------------------------===//

class Ascend_UnaryOp<string mnemonic, string math,
                     TypeConstraint tensor = Ascend_FloatTensor,
                     dag extraAttrs = (ins)>
    : Ascend_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = "elementwise " # math;
  let description = "Computes `y = " # math # "` for every element of `x`."
    # "\n\nExample:\n```mlir\n%y = ascend." # mnemonic
    # " %x {name = \"n1\"} : tensor<2x8xf32>\n```";
  let arguments = !con((ins tensor:$x), extraAttrs, Ascend_CommonAttrs);
  let results = (outs tensor:$y);
  // `$x attr-dict : type($y)`, printed without uniquing an attribute
  // dictionary per op (AttrDictAssembly.h). Ops with default-valued
  // attributes keep the declarative format, which elides the defaults.
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::ascendprec::assembly::parseSameTypeUnary<$cppClass>(parser, result);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &printer) {
      ::ascendprec::assembly::printSameTypeUnary(printer, getOperation());
    }
  }];
}

// A unary op whose extra attributes have defaults: the declarative format
// elides them when they hold their default.
class Ascend_UnaryOpWithDefaults<string mnemonic, string math,
                                 TypeConstraint tensor, dag extraAttrs>
    : Ascend_UnaryOp<mnemonic, math, tensor, extraAttrs> {
  let hasCustomAssemblyFormat = 0;
  let extraClassDefinition = "";
  let assemblyFormat = "$x attr-dict `:` type($y)";
}

class Ascend_BinaryOp<string mnemonic, string math,
                      TypeConstraint tensor = Ascend_Tensor>
    : Ascend_Op<mnemonic, [ResultsBroadcastableShape,
                           SameOperandsAndResultElementType]> {
  let summary = "elementwise " # math # " with broadcasting";
  let description = "Computes `y = " # math # "` elementwise; `x1` and `x2` "
    # "broadcast NumPy-style.\n\nExample:\n```mlir\n%y = ascend." # mnemonic
    # " %a, %b {name = \"n1\"} : (tensor<2x8xf32>, tensor<8xf32>) -> "
    # "tensor<2x8xf32>\n```";
  let arguments = !con((ins tensor:$x1, tensor:$x2), Ascend_CommonAttrs);
  let results = (outs tensor:$y);
  // Ascend_Op's format, printed without uniquing an attribute dictionary
  // per op (AttrDictAssembly.h).
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::ascendprec::assembly::parseOperandsFunctionalType<$cppClass>(parser, result);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &printer) {
      ::ascendprec::assembly::printOperandsFunctionalType(printer, getOperation());
    }
  }];
}

def Ascend_AddOp : Ascend_BinaryOp<"Add", "x1 + x2">;
def Ascend_SubOp : Ascend_BinaryOp<"Sub", "x1 - x2">;
def Ascend_MulOp : Ascend_BinaryOp<"Mul", "x1 * x2">;
def Ascend_RealDivOp : Ascend_BinaryOp<"RealDiv", "x1 / x2">;
def Ascend_MaximumOp : Ascend_BinaryOp<"Maximum", "max(x1, x2)">;
def Ascend_MinimumOp : Ascend_BinaryOp<"Minimum", "min(x1, x2)">;
def Ascend_PowOp : Ascend_BinaryOp<"Pow", "x1 ^ x2">;
// Remainders: Mod truncates (C fmod, the sign of x1; ONNX fmod = 1),
// FloorMod floors (the sign of x2; ONNX integer Mod with fmod = 0).
def Ascend_ModOp : Ascend_BinaryOp<"Mod", "x1 - x2 * trunc(x1 / x2)">;
def Ascend_FloorModOp : Ascend_BinaryOp<"FloorMod", "x1 - x2 * floor(x1 / x2)">;
// ONNX BitShift (unsigned integers; a shift of the width or more gives 0).
// CANN runs both on the AI CPU only.
def Ascend_LeftShiftOp : Ascend_BinaryOp<"LeftShift", "x1 << x2",
                                         RankedTensorOf<[AnyUnsignedInteger]>>;
def Ascend_RightShiftOp : Ascend_BinaryOp<"RightShift", "x1 >> x2",
                                          RankedTensorOf<[AnyUnsignedInteger]>>;

def Ascend_NegOp : Ascend_UnaryOp<"Neg", "-x", Ascend_Tensor>;
def Ascend_AbsOp : Ascend_UnaryOp<"Abs", "|x|", Ascend_Tensor>;
def Ascend_SqrtOp : Ascend_UnaryOp<"Sqrt", "sqrt(x)">;
def Ascend_RsqrtOp : Ascend_UnaryOp<"Rsqrt", "1 / sqrt(x)">;
def Ascend_ExpOp : Ascend_UnaryOp<"Exp", "exp(x)">;
def Ascend_LogOp : Ascend_UnaryOp<"Log", "ln(x)">;
def Ascend_ErfOp : Ascend_UnaryOp<"Erf", "erf(x)">;
def Ascend_ReluOp : Ascend_UnaryOp<"Relu", "max(x, 0)", Ascend_Tensor>;
def Ascend_GeluOp : Ascend_UnaryOp<"Gelu",
    "0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))">;
def Ascend_SigmoidOp : Ascend_UnaryOp<"Sigmoid", "1 / (1 + exp(-x))">;
def Ascend_TanhOp : Ascend_UnaryOp<"Tanh", "tanh(x)">;
def Ascend_LeakyReluOp : Ascend_UnaryOpWithDefaults<"LeakyRelu",
    "x >= 0 ? x : negative_slope * x", Ascend_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "0.0f">:$negative_slope)>;
def Ascend_HardSigmoidOp : Ascend_UnaryOpWithDefaults<"HardSigmoid",
    "max(0, min(1, alpha * x + beta))", Ascend_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "0.16666666f">:$alpha,
         DefaultValuedAttr<F32Attr, "0.5f">:$beta)>;

def Ascend_ReciprocalOp : Ascend_UnaryOp<"Reciprocal", "1 / x">;
def Ascend_CeilOp : Ascend_UnaryOp<"Ceil", "ceil(x)">;
def Ascend_FloorOp : Ascend_UnaryOp<"Floor", "floor(x)">;
def Ascend_RoundOp : Ascend_UnaryOp<"Round", "round half to even(x)">;
def Ascend_SignOp : Ascend_UnaryOp<"Sign", "sign(x)", Ascend_Tensor>;
def Ascend_SinOp : Ascend_UnaryOp<"Sin", "sin(x)">;
def Ascend_CosOp : Ascend_UnaryOp<"Cos", "cos(x)">;
def Ascend_SoftplusOp : Ascend_UnaryOp<"Softplus", "ln(1 + exp(x))">;
def Ascend_SoftsignOp : Ascend_UnaryOp<"Softsign", "x / (1 + |x|)">;
def Ascend_EluOp : Ascend_UnaryOpWithDefaults<"Elu", "x >= 0 ? x : alpha * (exp(x) - 1)",
    Ascend_FloatTensor, (ins DefaultValuedAttr<F32Attr, "1.0f">:$alpha)>;
def Ascend_TanOp : Ascend_UnaryOp<"Tan", "tan(x)">;
def Ascend_AsinOp : Ascend_UnaryOp<"Asin", "asin(x)">;
def Ascend_AcosOp : Ascend_UnaryOp<"Acos", "acos(x)">;
def Ascend_AtanOp : Ascend_UnaryOp<"Atan", "atan(x)">;
def Ascend_SinhOp : Ascend_UnaryOp<"Sinh", "sinh(x)">;
def Ascend_CoshOp : Ascend_UnaryOp<"Cosh", "cosh(x)">;
def Ascend_AsinhOp : Ascend_UnaryOp<"Asinh", "asinh(x)">;
def Ascend_AcoshOp : Ascend_UnaryOp<"Acosh", "acosh(x)">;
def Ascend_AtanhOp : Ascend_UnaryOp<"Atanh", "atanh(x)">;
def Ascend_HardSwishOp : Ascend_UnaryOp<"HardSwish", "x * max(0, min(1, x / 6 + 0.5))">;
def Ascend_SeluOp : Ascend_UnaryOp<"Selu",
    "1.0507 * (x > 0 ? x : 1.67326 * (exp(x) - 1))">;
def Ascend_ThresholdedReluOp : Ascend_UnaryOpWithDefaults<"ThresholdedRelu",
    "x > alpha ? x : 0", Ascend_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "1.0f">:$alpha)>;

//===----------------------------------------------------------------------===//
// Comparisons, logic and selection (bool results and conditions)
//===----------------------------------------------------------------------===//

def Ascend_BoolTensor : RankedTensorOf<[I1]>;

class Ascend_CompareOp<string mnemonic, string math>
    : Ascend_Op<mnemonic, [ResultsBroadcastableShape, SameOperandsElementType]> {
  let summary = "elementwise " # math # " with broadcasting, a bool result";
  let description = "Computes `y = " # math # "` elementwise; `x1` and `x2` "
    # "have one type and broadcast NumPy-style.\n\nExample:\n```mlir\n"
    # "%y = ascend." # mnemonic # " %a, %b {name = \"n1\"} : "
    # "(tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>\n```";
  let arguments = !con((ins Ascend_Tensor:$x1, Ascend_Tensor:$x2), Ascend_CommonAttrs);
  let results = (outs Ascend_BoolTensor:$y);
}
def Ascend_EqualOp : Ascend_CompareOp<"Equal", "x1 == x2">;
def Ascend_LessOp : Ascend_CompareOp<"Less", "x1 < x2">;
def Ascend_GreaterOp : Ascend_CompareOp<"Greater", "x1 > x2">;
def Ascend_LessEqualOp : Ascend_CompareOp<"LessEqual", "x1 <= x2">;
def Ascend_GreaterEqualOp : Ascend_CompareOp<"GreaterEqual", "x1 >= x2">;

class Ascend_FloatTestOp<string mnemonic, string what>
    : Ascend_Op<mnemonic, [SameOperandsAndResultShape]> {
  let summary = "whether each element is " # what;
  let description = "A bool tensor: true where `x` is " # what # ".\n\n"
    # "Example:\n```mlir\n%b = ascend." # mnemonic # " %x {name = \"t\"} : "
    # "(tensor<4xf32>) -> tensor<4xi1>\n```";
  let arguments = !con((ins Ascend_FloatTensor:$x), Ascend_CommonAttrs);
  let results = (outs Ascend_BoolTensor:$y);
}
def Ascend_IsInfOp : Ascend_FloatTestOp<"IsInf", "infinite (either sign)">;
def Ascend_IsNanOp : Ascend_FloatTestOp<"IsNan", "NaN">;

def Ascend_LogicalAndOp : Ascend_BinaryOp<"LogicalAnd", "x1 and x2", Ascend_BoolTensor>;
def Ascend_LogicalOrOp : Ascend_BinaryOp<"LogicalOr", "x1 or x2", Ascend_BoolTensor>;
def Ascend_LogicalNotOp : Ascend_UnaryOp<"LogicalNot", "not x", Ascend_BoolTensor>;

def Ascend_SelectOp : Ascend_Op<"Select", [ResultsBroadcastableShape]> {
  let summary = "elementwise condition ? x1 : x2 with broadcasting";
  let description = [{
    Takes `x1` where `condition` is true, else `x2` (ONNX `Where`); the three
    broadcast NumPy-style, `x1`, `x2` and `y` have one element type.

    Example:
    ```mlir
    %y = ascend.Select %c, %a, %b {name = "where"} : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = !con((ins Ascend_BoolTensor:$condition, Ascend_Tensor:$x1,
                            Ascend_Tensor:$x2), Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_PReluOp : Ascend_Op<"PRelu", [SameOperandsAndResultElementType]> {
  let summary = "parametric ReLU";
  let description = [{
    `y = x >= 0 ? x : weight * x`, where `weight` broadcasts to `x` (usually
    one slope per channel, shape `[C, 1, 1]` for NCHW input).

    Example:
    ```mlir
    %y = ascend.PRelu %x, %w {name = "prelu1"}
        : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x, Ascend_FloatTensor:$weight),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y);
  let hasVerifier = 1;
}

def Ascend_ClipByValueOp : Ascend_Op<"ClipByValue",
    [SameOperandsAndResultElementType]> {
  let summary = "clamps every element between two bounds";
  let description = [{
    `y = min(max(x, clip_value_min), clip_value_max)`. The bounds are tensors
    that broadcast to `x` (usually scalars).

    Example:
    ```mlir
    %y = ascend.ClipByValue %x, %lo, %hi {name = "clip"}
        : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_Tensor:$clip_value_min,
                            Ascend_Tensor:$clip_value_max), Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_BiasAddOp : Ascend_Op<"BiasAdd", [SameOperandsAndResultElementType]> {
  let summary = "adds a per-channel bias";
  let description = [{
    Adds the rank-1 `bias` along the channel dimension of `x`: dimension 1 for
    `data_format = "NCHW"` (the default), the last one for `"NHWC"`.

    Example:
    ```mlir
    %y = ascend.BiasAdd %x, %b {name = "bias1"}
        : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_Tensor:$bias,
                            DefaultValuedAttr<Ascend_DataFormatAttr, "::ascendprec::ascend::DataFormat::NCHW">:$data_format),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cube ops
//===----------------------------------------------------------------------===//

def Ascend_Conv2DOp : Ascend_Op<"Conv2D"> {
  let summary = "2-D convolution (NCHW input, OIHW filter)";
  let description = [{
    Convolves `x` (`[N, C, H, W]`) with `filter` (`[Cout, C / groups, kH, kW]`)
    and adds the optional `bias` (`[Cout]`). `strides` and `dilations` are
    `[h, w]`; `pads` is `[top, bottom, left, right]`. Runs on the cube unit.

    Example:
    ```mlir
    %y = ascend.Conv2D %x, %w {name = "conv1", strides = array<i64: 1, 1>,
        pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
        : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
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

def Ascend_Conv2DBackpropInputOp : Ascend_Op<"Conv2DBackpropInput"> {
  let summary = "transposed 2-D convolution (deconvolution)";
  let description = [{
    The transposed convolution of `x` (`[N, Cin, H, W]`) with `filter`
    (`[Cin, Cout / groups, kH, kW]`), plus the optional `bias` (`[Cout]`).
    The output size per spatial axis is
    `(in - 1) * stride - pad_begin - pad_end + dilation * (k - 1) + output_padding + 1`.
    This is the data-gradient form Ascend IR uses for ONNX `ConvTranspose`.

    Example:
    ```mlir
    %y = ascend.Conv2DBackpropInput %x, %w {name = "deconv1",
        strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>,
        dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>}
        : (tensor<1x4x4x4xf32>, tensor<4x2x2x2xf32>) -> tensor<1x2x8x8xf32>
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

def Ascend_MatMulV2Op : Ascend_Op<"MatMulV2"> {
  let summary = "2-D matrix multiplication";
  let description = [{
    `y = op(x1) * op(x2) + bias`, where `op` transposes when `transpose_x1` /
    `transpose_x2` is set. `x1` is `[M, K]` (`[K, M]` transposed), `x2` is
    `[K, N]` (`[N, K]` transposed), the optional `bias` is `[N]`.

    Example:
    ```mlir
    %y = ascend.MatMulV2 %a, %b {name = "fc1"}
        : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x1, Ascend_Tensor:$x2,
                            Optional<Ascend_Tensor>:$bias,
                            DefaultValuedAttr<BoolAttr, "false">:$transpose_x1,
                            DefaultValuedAttr<BoolAttr, "false">:$transpose_x2),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_BatchMatMulV2Op : Ascend_Op<"BatchMatMulV2"> {
  let summary = "batched matrix multiplication with broadcast batch dims";
  let description = [{
    Multiplies the last two dimensions of `x1` and `x2` (transposed when
    `adj_x1` / `adj_x2` is set); leading batch dimensions broadcast. The
    optional `bias` (`[N]`) is added to every result row.

    Example:
    ```mlir
    %y = ascend.BatchMatMulV2 %q, %k {name = "scores", adj_x2 = true}
        : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x1, Ascend_Tensor:$x2,
                            Optional<Ascend_Tensor>:$bias,
                            DefaultValuedAttr<BoolAttr, "false">:$adj_x1,
                            DefaultValuedAttr<BoolAttr, "false">:$adj_x2),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_EinsumOp : Ascend_Op<"Einsum", [SameOperandsAndResultElementType]> {
  let summary = "Einstein summation over one or more tensors";
  let description = [{
    Contracts the operands as `equation` says (NumPy's notation, e.g.
    `"bij,bjk->bik"`; `...` stands for broadcast dimensions). A product over
    a shared index runs on the cube unit, like a batched matmul.

    Example:
    ```mlir
    %y = ascend.Einsum %a, %b {name = "einsum", equation = "ij,jk->ik"}
        : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = !con((ins Variadic<Ascend_Tensor>:$x, StrAttr:$equation),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

class Ascend_SoftmaxBase<string mnemonic, string math>
    : Ascend_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = math # " along `axes`";
  let description = "Computes " # math # " of `x` over the dimensions in "
    # "`axes` (negative values count from the end).\n\nExample:\n```mlir\n"
    # "%y = ascend." # mnemonic # " %x {name = \"sm\", axes = array<i64: -1>}"
    # " : tensor<2x8xf32>\n```";
  let arguments = !con((ins Ascend_FloatTensor:$x, DenseI64ArrayAttr:$axes),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($y)";
  let hasVerifier = 1;
}
def Ascend_SoftmaxV2Op : Ascend_SoftmaxBase<"SoftmaxV2", "softmax">;
def Ascend_LogSoftmaxV2Op : Ascend_SoftmaxBase<"LogSoftmaxV2", "log-softmax">;

def Ascend_LayerNormOp : Ascend_Op<"LayerNorm"> {
  let summary = "layer normalization";
  let description = [{
    Normalizes `x` over the dimensions from `begin_norm_axis` on, then scales
    by `gamma` and shifts by `beta`, whose shape is `x`'s from
    `begin_params_axis` on. As in Ascend IR, the op also returns the `mean`
    and `variance` it computed, with the normalized dimensions kept as 1.

    Example:
    ```mlir
    %y, %mean, %var = ascend.LayerNorm %x, %g, %b {name = "ln1",
        begin_norm_axis = -1 : i64, begin_params_axis = -1 : i64}
        : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>)
        -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x, Ascend_FloatTensor:$gamma,
                            Ascend_FloatTensor:$beta,
                            I64Attr:$begin_norm_axis, I64Attr:$begin_params_axis,
                            DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y, Ascend_FloatTensor:$mean,
                      Ascend_FloatTensor:$variance);
  let hasVerifier = 1;
}

def Ascend_BatchNormOp : Ascend_Op<"BatchNorm"> {
  let summary = "batch normalization, inference form";
  let description = [{
    `y = scale * (x - mean) / sqrt(variance + epsilon) + offset`, with the
    per-channel statistics given (`is_training = false` in Ascend IR). The
    channel is dimension 1; `scale`, `offset`, `mean` and `variance` are `[C]`.
    The training-only outputs of Ascend IR's BatchNorm are not modelled.

    Example:
    ```mlir
    %y = ascend.BatchNorm %x, %s, %o, %m, %v {name = "bn1"}
        : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
           tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x, Ascend_FloatTensor:$scale,
                            Ascend_FloatTensor:$offset, Ascend_FloatTensor:$mean,
                            Ascend_FloatTensor:$variance,
                            DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y);
  let hasVerifier = 1;
}

def Ascend_InstanceNormOp : Ascend_Op<"InstanceNorm"> {
  let summary = "instance normalization";
  let description = [{
    Normalizes every `(n, c)` slice of `x` (`[N, C, ...]`) over its spatial
    dimensions, then applies the per-channel `gamma` and `beta` (`[C]`). Like
    Ascend IR's InstanceNorm it also returns `mean` and `variance`, shaped
    `[N, C, 1, ...]`.

    Example:
    ```mlir
    %y, %m, %v = ascend.InstanceNorm %x, %g, %b {name = "in1"}
        : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>)
        -> (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>)
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x, Ascend_FloatTensor:$gamma,
                            Ascend_FloatTensor:$beta,
                            DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y, Ascend_FloatTensor:$mean,
                      Ascend_FloatTensor:$variance);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and pooling
//===----------------------------------------------------------------------===//

class Ascend_ReduceOp<string mnemonic, string what>
    : Ascend_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = what # " over `axes`";
  let description = "Reduces `x` with " # what # " over `axes` (all "
    # "dimensions when `axes` is empty). With `keep_dims` the reduced "
    # "dimensions stay as 1.\n\nExample:\n```mlir\n%y = ascend." # mnemonic
    # " %x {name = \"r\", axes = array<i64: 1>} : (tensor<2x8xf32>) -> "
    # "tensor<2xf32>\n```";
  let arguments = !con((ins Ascend_Tensor:$x, DenseI64ArrayAttr:$axes,
                            DefaultValuedAttr<BoolAttr, "false">:$keep_dims),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}
def Ascend_ReduceSumOp : Ascend_ReduceOp<"ReduceSum", "a sum">;
def Ascend_ReduceMeanOp : Ascend_ReduceOp<"ReduceMean", "a mean">;
def Ascend_ReduceMaxOp : Ascend_ReduceOp<"ReduceMax", "a maximum">;
def Ascend_ReduceMinOp : Ascend_ReduceOp<"ReduceMin", "a minimum">;
def Ascend_ReduceProdOp : Ascend_ReduceOp<"ReduceProd", "a product">;
def Ascend_ReduceL1Op : Ascend_ReduceOp<"ReduceL1", "the sum of absolute values">;
def Ascend_ReduceL2Op : Ascend_ReduceOp<"ReduceL2", "the Euclidean norm">;
def Ascend_ReduceLogSumOp : Ascend_ReduceOp<"ReduceLogSum", "the log of the sum">;
def Ascend_ReduceLogSumExpOp : Ascend_ReduceOp<"ReduceLogSumExp", "log(sum(exp(x)))">;
def Ascend_ReduceSumSquareOp : Ascend_ReduceOp<"ReduceSumSquare", "the sum of squares">;

class Ascend_ArgOp<string mnemonic, string what>
    : Ascend_Op<mnemonic> {
  let summary = "the index of the " # what # " along `axis`";
  let description = "Returns, along `axis` of `x`, the index of the first "
    # what # " element (int32 or int64). With `keep_dims` the axis stays "
    # "as 1.\n\nExample:\n```mlir\n%i = ascend." # mnemonic
    # " %x {name = \"am\", axis = 1 : i64} : (tensor<2x8xf32>) -> "
    # "tensor<2xi64>\n```";
  let arguments = !con((ins Ascend_Tensor:$x, I64Attr:$axis,
                            DefaultValuedAttr<BoolAttr, "false">:$keep_dims),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_IndexTensor:$y);
  let hasVerifier = 1;
}
def Ascend_ArgMaxV2Op : Ascend_ArgOp<"ArgMaxV2", "largest">;
def Ascend_ArgMinOp : Ascend_ArgOp<"ArgMin", "smallest">;

class Ascend_PoolOp<string mnemonic, string what, dag extraAttrs = (ins)>
    : Ascend_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = "2-D " # what # " pooling";
  let description = "Takes the " # what # " over `ksize` windows of `x` "
    # "(`[N, C, H, W]`) moved by `strides`, after padding by `pads` "
    # "(`[top, bottom, left, right]`). `ceil_mode` rounds the output size up. "
    # "With `global_pooling` the window is the whole plane and the output is "
    # "`[N, C, 1, 1]` (ONNX `Global*Pool`).\n\nExample:\n```mlir\n"
    # "%y = ascend." # mnemonic # " %x {name = \"pool1\", ksize = array<i64: 2, 2>,"
    # " strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}"
    # " : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>\n```";
  let arguments = !con((ins Ascend_Tensor:$x, DenseI64ArrayAttr:$ksize,
                            DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                            DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                            DefaultValuedAttr<BoolAttr, "false">:$global_pooling),
                       extraAttrs, Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}
def Ascend_MaxPoolOp : Ascend_PoolOp<"MaxPool", "maximum">;
// `exclusive`: padded elements are left out of the average (ONNX
// count_include_pad = 0).
def Ascend_AvgPoolOp : Ascend_PoolOp<"AvgPool", "average",
    (ins DefaultValuedAttr<BoolAttr, "true">:$exclusive)>;

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Ascend_ConstOp : Ascend_OpBase<"Const",
    [Ascend_AscendOpInterface, AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor (weights, biases, shapes)";
  let description = [{
    A tensor known at compile time. Not `ConstantLike` on purpose: MLIR's
    folder would merge equal constants and lose their node names.

    Example:
    ```mlir
    %w = ascend.Const dense<0.5> : tensor<4xf32> {name = "fc1.bias"}
    ```
  }];
  let arguments = !con((ins ElementsAttr:$value), Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$output);
  // `$value attr-dict`, printed without uniquing an attribute dictionary
  // per op (AttrDictAssembly.h).
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    ::mlir::ParseResult ConstOp::parse(::mlir::OpAsmParser &parser,
                                       ::mlir::OperationState &result) {
      ::mlir::ElementsAttr value;
      if (parser.parseCustomAttributeWithFallback(value, ::mlir::Type{}))
        return ::mlir::failure();
      if (value)
        result.getOrAddProperties<ConstOp::Properties>().value = value;
      if (::ascendprec::assembly::parseAttrDict<ConstOp>(parser, result))
        return ::mlir::failure();
      result.addTypes(value.getType());
      return ::mlir::success();
    }
    void ConstOp::print(::mlir::OpAsmPrinter &printer) {
      printer << ' ';
      printer.printStrippedAttrOrType(getValueAttr());
      ::ascendprec::assembly::printAttrDict(printer, getOperation(), {"value"});
    }
  }];
  let extraClassDeclaration = [{
    /// AscendOpInterface: data, no computation.
    bool holdsConstantData() { return true; }
  }];
}

def Ascend_CastOp : Ascend_Op<"Cast", [SameOperandsAndResultShape]> {
  let summary = "converts the element type";
  let description = [{
    Converts every element of `x` to the result's element type: floats round
    to nearest-even, float to integer truncates toward zero.

    Canonicalization removes a Cast to the same type, a round trip through a
    wider type (`f16 -> f32 -> f16`), merges a chain whose first step is
    exact, and folds a Cast of an `ascend.Const` into a new constant. A lossy
    round trip such as `f32 -> f16 -> f32` is kept: it changes the values.

    Example:
    ```mlir
    %y = ascend.Cast %x {name = "cast1"} : tensor<4xf32> to tensor<4xf16>
    ```
  }];
  let arguments = !con((ins Ascend_AnyRankTensor:$x), Ascend_CommonAttrs);
  let results = (outs Ascend_AnyRankTensor:$y);
  // `$x attr-dict : type($x) to type($y)`, printed without uniquing an
  // attribute dictionary per op (AttrDictAssembly.h).
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    ::mlir::ParseResult CastOp::parse(::mlir::OpAsmParser &parser,
                                      ::mlir::OperationState &result) {
      return ::ascendprec::assembly::parseConversion<CastOp>(parser, result);
    }
    void CastOp::print(::mlir::OpAsmPrinter &printer) {
      ::ascendprec::assembly::printConversion(printer, getOperation());
    }
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Ascend_ReshapeOp : Ascend_Op<"Reshape"> {
  let summary = "reinterprets the shape";
  let description = [{
    Gives `x` the result's shape; the element count must not change. The
    optional `shape` (a 1-D int32/int64 tensor, one entry per result
    dimension) is the run-time shape of a Reshape whose target dimensions
    are not all known at compile time (ONNX's shape input, `0` and `-1`
    resolved as ONNX does); without it the result type says it all.

    Example:
    ```mlir
    %y = ascend.Reshape %x {name = "flatten"} : tensor<2x3x4xf32> to tensor<2x12xf32>
    %z = ascend.Reshape %x shape %s : tensor<2xi64> {name = "view"} : tensor<?x3x4xf32> to tensor<?x12xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Optional<Ascend_IndexTensor>:$shape),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let assemblyFormat =
      "$x (`shape` $shape^ `:` type($shape))? attr-dict `:` type($x) `to` type($y)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Ascend_TransposeOp : Ascend_Op<"Transpose", [SameOperandsAndResultElementType]> {
  let summary = "permutes dimensions";
  let description = [{
    `y.shape[i] = x.shape[perm[i]]`. An identity permutation folds away.

    Example:
    ```mlir
    %y = ascend.Transpose %x {name = "t", perm = array<i64: 1, 0>}
        : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, DenseI64ArrayAttr:$perm),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
  let hasFolder = 1;
}

class Ascend_BlockRearrangeOp<string mnemonic, string what>
    : Ascend_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = "moves " # what # " (NCHW)";
  let description = "Moves " # what # " in blocks of `block_size` x "
    # "`block_size` on an NCHW tensor; `mode` (DCR or CRD, DepthToSpace only) "
    # "is the order of the channel blocks, as in ONNX.\n\nExample:\n```mlir\n"
    # "%y = ascend." # mnemonic # " %x {name = \"d2s\", block_size = 2 : i64}"
    # " : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>\n```";
  let arguments = !con((ins Ascend_Tensor:$x, I64Attr:$block_size,
                            DefaultValuedAttr<Ascend_BlockOrderAttr, "::ascendprec::ascend::BlockOrder::DCR">:$mode),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}
def Ascend_DepthToSpaceOp : Ascend_BlockRearrangeOp<"DepthToSpace",
    "channel blocks into height and width">;
def Ascend_SpaceToDepthOp : Ascend_BlockRearrangeOp<"SpaceToDepth",
    "height and width blocks into channels">;

def Ascend_ConcatV2Op : Ascend_Op<"ConcatV2", [SameOperandsAndResultElementType]> {
  let summary = "concatenates tensors along one dimension";
  let description = [{
    Joins `x` along `concat_dim` (negative counts from the end); every other
    dimension must agree.

    Example:
    ```mlir
    %y = ascend.ConcatV2 %a, %b {name = "cat", concat_dim = 1 : i64}
        : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = !con((ins Variadic<Ascend_Tensor>:$x, I64Attr:$concat_dim),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_SplitOp : Ascend_Op<"Split"> {
  let summary = "splits a tensor into pieces along one dimension";
  let description = [{
    Cuts `x` along `axis` into one piece per result; the results' sizes along
    `axis` add up to `x`'s.

    Example:
    ```mlir
    %a, %b = ascend.Split %x {name = "split", axis = 1 : i64}
        : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, I64Attr:$axis), Ascend_CommonAttrs);
  let results = (outs Variadic<Ascend_Tensor>:$y);
  let hasVerifier = 1;
}

def Ascend_StridedSliceOp : Ascend_Op<"StridedSlice",
    [SameOperandsAndResultElementType]> {
  let summary = "takes a strided slice";
  let description = [{
    Per dimension `i`, takes elements `begin[i], begin[i] + strides[i], ...`
    up to (excluding) `end[i]`, with NumPy clamping; negative indices count
    from the end and a negative stride walks backwards. `begin`, `end` and
    `strides` have one entry per dimension (Ascend's masks are normalized
    away on import).

    Example:
    ```mlir
    %y = ascend.StridedSlice %x {name = "slice", begin = array<i64: 0, 2>,
        end = array<i64: 2, 8>, strides = array<i64: 1, 2>}
        : (tensor<2x8xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, DenseI64ArrayAttr:$begin,
                            DenseI64ArrayAttr:$end, DenseI64ArrayAttr:$strides),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_ShapeOp : Ascend_Op<"Shape", [Ascend_ReadsOnlyDimensions]> {
  let summary = "the dimensions of a tensor, at run time";
  let description = [{
    A 1-D int32 or int64 tensor with `x`'s dimensions. Import folds a Shape
    of a static shape into a constant; this op stays for dynamic dimensions
    (the `Shape -> Gather -> Concat -> Reshape` chains of PyTorch and Paddle
    exports without `--input_shape`).

    Example:
    ```mlir
    %s = ascend.Shape %x {name = "/Shape"} : (tensor<?x3xf32>) -> tensor<2xi64>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x), Ascend_CommonAttrs);
  let results = (outs Ascend_IndexTensor:$y);
  let hasVerifier = 1;
}

def Ascend_GatherV2Op : Ascend_Op<"GatherV2"> {
  let summary = "gathers slices along an axis";
  let description = [{
    `y` takes, for every index in `indices`, the slice of `x` at that index
    along `axis`; the result shape is
    `x.shape[:axis] + indices.shape[batch_dims:] + x.shape[axis + 1:]`.

    Example:
    ```mlir
    %y = ascend.GatherV2 %table, %ids {name = "embed", axis = 0 : i64}
        : (tensor<100x16xf32>, tensor<4x7xi64>) -> tensor<4x7x16xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_IndexTensor:$indices,
                            I64Attr:$axis,
                            DefaultValuedAttr<I64Attr, "0">:$batch_dims),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_PadOp : Ascend_Op<"Pad", [SameOperandsAndResultElementType]> {
  let summary = "pads (or crops, with negative amounts) every dimension";
  let description = [{
    `paddings` holds `[begin_0, end_0, begin_1, end_1, ...]`, one pair per
    dimension. `mode` is `constant` (filled with `constant_value`, or with
    the one element of the `constant_values` operand, read when the kernel
    runs, as CANN's PadV3 takes it), `reflect` or `edge`.

    Example:
    ```mlir
    %y = ascend.Pad %x {name = "pad", paddings = array<i64: 0, 0, 1, 2>}
        : (tensor<2x4xf32>) -> tensor<2x7xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Optional<Ascend_Tensor>:$constant_values,
                            DenseI64ArrayAttr:$paddings,
                            DefaultValuedAttr<Ascend_PadModeAttr, "::ascendprec::ascend::PadMode::Constant">:$mode,
                            DefaultValuedAttr<F32Attr, "0.0f">:$constant_value),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

class Ascend_ResizeOp<string mnemonic, string how>
    : Ascend_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let summary = "resizes H and W with " # how # " interpolation";
  let description = "Resizes `x` (`[N, C, H, W]`) to `size` = `[H', W']` with "
    # how # " interpolation, or, when H and W are known only at run time, by "
    # "`scales` = `[sh, sw]` (`H' = floor(H * sh)`); `align_corners` and "
    # "`half_pixel_centers` pick the coordinate mapping as in Ascend IR.\n\n"
    # "Example:\n```mlir\n%y = ascend." # mnemonic # " %x {name = \"up\", "
    # "size = array<i64: 16, 16>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>\n"
    # "%z = ascend." # mnemonic # " %x {name = \"up2\", scales = array<f32: 2.0, 2.0>}"
    # " : (tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>\n```";
  let arguments = !con((ins Ascend_Tensor:$x, OptionalAttr<DenseI64ArrayAttr>:$size,
                            OptionalAttr<DenseF32ArrayAttr>:$scales,
                            DefaultValuedAttr<BoolAttr, "false">:$align_corners,
                            DefaultValuedAttr<BoolAttr, "false">:$half_pixel_centers),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}
def Ascend_ResizeNearestNeighborV2Op
    : Ascend_ResizeOp<"ResizeNearestNeighborV2", "nearest-neighbour">;
def Ascend_ResizeBilinearV2Op : Ascend_ResizeOp<"ResizeBilinearV2", "bilinear">;
// Cubic convolution with coefficient -0.75 (ONNX's default cubic_coeff_a).
def Ascend_ResizeBicubicOp : Ascend_ResizeOp<"ResizeBicubic", "bicubic">;

//===----------------------------------------------------------------------===//
// Operators without a dedicated op
//===----------------------------------------------------------------------===//

// The `op_type` attribute's accessor, `getOpType()`, hides the interface's
// default (which would answer "generic"), so the interface reports it.
def Ascend_GenericOp : Ascend_OpBase<"generic", [Ascend_AscendOpInterface]> {
  let summary = "an Ascend IR operator without a dedicated op";
  let description = [{
    Stands for any operator by its Ascend IR op type, so every model can be
    planned: mixlists, `OpType::` lines and `[ByOpType]` sections match
    `op_type`. Other attributes of the original operator may be kept in the
    attribute dictionary. An op type that has a dedicated op (`Conv2D`, ...)
    must use it, so every op type has one spelling.

    Example:
    ```mlir
    %y = ascend.generic "Xlog1py"(%a, %b) {name = "xlogy"}
        : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = !con((ins StrAttr:$op_type, Variadic<AnyTensor>:$inputs),
                       Ascend_CommonAttrs);
  let results = (outs Variadic<AnyTensor>:$outputs);
  let assemblyFormat = [{
    $op_type `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs)
  }];
  let extraClassDeclaration = [{
    /// AscendOpInterface: kept by its op type alone.
    bool hasDedicatedOp() { return false; }
  }];
  let hasVerifier = 1;
}

include "AscendPrec/Dialect/Ascend/IR/AscendRecurrent.td"
include "AscendPrec/Dialect/Ascend/IR/AscendVolumeOps.td"
include "AscendPrec/Dialect/Ascend/IR/AscendTensorOps.td"
include "AscendPrec/Dialect/Ascend/IR/AscendIndexOps.td"
include "AscendPrec/Dialect/Ascend/IR/AscendQuantOps.td"
include "AscendPrec/Dialect/Ascend/IR/AscendImageOps.td"
include "AscendPrec/Dialect/Ascend/IR/AscendLossOps.td"
include "AscendPrec/Dialect/Ascend/IR/AscendControlFlow.td"

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDOPS_TD
