//===- LoweringTables.cpp - which kernel each ascend op becomes -----------===//

#include "LoweringTables.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/IR/OpTypes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"

#include <cstdio>
#include <cstdlib>
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

double ascendprec::kernel::paramValue(const llvm::APFloat &value) {
  float exact = value.convertToFloat();
  // The fewest significant digits that read back as the same float.
  for (int digits = 1; digits < 10; ++digits) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.*g", digits, static_cast<double>(exact));
    double shortest = std::strtod(text, nullptr);
    if (static_cast<float>(shortest) == exact)
      return shortest;
  }
  return exact;
}

std::optional<ElementwiseKind> ascendprec::kernel::elementwiseKindOf(Operation *op) {
  auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op);
  if (!ascendOp || !ascendOp.hasDedicatedOp())
    return std::nullopt;
  std::optional<StringRef> found = ascend::elementwiseKindOfOpType(ascendOp.getOpType());
  if (!found)
    return std::nullopt;
  ElementwiseKind kind{found->str(), {}};
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](ascend::LeakyReluOp leaky) {
        kind.params = {paramValue(leaky.getNegativeSlope())};
      })
      .Case([&](ascend::HardSigmoidOp hard) {
        kind.params = {paramValue(hard.getAlpha()), paramValue(hard.getBeta())};
      })
      .Case([&](ascend::EluOp elu) { kind.params = {paramValue(elu.getAlpha())}; })
      .Case([&](ascend::ThresholdedReluOp relu) {
        kind.params = {paramValue(relu.getAlpha())};
      });
  return kind;
}

bool ascendprec::kernel::isCostlyVectorKind(StringRef kind) {
  static const char *const kCostly[] = {
      "exp",  "log",  "sqrt", "rsqrt", "reciprocal", "div",  "sigmoid", "tanh", "gelu",
      "erf",  "sin",  "cos",  "tan",   "asin",       "acos", "atan",    "sinh", "cosh",
      "asinh", "acosh", "atanh", "pow", "softplus",  "softsign", "elu", "selu", "hard_swish",
      "hard_sigmoid", "mod", "floor_mod"};
  return llvm::is_contained(kCostly, kind);
}

bool ascendprec::kernel::isViewOpType(StringRef opType) {
  return opType == "Reshape" || opType == "Squeeze" || opType == "Unsqueeze" ||
         opType == "Flatten" || opType == "Identity";
}

std::optional<StringRef> ascendprec::kernel::dmaKindOf(StringRef opType) {
  static const llvm::StringMap<StringRef> kinds = {
      {"Transpose", "transpose"}, {"ConcatV2", "concat"}, {"Split", "split"},
      {"StridedSlice", "slice"}, {"Pad", "pad"}, {"GatherV2", "gather"}, {"Tile", "tile"},
      {"BroadcastTo", "broadcast"}, {"DepthToSpace", "depth_to_space"},
      {"SpaceToDepth", "space_to_depth"}, {"OneHot", "one_hot"}, {"Range", "arange"},
      {"Fill", "fill"}, {"ResizeNearestNeighborV2", "resize"},
      {"GatherElements", "gather_elements"}, {"ScatterElements", "scatter_elements"},
      {"GatherNd", "gather_nd"}, {"TensorScatterUpdate", "scatter_nd"}, {"Tril", "triangle"},
      {"Triu", "triangle"}, {"Cumsum", "cumsum"},
      {"ROIAlign", "roi_align"}, {"NLLLoss", "nll_loss"}};
  auto found = kinds.find(opType);
  if (found == kinds.end())
    return std::nullopt;
  return found->second;
}

std::optional<StringRef> ascendprec::kernel::reductionKindOf(StringRef opType) {
  static const llvm::StringMap<StringRef> kinds = {
      {"ReduceSum", "sum"}, {"ReduceMean", "mean"}, {"ReduceMax", "max"},
      {"ReduceMin", "min"}, {"ReduceProd", "prod"}, {"ReduceL1", "l1"}, {"ReduceL2", "l2"},
      {"ReduceSumSquare", "sum_square"}, {"ReduceLogSum", "log_sum"},
      {"ReduceLogSumExp", "log_sum_exp"}, {"ArgMaxV2", "argmax"}, {"ArgMin", "argmin"}};
  auto found = kinds.find(opType);
  if (found == kinds.end())
    return std::nullopt;
  return found->second;
}

ArrayAttr ascendprec::kernel::nodesAttrOf(Operation *op) {
  SmallVector<Attribute, 4> names;
  if (auto name = op->getAttrOfType<StringAttr>("name"))
    names.push_back(name);
  if (isa<ascend::AscendOpInterface>(op))
    if (auto absorbed = op->getAttrOfType<ArrayAttr>("absorbed"))
      llvm::append_range(names, absorbed.getValue());
  return ArrayAttr::get(op->getContext(), names);
}

std::vector<std::string> ascendprec::kernel::nodesOf(Operation *op) {
  auto names = nodesAttrOf(op).getAsValueRange<StringAttr>();
  return std::vector<std::string>(names.begin(), names.end());
}
