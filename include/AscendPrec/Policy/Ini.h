//===- Ini.h - INI files with positions -----------------------------------===//
//
// Used for op_precision_mode files (IM-4), the impl-mode lists (IM-2) and
// CANN's platform-config files (OP-4). `#` and `;` start comment lines;
// spaces around `=` are allowed.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_INI_H
#define ASCENDPREC_POLICY_INI_H

#include "AscendPrec/Policy/Diagnostics.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

struct IniEntry {
  std::string section; ///< "" before the first [section]
  std::string key;
  std::string value;
  SourceLoc keyLoc;
  SourceLoc valueLoc;
};

struct IniFile {
  std::string path;
  std::vector<IniEntry> entries;
  /// Every section header in file order, with its position.
  std::vector<std::pair<std::string, SourceLoc>> sections;

  /// The value of `key` in `section`, or null.
  const IniEntry *find(std::string_view section, std::string_view key) const;
};

/// Parses INI text. Lines that are not `[section]`, `key=value`, blank or a
/// comment are errors naming line and column. Several `key=value` pairs on
/// one line separated by spaces (as the CANN docs print them) are accepted.
std::optional<IniFile> parseIni(std::string_view text, const std::string &file,
                                DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_INI_H
