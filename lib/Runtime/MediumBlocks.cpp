//===- MediumBlocks.cpp - storage of mid-sized host tensors ---------------===//
//
// A small model's activations are tens of KB each (PP-OCR's classifier:
// 147 kernels, most outputs under 1 MB), allocated and freed once per
// launch. From the heap, every free coalesces the chunk with its
// neighbours: 12% of that model's run time went to malloc and free. So
// freed blocks of 4 KiB to 1 MiB are kept in size classes, four per
// doubling, and handed to the next allocation of their class, up to a cap.
//
//===----------------------------------------------------------------------===//

#include "LargeBlocks.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

using namespace ascendprec::runtime::detail;

namespace {

/// Kept blocks never pass this many bytes in all.
constexpr size_t kKeptCap = size_t(64) << 20;

/// The class of `bytes` in [kMediumBlockBytes, kLargeBlockBytes): its index
/// and the block length (the class's upper bound, a multiple of 64).
std::pair<unsigned, size_t> classOf(size_t bytes) {
  unsigned power = 63 - static_cast<unsigned>(__builtin_clzll(bytes - 1));
  // bytes in (2^power, 2^(power+1)]: four classes, 2^(power-2) apart.
  size_t step = size_t(1) << (power - 2);
  size_t length = (bytes + step - 1) / step * step;
  unsigned index = (power - 12) * 4 + static_cast<unsigned>(length / step - 5);
  return {index, length};
}

class MediumBlocks {
public:
  uint8_t *allocate(unsigned index, size_t length) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (index < kept.size() && !kept[index].empty()) {
        uint8_t *block = kept[index].back();
        kept[index].pop_back();
        keptBytes -= length;
        return block;
      }
    }
    return static_cast<uint8_t *>(std::aligned_alloc(64, length));
  }

  void free(uint8_t *block, unsigned index, size_t length) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (keptBytes + length <= kKeptCap) {
        if (index >= kept.size())
          kept.resize(index + 1);
        kept[index].push_back(block);
        keptBytes += length;
        return;
      }
    }
    std::free(block);
  }

private:
  std::mutex mutex;
  std::vector<std::vector<uint8_t *>> kept;
  size_t keptBytes = 0;
};

MediumBlocks &mediumBlocks() {
  // Never destroyed: tensors freed during exit still find it.
  static auto *blocks = new MediumBlocks;
  return *blocks;
}

} // namespace

std::shared_ptr<uint8_t> ascendprec::runtime::detail::allocateMedium(size_t bytes, bool zeroed) {
#if defined(ASCENDPREC_ADDRESS_SANITIZER)
  (void)bytes;
  (void)zeroed;
  return nullptr;
#else
  if (bytes <= kMediumBlockBytes || bytes > kLargeBlockBytes)
    return nullptr;
  auto [index, length] = classOf(bytes);
  uint8_t *block = mediumBlocks().allocate(index, length);
  if (!block)
    throw std::bad_alloc();
  if (zeroed)
    std::memset(block, 0, bytes);
  return std::shared_ptr<uint8_t>(
      block, [index = index, length = length](uint8_t *p) { mediumBlocks().free(p, index, length); });
#endif
}
