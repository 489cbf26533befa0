//===- TerminalWidth.cpp - how wide prec-compile's output may be ----------===//

#include "TerminalWidth.h"

#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

namespace {

/// $COLUMNS when it is set to a usable width (at least 40), else 0.
unsigned columnsVariable() {
  if (const char *columns = std::getenv("COLUMNS"))
    if (int value = std::atoi(columns); value >= 40)
      return static_cast<unsigned>(value);
  return 0;
}

/// The width of the terminal `fd` is, or 0 when it is none.
unsigned widthOf(int fd) {
  struct winsize size;
  if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40)
    return size.ws_col;
  return 0;
}

} // namespace

unsigned ascendprec::driver::terminalWidth() {
  if (unsigned columns = columnsVariable())
    return columns;
  if (unsigned width = widthOf(STDOUT_FILENO))
    return width;
  return 100;
}

unsigned ascendprec::driver::diagnosticWidth() {
  unsigned width = widthOf(STDERR_FILENO);
  if (!width)
    return 0;
  unsigned columns = columnsVariable();
  return columns ? columns : width;
}
