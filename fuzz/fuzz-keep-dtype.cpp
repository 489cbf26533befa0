//===- fuzz-keep-dtype.cpp - libFuzzer target: keep_dtype lists -----------===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "FuzzInvariants.h"

using namespace ascendprec::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DiagnosticList diags;
  auto list = parseKeepDType(ascendprec::fuzz::asText(data, size), "keep.cfg", diags);
  ascendprec::fuzz::checkDiagnostics(list.has_value(), diags, "keep.cfg");
  if (list)
    for (const KeepDTypeEntry &entry : list->entries)
      ascendprec::fuzz::check(!entry.name.empty() && entry.loc.line > 0,
                              "empty or unlocated keep_dtype entry", diags);
  return 0;
}
