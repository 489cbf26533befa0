//===- Progress.cpp - per-phase progress lines with timings ---------------===//

#include "Progress.h"
#include "TerminalWidth.h"

#include "AscendPrec/Report/TextWrap.h"

#include <algorithm>
#include <cstdio>

namespace ascendprec::driver {

void Progress::begin(const std::string &phase) {
  current = phase;
  start = std::chrono::steady_clock::now();
  if (enabled) {
    std::fprintf(stderr, "  %-34s", (phase + " ...").c_str());
    std::fflush(stderr);
    lineOpen = true;
  }
}

void Progress::breakLine() {
  if (enabled && lineOpen) {
    std::fputc('\n', stderr);
    lineOpen = false;
  }
}

void Progress::step(const std::string &detail) {
  if (!enabled)
    return;
  breakLine();
  // One line per step, however long the names in it.
  std::string line = report::shortenMiddle(detail, std::max(terminalWidth(), 40u) - 4);
  std::fprintf(stderr, "    %s\n", line.c_str());
  std::fflush(stderr);
}

void Progress::end() {
  if (!enabled || current.empty())
    return;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // After a diagnostic broke the line, the phase gets a line of its own.
  if (!lineOpen)
    std::fprintf(stderr, "  %-34s", (current + " ...").c_str());
  // Milliseconds below a second, where "0.00 s" would say nothing.
  if (seconds < 1.0)
    std::fprintf(stderr, "%6.1f ms\n", seconds * 1000.0);
  else
    std::fprintf(stderr, "%6.2f s\n", seconds);
  current.clear();
  lineOpen = false;
}

} // namespace ascendprec::driver
