//===- InputConstraints.cpp - what values a graph input may hold ----------===//

#include "AscendPrec/Execution/InputConstraints.h"

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;

namespace {

int64_t paramOf(kernel::DmaOp dma, StringRef key, int64_t fallback) {
  if (DictionaryAttr params = dma.getParamsAttr())
    if (auto value = params.getAs<IntegerAttr>(key))
      return value.getInt();
  return fallback;
}

std::string firstNode(kernel::LaunchOp launch) {
  if (ArrayAttr nodes = launch.getNodesAttr(); nodes && !nodes.empty())
    return cast<StringAttr>(nodes[0]).str();
  return launch.getKernel().str();
}

/// The constraint a DMA op puts on its input `index`, if any.
std::optional<InputConstraint> constraintOf(kernel::DmaOp dma, unsigned index,
                                            const std::string &node) {
  StringRef kind = dma.getKind();
  auto shapeOf = [](Value value) { return cast<ShapedType>(value.getType()).getShape(); };
  if (kind == "gather" && index == 1 && !dma.getInputs().empty()) {
    ArrayRef<int64_t> data = shapeOf(dma.getInputs()[0]);
    int64_t axis = paramOf(dma, "axis", 0);
    if (axis < 0)
      axis += static_cast<int64_t>(data.size());
    if (axis < 0 || axis >= static_cast<int64_t>(data.size()) || data[axis] <= 0)
      return std::nullopt;
    return InputConstraint{false, -data[axis], data[axis], node,
                           "the indices of Gather along axis " + std::to_string(axis) +
                               " (size " + std::to_string(data[axis]) + ")"};
  }
  if (kind == "cumsum" && index == 1 && !dma.getInputs().empty()) {
    auto rank = static_cast<int64_t>(shapeOf(dma.getInputs()[0]).size());
    if (rank == 0)
      return std::nullopt;
    return InputConstraint{false, -rank, rank, node,
                           "the axis of CumSum over a rank-" + std::to_string(rank) + " input"};
  }
  if (kind == "one_hot" && index <= 1 && !dma.getOutputs().empty()) {
    ArrayRef<int64_t> out = shapeOf(dma.getOutputs()[0]);
    int64_t axis = paramOf(dma, "axis", -1);
    if (axis < 0)
      axis += static_cast<int64_t>(out.size());
    if (axis < 0 || axis >= static_cast<int64_t>(out.size()) || out[axis] <= 0)
      return std::nullopt;
    int64_t depth = out[axis];
    if (index == 1)
      return InputConstraint{true, depth, depth, node,
                             "the depth of OneHot, whose declared output has " +
                                 std::to_string(depth) + " classes along axis " +
                                 std::to_string(axis)};
    return InputConstraint{false, -depth, depth, node,
                           "the indices of OneHot (depth " + std::to_string(depth) + ")"};
  }
  return std::nullopt;
}

/// Whether `kernel` only converts or views its one input (a Cast): what the
/// input holds reaches its output unchanged in value.
bool passesValuesThrough(kernel::KernelOp kernel) {
  Block &body = kernel.getBody().front();
  if (body.getNumArguments() != 2)
    return false;
  bool onlyCasts = true, hasCast = false;
  kernel.walk([&](Operation *op) {
    if (isa<kernel::CastOp>(op))
      hasCast = true;
    else if (isa<kernel::DmaOp, kernel::VectorOp>(op))
      onlyCasts = false;
  });
  return onlyCasts && hasCast;
}

} // namespace

std::vector<std::optional<InputConstraint>> exec::inputConstraints(ModuleOp kernels,
                                                                   func::FuncOp graph) {
  SymbolTable symbols(kernels);
  std::vector<std::optional<InputConstraint>> result(graph.getNumArguments());
  for (BlockArgument argument : graph.getArguments()) {
    SmallVector<Value> worklist = {argument};
    while (!worklist.empty() && !result[argument.getArgNumber()]) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (isa<kernel::ViewOp>(user)) {
          worklist.push_back(user->getResult(0));
          continue;
        }
        auto launch = dyn_cast<kernel::LaunchOp>(user);
        if (!launch)
          continue;
        auto kernel = symbols.lookup<kernel::KernelOp>(launch.getKernel());
        if (!kernel)
          continue;
        BlockArgument inKernel = kernel.getBody().front().getArgument(use.getOperandNumber());
        kernel.walk([&](kernel::DmaOp dma) {
          for (auto [index, input] : llvm::enumerate(dma.getInputs()))
            if (input == inKernel && !result[argument.getArgNumber()])
              result[argument.getArgNumber()] =
                  constraintOf(dma, static_cast<unsigned>(index), firstNode(launch));
        });
        if (passesValuesThrough(kernel) && launch->getNumResults() == 1)
          worklist.push_back(launch->getResult(0));
      }
    }
  }
  return result;
}

std::optional<std::string> exec::violation(const runtime::HostTensor &tensor,
                                           const InputConstraint &constraint) {
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    double value = tensor.get(i);
    bool fits = constraint.exact ? value == static_cast<double>(constraint.low)
                                 : std::isfinite(value) && value >= constraint.low &&
                                       value < constraint.high;
    if (!fits) {
      char text[64];
      std::snprintf(text, sizeof(text), "%.17g at element %lld", value,
                    static_cast<long long>(i));
      return std::string(text);
    }
  }
  return std::nullopt;
}
