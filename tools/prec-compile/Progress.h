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
  /// Ends the open progress line before a diagnostic is printed, so that
  /// the two never share a line; end() then repeats the phase's name.
  void breakLine();
  /// A step inside a long phase (a mode compared, a plan the search runs),
  /// on a line of its own under the phase.
  void step(const std::string &detail);
  void end();

private:
  bool enabled;
  std::string current;
  bool lineOpen = false;
  std::chrono::steady_clock::time_point start;
};

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_PROGRESS_H
