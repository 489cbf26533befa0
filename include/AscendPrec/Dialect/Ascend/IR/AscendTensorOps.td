//===- AscendTensorOps.td - building and indexing tensors --*- tablegen -*-===//
//
// Ops whose results are built from shapes and indices rather than computed
// per element: Fill, Range, BroadcastTo, Tile, OneHot, TopKV2 and Size. Import
// folds them to constants when their inputs are known; these ops stay for
// shapes known only at run time (dynamic batch, sequence length).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDTENSOROPS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDTENSOROPS_TD

def Ascend_FillOp : Ascend_Op<"Fill"> {
  let summary = "a tensor of the given dimensions filled with one value";
  let description = [{
    `y` has the dimensions `dims` (a 1-D int32/int64 tensor) and every
    element equal to the single element of `value` (ONNX `ConstantOfShape`).

    Example:
    ```mlir
    %y = ascend.Fill %dims, %zero {name = "zeros"} : (tensor<2xi64>, tensor<f32>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = !con((ins Ascend_IndexTensor:$dims, Ascend_Tensor:$value),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_RangeOp : Ascend_Op<"Range", [SameOperandsAndResultElementType]> {
  let summary = "the 1-D sequence start, start + delta, ... below limit";
  let description = [{
    `start`, `limit` and `delta` are scalars (rank 0) of the result's element
    type; `y` holds `ceil((limit - start) / delta)` elements (ONNX `Range`).

    Example:
    ```mlir
    %y = ascend.Range %a, %b, %d {name = "arange"} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$start, Ascend_Tensor:$limit,
                            Ascend_Tensor:$delta), Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_BroadcastToOp : Ascend_Op<"BroadcastTo"> {
  let summary = "broadcasts a tensor to a shape given at run time";
  let description = [{
    `y` is `x` broadcast NumPy-style against the dimensions in `shape` (a 1-D
    int32/int64 tensor), as ONNX `Expand`: the result's shape is the
    broadcast of `x`'s shape and `shape`.

    Example:
    ```mlir
    %y = ascend.BroadcastTo %x, %s {name = "expand"} : (tensor<1x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_IndexTensor:$shape),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_TileOp : Ascend_Op<"Tile", [SameOperandsAndResultElementType]> {
  let summary = "repeats a tensor along every dimension";
  let description = [{
    `y` repeats `x` `multiples[i]` times along dimension `i` (one entry per
    dimension; ONNX `Tile` with constant repeats).

    Example:
    ```mlir
    %y = ascend.Tile %x {name = "tile", multiples = array<i64: 2, 1>} : (tensor<3x4xf32>) -> tensor<6x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, DenseI64ArrayAttr:$multiples),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_OneHotOp : Ascend_Op<"OneHot"> {
  let summary = "one-hot encoding of indices";
  let description = [{
    `y` has the shape of `indices` with a new dimension of size `depth` (a
    scalar int32/int64 tensor) inserted at `axis` (-1: last); an element is
    `on_value` where its position along `axis` equals the index, `off_value`
    elsewhere. `on_value` and `off_value` are scalars of `y`'s element
    type. Negative indices count from `depth` (ONNX `OneHot`).

    Example:
    ```mlir
    %y = ascend.OneHot %i, %depth, %on, %off {name = "onehot"}
        : (tensor<4xi64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<4x10xf32>
    ```
  }];
  let arguments = !con((ins Ascend_IndexTensor:$indices, Ascend_IndexTensor:$depth,
                            Ascend_Tensor:$on_value, Ascend_Tensor:$off_value,
                            DefaultValuedAttr<I64Attr, "-1">:$axis),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_TopKV2Op : Ascend_Op<"TopKV2"> {
  let summary = "the k largest (or smallest) elements along one dimension";
  let description = [{
    Along `dim` of `x`, the `k` largest elements (smallest when `largest`
    is false), in order when `sorted`, and their indices. `k` is a
    one-element int32/int64 tensor; both results have `x`'s shape with
    `k` elements along `dim` (ONNX `TopK`).

    Example:
    ```mlir
    %v, %i = ascend.TopKV2 %x, %k {name = "topk", dim = -1 : i64}
        : (tensor<2x8xf32>, tensor<1xi64>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_IndexTensor:$k,
                            DefaultValuedAttr<I64Attr, "-1">:$dim,
                            DefaultValuedAttr<BoolAttr, "true">:$largest,
                            DefaultValuedAttr<BoolAttr, "true">:$sorted),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$values, Ascend_IndexTensor:$indices);
  let hasVerifier = 1;
}

def Ascend_SizeOp : Ascend_Op<"Size", [Ascend_ReadsOnlyDimensions]> {
  let summary = "the number of elements of a tensor, at run time";
  let description = [{
    A scalar int32/int64 tensor holding the element count of `x`. Import
    folds it when `x`'s shape is static.

    Example:
    ```mlir
    %n = ascend.Size %x {name = "numel"} : (tensor<?x3xf32>) -> tensor<i64>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x), Ascend_CommonAttrs);
  let results = (outs Ascend_IndexTensor:$y);
  let hasVerifier = 1;
}

def Ascend_ReverseSequenceOp : Ascend_Op<"ReverseSequence", [AllTypesMatch<["x", "y"]>]> {
  let summary = "reverses the first seq_lengths[b] elements of each batch entry";
  let description = [{
    For each index `b` along `batch_dim`, the first `seq_lengths[b]`
    elements along `seq_dim` are reversed; the rest are copied. An AI CPU
    kernel in CANN (TensorFlow's ReverseSequence). ONNX `ReverseSequence`
    (`time_axis` -> `seq_dim`, `batch_axis` -> `batch_dim`).

    Example:
    ```mlir
    %y = ascend.ReverseSequence %x, %lens {name = "rev", seq_dim = 0 : i64, batch_dim = 1 : i64}
        : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_IndexTensor:$seq_lengths,
                            I64Attr:$seq_dim, DefaultValuedAttr<I64Attr, "0">:$batch_dim),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_MatrixDeterminantOp : Ascend_Op<"MatrixDeterminant"> {
  let summary = "the determinant of each square matrix";
  let description = [{
    `x` is `[..., M, M]`; `y[...]` is the determinant of the matrix at `...`,
    computed by the AI CPU (CANN's MatrixDeterminant: LU with partial
    pivoting, here in double, rounded once to `y`'s dtype). ONNX `Det`.

    Example:
    ```mlir
    %y = ascend.MatrixDeterminant %x {name = "det"} : (tensor<2x3x3xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x), Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y);
  let hasVerifier = 1;
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDTENSOROPS_TD
