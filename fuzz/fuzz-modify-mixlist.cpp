//===- fuzz-modify-mixlist.cpp - libFuzzer target: modify_mixlist JSON ----===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "FuzzInvariants.h"

using namespace ascendprec::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DiagnosticList diags;
  auto mixList = parseModifyMixList(ascendprec::fuzz::asText(data, size),
                                    "mixlist.json", diags);
  ascendprec::fuzz::checkDiagnostics(mixList.has_value(), diags, "mixlist.json");
  if (mixList)
    for (const auto &entry : mixList->edits)
      for (ListColor builtin : {ListColor::White, ListColor::Black, ListColor::Gray}) {
        std::vector<MixListEdit> ignored;
        ListColor color = mixList->apply(entry.first, builtin, &ignored);
        ascendprec::fuzz::check(color != ListColor::None,
                                "mixlist produced no colour", diags);
      }
  return 0;
}
