//===- CommandLine.h - CANN options from a tool's arguments ---------------===//
//
// Shared by prec-opt (--print-policy) and the prec-compile driver: parses
// CANN-style `--key=value` arguments plus `--session_options=FILE` (a JSON
// object of the same keys; the command line wins, OP-1) and builds the policy.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_COMMANDLINE_H
#define ASCENDPREC_POLICY_COMMANDLINE_H

#include "AscendPrec/Policy/Policy.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::policy {

struct ParsedCommandLine {
  SessionOptions options;
  std::vector<std::string> positional;
  std::map<std::string, std::string> toolFlags; ///< e.g. "print-policy"
  std::string sessionOptionsFile;               ///< --session_options, if given
};

/// Parses `args` (without argv[0]). `toolFlags` lists the tool's own flags
/// (without "--"), which are returned instead of treated as CANN options.
std::optional<ParsedCommandLine>
parseCannArguments(const std::vector<std::string> &args,
                   const std::vector<std::string> &toolFlags,
                   DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_COMMANDLINE_H
