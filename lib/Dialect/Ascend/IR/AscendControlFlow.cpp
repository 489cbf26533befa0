//===- AscendControlFlow.cpp - verifiers of If, Loop and Scan -------------===//
//
// The region signatures ONNX defines for If, Loop and Scan: what each body
// takes, what its Yield hands back, and how that lines up with the op's
// operands and results. Shapes need only be compatible (a branch may yield a
// static shape where the op's result is dynamic); dtypes must match.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// Same dtype and compatible shapes.
bool compatible(Type a, Type b) {
  return getElementTypeOrSelf(a) == getElementTypeOrSelf(b) &&
         succeeded(verifyCompatibleShape(a, b));
}

YieldOp yieldOf(Region &region) { return cast<YieldOp>(region.front().getTerminator()); }

/// `actual[i]` fits `expected[i]` for every i, else an error naming `what`.
LogicalResult expectCompatible(Operation *op, StringRef what, TypeRange actual,
                               TypeRange expected, unsigned firstIndex = 0) {
  for (auto [i, pair] : llvm::enumerate(llvm::zip(actual, expected))) {
    auto [got, want] = pair;
    if (!compatible(got, want))
      return op->emitOpError() << what << " #" << i + firstIndex << " is " << got
                               << ", which does not fit " << want;
  }
  return success();
}

/// A block argument or scan slice must be `tensor<dtype>` with one element.
bool isScalarOf(Type type, Type dtype) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType() == dtype &&
         (!tensor.hasStaticShape() || tensor.getNumElements() == 1);
}

/// A stacked scan output has one more dimension than its slice.
LogicalResult expectStacked(Operation *op, Type stacked, Type slice, unsigned index) {
  auto whole = dyn_cast<RankedTensorType>(stacked);
  auto part = dyn_cast<RankedTensorType>(slice);
  if (getElementTypeOrSelf(stacked) != getElementTypeOrSelf(slice))
    return op->emitOpError() << "scan output #" << index << " is " << stacked
                             << ", whose dtype differs from its slice " << slice;
  if (whole && part && whole.getRank() != part.getRank() + 1)
    return op->emitOpError() << "scan output #" << index << " is " << stacked
                             << ": expected rank " << part.getRank() + 1
                             << " (its slices " << slice << " stacked)";
  return success();
}

} // namespace

LogicalResult IfOp::verify() {
  if (auto cond = getCond().getType(); cond.hasStaticShape() && cond.getNumElements() != 1)
    return emitOpError() << "expects a condition with one element, got " << cond;
  for (auto [regionName, region] :
       {std::pair<StringRef, Region *>{"then_branch", &getThenBranch()},
        {"else_branch", &getElseBranch()}}) {
    YieldOp yield = yieldOf(*region);
    if (yield.getValues().size() != getNumResults())
      return emitOpError() << regionName << " yields " << yield.getValues().size()
                           << " values for " << getNumResults() << " results";
    if (failed(expectCompatible(*this, regionName.str() + " value",
                                yield.getValues().getTypes(), getResultTypes())))
      return failure();
  }
  return success();
}

LogicalResult LoopOp::verify() {
  Block &body = getBody().front();
  unsigned carried = getNumCarried();
  MLIRContext *context = getContext();
  if (body.getNumArguments() != carried + 2)
    return emitOpError() << "expects a body taking the iteration number, the condition "
                            "and "
                         << carried << " loop-carried values; it takes "
                         << body.getNumArguments() << " arguments";
  if (!isScalarOf(body.getArgument(0).getType(), IntegerType::get(context, 64)) ||
      !isScalarOf(body.getArgument(1).getType(), IntegerType::get(context, 1)))
    return emitOpError() << "expects the body's first arguments to be tensor<i64> (the "
                            "iteration number) and tensor<i1> (the condition)";
  if (failed(expectCompatible(*this, "body argument", TypeRange(body.getArgumentTypes()).drop_front(2),
                              getInitial().getTypes(), 2)))
    return failure();
  YieldOp yield = yieldOf(getBody());
  TypeRange yielded = yield.getValues().getTypes();
  if (yielded.size() < carried + 1 || !isScalarOf(yielded[0], IntegerType::get(context, 1)))
    return emitOpError() << "expects the body to yield the condition (tensor<i1>) and "
                         << carried << " loop-carried values first";
  if (getNumResults() != yielded.size() - 1)
    return emitOpError() << "has " << getNumResults() << " results; the body yields "
                         << yielded.size() - 1 << " values after the condition";
  if (failed(expectCompatible(*this, "loop-carried result", TypeRange(getResultTypes()).take_front(carried),
                              yielded.slice(1, carried))))
    return failure();
  for (unsigned i = carried; i < getNumResults(); ++i)
    if (failed(expectStacked(*this, getResult(i).getType(), yielded[i + 1], i)))
      return failure();
  return success();
}

LogicalResult ScanOp::verify() {
  Block &body = getBody().front();
  unsigned states = getInitial().size(), inputs = getScanInputs().size();
  if (inputs == 0)
    return emitOpError() << "expects at least one scan input";
  if (body.getNumArguments() != states + inputs)
    return emitOpError() << "expects a body taking " << states << " state values and "
                         << inputs << " scan slices; it takes " << body.getNumArguments()
                         << " arguments";
  if (failed(expectCompatible(*this, "body argument", TypeRange(body.getArgumentTypes()).take_front(states),
                              getInitial().getTypes())))
    return failure();
  for (auto [name, array, size] :
       {std::tuple<StringRef, std::optional<ArrayRef<int64_t>>, size_t>{
            "scan_input_axes", getScanInputAxes(), inputs},
        {"scan_input_directions", getScanInputDirections(), inputs},
        {"scan_output_axes", getScanOutputAxes(), getNumResults() - states},
        {"scan_output_directions", getScanOutputDirections(), getNumResults() - states}})
    if (array && array->size() != size)
      return emitOpError() << "expects " << size << " entries in " << name << ", got "
                           << array->size();
  YieldOp yield = yieldOf(getBody());
  TypeRange yielded = yield.getValues().getTypes();
  if (yielded.size() < states || yielded.size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results; the body yields "
                         << yielded.size() << " values (" << states << " states first)";
  if (failed(expectCompatible(*this, "state result", TypeRange(getResultTypes()).take_front(states),
                              yielded.take_front(states))))
    return failure();
  for (unsigned i = states; i < getNumResults(); ++i)
    if (failed(expectStacked(*this, getResult(i).getType(), yielded[i], i)))
      return failure();
  return success();
}
