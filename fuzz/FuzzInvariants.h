//===- FuzzInvariants.h - what every parser must guarantee (OP-5) ---------===//
//
// Beyond "does not crash" (ASan/UBSan catch that), every parser promises:
// a rejected input has at least one error, and every diagnostic names the
// file it is about, with a line whenever it points into the text.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_FUZZ_FUZZINVARIANTS_H
#define ASCENDPREC_FUZZ_FUZZINVARIANTS_H

#include "AscendPrec/Policy/Diagnostics.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace ascendprec::fuzz {

inline std::string_view asText(const uint8_t *data, size_t size) {
  return {reinterpret_cast<const char *>(data), size};
}

inline void check(bool condition, const char *what,
                  const policy::DiagnosticList &diags) {
  if (condition)
    return;
  std::fprintf(stderr, "fuzz invariant violated: %s\n%s", what,
               diags.format().c_str());
  std::abort();
}

/// `parsed`: whether the parser returned a result.
inline void checkDiagnostics(bool parsed, const policy::DiagnosticList &diags,
                             const char *file) {
  check(parsed || diags.hasErrors(), "rejected input without an error", diags);
  for (const policy::Diagnostic &diag : diags.all()) {
    check(diag.loc.file == file, "diagnostic about another file", diags);
    check(!diag.message.empty(), "empty diagnostic message", diags);
  }
}

} // namespace ascendprec::fuzz

#endif // ASCENDPREC_FUZZ_FUZZINVARIANTS_H
