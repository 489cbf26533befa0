//===- AscendLossVerifiers.cpp - verifiers of the loss ops ----------------===//
//
// NLLLoss (AscendLossOps.td).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::ascend::verify;

LogicalResult NLLLossOp::verify() {
  StringRef reduction = getReduction();
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return emitOpError() << "expects 'reduction' none, sum or mean, got '" << reduction << "'";
  if (failed(expectRank(*this, "'x' ([N, C])", getX(), 2)) ||
      failed(expectRank(*this, "'target' ([N])", getTarget(), 1)) ||
      failed(expectRank(*this, "'weight' ([C])", getWeight(), 1)) ||
      failed(expectRank(*this, "'total_weight'", getTotalWeight(), 0)) ||
      failed(expectRank(*this, "'y'", getY(), reduction == "none" ? 1 : 0)))
    return failure();
  RankedTensorType x = tensorType(getX());
  if (failed(expectDim(*this, "dimension 0 of 'target' (the rows of 'x')",
                       tensorType(getTarget()).getDimSize(0), x.getDimSize(0))) ||
      failed(expectDim(*this, "dimension 0 of 'weight' (the classes of 'x')",
                       tensorType(getWeight()).getDimSize(0), x.getDimSize(1))))
    return failure();
  if (reduction == "none" &&
      failed(expectDim(*this, "dimension 0 of 'y' (the rows of 'x')",
                       tensorType(getY()).getDimSize(0), x.getDimSize(0))))
    return failure();
  Type element = x.getElementType();
  if (tensorType(getWeight()).getElementType() != element ||
      tensorType(getY()).getElementType() != element ||
      tensorType(getTotalWeight()).getElementType() != element)
    return emitOpError("expects 'weight', 'y' and 'total_weight' of the element type of 'x'");
  return success();
}
