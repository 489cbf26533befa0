//===- Einsum.h - ONNX Einsum equations on host tensors ---------*- C++ -*-===//
//
// The AI CPU's Einsum run on the host: an equation such as "bij,bjk->bik"
// parsed against the operands' shapes (ellipses, repeated labels for
// diagonals, the implicit output form), then every output element summed
// over the labels it does not keep.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_EXECUTION_EINSUM_H
#define ASCENDPREC_EXECUTION_EINSUM_H

#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ascendprec::exec {

/// An equation resolved against operand shapes. Labels are numbered: the
/// letters first, then one per ellipsis dimension (counted from the right).
struct EinsumPlan {
  std::vector<std::vector<int>> operandLabels; ///< per operand, per dimension
  std::vector<int> outputLabels;
  std::vector<int> summedLabels; ///< in no output dimension
  std::vector<int64_t> labelSize;
  std::vector<int64_t> outputShape;
};

/// Parses `equation` for operands of `shapes`; nullopt with `why` when it
/// is malformed or does not fit them.
std::optional<EinsumPlan> planEinsum(llvm::StringRef equation,
                                     llvm::ArrayRef<std::vector<int64_t>> shapes,
                                     std::string &why);

/// Computes it: each output element is the sum of its products, in double
/// (int64 for integers), rounded once to the output's dtype.
void runEinsum(const EinsumPlan &plan, llvm::ArrayRef<const runtime::HostTensor *> operands,
               runtime::HostTensor &output);

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_EINSUM_H
