//===- FoldedConstants.h - float constants computed at compile time -------===//
//
// Fusion folds BatchNorm statistics into a Conv's filter and bias, and
// reshapes an Add's [1,C,1,1] bias to the [C] a Conv takes. These helpers
// read a float `ascend.Const` (dense or a resource blob) and make new ones.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_TRANSFORMS_FOLDEDCONSTANTS_H
#define ASCENDPREC_LIB_TRANSFORMS_FOLDEDCONSTANTS_H

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/Builders.h"

#include <optional>
#include <vector>

namespace ascendprec::ascend {

/// The `ascend.Const` defining `value`, if any.
ConstOp constantProducer(Value value);

/// The elements of a float constant as fp32 values (fp16/bf16 widen exactly;
/// an f64 constant is not read). Nothing when the data is not available (an
/// elided resource) or the type is not f16/bf16/f32.
std::optional<std::vector<float>> readFloatConstant(ConstOp op);

/// A new `ascend.Const` named `name` of `type` (f16, bf16 or f32 elements)
/// holding `values`, each rounded to nearest-even into the element type; a
/// resource blob when `asResource` (so a large folded weight is not uniqued
/// into the context), else `dense<...>`.
ConstOp createFloatConstant(OpBuilder &builder, Location loc, StringRef name,
                            RankedTensorType type, ArrayRef<float> values,
                            bool asResource);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_LIB_TRANSFORMS_FOLDEDCONSTANTS_H
