//===- InterruptCleanup.cpp - clean up, then die of SIGINT/SIGTERM/SIGHUP -===//

#include "InterruptCleanup.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <signal.h>

#include <initializer_list>
#include <thread>

namespace ascendprec::driver {

void cleanUpOnInterrupt(void (*cleanup)()) {
  sigset_t signals;
  sigemptyset(&signals);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaddset(&signals, sig);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  std::thread([signals, cleanup] {
    int sig = 0;
    if (sigwait(&signals, &sig) != 0)
      return;
    // The run is over: what the other threads would still print (a write
    // failing because its staging folder is gone) would only mislead.
    int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
      ::dup2(null, STDOUT_FILENO);
      ::dup2(null, STDERR_FILENO);
    }
    cleanup();
    // Die of the signal: default action, unblocked in this thread.
    signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
    raise(sig);
  }).detach();
}

} // namespace ascendprec::driver
