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
#include <map>
#include <mutex>
#include <new>
#include <vector>

using namespace ascendprec::runtime::detail;

namespace {

/// Kept blocks never pass this many bytes in all.
constexpr size_t kKeptCap = size_t(64) << 20;

/// Freed blocks by length (a size class: quarterStepCeil of the bytes).
class MediumBlocks {
public:
  uint8_t *allocate(size_t length) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto found = kept.find(length);
      if (found != kept.end() && !found->second.empty()) {
        uint8_t *block = found->second.back();
        found->second.pop_back();
        keptBytes -= length;
        return block;
      }
    }
    return static_cast<uint8_t *>(std::aligned_alloc(64, length));
  }

  void free(uint8_t *block, size_t length) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (keptBytes + length <= kKeptCap) {
        kept[length].push_back(block);
        keptBytes += length;
        return;
      }
    }
    std::free(block);
  }

private:
  std::mutex mutex;
  std::map<size_t, std::vector<uint8_t *>> kept;
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
  // A multiple of 64 (aligned_alloc's rule): every class above 4 KiB is.
  size_t length = quarterStepCeil(bytes);
  uint8_t *block = mediumBlocks().allocate(length);
  if (!block)
    throw std::bad_alloc();
  if (zeroed)
    std::memset(block, 0, bytes);
  return std::shared_ptr<uint8_t>(block,
                                  [length](uint8_t *p) { mediumBlocks().free(p, length); });
#endif
}
