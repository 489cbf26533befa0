//===- fuzz-session-options.cpp - libFuzzer target: session-options JSON --===//

#include "AscendPrec/Policy/Options.h"
#include "FuzzInvariants.h"

using namespace ascendprec::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  SessionOptions options;
  DiagnosticList diags;
  bool ok = options.loadSessionText(ascendprec::fuzz::asText(data, size),
                                    "session.json", diags);
  ascendprec::fuzz::checkDiagnostics(ok, diags, "session.json");
  for (const auto &[name, value] : options.all())
    ascendprec::fuzz::check(findOptionSpec(name) != nullptr,
                            "accepted an unknown option", diags);
  return 0;
}
