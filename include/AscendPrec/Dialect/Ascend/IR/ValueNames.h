//===- ValueNames.h - the names users know values by ----------------------===//
//
// Reports, inserted Casts and messages name a value as the user's model
// does: the producing node's name (with ":N" for result N of a node with
// several), or a graph input's name from the model (the `ascend.name`
// argument attribute ONNX import sets), else `arg<N>`.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_VALUENAMES_H
#define ASCENDPREC_DIALECT_ASCEND_IR_VALUENAMES_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/Value.h"

#include <string>

namespace ascendprec::ascend {

/// The argument attribute holding a graph input's model name.
inline constexpr const char *kArgNameAttr = "ascend.name";
/// A graph input's default value (an ONNX initializer of the input's name,
/// IR version 4 and later): a run that is not given the input uses it.
inline constexpr const char *kArgDefaultAttr = "ascend.default";
/// On a Cast a driver option asked for: the option ("--output_type"), which
/// reports show as the Cast's source.
inline constexpr const char *kRequestedByAttr = "ascend.requested_by";

std::string valueName(Value value);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_IR_VALUENAMES_H
