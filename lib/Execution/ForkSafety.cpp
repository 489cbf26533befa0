//===- ForkSafety.cpp - the engine's threads and locks across fork() ------===//

#include "ForkSafety.h"

#include <atomic>
#include <vector>

#include <pthread.h>

namespace ascendprec::exec::detail {

namespace {

std::atomic<uint64_t> generation{0};

/// The registered mutexes. Registration takes `registryMutex`; the fork
/// handlers read the list while holding it (prepare takes it first and the
/// parent and child handlers release it last), so a registration never
/// races a fork.
std::mutex registryMutex;
std::vector<std::mutex *> &held() {
  static auto *mutexes = new std::vector<std::mutex *>();
  return *mutexes;
}

void beforeFork() {
  registryMutex.lock();
  for (std::mutex *mutex : held())
    mutex->lock();
}

void releaseAll() {
  for (auto it = held().rbegin(); it != held().rend(); ++it)
    (*it)->unlock();
  registryMutex.unlock();
}

void afterForkInParent() { releaseAll(); }

void afterForkInChild() {
  generation.fetch_add(1, std::memory_order_relaxed);
  releaseAll();
}

void registerHandlers() {
  static const bool registered = [] {
    ::pthread_atfork(&beforeFork, &afterForkInParent, &afterForkInChild);
    return true;
  }();
  (void)registered;
}

} // namespace

uint64_t forkGeneration() {
  registerHandlers();
  return generation.load(std::memory_order_relaxed);
}

void holdAcrossFork(std::mutex &mutex) {
  registerHandlers();
  std::lock_guard<std::mutex> lock(registryMutex);
  held().push_back(&mutex);
}

} // namespace ascendprec::exec::detail
