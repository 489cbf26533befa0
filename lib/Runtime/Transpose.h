//===- Transpose.h - writing a tile transposed ----------------------------===//
//
// A cube result [M, N] goes to NCHW memory as N runs of M elements, one per
// channel. Element by element, each of those reads strides across the tile
// and the copy runs at a few GB/s; in 8 x 8 blocks transposed in AVX
// registers it runs at memory speed (and a last block of fewer than 16
// rows, a depthwise group's channels, in masked 16 x 16 blocks with
// AVX-512). Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_TRANSPOSE_H
#define ASCENDPREC_LIB_RUNTIME_TRANSPOSE_H

#include <cstdint>
#include <cstring>

namespace ascendprec::runtime::detail {

/// Element [i, j] of a rows x cols tile (row i at source + i * sourceStride)
/// to target[j * targetStride + i], for i < rows, j < cols; strides in
/// elements of `bytes` (4 takes the blocked path, any size works). With
/// `streaming`, whole cache lines of an aligned target are written past the
/// cache (for a tensor too large to stay there for its next reader).
void copyTransposed(const uint8_t *source, int64_t sourceStride, int64_t rows, int64_t cols,
                    uint8_t *target, int64_t targetStride, size_t bytes, bool streaming);

/// Whether writes into a GM tensor of `bytes` should stream past the cache:
/// when it is too large for the last-level cache to keep for the kernel
/// that reads it next (32 MiB on the machine this was tuned on).
inline bool streamsPastCache(size_t bytes) { return bytes >= (size_t(16) << 20); }

} // namespace ascendprec::runtime::detail

#endif // ASCENDPREC_LIB_RUNTIME_TRANSPOSE_H
