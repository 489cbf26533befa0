//===- AscendLossOps.td - training losses -------------------*- tablegen -*-===//
//
// The loss ops a training graph (graph_run_mode=1) keeps whole, as CANN's
// training adapters emit them; inference imports write losses with the
// pieces of their ONNX function bodies instead (docs/onnx-import.md).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDLOSSOPS_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDLOSSOPS_TD

def Ascend_NLLLossOp : Ascend_Op<"NLLLoss"> {
  let summary = "negative log-likelihood loss of [N, C] log-probabilities";
  let description = [{
    CANN's NLLLoss (a TIK kernel, fp32 only): for each row `n` whose
    `target[n]` is not `ignore_index`, `loss[n] = -x[n, target[n]] *
    weight[target[n]]`, and `w[n] = weight[target[n]]` (0 for ignored
    rows). `y` is `loss` (`reduction = "none"`, shape `[N]`), its sum
    (`"sum"`) or its sum over the sum of `w` (`"mean"`), both of shape
    `[]`; `total_weight` (`[]`) is the sum of `w`. Products, sums and the
    division in fp32. A training graph's ONNX NegativeLogLikelihoodLoss and
    SoftmaxCrossEntropyLoss (after LogSoftmaxV2) become this op, with
    spatial dimensions moved before the classes and flattened into the rows,
    as PyTorch's NPU adapter builds nll_loss2d.

    Example:
    ```mlir
    %y, %total = ascend.NLLLoss %x, %t, %w {name = "loss", reduction = "mean", ignore_index = -100 : i64}
        : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf32>) -> (tensor<f32>, tensor<f32>)
    ```
  }];
  let arguments = !con((ins Ascend_FloatTensor:$x, Ascend_IndexTensor:$target,
                            Ascend_FloatTensor:$weight,
                            DefaultValuedAttr<StrAttr, "\"mean\"">:$reduction,
                            DefaultValuedAttr<I64Attr, "-100">:$ignore_index),
                       Ascend_CommonAttrs);
  let results = (outs Ascend_FloatTensor:$y, Ascend_FloatTensor:$total_weight);
  let hasVerifier = 1;
}

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDLOSSOPS_TD
