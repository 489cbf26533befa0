//===- InputConstraints.h - what values a graph input may hold --*- C++ -*-===//
//
// Some inputs are indices or counts another op depends on: a Gather's
// indices must lie within the gathered axis, a OneHot's depth must be the
// number of classes its declared output has. Random inputs are drawn to fit
// them, and inputs a user gives are checked against them before a run, so
// that a value outside is a user error naming the input, the node and the
// range, not a failure inside a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_EXECUTION_INPUTCONSTRAINTS_H
#define ASCENDPREC_EXECUTION_INPUTCONSTRAINTS_H

#include "AscendPrec/Runtime/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::exec {

struct InputConstraint {
  /// Whole numbers in [low, high) (negative indices count from the end, as
  /// ONNX allows), or exactly `low` (a count that must match a declared
  /// shape).
  bool exact = false;
  int64_t low = 0, high = 0;
  std::string node; ///< the graph node that reads the value
  std::string what; ///< "the indices of Gather along axis 0 (size 5)"
};

/// For each argument of `graph` (a kernels module's graph function), the
/// constraint the ops it feeds put on its values, if any; an input reaches
/// them directly or through Casts and views.
std::vector<std::optional<InputConstraint>> inputConstraints(mlir::ModuleOp kernels,
                                                             mlir::func::FuncOp graph);

/// The first element of `tensor` that breaks `constraint`, as "8 at element
/// 0", or nothing when every element fits.
std::optional<std::string> violation(const runtime::HostTensor &tensor,
                                     const InputConstraint &constraint);

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_INPUTCONSTRAINTS_H
