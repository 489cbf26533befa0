//===- ShapeArithmetic.h - sizes the ascend ops' shapes follow ------------===//
//
// Shape formulas shared by the verifiers and by importers that compute
// result types.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_SHAPEARITHMETIC_H
#define ASCENDPREC_DIALECT_ASCEND_IR_SHAPEARITHMETIC_H

#include <cstdint>

namespace ascendprec::ascend {

/// Elements a NumPy slice `[begin:end:stride]` takes from a dimension of
/// `size`: negative indices count from the end, out-of-range ones clamp
/// (ONNX Slice, ascend.StridedSlice). `stride` must not be 0.
int64_t stridedSliceLength(int64_t size, int64_t begin, int64_t end, int64_t stride);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_IR_SHAPEARITHMETIC_H
