//===- fuzz-ops-info.cpp - libFuzzer target: ops-info JSON ----------------===//

#include "AscendPrec/Policy/OpLibrary.h"
#include "FuzzInvariants.h"

using namespace ascendprec::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  OpLibrary library;
  DiagnosticList diags;
  bool ok = parseOpsInfoJson(ascendprec::fuzz::asText(data, size), "ops.json",
                             library, diags);
  ascendprec::fuzz::checkDiagnostics(ok, diags, "ops.json");
  if (ok)
    for (const auto &entry : library.ops)
      for (const auto *kernel : {&entry.second.aicore, &entry.second.aicpu})
        if (*kernel)
          for (const KernelRow &row : (*kernel)->rows)
            ascendprec::fuzz::check(row.inputs.size() == (*kernel)->inputs.size() &&
                                        row.outputs.size() == (*kernel)->outputs.size(),
                                    "kernel row arity differs from the params",
                                    diags);
  return 0;
}
