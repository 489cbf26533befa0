//===- NodeLocation.h - where a remark about a node points ------*- C++ -*-===//
//
// A remark about a node carries the node's name in its location, whatever
// the op's own location is (a text model's file:line:col, an ONNX node's
// NameLoc, the location a fused or inserted op inherited): prec-compile's
// --explain files every remark under the node it names.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_NODELOCATION_H
#define ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_NODELOCATION_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

namespace ascendprec::ascend {

/// `loc` renamed to `node`: NameLoc(node, the file location inside `loc`).
inline Location nodeLocation(StringAttr node, Location loc) {
  if (!node || node.getValue().empty())
    return loc;
  if (auto name = dyn_cast<NameLoc>(loc)) {
    if (name.getName() == node)
      return loc;
    loc = name.getChildLoc();
  }
  return NameLoc::get(node, loc);
}

/// The location of a remark about `op`: its own, named by its "name"
/// attribute when it has one.
inline Location nodeLocation(Operation *op) {
  return nodeLocation(op->getAttrOfType<StringAttr>("name"), op->getLoc());
}

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_TRANSFORMS_NODELOCATION_H
