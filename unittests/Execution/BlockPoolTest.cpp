//===- BlockPoolTest.cpp - a launch's blocks on a fixed set of threads ----===//

#include "../../lib/Execution/BlockPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using ascendprec::exec::detail::BlockPool;

namespace {

TEST(BlockPool, EveryBlockRunsOnceWhateverTheThreadsAndCounts) {
  for (unsigned threads : {1u, 2u, 3u}) {
    BlockPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    // Counts under, at and over the thread count, one after another on the
    // same pool (each launch resets the shares).
    for (int64_t count : {0, 1, 2, 3, 5, 20, 97}) {
      std::vector<std::atomic<int>> runs(count);
      pool.run(count, [&](int64_t block) { runs[block].fetch_add(1); });
      for (int64_t block = 0; block < count; ++block)
        EXPECT_EQ(runs[block].load(), 1)
            << threads << " threads, " << count << " blocks, block " << block;
    }
  }
}

TEST(BlockPool, LaunchesEndWhenTheirBlocksHaveRunAndNoTaskRunsLate) {
  // A launch returns once its blocks have run, whether or not every worker
  // has seen it; a worker that wakes late must not run a block of a launch
  // that ended, nor take one of the next launch with the old task. Many
  // short launches back to back, each with its own task and its own
  // counters on the heap (kept to the end, so that a late call shows).
  struct Launch {
    std::atomic<bool> open{true};
    std::vector<std::atomic<int>> runs;
    explicit Launch(int64_t count) : runs(count) {}
  };
  for (unsigned threads : {2u, 3u}) {
    BlockPool pool(threads);
    std::vector<std::unique_ptr<Launch>> launches;
    std::atomic<int> stale{0};
    for (int i = 0; i < 20000; ++i) {
      int64_t count = 2 + i % 7;
      Launch *launch = launches.emplace_back(std::make_unique<Launch>(count)).get();
      pool.run(count, [launch, &stale](int64_t block) {
        if (!launch->open.load())
          stale.fetch_add(1);
        launch->runs.at(block).fetch_add(1);
      });
      launch->open.store(false);
    }
    int wrong = 0;
    for (const auto &launch : launches)
      for (const std::atomic<int> &runs : launch->runs)
        wrong += runs.load() != 1;
    EXPECT_EQ(stale.load(), 0) << threads << " threads";
    EXPECT_EQ(wrong, 0) << threads << " threads";
  }
}

TEST(BlockPool, EachThreadStartsWithItsOwnContiguousShare) {
  // Thread t's first block is the start of the t-th of `threads` runs (the
  // caller's is block 0): what a thread wrote in one layer it reads in
  // the next. Every thread waits for the others' first block before going
  // on, so that none can take another's share first.
  BlockPool pool(2);
  std::mutex mutex;
  std::map<std::thread::id, int64_t> first;
  std::atomic<int> started{0};
  pool.run(20, [&](int64_t block) {
    bool isFirst = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      isFirst = first.emplace(std::this_thread::get_id(), block).second;
    }
    if (!isFirst)
      return;
    started.fetch_add(1);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
  });
  std::set<int64_t> firsts;
  for (auto &[thread, block] : first)
    firsts.insert(block);
  EXPECT_EQ(firsts, (std::set<int64_t>{0, 10}));
}

TEST(BlockPool, AThreadThatFinishesEarlyTakesTheOthersBlocks) {
  // The caller's share (blocks 0-9) is slow: the worker, done with 10-19,
  // takes some of them, and every block still runs once.
  BlockPool pool(2);
  std::vector<std::atomic<int>> runs(20);
  std::mutex mutex;
  std::set<std::thread::id> ranFirstShare;
  pool.run(20, [&](int64_t block) {
    runs[block].fetch_add(1);
    if (block < 10) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        ranFirstShare.insert(std::this_thread::get_id());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  for (int64_t block = 0; block < 20; ++block)
    EXPECT_EQ(runs[block].load(), 1) << "block " << block;
  EXPECT_EQ(ranFirstShare.size(), 2u);
}

} // namespace
