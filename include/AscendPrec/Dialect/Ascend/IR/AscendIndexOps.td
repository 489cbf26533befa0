//===- AscendIndexOps.td - element-indexed ops ------------*- tablegen -*-===//
//
// Ops that pick elements one by one, from an index tensor or by position:
// GatherElements, ScatterElements, GatherNd, TensorScatterUpdate, Tril/Triu and
// Cumsum. They lower to DMA kernels (the `gather_elements`, ... kinds of
// akernel.dma).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINDEXOPS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINDEXOPS_TD

def Ascend_GatherElementsOp : Ascend_Op<"GatherElements"> {
  let summary = "gathers single elements along one dimension";
  let description = [{
    `y` has the shape of `index` (which has `x`'s rank); `y[i]` is the element
    of `x` at `i` with coordinate `dim` replaced by `index[i]` (negative:
    from the end). ONNX `GatherElements`, PyTorch `torch.gather`.

    Example:
    ```mlir
    %y = ascend.GatherElements %x, %i {name = "take", dim = 1 : i64}
        : (tensor<2x5xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_IndexTensor:$index,
                            DefaultValuedAttr<I64Attr, "0">:$dim),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_ScatterElementsOp : Ascend_Op<"ScatterElements"> {
  let summary = "writes single elements along one dimension into a copy";
  let description = [{
    `y` is `data` with, for every position `i` of `indices`, the element at
    `i` with coordinate `axis` replaced by `indices[i]` set to `updates[i]`
    (`reduction` = `none`), or combined with it (`add`, `mul`, `max`, `min`,
    rounded to the element type at each step). ONNX `ScatterElements`.

    Example:
    ```mlir
    %y = ascend.ScatterElements %data, %i, %u {name = "put", axis = 1 : i64, reduction = "none"}
        : (tensor<3x3xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<3x3xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$data, Ascend_IndexTensor:$indices,
                            Ascend_Tensor:$updates,
                            DefaultValuedAttr<I64Attr, "0">:$axis,
                            DefaultValuedAttr<StrAttr, "\"none\"">:$reduction),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_GatherNdOp : Ascend_Op<"GatherNd"> {
  let summary = "gathers slices addressed by index tuples";
  let description = [{
    The last dimension of `indices` holds tuples of `k` coordinates into `x`
    (after the first `batch_dims` dimensions, which `x` and `indices`
    share); `y` is `indices.shape[:-1] + x.shape[batch_dims + k:]`.
    ONNX `GatherND`.

    Example:
    ```mlir
    %y = ascend.GatherNd %x, %i {name = "pick"} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_IndexTensor:$indices,
                            DefaultValuedAttr<I64Attr, "0">:$batch_dims),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

def Ascend_TensorScatterUpdateOp : Ascend_Op<"TensorScatterUpdate"> {
  let summary = "writes slices addressed by index tuples into a copy";
  let description = [{
    `y` is `var` with the slice at each tuple of `indices` (last dimension)
    replaced by the matching slice of `updates` (`reduction` = `none`) or
    combined with it (`add`, `mul`, `max`, `min`). `updates` has the shape
    `indices.shape[:-1] + var.shape[k:]`. ONNX `ScatterND`.

    Example:
    ```mlir
    %y = ascend.TensorScatterUpdate %v, %i, %u {name = "set", reduction = "none"}
        : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$var, Ascend_IndexTensor:$indices,
                            Ascend_Tensor:$updates,
                            DefaultValuedAttr<StrAttr, "\"none\"">:$reduction),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

class Ascend_TriangleOp<string mnemonic, string kept> : Ascend_Op<mnemonic,
    [AllTypesMatch<["x", "y"]>]> {
  let summary = "keeps the " # kept # " triangle of the last two dimensions";
  let description = [{
    `y` is `x` where column - row is on the kept side of `diagonal` (0: the
    main diagonal, positive: above it), zero elsewhere, for every matrix of
    the last two dimensions. ONNX `Trilu` (upper = 1 is Triu, 0 is Tril):
    a `k` known at import is `diagonal`; one known only at run time is the
    optional `k` operand (a one-element int32/int64 tensor, read when the
    kernel runs, as the `k` input of CANN's newer Trilu), which then
    replaces `diagonal`.
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Optional<Ascend_IndexTensor>:$k,
                            DefaultValuedAttr<I64Attr, "0">:$diagonal),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}
def Ascend_TrilOp : Ascend_TriangleOp<"Tril", "lower">;
def Ascend_TriuOp : Ascend_TriangleOp<"Triu", "upper">;

def Ascend_CumsumOp : Ascend_Op<"Cumsum", [AllTypesMatch<["x", "y"]>]> {
  let summary = "running sums along one dimension";
  let description = [{
    `y[..., j, ...]` is the sum of `x` along `axis` (a one-element
    int32/int64 tensor, read when the kernel runs, as CANN's Cumsum takes
    it) up to `j` (before `j` when `exclusive`; from the end when
    `reverse`). Floats are summed in fp32, each output rounded to the
    element type. ONNX `CumSum`.

    Example:
    ```mlir
    %y = ascend.Cumsum %x, %axis {name = "cumsum"} : (tensor<2x5xf32>, tensor<i64>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x, Ascend_IndexTensor:$axis,
                            DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                            DefaultValuedAttr<BoolAttr, "false">:$reverse),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_Tensor:$y);
  let hasVerifier = 1;
}

// Ops whose result size depends on their input values: planned like any
// op, left without a kernel, and run by the host when the graph runs
// (lib/Execution/DataDependentOps.cpp), as CANN runs them in dynamic-shape
// mode.

def Ascend_NonZeroOp : Ascend_Op<"NonZero"> {
  let summary = "the coordinates of the non-zero elements";
  let description = [{
    `y[d, i]` is coordinate `d` of the `i`-th non-zero element of `x`, in
    row-major order: `y` is `[rank(x), n]` (CANN's NonZero with
    `transpose = true`, as its ONNX parser sets it), `n` known only when the
    graph runs. ONNX `NonZero`.

    Example:
    ```mlir
    %y = ascend.NonZero %x {name = "nz"} : (tensor<2x3xf32>) -> tensor<2x?xi64>
    ```
  }];
  let arguments = !con((ins Ascend_Tensor:$x), Ascend_CommonAttrs);
  let results = (outs Ascend_IndexTensor:$y);
  let hasVerifier = 1;
}

def Ascend_NonMaxSuppressionV6Op : Ascend_Op<"NonMaxSuppressionV6"> {
  let summary = "greedy non-maximum suppression per batch and class";
  let description = [{
    For every batch `b` and class `c`, visits the boxes by descending score
    (above `score_threshold`), keeps a box unless its IoU with a box kept
    before exceeds `iou_threshold`, and stops after `max_output_size`
    boxes. `y` lists the kept `[b, c, box]` triples, `[?, 3]`. `boxes` is
    `[B, N, 4]` as `[y1, x1, y2, x2]` corners, or `[x, y, w, h]` centers
    with `center_point_box = 1`; `scores` is `[B, C, N]`; the three limits
    are one-element tensors. CANN's ONNX parser casts V6's int32 result to
    int64; here the op writes int64 (the Cast is exact). ONNX
    `NonMaxSuppression`.

    Example:
    ```mlir
    %y = ascend.NonMaxSuppressionV6 %boxes, %scores, %max, %iou, %score {name = "nms"}
        : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>)
        -> tensor<?x3xi64>
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$boxes, Ascend_FloatTensor:$scores,
                            Ascend_IndexTensor:$max_output_size,
                            Ascend_FloatTensor:$iou_threshold,
                            Ascend_FloatTensor:$score_threshold,
                            DefaultValuedAttr<I64Attr, "0">:$center_point_box),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_IndexTensor:$y);
  let hasVerifier = 1;
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINDEXOPS_TD
