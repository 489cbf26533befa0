//===- OpTypes.cpp - facts about Ascend IR op type names ------------------===//

#include "AscendPrec/Dialect/Ascend/IR/OpTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"

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
