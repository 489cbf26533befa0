//===- ONNXLossOps.cpp - the training losses, op by op --------------------===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss are written with the
// ops their ONNX function bodies use, each of which has a CANN kernel:
//
//   NLL:  safe   = Select(target == ignore_index, 0, target)   (with ignore_index)
//         picked = GatherElements(input, Unsqueeze(safe, 1), dim 1), squeezed
//         w      = GatherV2(weight, safe) (or 1), 0 where ignored
//         loss   = Neg(picked) * w
//         none: loss; sum: ReduceSum(loss); mean: ReduceSum(loss) / ReduceSum(w)
//   SCE:  log_prob = LogSoftmaxV2(scores, axes [1]); NLL(log_prob, labels, ...)
//
// Why not one op: CANN's ONNX parser maps NegativeLogLikelihoodLoss to
// nothing, and SoftmaxCrossEntropyLoss to an op whose TBE compute does not
// read ignore_index (docs/onnx-import.md). The pieces keep ONNX's meaning
// and are planned, lowered and run like any op of the model.
//
// A training graph (graph_run_mode=1) keeps the loss whole instead, as
// CANN's training adapters build it: PyTorch's NPU nll_loss / nll_loss2d
// and cross_entropy run CANN's NLLLoss kernel on [rows, C] (classes last,
// int32 targets, a weight of ones when none is given), after LogSoftmaxV2
// for the cross entropy.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

struct LossInputs {
  Value scores;          ///< [N, C, d...] float (log-probabilities for NLL)
  Value target;          ///< [N, d...] int32/int64
  Value weight;          ///< [C] or null
  RankedTensorType scoresType, targetType;
};

/// The loss of `in` as NegativeLogLikelihoodLoss defines it; `suffix`
/// prefixes the pieces' names (the result carries the node's own name when
/// `last` is set).
Value nllLoss(NodeConverter &n, const LossInputs &in, const std::string &suffix, Type resultType) {
  Builder &b = n.builder;
  Type element = in.scoresType.getElementType();
  Type index = in.targetType.getElementType();
  RankedTensorType target = in.targetType;
  RankedTensorType perElement = target.clone(element);
  std::optional<int64_t> ignore;
  if (n.attr("ignore_index"))
    ignore = n.intAttr("ignore_index", 0);
  Value safe = in.target, ignored;
  if (ignore) {
    Value ignoreValue = n.makeConst(scalarValue(index, static_cast<double>(*ignore)),
                                    "ignore_index");
    ignored = buildValue(n, "ascend.Equal", {in.target, ignoreValue}, target.clone(b.getI1Type()),
                         {}, suffix + "ignored");
    Value zero = n.makeConst(scalarValue(index, 0), "zero_index");
    safe = buildValue(n, "ascend.Select", {ignored, zero, in.target}, target, {}, suffix + "safe_target");
  }
  // target [N, d...] -> [N, 1, d...]: one class per position along dim 1.
  SmallVector<int64_t> withClass(target.getShape());
  withClass.insert(withClass.begin() + 1, 1);
  Value column = safe ? buildValue(n, "ascend.Reshape", {safe},
                                   RankedTensorType::get(withClass, index), {},
                                   suffix + "target_column")
                      : Value();
  Value picked = column ? buildValue(n, "ascend.GatherElements", {in.scores, column},
                                     RankedTensorType::get(withClass, element),
                                     {b.getNamedAttr("dim", b.getI64IntegerAttr(1))},
                                     suffix + "picked")
                        : Value();
  Value flat = picked ? buildValue(n, "ascend.Reshape", {picked}, perElement, {},
                                   suffix + "picked_flat")
                      : Value();
  if (!flat || (ignore && !safe))
    return Value();
  Value weights;
  if (in.weight)
    weights = buildValue(n, "ascend.GatherV2", {in.weight, safe}, perElement,
                         {b.getNamedAttr("axis", b.getI64IntegerAttr(0))}, suffix + "weights");
  if (ignore) {
    Value zero = n.makeConst(scalarValue(element, 0), "zero");
    Value kept = weights ? weights : n.makeConst(scalarValue(element, 1), "one");
    weights = buildValue(n, "ascend.Select", {ignored, zero, kept}, perElement, {},
                         suffix + "kept_weights");
  }
  if ((in.weight || ignore) && !weights)
    return Value();
  // Without a reduction the last op is the node's result and has its name.
  std::string reduction = n.stringAttr("reduction", "mean");
  bool reduces = reduction != "none";
  Value loss = buildValue(n, "ascend.Neg", {flat}, perElement, {},
                          reduces || weights ? suffix + "neg" : "");
  if (loss && weights)
    loss = buildValue(n, "ascend.Mul", {loss, weights}, perElement, {},
                      reduces ? suffix + "weighted" : "");
  if (!reduces || !loss)
    return loss;
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < target.getRank(); ++d)
    all.push_back(d);
  auto scalar = RankedTensorType::get({}, element);
  SmallVector<NamedAttribute> reduceAll = {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(all)),
                                           b.getNamedAttr("keep_dims", b.getBoolAttr(false))};
  if (reduction == "sum")
    return buildValue(n, "ascend.ReduceSum", {loss}, resultType, reduceAll);
  Value total = buildValue(n, "ascend.ReduceSum", {loss}, scalar, reduceAll, suffix + "total");
  if (!total)
    return Value();
  if (!weights)
    return buildValue(n, "ascend.RealDiv",
                      {total, n.makeConst(scalarValue(element, static_cast<double>(
                                                                   target.getNumElements())),
                                          "count")},
                      resultType);
  Value weightSum = buildValue(n, "ascend.ReduceSum", {weights}, scalar, reduceAll,
                               suffix + "weight_sum");
  if (!weightSum)
    return Value();
  return buildValue(n, "ascend.RealDiv", {total, weightSum}, resultType);
}

