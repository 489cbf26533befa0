//===- AscendRecurrent.cpp - verifiers of DynamicRNN, DynamicGRUV2, RNN ---===//
//
// One verifier for the three recurrent layers: ONNX's shapes, checked where
// they are static.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include <type_traits>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// `dim` of `type` when static, else nullopt.
std::optional<int64_t> staticDim(Type type, unsigned dim) {
  auto ranked = cast<RankedTensorType>(type);
  if (dim >= ranked.getRank() || ranked.isDynamicDim(dim))
    return std::nullopt;
  return ranked.getDimSize(dim);
}

/// `value`'s dimension `dim` is `expected` (or dynamic).
LogicalResult expectDim(Operation *op, StringRef what, Value value, unsigned dim,
                        int64_t expected) {
  std::optional<int64_t> actual = staticDim(value.getType(), dim);
  if (actual && *actual != expected)
    return op->emitOpError() << "expects " << what << " dimension " << dim << " to be "
                             << expected << ", got " << *actual;
  return success();
}

template <typename RecurrentOp>
LogicalResult verifyRecurrent(RecurrentOp op) {
  Operation *raw = op.getOperation();
  int64_t hidden = op.getHiddenSize();
  if (hidden <= 0)
    return op.emitOpError() << "expects a positive hidden_size, got " << hidden;
  int64_t directions = op.getDirection() == RnnDirection::Bidirectional ? 2 : 1;
  int64_t gateRows = RecurrentOp::kGates * hidden;
  for (auto [name, value] : {std::pair<StringRef, Value>{"x", op.getX()},
                             {"w", op.getW()},
                             {"r", op.getR()}})
    if (cast<RankedTensorType>(value.getType()).getRank() != 3)
      return op.emitOpError() << "expects " << name << " of rank 3, got " << value.getType();
  if (failed(expectDim(raw, "w", op.getW(), 0, directions)) ||
      failed(expectDim(raw, "w", op.getW(), 1, gateRows)) ||
      failed(expectDim(raw, "r", op.getR(), 0, directions)) ||
      failed(expectDim(raw, "r", op.getR(), 1, gateRows)) ||
      failed(expectDim(raw, "r", op.getR(), 2, hidden)))
    return failure();
  if (std::optional<int64_t> inputSize = staticDim(op.getX().getType(), 2))
    if (failed(expectDim(raw, "w", op.getW(), 2, *inputSize)))
      return failure();
  if (Value bias = op.getB())
    if (failed(expectDim(raw, "b", bias, 0, directions)) ||
        failed(expectDim(raw, "b", bias, 1, 2 * gateRows)))
      return failure();
  if (Value lengths = op.getSeqLength()) {
    // The kernel rows are positional: seq_length is last only when every
    // float operand before it is there.
    bool hasInitC = true;
    if constexpr (std::is_same_v<RecurrentOp, DynamicRNNOp>)
      hasInitC = static_cast<bool>(op.getInitC());
    if (!op.getB() || !op.getInitH() || !hasInitC)
      return op.emitOpError("has seq_length, so expects b and the initial states (zeros when "
                            "the model has none)");
    auto type = cast<RankedTensorType>(lengths.getType());
    if (type.getRank() != 1 || !type.getElementType().isInteger(32))
      return op.emitOpError() << "expects seq_length as int32 [batch] (one length per batch "
                                 "row), got "
                              << type;
    if (std::optional<int64_t> batch = staticDim(op.getX().getType(), 1))
      if (failed(expectDim(raw, "seq_length", lengths, 0, *batch)))
        return failure();
  }
  auto y = cast<RankedTensorType>(op.getY().getType());
  if (y.getRank() != 4)
    return op.emitOpError() << "expects y of rank 4 ([seq_length, num_directions, batch, "
                               "hidden_size]), got "
                            << y;
  if (failed(expectDim(raw, "y", op.getY(), 1, directions)) ||
      failed(expectDim(raw, "y", op.getY(), 3, hidden)) ||
      failed(expectDim(raw, "y_h", op.getYH(), 0, directions)) ||
      failed(expectDim(raw, "y_h", op.getYH(), 2, hidden)))
    return failure();
  return success();
}

} // namespace

LogicalResult DynamicRNNOp::verify() { return verifyRecurrent(*this); }
LogicalResult DynamicGRUV2Op::verify() { return verifyRecurrent(*this); }
LogicalResult RNNOp::verify() { return verifyRecurrent(*this); }
