//===- InterruptCleanup.h - clean up, then die of SIGINT/SIGTERM/SIGHUP ---===//
//
// A signal handler may call only async-signal-safe functions, which rules
// out removing a folder tree. Instead the interrupt signals are blocked in
// every thread and received by one thread of their own (sigwait), which can
// run ordinary code: the cleanup, then the default action of the signal, so
// the shell still sees the program die of it (exit status 128 + N).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_INTERRUPTCLEANUP_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_INTERRUPTCLEANUP_H

namespace ascendprec::driver {

/// Runs `cleanup` when SIGINT, SIGTERM or SIGHUP arrives, then ends the
/// process by that signal. Call once, before any other thread starts (the
/// threads inherit the blocked signals).
void cleanUpOnInterrupt(void (*cleanup)());

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_INTERRUPTCLEANUP_H
