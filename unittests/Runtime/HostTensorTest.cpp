//===- HostTensorTest.cpp - host tensors' storage --------------------------===//
//
// A new tensor is zero (the executor's launches rely on it: atomic stores
// add into their output) and 64-byte aligned, whether it comes from the
// heap or, for large tensors, mapped from the kernel and reused; its
// storage lives as long as any view of it.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Runtime/HostTensor.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace ascendprec::runtime;

namespace {

bool allZero(const HostTensor &tensor) {
  const uint8_t *bytes = tensor.data();
  for (size_t i = 0; i < tensor.byteSize(); ++i)
    if (bytes[i])
      return false;
  return true;
}

TEST(HostTensor, NewTensorsAreZeroAndAlignedAtEverySize) {
  // Heap-sized, just under and over the mapping threshold (1 MiB of fp32),
  // and an odd size past a huge page.
  for (int64_t count : {int64_t(1), int64_t(1000), int64_t(1 << 18) - 1, int64_t(1 << 18) + 1,
                        int64_t(3 << 20) + 7}) {
    for (int round = 0; round < 2; ++round) {
      HostTensor tensor(ElementType::F32, {count});
      EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.data()) % 64, 0u) << count;
      EXPECT_TRUE(allZero(tensor)) << count << " elements, round " << round;
      // Dirty it: the next tensor of this size may reuse the memory.
      for (int64_t i = 0; i < count; i += 997)
        tensor.set(i, 1.5);
      tensor.set(count - 1, -2.0);
      EXPECT_EQ(tensor.get(count - 1), -2.0);
    }
  }
}

TEST(HostTensor, AViewKeepsLargeStorageAlive) {
  HostTensor view;
  {
    HostTensor tensor(ElementType::F16, {4, 1 << 20});
    tensor.set((4 << 20) - 1, 3.0);
    view = tensor.view({1 << 22});
  }
  EXPECT_EQ(view.get((1 << 22) - 1), 3.0);
}

TEST(HostTensor, ABorrowedTensorViewsItsDataWithoutOwningIt) {
  std::vector<float> weights = {1.5f, -2.0f, 3.25f, 0.0f, 8.0f, -0.5f};
  {
    HostTensor tensor = HostTensor::borrowed(
        ElementType::F32, {2, 3}, reinterpret_cast<const uint8_t *>(weights.data()));
    EXPECT_EQ(tensor.data(), reinterpret_cast<uint8_t *>(weights.data()));
    EXPECT_EQ(tensor.numElements(), 6);
    EXPECT_EQ(tensor.get(2), 3.25);
    HostTensor copy = tensor.view({6});
    EXPECT_EQ(copy.data(), tensor.data());
    // A conversion copies; the borrowed data stays as it was.
    HostTensor half = tensor.convertedTo(ElementType::F16);
    EXPECT_NE(half.data(), tensor.data());
  }
  // Gone tensors freed nothing: the owner's data is intact.
  EXPECT_EQ(weights[4], 8.0f);
}

} // namespace
