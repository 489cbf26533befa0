//===- NllLoss.cpp - the nll_loss kernel on the host ----------------------===//
//
// What tbe/impl/nll_loss.py computes, in its fp32: each row's loss is
// -x[n, t] * weight[t] (a product rounded to fp32), ignored rows weigh 0;
// `sum` adds the losses in fp32 row by row, `mean` divides that sum by the
// fp32 sum of the weights. The TIK kernel's vector adds group lanes
// differently; the row-order fp32 sum differs from it by fp32 rounding
// only (docs/onnx-import.md, training losses).
//
//===----------------------------------------------------------------------===//

#include "NllLoss.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using ascendprec::runtime::HostTensor;

namespace {

struct NllLossPlan {
  int64_t ignoreIndex = -100;
  std::string reduction = "mean";
};

bool planNllLoss(ascendprec::kernel::DmaOp op, NllLossPlan &plan, std::string &why) {
  DictionaryAttr params = op.getParamsAttr();
  if (op.getInputs().size() != 3 || op.getOutputs().size() != 2) {
    why = "nll_loss: takes x, target and weight, and writes y and total_weight";
    return false;
  }
  if (auto ignore = params ? params.getAs<IntegerAttr>("ignore_index") : IntegerAttr())
    plan.ignoreIndex = ignore.getInt();
  if (auto reduction = params ? params.getAs<StringAttr>("reduction") : StringAttr())
    plan.reduction = reduction.getValue().str();
  if (plan.reduction != "none" && plan.reduction != "sum" && plan.reduction != "mean") {
    why = "nll_loss: reduction '" + plan.reduction + "' is not none, sum or mean";
    return false;
  }
  return true;
}

} // namespace

bool ascendprec::exec::canRunNllLoss(kernel::DmaOp op, std::string &why) {
  NllLossPlan plan;
  return planNllLoss(op, plan, why);
}

bool ascendprec::exec::runNllLoss(kernel::DmaOp op, ArrayRef<const HostTensor *> inputs,
                                  ArrayRef<HostTensor *> outputs, std::string &error) {
  NllLossPlan plan;
  if (!planNllLoss(op, plan, error) || inputs.size() != 3 || outputs.size() != 2)
    return false;
  const HostTensor &x = *inputs[0], &target = *inputs[1], &weight = *inputs[2];
  HostTensor &y = *outputs[0], &totalWeight = *outputs[1];
  if (x.shape().size() != 2) {
    error = "nll_loss: x must be [N, C]";
    return false;
  }
  int64_t rows = x.shape()[0], classes = x.shape()[1];
  float lossSum = 0.0f, weightSum = 0.0f;
  for (int64_t n = 0; n < rows; ++n) {
    auto t = static_cast<int64_t>(target.get(n));
    float loss = 0.0f, w = 0.0f;
    if (t != plan.ignoreIndex) {
      if (t < 0 || t >= classes) {
        error = "nll_loss: the target of row " + std::to_string(n) + " is " + std::to_string(t) +
                ", not a class in [0, " + std::to_string(classes) + ") nor ignore_index " +
                std::to_string(plan.ignoreIndex);
        return false;
      }
      w = static_cast<float>(weight.get(t));
      loss = -static_cast<float>(x.get(n * classes + t)) * w;
    }
    if (plan.reduction == "none")
      y.set(n, loss);
    lossSum += loss;
    weightSum += w;
  }
  if (plan.reduction == "sum")
    y.set(0, lossSum);
  else if (plan.reduction == "mean")
    y.set(0, lossSum / weightSum);
  totalWeight.set(0, weightSum);
  return true;
}
