//===- PrintPolicy.h - prec-opt --print-policy ----------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_OPT_PRINTPOLICY_H
#define ASCENDPREC_TOOLS_PREC_OPT_PRINTPOLICY_H

namespace ascendprec {
/// True when the arguments ask for --print-policy (or, for the docs,
/// --print-option-reference).
bool wantsPrintPolicy(int argc, char **argv);
/// Parses CANN options from argv, prints the resolved policy as JSON on
/// stdout and diagnostics on stderr. Returns the process exit code.
int runPrintPolicy(int argc, char **argv);
} // namespace ascendprec

#endif // ASCENDPREC_TOOLS_PREC_OPT_PRINTPOLICY_H
