//===- AscendQuantVerifiers.cpp - verifiers of the quantization ops -------===//
//
// AscendQuant, AscendDequant and AscendAntiQuant (AscendQuantOps.td).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "VerifyUtils.h"

#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::ascend::verify;

/// A scale the kernel can multiply by: finite and not zero.
static LogicalResult expectUsableScale(Operation *op, float scale) {
  if (!std::isfinite(scale) || scale == 0.0f)
    return op->emitOpError() << "expects a finite, non-zero 'scale', got " << scale;
  return success();
}

LogicalResult AscendQuantOp::verify() {
  if (failed(expectUsableScale(*this, getScale().convertToFloat())))
    return failure();
  if (!std::isfinite(getOffset().convertToFloat()))
    return emitOpError("expects a finite 'offset'");
  StringRef mode = getRoundMode();
  if (mode != "Round" && mode != "Floor" && mode != "Ceil" && mode != "Trunc")
    return emitOpError() << "expects 'round_mode' to be Round, Floor, Ceil or Trunc, got '"
                         << mode << "'";
  return success();
}

LogicalResult AscendDequantOp::verify() {
  if (failed(expectSameShape(*this, "'y'", getY(), getX())))
    return failure();
  RankedTensorType x = tensorType(getX()), scale = tensorType(getDeqScale());
  FailureOr<int64_t> axis = normalizeAxis(*this, "channel_axis", getChannelAxis(), x.getRank());
  if (failed(axis))
    return failure();
  if (scale.getRank() != 1)
    return emitOpError() << "expects 'deq_scale' of rank 1 (one scale per channel, or one), got "
                         << scale;
  int64_t scales = scale.getDimSize(0), channels = x.getDimSize(*axis);
  if (isKnown(scales) && scales != 1 && isKnown(channels) && scales != channels)
    return emitOpError() << "expects 'deq_scale' to hold 1 or " << channels
                         << " scales (dimension " << *axis << " of 'x'), got " << scales;
  if (getSqrtMode())
    return emitOpError("sqrt_mode is not supported: CANN's fp32 (uint64) deq_scale rules it out");
  return success();
}

LogicalResult AscendAntiQuantOp::verify() {
  if (failed(expectUsableScale(*this, getScale().convertToFloat())))
    return failure();
  if (!std::isfinite(getOffset().convertToFloat()))
    return emitOpError("expects a finite 'offset'");
  return success();
}
