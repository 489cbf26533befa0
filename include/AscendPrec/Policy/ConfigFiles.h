//===- ConfigFiles.h - CANN precision config files ------------------------===//
//
// The files users hand CANN: modify_mixlist JSON (ML-5..ML-9), keep_dtype
// lists (KD-1), customize_dtypes lists (CD-1..CD-4, CD-8) and
// op_precision_mode .ini files (IM-4). Parsers report every problem with
// file, line and column and return nothing when the file is unusable.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_CONFIGFILES_H
#define ASCENDPREC_POLICY_CONFIGFILES_H

#include "AscendPrec/Policy/DType.h"
#include "AscendPrec/Policy/Diagnostics.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

//===----------------------------------------------------------------------===//
// modify_mixlist
//===----------------------------------------------------------------------===//

enum class ListColor { None, White, Black, Gray };
std::string listColorName(ListColor color);

/// One `<list>.<action>` mention of an op type.
struct MixListEdit {
  ListColor list; ///< White, Black or Gray
  bool add;       ///< to-add (true) or to-remove (false)
  SourceLoc loc;
};

struct ModifyMixList {
  std::string path;
  /// Per op type, its edits in file order (ML-6 combinations are legal).
  std::map<std::string, std::vector<MixListEdit>> edits;

  /// ML-6: the op type's colour after the edits, starting from `builtin`.
  /// `removedAbsent` receives the to-remove edits that name a list the op is
  /// not on (ML-7 warns about those; they change nothing).
  ListColor apply(const std::string &opType, ListColor builtin,
                  std::vector<MixListEdit> *removedAbsent = nullptr) const;
  /// The edit that decided the colour `apply` returns, for provenance.
  const MixListEdit *decidingEdit(const std::string &opType,
                                  ListColor builtin) const;
};

std::optional<ModifyMixList> parseModifyMixList(std::string_view text,
                                                const std::string &file,
                                                DiagnosticList &diags);

//===----------------------------------------------------------------------===//
// keep_dtype
//===----------------------------------------------------------------------===//

struct KeepDTypeEntry {
  bool isOpType; ///< `OpType::Name` line, else a node name
  std::string name;
  SourceLoc loc;
};

struct KeepDTypeList {
  std::string path;
  std::vector<KeepDTypeEntry> entries;
};

std::optional<KeepDTypeList> parseKeepDType(std::string_view text,
                                            const std::string &file,
                                            DiagnosticList &diags);

//===----------------------------------------------------------------------===//
// customize_dtypes
//===----------------------------------------------------------------------===//

/// A dtype list position; nullopt is an empty position ("any", CD-1).
using DTypeSlot = std::optional<DType>;

struct CustomizeDTypesEntry {
  bool isOpType; ///< `OpType::Name:...`, else `Opname::...`
  std::string key; ///< op type or node name
  std::vector<DTypeSlot> inputs;
  std::vector<DTypeSlot> outputs;
  SourceLoc loc;
};

struct CustomizeDTypesList {
  std::string path;
  /// First entry per key only (CD-4: the first of two wins, with a warning).
  std::vector<CustomizeDTypesEntry> entries;

  const CustomizeDTypesEntry *findByName(const std::string &name) const;
  const CustomizeDTypesEntry *findByOpType(const std::string &opType) const;
};

std::optional<CustomizeDTypesList>
parseCustomizeDTypes(std::string_view text, const std::string &file,
                     DiagnosticList &diags);

/// CD-1: the line `name::InputDtype:<inputs>,OutputDtype:<outputs>` that
/// pins node `name`, if the format can express that name so that it reads
/// back unchanged. It cannot when the name is empty, starts with `#` (a
/// comment) or `OpType::` (an op type line), has blanks at either end
/// (trimmed), contains a line break or NUL, or makes the line longer than
/// 1024 characters; then `problem` says which and nothing is returned.
/// `::` and `InputDtype:` inside a name are fine: the name ends at the
/// line's last `::` (see docs/decisions.md).
std::optional<std::string>
formatCustomizeDTypesLine(std::string_view name, const std::vector<std::string> &inputs,
                          const std::vector<std::string> &outputs, std::string &problem);

/// CD-8: letters, digits, `_`, `-`, `.`, `:` and CJK characters in each path
/// component (`/` separates components). Returns the offending character, or
/// an empty string when the path is allowed.
std::string findForbiddenPathCharacter(std::string_view path);

//===----------------------------------------------------------------------===//
// op_precision_mode .ini and the impl-mode lists
//===----------------------------------------------------------------------===//

/// IM-4's values, spelled as CANN spells them.
const std::vector<std::string> &implModeNames();
bool isImplModeName(std::string_view name);

struct ImplModeEntry {
  std::string mode;
  SourceLoc loc;
};

struct OpPrecisionModeFile {
  std::string path;
  std::map<std::string, ImplModeEntry> byOpType;
  std::map<std::string, ImplModeEntry> byNodeName;
};

/// IM-4: `[ByOpType]` / `[ByNodeName]` sections of `key=value` lines; lines
/// before any section are ByOpType. Unknown values are errors.
std::optional<OpPrecisionModeFile>
parseOpPrecisionMode(std::string_view text, const std::string &file,
                     DiagnosticList &diags);

/// IM-2 list files (`high_precision.ini`, ...): `OpType=mode` lines.
/// all_ops_impl_mode.ini: `OpType=mode1,mode2,...` (the modes an op has).
struct ImplModeListFile {
  std::string path;
  std::map<std::string, std::vector<std::string>> modes; ///< op type -> modes
  std::map<std::string, SourceLoc> locs;
};

std::optional<ImplModeListFile> parseImplModeList(std::string_view text,
                                                  const std::string &file,
                                                  DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_CONFIGFILES_H
