//===- ForkSafety.h - the engine's threads and locks across fork() --------===//
//
// Internal to lib/Execution. A fork() child has one thread: the one that
// forked. Threads the engine started (a BlockPool's workers) are gone, and a
// mutex another thread held at the fork stays locked forever. So:
//  - every mutex that guards process-wide engine state (the JIT, the
//    compiled-kernel maps) is taken by the forking thread just before the
//    fork and released just after, in parent and child: the fork waits for
//    a link in progress to finish, and the child starts with them free;
//  - a counter counts forks: an object that owns threads compares it with
//    the value at its creation and, in a child, leaves its dead threads
//    alone and starts new ones.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_FORKSAFETY_H
#define ASCENDPREC_LIB_EXECUTION_FORKSAFETY_H

#include <cstdint>
#include <mutex>

namespace ascendprec::exec::detail {

/// How many forks made this process (0 in the first process; one more in
/// each child).
uint64_t forkGeneration();

/// Holds `mutex` across every later fork() (see above). Mutexes are taken
/// in the order they were registered: never nest them otherwise. `mutex`
/// must live as long as the process.
void holdAcrossFork(std::mutex &mutex);

} // namespace ascendprec::exec::detail

#endif // ASCENDPREC_LIB_EXECUTION_FORKSAFETY_H
