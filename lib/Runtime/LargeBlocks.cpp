//===- LargeBlocks.cpp - storage of large host tensors --------------------===//
//
// A model's activations are tens to hundreds of MB, allocated and freed
// once per launch. Taken from the heap they cost a memset plus a page fault
// per 4 KiB page, every time. So large blocks are mapped (fresh pages are
// zero: no memset) and a freed block is kept for the next allocation of
// its size class, which zeroes it in place if it needs zeros (a kernel output
// written whole does not): from the second run of a model on, its
// activations reuse the first run's pages without a fault.
//
// Not huge pages: on the 2-core VM this was measured on, MADV_HUGEPAGE made
// later runs 10% faster but the first run (the one a user sees) 30%
// slower, the kernel's zeroing of fresh 2 MiB pages being the cost.
//
//===----------------------------------------------------------------------===//

#include "LargeBlocks.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

// AddressSanitizer checks heap blocks only: its builds take the heap.
#if defined(__linux__) && !defined(ASCENDPREC_ADDRESS_SANITIZER)
#define ASCENDPREC_MAP_LARGE_BLOCKS 1
#include <sys/mman.h>
#endif

using namespace ascendprec::runtime::detail;

/// Block lengths are size classes (sizeClassOf). A freed block serves the
/// next allocation of its class (or one up to half its length) whole:
/// trimming a larger block to fit, as this did before, left the next large
/// allocation of the run to fault in fresh pages, 78 MB per run of
/// PP-OCRv4's detector.
constexpr size_t kGranule = size_t(256) << 10;

size_t ascendprec::runtime::detail::quarterStepCeil(size_t n) {
  if (n < 8)
    return n;
  // The leading bit and the two after it, rounded up.
  unsigned leading = 63 - static_cast<unsigned>(__builtin_clzll(n));
  size_t step = size_t(1) << (leading - 2);
  return (n + step - 1) / step * step;
}

size_t ascendprec::runtime::detail::sizeClassOf(size_t bytes) {
  size_t granules = (bytes + kGranule - 1) / kGranule;
  return (granules <= 16 ? granules : quarterStepCeil(granules)) * kGranule;
}

#if defined(ASCENDPREC_MAP_LARGE_BLOCKS)
namespace {

struct Block {
  uint8_t *start;
  size_t length; // a multiple of kGranule
};

/// A fresh mapping of `length` bytes (page-aligned, zero), or null.
uint8_t *mapBlock(size_t length) {
  void *start = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return start == MAP_FAILED ? nullptr : static_cast<uint8_t *>(start);
}

/// Mapped large blocks, live or kept for reuse. A block is kept when
/// freed, reused whole by the next allocation of its size class (or of one
/// up to half its length), and unmapped when a new mapping would otherwise
/// push the memory mapped more than a quarter past the most that was ever
/// live at once. That slack lets a run's second pass find a block for each
/// allocation: without it, blocks were unmapped and mapped again, 45 MB per
/// run of the detector.
class LargeBlocks {
public:
  /// `bytes` (of zeros when `zeroed`) in a block of `length` or more (a
  /// null start when mapping fails).
  Block allocate(size_t bytes, size_t length, bool zeroed) {
    std::lock_guard<std::mutex> lock(mutex);
    // The smallest kept block of this class or up to twice its length.
    auto best = kept.end();
    for (auto it = kept.begin(); it != kept.end(); ++it)
      if (it->length >= length && it->length <= 2 * length &&
          (best == kept.end() || it->length < best->length))
        best = it;
    if (best != kept.end()) {
      Block block = *best;
      kept.erase(best);
      live += block.length;
      peak = std::max(peak, live);
      if (zeroed)
        std::memset(block.start, 0, bytes);
      return block;
    }
    size_t newPeak = std::max(peak, live + length);
    // The largest kept blocks go first: fewest unmappings.
    std::sort(kept.begin(), kept.end(),
              [](const Block &a, const Block &b) { return a.length < b.length; });
    while (!kept.empty() && mapped + length > newPeak + newPeak / 4) {
      munmap(kept.back().start, kept.back().length);
      mapped -= kept.back().length;
      kept.pop_back();
    }
    uint8_t *start = mapBlock(length); // fresh pages are zero
    if (!start)
      return {nullptr, 0};
    mapped += length;
    live += length;
    peak = newPeak;
    return {start, length};
  }

  void free(Block block) {
    std::lock_guard<std::mutex> lock(mutex);
    live -= block.length;
    kept.push_back(block);
  }

private:
  std::mutex mutex;
  std::vector<Block> kept;
  size_t live = 0, mapped = 0, peak = 0;
};

LargeBlocks &largeBlocks() {
  // Never destroyed: tensors freed during exit still find it.
  static auto *blocks = new LargeBlocks;
  return *blocks;
}

} // namespace
#endif

std::shared_ptr<uint8_t> ascendprec::runtime::detail::allocateLarge(size_t bytes, bool zeroed) {
#if defined(ASCENDPREC_MAP_LARGE_BLOCKS)
  Block block = largeBlocks().allocate(bytes, sizeClassOf(bytes), zeroed);
  if (!block.start)
    return nullptr;
  size_t length = block.length;
  return std::shared_ptr<uint8_t>(block.start,
                                  [length](uint8_t *p) { largeBlocks().free({p, length}); });
#else
  (void)bytes;
  (void)zeroed;
  return nullptr;
#endif
}
