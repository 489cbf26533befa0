//===- KernelBlock.cpp - running one block of a compiled kernel -----------===//
//
// The packed entry of a kernel takes a pointer to each argument: the GM
// buffers' memref descriptors, the scratch region's descriptor, the block
// index. The scratch region stands for the core's on-chip memories: each
// thread keeps one, grown to the largest kernel it ran, so a block never
// allocates (prec-convert-kernel-to-std lays the kernel's buffers out in it).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Execution/KernelJit.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>

using namespace ascendprec::exec;

namespace {

struct FreeDeleter {
  void operator()(void *pointer) const { std::free(pointer); }
};

/// The calling thread's scratch region, at least `bytes` long, 64-byte
/// aligned. Its contents are undefined, as a fresh allocation's were.
void *threadScratch(int64_t bytes) {
  thread_local std::unique_ptr<void, FreeDeleter> region;
  thread_local int64_t capacity = 0;
  if (bytes > capacity) {
    // Rounded up so that a run of slowly growing kernels reallocates rarely.
    int64_t rounded = std::max<int64_t>(bytes, capacity * 2);
    rounded = (rounded + 4095) / 4096 * 4096;
    region.reset(std::aligned_alloc(64, static_cast<size_t>(rounded)));
    if (!region)
      throw std::bad_alloc();
    capacity = rounded;
  }
  return region.get();
}

} // namespace

void CompiledKernel::runBlock(const std::vector<std::vector<int64_t>> &descriptors,
                              int64_t block) const {
  // Reused by the thread's blocks: a launch of 20 small blocks spent more in
  // these allocations than in some of its blocks.
  thread_local std::vector<void *> pointers, args;
  thread_local std::vector<int64_t> scratchDescriptor(5);
  auto address = reinterpret_cast<int64_t>(threadScratch(std::max<int64_t>(scratchBytes, 1)));
  scratchDescriptor = {address, address, 0, scratchBytes, 1};
  pointers.resize(descriptors.size() + 1);
  args.resize(descriptors.size() + 2);
  for (size_t i = 0; i < descriptors.size(); ++i)
    pointers[i] = const_cast<int64_t *>(descriptors[i].data());
  pointers.back() = scratchDescriptor.data();
  for (size_t i = 0; i < pointers.size(); ++i)
    args[i] = &pointers[i];
  args.back() = &block;
  entry(args.data());
}
