//===- BlockPool.cpp - a launch's blocks shared by a fixed set of threads -===//

#include "BlockPool.h"

#include <algorithm>
#include <chrono>

using namespace ascendprec::exec::detail;

BlockPool::BlockPool(unsigned threads)
    // Waiting threads spin a little before they sleep, as long as there
    // is a core for each: a kernel follows the last within microseconds,
    // and waking a sleeping thread costs tens of them (most of a small
    // kernel's time with --threads=2 before, bench/README.md).
    : spin(threads <= std::max(1u, std::thread::hardware_concurrency())),
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

void BlockPool::run(int64_t count, const std::function<void(int64_t)> &task) {
  if (workers.empty() || count <= 1) {
    for (int64_t block = 0; block < count; ++block)
      task(block);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    current = &task;
    int64_t n = threads();
    for (int64_t t = 0; t < n; ++t) {
      shares[t].next.store(t * count / n, std::memory_order_relaxed);
      shares[t].end = (t + 1) * count / n;
    }
    busy.store(workers.size(), std::memory_order_relaxed);
    generation.fetch_add(1, std::memory_order_release);
  }
  wake.notify_all();
  drain(0);
  spinUntil([&] { return busy.load(std::memory_order_acquire) == 0; });
  std::unique_lock<std::mutex> lock(mutex);
  done.wait(lock, [&] { return busy.load(std::memory_order_acquire) == 0; });
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

/// Thread `self`'s share first, then the others' in turn, each block
/// claimed from the front of its share: every block runs once, whoever
/// takes it.
void BlockPool::drain(unsigned self) {
  unsigned n = threads();
  for (unsigned k = 0; k < n; ++k) {
    Share &share = shares[(self + k) % n];
    for (int64_t block = share.next.fetch_add(1, std::memory_order_relaxed); block < share.end;
         block = share.next.fetch_add(1, std::memory_order_relaxed))
      (*current)(block);
  }
}

void BlockPool::work(unsigned self) {
  uint64_t seen = 0;
  for (;;) {
    spinUntil([&] { return generation.load(std::memory_order_acquire) != seen; });
    {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return generation.load(std::memory_order_acquire) != seen; });
      if (stopping)
        return;
      seen = generation.load(std::memory_order_relaxed);
    }
    drain(self);
    if (busy.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // Under the lock, so that a waiting run() cannot miss it.
      std::lock_guard<std::mutex> lock(mutex);
      done.notify_all();
    }
  }
}
