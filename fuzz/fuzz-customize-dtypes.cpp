//===- fuzz-customize-dtypes.cpp - libFuzzer target: customize_dtypes -----===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "FuzzInvariants.h"

using namespace ascendprec::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text = ascendprec::fuzz::asText(data, size);
  DiagnosticList diags;
  auto list = parseCustomizeDTypes(text, "custom.cfg", diags);
  ascendprec::fuzz::checkDiagnostics(list.has_value(), diags, "custom.cfg");
  if (list)
    for (const CustomizeDTypesEntry &entry : list->entries)
      ascendprec::fuzz::check(!entry.key.empty(), "entry without a key", diags);
  // The CD-8 path check must accept or name a character for any bytes.
  (void)findForbiddenPathCharacter(text);
  return 0;
}
