//===- TerminalWidth.h - how wide prec-compile's output may be ---*- C++ -*-===//

#ifndef ASCENDPREC_TOOLS_PRECCOMPILE_TERMINALWIDTH_H
#define ASCENDPREC_TOOLS_PRECCOMPILE_TERMINALWIDTH_H

namespace ascendprec::driver {

/// Columns for what prec-compile prints on stdout (tables are fitted to it,
/// prose is wrapped): $COLUMNS, else the terminal's width when stdout is
/// one, else 100.
unsigned terminalWidth();

/// Columns diagnostics are wrapped to when stderr is a terminal: $COLUMNS,
/// else the terminal's width; 0 (one line per diagnostic, as compilers
/// print them for logs and grep) when stderr is a file or a pipe.
unsigned diagnosticWidth();

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PRECCOMPILE_TERMINALWIDTH_H
