//===- LargeBlocksTest.cpp - size classes and reuse of large tensors ------===//

#include "../../lib/Runtime/LargeBlocks.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>

using namespace ascendprec::runtime::detail;

namespace {

constexpr size_t kKiB = 1024, kMiB = 1024 * kKiB;

TEST(LargeBlocks, QuarterStepsPerDoubling) {
  EXPECT_EQ(quarterStepCeil(7), 7u);
  EXPECT_EQ(quarterStepCeil(8), 8u);
  EXPECT_EQ(quarterStepCeil(9), 10u);
  EXPECT_EQ(quarterStepCeil(4096), 4096u);
  EXPECT_EQ(quarterStepCeil(4097), 5120u);
  EXPECT_EQ(quarterStepCeil(100000), 114688u);
}

TEST(LargeBlocks, SizeClassesWasteAtMostAQuarter) {
  EXPECT_EQ(sizeClassOf(1 * kMiB), 1 * kMiB);
  EXPECT_EQ(sizeClassOf(1 * kMiB + 1), 1 * kMiB + 256 * kKiB);
  EXPECT_EQ(sizeClassOf(4 * kMiB), 4 * kMiB);
  // Past 16 granules: four classes per doubling (5, 6, 7, 8 MiB, ...).
  EXPECT_EQ(sizeClassOf(4 * kMiB + 1), 5 * kMiB);
  EXPECT_EQ(sizeClassOf(13 * kMiB), 14 * kMiB);
  for (size_t bytes = kMiB; bytes < 512 * kMiB; bytes = bytes * 9 / 7 + 12345) {
    size_t length = sizeClassOf(bytes);
    EXPECT_GE(length, bytes);
    EXPECT_LE(length, bytes + bytes / 4 + 256 * kKiB) << bytes;
    EXPECT_EQ(length % (256 * kKiB), 0u);
    EXPECT_EQ(sizeClassOf(length), length) << "a class holds its own length";
  }
}

TEST(LargeBlocks, FreedBlocksServeTheirClassWholeAndZeroWhenAsked) {
  std::shared_ptr<uint8_t> first = allocateLarge(13 * kMiB, /*zeroed=*/false);
  if (!first)
    GTEST_SKIP() << "this build takes large tensors from the heap";
  uint8_t *where = first.get();
  std::memset(where, 7, 13 * kMiB);
  first.reset();
  // A smaller tensor reuses the kept block (up to half its length), and
  // gets zeros when it asks for them.
  std::shared_ptr<uint8_t> second = allocateLarge(9 * kMiB, /*zeroed=*/true);
  ASSERT_EQ(second.get(), where);
  for (size_t i = 0; i < 9 * kMiB; i += 4093)
    ASSERT_EQ(second.get()[i], 0) << i;
  second.reset();
  // One under half the block's length does not take it.
  std::shared_ptr<uint8_t> small = allocateLarge(2 * kMiB, /*zeroed=*/false);
  EXPECT_NE(small.get(), where);
}

TEST(MediumBlocks, FreedBlocksServeTheirClassAndZeroWhenAsked) {
  std::shared_ptr<uint8_t> first = allocateMedium(100000, /*zeroed=*/false);
  if (!first)
    GTEST_SKIP() << "this build takes tensors from the heap";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first.get()) % 64, 0u);
  uint8_t *where = first.get();
  std::memset(where, 7, 100000);
  first.reset();
  // 110000 bytes are in the same class (four per doubling: 96 to 112 KiB).
  std::shared_ptr<uint8_t> second = allocateMedium(110000, /*zeroed=*/true);
  ASSERT_EQ(second.get(), where);
  for (size_t i = 0; i < 110000; i += 997)
    ASSERT_EQ(second.get()[i], 0) << i;
  // Outside (4 KiB, 1 MiB]: not a medium block.
  EXPECT_EQ(allocateMedium(4096, false), nullptr);
  EXPECT_EQ(allocateMedium(kMiB + 1, false), nullptr);
}

} // namespace
