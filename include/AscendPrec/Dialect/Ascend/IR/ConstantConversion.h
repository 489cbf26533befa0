//===- ConstantConversion.h - convert constants at compile time -----------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_CONSTANTCONVERSION_H
#define ASCENDPREC_DIALECT_ASCEND_IR_CONSTANTCONVERSION_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace ascendprec::ascend {

/// Converts `value` to element type `to` exactly as ascend.Cast does at run
/// time (floats round to nearest-even, float to integer truncates toward
/// zero). Returns null when some element has no defined result (NaN or an
/// out-of-range float to an integer), the types are not numeric, or the
/// value's data is not available (an elided resource).
///
/// A `dense<...>` value gives a `dense<...>` result. A `dense_resource<...>`
/// value (a large constant, e.g. an imported weight) gives a new resource
/// blob, so that converting a large weight never copies it into the
/// context's uniqued storage.
ElementsAttr convertElements(ElementsAttr value, Type to);

/// True when every value of `from` is exactly representable in `to`.
bool isLosslessConversion(Type from, Type to);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_IR_CONSTANTCONVERSION_H
