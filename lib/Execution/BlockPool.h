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
///
/// A launch ends when its blocks have run, not when every worker has seen
/// it: a worker that has not started (its core taken by another process)
/// finds its share taken by the others and the launch gone. Waiting for
/// every worker made PP-OCR's classifier 5x slower on two threads than on
/// one with another process busy on a core. Each share's next block, end
/// and launch are one atomic word, so a late worker can never claim a
/// block of a launch that is not the one it read the task of.
class BlockPool {
public:
  explicit BlockPool(unsigned threads);
  ~BlockPool();
  BlockPool(const BlockPool &) = delete;
  BlockPool &operator=(const BlockPool &) = delete;

  /// Runs task(block) once for every block in [0, count), on every thread.
  void run(int64_t count, const std::function<void(int64_t)> &task);

  unsigned threads() const { return static_cast<unsigned>(workers.size()) + 1; }

  /// True in a fork() child of the process that made the pool: its workers
  /// do not exist here, and its lock may be held by one of them. Such a
  /// pool is never used nor destroyed (joining a thread of another process
  /// is undefined); its owner makes a new one (ForkSafety.h).
  bool inheritedThroughFork() const;

private:
  /// One thread's share, packed in one word (launch, next block, end:
  /// 24, 20 and 20 bits) on a cache line of its own (its owner claims
  /// block by block without trading the line).
  struct alignas(64) Share {
    std::atomic<uint64_t> state{0};
  };
  /// Launches of more blocks than a share's fields hold run on the caller.
  static constexpr int64_t kMaxBlocks = (int64_t(1) << 20) - 1;

  template <typename Ready> void spinUntil(Ready ready);
  /// Claims the next block of `share` for launch `launch`; false when the
  /// share is used up or belongs to another launch.
  static bool claim(Share &share, uint64_t launch, int64_t &block);
  void drain(unsigned self, uint64_t launch, const std::function<void(int64_t)> &task);
  void work(unsigned self);

  const bool spin;
  const uint64_t forkGenerationAtStart;
  std::vector<std::thread> workers;
  std::unique_ptr<Share[]> shares;
  std::mutex mutex;
  std::condition_variable wake, done;
  /// The running launch's task, its number and block count, and how many
  /// of its blocks have run.
  const std::function<void(int64_t)> *current = nullptr;
  std::atomic<uint64_t> generation{0};
  std::atomic<int64_t> total{0}, finished{0};
  bool stopping = false;
};

} // namespace ascendprec::exec::detail

#endif // ASCENDPREC_LIB_EXECUTION_BLOCKPOOL_H
