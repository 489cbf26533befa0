//===- OpTypes.cpp - facts about Ascend IR op type names ------------------===//

#include "AscendPrec/Dialect/Ascend/IR/OpTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

ComputeUnit ascendprec::ascend::classifyOpType(StringRef opType) {
  // The matrix-unit families of Ascend IR (the recurrent layers are matrix
  // products per step); every other op is vector work.
  static constexpr StringLiteral cubePrefixes[] = {
      "Conv2D",        "Conv3D",         "DepthwiseConv2D",
      "Deconvolution", "MatMul",         "BatchMatMul",
      "GEMM",          "FullyConnection", "DynamicRNN",
      "DynamicGRU",    "RNN",            "Einsum"};
  for (StringRef prefix : cubePrefixes)
    if (opType.starts_with(prefix))
      return ComputeUnit::Cube;
  return ComputeUnit::Vector;
}

bool ascendprec::ascend::hasDedicatedOp(MLIRContext *context, StringRef opType) {
  if (opType == "generic")
    return false;
  return RegisteredOperationName::lookup(("ascend." + opType).str(), context)
      .has_value();
}

bool ascendprec::ascend::isWellFormedOpType(StringRef opType) {
  return !opType.empty() && llvm::isAlpha(opType.front()) &&
         llvm::all_of(opType, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::optional<StringRef> ascendprec::ascend::elementwiseKindOfOpType(StringRef opType) {
  static const llvm::StringMap<StringRef> kinds = {
      {"Add", "add"}, {"Sub", "sub"}, {"Mul", "mul"}, {"RealDiv", "div"},
      {"Maximum", "max"}, {"Minimum", "min"}, {"Pow", "pow"}, {"Mod", "mod"},
      {"FloorMod", "floor_mod"}, {"Neg", "neg"}, {"Abs", "abs"}, {"Sqrt", "sqrt"},
      {"Rsqrt", "rsqrt"}, {"Exp", "exp"}, {"Log", "log"}, {"Erf", "erf"}, {"Relu", "relu"},
      {"Gelu", "gelu"}, {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"}, {"LeakyRelu", "leaky_relu"},
      {"HardSigmoid", "hard_sigmoid"}, {"Reciprocal", "reciprocal"}, {"Ceil", "ceil"},
      {"Floor", "floor"}, {"Round", "round"}, {"Sign", "sign"}, {"Sin", "sin"}, {"Cos", "cos"},
      {"Softplus", "softplus"}, {"Softsign", "softsign"}, {"Elu", "elu"}, {"Tan", "tan"},
      {"Asin", "asin"}, {"Acos", "acos"}, {"Atan", "atan"}, {"Sinh", "sinh"}, {"Cosh", "cosh"},
      {"Asinh", "asinh"}, {"Acosh", "acosh"}, {"Atanh", "atanh"}, {"HardSwish", "hard_swish"},
      {"Selu", "selu"}, {"ThresholdedRelu", "thresholded_relu"}, {"Equal", "cmp_eq"},
      {"Less", "cmp_lt"}, {"Greater", "cmp_gt"}, {"LessEqual", "cmp_le"},
      {"GreaterEqual", "cmp_ge"}, {"IsInf", "is_inf"}, {"IsNan", "is_nan"},
      {"LogicalAnd", "and"}, {"LogicalOr", "or"}, {"LogicalNot", "not"}, {"Select", "select"},
      {"PRelu", "prelu"}, {"ClipByValue", "clip"}, {"BiasAdd", "add"}};
  auto found = kinds.find(opType);
  if (found == kinds.end())
    return std::nullopt;
  return found->second;
}
