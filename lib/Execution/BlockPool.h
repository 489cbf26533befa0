//===- BlockPool.h - a launch's blocks shared by a fixed set of threads ---===//
//
// Internal to lib/Execution: the executor runs every compute kernel's
// blocks through one pool (GraphRun.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_BLOCKPOOL_H
#define ASCENDPREC_LIB_EXECUTION_BLOCKPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ascendprec::exec::detail {

/// Runs a launch's blocks on `threads` threads (the caller's and the
/// pool's workers). Thread t takes the blocks of its own share, the t-th of
/// `threads` contiguous runs, in order, then helps with what is left of
/// the others'. A kernel's blocks are its tiles in order, and consecutive
/// layers tile the same positions alike, so a thread then reads mostly
/// what it wrote itself in the layer before, from its own core's caches:
/// handing blocks out to whichever thread came first (as this did) made a
/// chain of 1x1 convolutions 30% slower on two threads.
class BlockPool {
public:
  explicit BlockPool(unsigned threads);
  ~BlockPool();
  BlockPool(const BlockPool &) = delete;
  BlockPool &operator=(const BlockPool &) = delete;

  /// Runs task(block) once for every block in [0, count), on every thread.
  void run(int64_t count, const std::function<void(int64_t)> &task);

  unsigned threads() const { return static_cast<unsigned>(workers.size()) + 1; }

private:
  /// One thread's share: its next block and its end, on a cache line of
  /// its own (its owner claims block by block without trading the line).
  struct alignas(64) Share {
    std::atomic<int64_t> next{0};
    int64_t end = 0;
  };

  template <typename Ready> void spinUntil(Ready ready);
  void drain(unsigned self);
  void work(unsigned self);

  const bool spin;
  std::vector<std::thread> workers;
  std::unique_ptr<Share[]> shares;
  std::mutex mutex;
  std::condition_variable wake, done;
  const std::function<void(int64_t)> *current = nullptr;
  std::atomic<size_t> busy{0};
  std::atomic<uint64_t> generation{0};
  bool stopping = false;
};

} // namespace ascendprec::exec::detail

#endif // ASCENDPREC_LIB_EXECUTION_BLOCKPOOL_H
