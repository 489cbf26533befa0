//===- PrintPolicy.cpp - prec-opt --print-policy --------------------------===//
//
// `prec-opt --print-policy --soc_version=... [CANN options]` resolves the
// options and files the way a compilation would and prints the result as
// JSON, without reading any IR.
//
//===----------------------------------------------------------------------===//

#include "PrintPolicy.h"

#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/OptionReference.h"
#include "AscendPrec/Policy/PolicyJson.h"

#include <cstring>
#include <iostream>

namespace ascendprec {

bool wantsPrintPolicy(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--print-policy") ||
        !std::strcmp(argv[i], "-print-policy") ||
        !std::strcmp(argv[i], "--print-option-reference"))
      return true;
  return false;
}

int runPrintPolicy(int argc, char **argv) {
  if (argc == 2 && !std::strcmp(argv[1], "--print-option-reference")) {
    std::cout << ascendprec::policy::optionReferenceMarkdown();
    return 0;
  }
  using namespace ascendprec::policy;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i)
    args.push_back(!std::strcmp(argv[i], "-print-policy") ? "--print-policy"
                                                          : argv[i]);
  DiagnosticList diags;
  std::optional<ParsedCommandLine> parsed =
      parseCannArguments(args, {"print-policy"}, diags);
  std::optional<Policy> policy;
  if (parsed && !parsed->positional.empty())
    diags.error(SourceLoc{"<command line>"},
                "--print-policy reads no input file; remove '" +
                    parsed->positional.front() + "'",
                "OP-1");
  else if (parsed)
    policy = Policy::build(parsed->options, diags);
  std::cerr << diags.format();
  if (!policy)
    return 1;
  std::cout << policyToJson(*policy);
  return 0;
}

} // namespace ascendprec
