//===- DataMovement.h - DMA kernels run on the host -----------------------===//
//
// The host executor's `akernel.dma`: the DMA engines only move bytes, so
// every kind copies elements bit-exactly (any dtype, fp16/bf16 as their
// 16-bit patterns, int64 exactly). The kinds that make values (`fill`,
// `arange`, `one_hot`, and `pad`'s constant) store them rounded to the
// output dtype, to nearest even, as the device stores them.
//
// Kinds and their `params` (the graph op's attributes; absent ones take the
// graph op's default):
//
//   transpose       perm                          (Transpose)
//   concat          concat_dim, negative ok       (ConcatV2; inputs = pieces)
//   split           axis, negative ok             (Split; outputs = pieces)
//   slice           begin, end, strides           (StridedSlice: NumPy
//                   clamping, negative indices and strides)
//   pad             paddings [b0, e0, b1, e1, ...] (negative crops), mode
//                   constant / reflect / edge, constant_value (Pad)
//   gather          axis, batch_dims              (GatherV2: x, indices)
//   tile            multiples                     (Tile)
//   broadcast       -                             (BroadcastTo: x[, shape])
//   depth_to_space  block_size, mode DCR / CRD    (DepthToSpace, NCHW)
//   space_to_depth  block_size (mode DCR only)    (SpaceToDepth, NCHW)
//   one_hot         axis                          (OneHot: indices, depth,
//                                                  on_value, off_value)
//   arange          -                             (Range: start, limit, delta)
//   fill            -                             (Fill: dims, value)
//   resize          size | scales, align_corners, half_pixel_centers
//                   (ResizeNearestNeighborV2, NCHW, TensorFlow's mapping)
//   copy            -                             (same dtype and count)
//   reverse         axis (one or several)
//
// `scatter` is refused (no graph op lowers to it, so its params have no
// definition yet).
//
// Out-of-range indices of `gather`: an index i is valid in [-n, n) along the
// gathered axis (negative counts from the end). With `bounds_check`
// (support_out_of_bound_index, IM-7) an out-of-range index reads a row of
// zeros; without it the device has no check (CANN reports an AI Core error,
// 0x800000, or reads garbage), so the host reports an error instead of
// reading out of bounds. `one_hot` indices out of [-depth, depth) give a row
// of `off_value` (ONNX), never an error.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_EXECUTION_DATAMOVEMENT_H
#define ASCENDPREC_EXECUTION_DATAMOVEMENT_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace ascendprec::exec {

/// Begins the error of an op whose data is invalid (an index out of range
/// without bounds_check, a runtime count that contradicts the declared
/// shape): the inputs given or the model's values, not the executor, are
/// at fault, so a driver reports a user error.
inline constexpr llvm::StringLiteral kInvalidDataError = "invalid data: ";

/// Whether the host can run this DMA op; if not, `why` says what is missing
/// (the executor refuses the model before running, listing such ops).
bool canRunDataMovement(ascendprec::kernel::DmaOp op, std::string &why);

/// Runs it on host tensors (inputs, then outputs already allocated with the
/// op's output shapes/types). Every output element is written (outputs need
/// not be zero-filled). Returns false with `error` set (an op the host
/// cannot run, tensors that do not match the op's buffers, an index out of
/// range without bounds_check, runtime shape inputs that contradict the
/// static output shape).
bool runDataMovement(ascendprec::kernel::DmaOp op,
                     llvm::ArrayRef<const runtime::HostTensor *> inputs,
                     llvm::ArrayRef<runtime::HostTensor *> outputs, std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_DATAMOVEMENT_H
