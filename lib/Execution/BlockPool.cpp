//===- BlockPool.cpp - a launch's blocks shared by a fixed set of threads -===//

#include "BlockPool.h"

#include "ForkSafety.h"

#include <algorithm>
#include <chrono>

using namespace ascendprec::exec::detail;

BlockPool::BlockPool(unsigned threads)
    // Waiting threads spin a little before they sleep, as long as there
    // is a core for each: a kernel follows the last within microseconds,
    // and waking a sleeping thread costs tens of them (most of a small
    // kernel's time with --threads=2 before, bench/README.md).
    : spin(threads <= std::max(1u, std::thread::hardware_concurrency())),
      forkGenerationAtStart(forkGeneration()),
      shares(new Share[std::max(1u, threads)]) {
  for (unsigned i = 1; i < threads; ++i)
    workers.emplace_back([this, i] { work(i); });
}

BlockPool::~BlockPool() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    ++generation;
  }
  wake.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

bool BlockPool::inheritedThroughFork() const {
  return forkGeneration() != forkGenerationAtStart;
}

void BlockPool::run(int64_t count, const std::function<void(int64_t)> &task) {
  if (workers.empty() || count <= 1 || count > kMaxBlocks) {
    for (int64_t block = 0; block < count; ++block)
      task(block);
    return;
  }
  uint64_t launch;
  {
    std::lock_guard<std::mutex> lock(mutex);
    current = &task;
    launch = (generation.load(std::memory_order_relaxed) + 1) & 0xFFFFFF;
    total.store(count, std::memory_order_relaxed);
    finished.store(0, std::memory_order_relaxed);
    int64_t n = threads();
    for (int64_t t = 0; t < n; ++t) {
      auto first = static_cast<uint64_t>(t * count / n), end = static_cast<uint64_t>((t + 1) * count / n);
      shares[t].state.store(launch << 40 | first << 20 | end, std::memory_order_relaxed);
    }
    generation.store(launch, std::memory_order_release);
  }
  wake.notify_all();
  drain(0, launch, task);
  auto allRun = [&] { return finished.load(std::memory_order_acquire) == count; };
  spinUntil(allRun);
  std::unique_lock<std::mutex> lock(mutex);
  done.wait(lock, allRun);
  current = nullptr;
}

/// Busy-waits up to about 100 us for `ready` (when spinning is on).
template <typename Ready> void BlockPool::spinUntil(Ready ready) {
  if (!spin)
    return;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
  for (unsigned i = 0; !ready(); ++i) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if ((i & 63) == 0 && std::chrono::steady_clock::now() > deadline)
      return;
  }
}

bool BlockPool::claim(Share &share, uint64_t launch, int64_t &block) {
  uint64_t state = share.state.load(std::memory_order_acquire);
  for (;;) {
    uint64_t next = state >> 20 & 0xFFFFF, end = state & 0xFFFFF;
    if (state >> 40 != launch || next >= end)
      return false;
    if (share.state.compare_exchange_weak(state, state + (uint64_t(1) << 20),
                                          std::memory_order_acq_rel, std::memory_order_acquire)) {
      block = static_cast<int64_t>(next);
      return true;
    }
  }
}

/// Thread `self`'s share first, then the others' in turn, each block
/// claimed from the front of its share: every block runs once, whoever
/// takes it. The blocks a thread ran are counted once it finds none left
/// (a shared count per block cost PP-OCR's recognizer 3.5%); the thread
/// that completes the count wakes the caller.
void BlockPool::drain(unsigned self, uint64_t launch, const std::function<void(int64_t)> &task) {
  unsigned n = threads();
  int64_t ran = 0;
  for (unsigned k = 0; k < n; ++k) {
    Share &share = shares[(self + k) % n];
    int64_t block;
    while (claim(share, launch, block)) {
      task(block);
      ++ran;
    }
  }
  if (ran > 0 && finished.fetch_add(ran, std::memory_order_acq_rel) + ran ==
                     total.load(std::memory_order_relaxed)) {
    // Under the lock, so that a waiting run() cannot miss it.
    std::lock_guard<std::mutex> lock(mutex);
    done.notify_all();
  }
}

void BlockPool::work(unsigned self) {
  uint64_t seen = 0;
  for (;;) {
    spinUntil([&] { return generation.load(std::memory_order_acquire) != seen; });
    const std::function<void(int64_t)> *task;
    {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return generation.load(std::memory_order_acquire) != seen; });
      if (stopping)
        return;
      seen = generation.load(std::memory_order_relaxed);
      task = current;
    }
    // A launch that ended meanwhile has no block left to claim (the task
    // is then never called: its caller may have returned).
    if (task)
      drain(self, seen, *task);
  }
}
