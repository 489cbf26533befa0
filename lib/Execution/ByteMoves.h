//===- ByteMoves.h - copies over raw bytes, element by element size ---===//
//
// The two engines every DMA kind runs on:
// * stridedCopy: dst[i] = src[sum(i_k * srcStride_k)] over a box of axes
//   (byte strides, negative or zero on the source side). Transpose, slice,
//   reverse, tile, broadcast, concat, split, depth/space rearrangements are
//   all such boxes. Axes are merged where both sides are contiguous so runs
//   become single memcpys; a transposition copies in square tiles.
// * indexMapCopy: dst[i] = src[sum(table_k[i_k])], a per-axis table of source
//   offsets (or "leave alone"): pad (all modes) and nearest resize.
// and the element encodings they need. Private to lib/Execution.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_BYTEMOVES_H
#define ASCENDPREC_LIB_EXECUTION_BYTEMOVES_H

#include "AscendPrec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <string>

namespace ascendprec::exec::dma {

/// Row-major strides in bytes.
llvm::SmallVector<int64_t, 6> byteStrides(llvm::ArrayRef<int64_t> shape, size_t elementSize);

/// One axis of a copy: its extent and the byte steps on each side.
struct Axis {
  int64_t size, dst, src;
};

/// dst[i] = src[sum(i_k * srcStride_k)] for every point i of the box. `dst`
/// and `src` point at the box's first element.
void stridedCopy(uint8_t *dst, const uint8_t *src, size_t elementSize, llvm::ArrayRef<Axis> axes);

/// dst (dense row-major over `sizes`) element i reads src at byte offset
/// sum(tables[k][i_k]); an entry of -1 leaves the element alone.
void indexMapCopy(uint8_t *dst, const uint8_t *src, size_t elementSize,
                  llvm::ArrayRef<int64_t> sizes,
                  llvm::ArrayRef<llvm::SmallVector<int64_t, 0>> tables);

/// Repeats the `size`-byte pattern `count` times from `dst`.
void fillPattern(uint8_t *dst, const uint8_t *pattern, size_t size, int64_t count);

using Bytes = std::array<uint8_t, 8>;

/// `value` as one element of `type`, rounded to nearest even (integers:
/// rounded and clamped), as the device stores a value it makes.
Bytes encode(double value, runtime::ElementType type);

/// Element `index` of `source` as one element of `type`: the same bits for
/// the same type, exact between integer types (clamped), rounded to nearest
/// even otherwise.
Bytes convertElement(const runtime::HostTensor &source, int64_t index, runtime::ElementType type);

/// An integer element exactly (unsigned values beyond int64 saturate).
int64_t readIndex(const uint8_t *data, runtime::ElementType type, int64_t i);

/// "%.9g".
std::string numberText(double value);
int64_t product(llvm::ArrayRef<int64_t> dims);

} // namespace ascendprec::exec::dma

#endif // ASCENDPREC_LIB_EXECUTION_BYTEMOVES_H
