//===- Help.h - prec-compile --help and --version -------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_HELP_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_HELP_H

#include <string>

namespace ascendprec::driver {
/// Usage, the driver's own options, then every CANN option grouped as
/// CANN's documentation groups them.
std::string helpText();
std::string versionText();
/// --list-fusion-passes: every fusion pass with its kind, default and match.
std::string fusionPassList();
} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_HELP_H
