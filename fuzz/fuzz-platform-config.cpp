//===- fuzz-platform-config.cpp - libFuzzer target: platform-config .ini --===//

#include "AscendPrec/Policy/OpLibrary.h"
#include "FuzzInvariants.h"

using namespace ascendprec::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DiagnosticList diags;
  auto info = parsePlatformConfig(ascendprec::fuzz::asText(data, size),
                                  "platform.ini", diags);
  ascendprec::fuzz::checkDiagnostics(info.has_value(), diags, "platform.ini");
  return 0;
}
