//===- TransposeTest.cpp - transposed tile writes move every bit ----------===//
//
// copyTransposed (lib/Runtime/Transpose.cpp) writes element [i, j] of a
// tile to target[j * stride + i]: in 16 x 8 register blocks with streaming
// stores for aligned 32-bit targets, element by element at the edges and
// for other sizes. Checked against the plain loop for tile shapes with and
// without edges, aligned and unaligned targets, 2-, 4- and 8-byte elements,
// and that nothing outside the written runs changes.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/Transpose.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using ascendprec::runtime::detail::copyTransposed;

namespace {

template <typename T> void checkShape(int64_t rows, int64_t cols, int64_t shift, bool streaming) {
  std::mt19937 random(static_cast<unsigned>(rows * 131 + cols * 7 + shift));
  // Shift 0: an aligned target with a stride of whole 32-byte groups (the
  // streaming path); otherwise an odd stride.
  int64_t sourceStride = cols + 3;
  int64_t targetStride = shift == 0 ? (rows + 5 + 7) / 8 * 8 : rows + 5;
  std::vector<T> source(rows * sourceStride);
  for (T &v : source)
    v = static_cast<T>(random());
  // The target starts `shift` elements past a 64-byte boundary.
  std::vector<T> storage(cols * targetStride + 64), expected;
  for (T &v : storage)
    v = static_cast<T>(random());
  expected = storage;
  T *target = storage.data() + shift;
  while (reinterpret_cast<uintptr_t>(target) % 64 != static_cast<uintptr_t>(shift * sizeof(T) % 64))
    ++target;
  T *wanted = expected.data() + (target - storage.data());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      wanted[j * targetStride + i] = source[i * sourceStride + j];
  copyTransposed(reinterpret_cast<const uint8_t *>(source.data()), sourceStride, rows, cols,
                 reinterpret_cast<uint8_t *>(target), targetStride, sizeof(T), streaming);
  ASSERT_EQ(0, std::memcmp(storage.data(), expected.data(), storage.size() * sizeof(T)))
      << rows << " x " << cols << ", " << sizeof(T) << "-byte elements, shift " << shift
      << (streaming ? ", streaming" : "");
}

TEST(Transpose, EveryShapeSizeAndAlignmentMatchesThePlainLoop) {
  for (int64_t rows : {1, 7, 8, 15, 16, 17, 33, 160})
    for (int64_t cols : {1, 7, 8, 9, 16, 64})
      for (int64_t shift : {0, 1, 8}) {
        for (bool streaming : {false, true}) {
          checkShape<uint32_t>(rows, cols, shift, streaming);
          checkShape<uint16_t>(rows, cols, shift, streaming);
          checkShape<uint64_t>(rows, cols, shift, streaming);
        }
      }
}

} // namespace
