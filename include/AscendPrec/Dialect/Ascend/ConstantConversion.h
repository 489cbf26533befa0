//===- ConstantConversion.h - convert constants at compile time -----------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_CONSTANTCONVERSION_H
#define ASCENDPREC_DIALECT_ASCEND_CONSTANTCONVERSION_H

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::ascend {

/// Converts `value` to element type `to` exactly as ascend.Cast does at run
/// time (floats round to nearest-even, float to integer truncates toward
/// zero). Returns null when some element has no defined result (NaN or an
/// out-of-range float to an integer) or the types are not numeric.
DenseElementsAttr convertElements(DenseElementsAttr value, Type to);

/// True when every value of `from` is exactly representable in `to`.
bool isLosslessConversion(Type from, Type to);

} // namespace mlir::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_CONSTANTCONVERSION_H
