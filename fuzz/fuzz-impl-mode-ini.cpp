//===- fuzz-impl-mode-ini.cpp - libFuzzer target: op_precision_mode and
//                              impl-mode list .ini files ---------------------===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "FuzzInvariants.h"

using namespace ascendprec::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text = ascendprec::fuzz::asText(data, size);
  DiagnosticList diags;
  auto file = parseOpPrecisionMode(text, "op_precision.ini", diags);
  ascendprec::fuzz::checkDiagnostics(file.has_value(), diags, "op_precision.ini");
  if (file)
    for (const auto *table : {&file->byOpType, &file->byNodeName})
      for (const auto &entry : *table)
        ascendprec::fuzz::check(isImplModeName(entry.second.mode),
                                "accepted an unknown mode", diags);
  DiagnosticList listDiags;
  auto list = parseImplModeList(text, "all_ops_impl_mode.ini", listDiags);
  ascendprec::fuzz::checkDiagnostics(list.has_value(), listDiags,
                                     "all_ops_impl_mode.ini");
  return 0;
}
