//===- AtcOptions.h - ATC command-line options the driver applies ---------===//
//
// An ATC command line runs unchanged apart from the tool's name: `--model`
// (or the positional MODEL), `--framework`, `--input_format` and `--log`
// are checked and applied here; the shape and dtype options go through
// policy::parseModelInputOptions (docs/reference/atc-options.md).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_TOOLS_PREC_COMPILE_ATCOPTIONS_H
#define ASCENDPREC_TOOLS_PREC_COMPILE_ATCOPTIONS_H

#include "AscendPrec/Policy/CommandLine.h"

#include <optional>
#include <string>

namespace ascendprec::driver {

/// The model to read: the positional argument or --model (both: they must
/// agree), checked against --framework and --input_format.
std::optional<std::string> modelFromArguments(const policy::ParsedCommandLine &parsed,
                                              policy::DiagnosticList &diags);

/// What --log lets through to stderr (everything goes to report.txt).
struct LogFilter {
  bool warnings = true;
  explicit LogFilter(const policy::SessionOptions &options);
  bool shows(policy::Severity severity) const;
};

} // namespace ascendprec::driver

#endif // ASCENDPREC_TOOLS_PREC_COMPILE_ATCOPTIONS_H
