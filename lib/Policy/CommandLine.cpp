//===- CommandLine.cpp - CANN options from a tool's arguments -------------===//

#include "AscendPrec/Policy/CommandLine.h"

namespace ascendprec::policy {

std::optional<ParsedCommandLine>
parseCannArguments(const std::vector<std::string> &args,
                   const std::vector<std::string> &toolFlags,
                   DiagnosticList &diags) {
  ParsedCommandLine parsed;
  std::vector<std::string> flags = toolFlags;
  flags.push_back("session_options");
  if (!parsed.options.parseCommandLine(args, diags, &parsed.positional, flags,
                                       &parsed.toolFlags))
    return std::nullopt;
  auto session = parsed.toolFlags.find("session_options");
  if (session != parsed.toolFlags.end()) {
    if (session->second.empty() || session->second == "true") {
      diags.error(SourceLoc{"<command line>"},
                  "--session_options needs a file: --session_options=FILE.json",
                  "OP-1");
      return std::nullopt;
    }
    if (!parsed.options.loadSessionFile(session->second, diags))
      return std::nullopt;
    parsed.sessionOptionsFile = session->second;
    parsed.toolFlags.erase(session);
  }
  return parsed;
}

} // namespace ascendprec::policy