/// The inputs, checked: static shapes (the mean's count and the gather need
/// them), float scores of rank 2 or more, integer targets of one rank less.
std::optional<LossInputs> lossInputs(NodeConverter &n) {
  LossInputs in;
  in.scoresType = n.inputType(0);
  in.targetType = n.inputType(1);
  if (!in.scoresType || !in.targetType || !in.scoresType.hasStaticShape() ||
      !in.targetType.hasStaticShape()) {
    n.rejection = "shapes known only at run time";
    return std::nullopt;
  }
  Type index = in.targetType.getElementType();
  if (!isa<FloatType>(in.scoresType.getElementType()) || in.scoresType.getRank() < 2 ||
      in.targetType.getRank() != in.scoresType.getRank() - 1 ||
      !(index.isInteger(32) || index.isInteger(64)))
    return std::nullopt;
  std::string reduction = n.stringAttr("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    n.rejection = "reduction '" + reduction + "'";
    return std::nullopt;
  }
  in.scores = n.input(0);
  in.target = n.input(1);
  in.weight = n.hasInput(2) ? n.input(2) : Value();
  return in;
}

/// The loss as one CANN NLLLoss (graph_run_mode=1): scores [N, C, d...]
/// become rows [N*d..., C] (classes moved last, then flattened), targets
/// int32 rows; a `none` loss is reshaped back to the targets' shape.
Value trainingNllLoss(NodeConverter &n, const LossInputs &in, RankedTensorType resultType) {
  Builder &b = n.builder;
  RankedTensorType scores = in.scoresType;
  Type element = scores.getElementType();
  int64_t rank = scores.getRank(), classes = scores.getDimSize(1);
  int64_t rows = in.targetType.getNumElements();
  std::string reduction = n.stringAttr("reduction", "mean");
  bool reshapeBack = reduction == "none" && in.targetType.getRank() > 1;
  Value x = in.scores;
  if (rank > 2) {
    SmallVector<int64_t> perm = {0}, moved = {scores.getDimSize(0)};
    for (int64_t d = 2; d < rank; ++d) {
      perm.push_back(d);
      moved.push_back(scores.getDimSize(d));
    }
    perm.push_back(1);
    moved.push_back(classes);
    x = buildValue(n, "ascend.Transpose", {x}, RankedTensorType::get(moved, element),
                   {b.getNamedAttr("perm", b.getDenseI64ArrayAttr(perm))}, "/classes_last");
    x = x ? buildValue(n, "ascend.Reshape", {x}, RankedTensorType::get({rows, classes}, element),
                       {}, "/rows")
          : Value();
  }
  Value target = in.target;
  if (!in.targetType.getElementType().isInteger(32))
    target = buildValue(n, "ascend.Cast", {target},
                        RankedTensorType::get(in.targetType.getShape(), b.getI32Type()), {},
                        "/target_int32");
  if (target && in.targetType.getRank() != 1)
    target = buildValue(n, "ascend.Reshape", {target},
                        RankedTensorType::get({rows}, b.getI32Type()), {}, "/target_rows");
  Value weight = in.weight;
  if (!weight)
    weight = n.makeConst(DenseElementsAttr::get(RankedTensorType::get({classes}, element),
                                                b.getFloatAttr(element, 1.0)),
                         "weight_ones");
  if (!x || !target || !weight)
    return Value();
  auto scalar = RankedTensorType::get({}, element);
  Type lossType = reduction == "none" ? Type(RankedTensorType::get({rows}, element))
                                      : Type(resultType);
  Operation *loss = buildOp(
      n, "ascend.NLLLoss", {x, target, weight}, {lossType, scalar},
      {b.getNamedAttr("reduction", b.getStringAttr(reduction)),
       b.getNamedAttr("ignore_index", b.getI64IntegerAttr(n.intAttr("ignore_index", -100)))},
      reshapeBack ? "/nll_loss" : "");
  if (!loss)
    return Value();
  if (!reshapeBack)
    return loss->getResult(0);
  return buildValue(n, "ascend.Reshape", {loss->getResult(0)}, resultType);
}

LogicalResult negativeLogLikelihood(NodeConverter &n) {
  std::optional<LossInputs> in = lossInputs(n);
  RankedTensorType y = n.outputType(0);
  if (!in || !y)
    return failure();
  if (n.trainingGraph)
    return setResult(n, trainingNllLoss(n, *in, y));
  return setResult(n, nllLoss(n, *in, "/", y));
}

LogicalResult softmaxCrossEntropy(NodeConverter &n) {
  std::optional<LossInputs> in = lossInputs(n);
  RankedTensorType y = n.outputType(0);
  if (!in || !y)
    return failure();
  Builder &b = n.builder;
  Value logProb = buildValue(n, "ascend.LogSoftmaxV2", {in->scores}, in->scoresType,
                             {b.getNamedAttr("axes", b.getDenseI64ArrayAttr({1}))}, "/log_prob");
  if (!logProb)
    return failure();
  LossInputs fromLogProb = *in;
  fromLogProb.scores = logProb;
  Value loss = n.trainingGraph ? trainingNllLoss(n, fromLogProb, y)
                               : nllLoss(n, fromLogProb, "/", y);
  if (!loss)
    return failure();
  n.results = {loss};
  if (n.node.output_size() > 1)
    n.results.push_back(logProb);
  return success();
}

} // namespace

LogicalResult ascendprec::onnximport::convertLossOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (type == "NegativeLogLikelihoodLoss")
    return negativeLogLikelihood(n);
  if (type == "SoftmaxCrossEntropyLoss")
    return softmaxCrossEntropy(n);
  return failure();
}
