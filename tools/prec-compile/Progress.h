//===- Progress.h - per-phase progress lines with timings -----------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_PROGRESS_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_PROGRESS_H

#include <chrono>
#include <string>

namespace ascendprec::driver {

/// Prints "  <phase> ... 0.12 s" on stderr when enabled (a terminal and no
/// --quiet).
class Progress {
public:
  explicit Progress(bool enabled) : enabled(enabled) {}
  void begin(const std::string &phase);
  void end();

private:
  bool enabled;
  std::string current;
  std::chrono::steady_clock::time_point start;
};

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_PROGRESS_H
