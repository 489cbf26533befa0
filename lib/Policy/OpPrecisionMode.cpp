//===- OpPrecisionMode.cpp - op_precision_mode and impl-mode lists --------===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "AscendPrec/Policy/Ini.h"

#include <algorithm>

namespace ascendprec::policy {

const std::vector<std::string> &implModeNames() {
  static const std::vector<std::string> names = {
      "high_precision",        "high_performance",
      "enable_float_32_execution", "enable_hi_float_32_execution",
      "support_out_of_bound_index", "keep_fp16",
      "super_performance"};
  return names;
}

bool isImplModeName(std::string_view name) {
  const auto &names = implModeNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

static void reportUnknownMode(const IniEntry &entry, std::string_view mode,
                              DiagnosticList &diags) {
  std::string hint = closestMatch(std::string(mode), implModeNames());
  diags.error(entry.valueLoc,
              "unknown implementation mode '" + std::string(mode) + "' for '" +
                  entry.key + "'; expected one of " +
                  joinChoices(implModeNames()) +
                  (hint.empty() ? "" : " (did you mean '" + hint + "'?)"),
              "IM-4");
}

std::optional<OpPrecisionModeFile>
parseOpPrecisionMode(std::string_view text, const std::string &file,
                     DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  std::optional<IniFile> ini = parseIni(text, file, diags);
  if (!ini)
    return std::nullopt;
  for (const auto &[section, loc] : ini->sections)
    if (section != "ByOpType" && section != "ByNodeName")
      diags.error(loc, "unknown section '[" + section +
                           "]'; expected [ByOpType] or [ByNodeName]",
                  "IM-4");
  OpPrecisionModeFile result;
  result.path = file;
  for (const IniEntry &entry : ini->entries) {
    if (entry.value.empty()) {
      diags.error(entry.valueLoc, "missing implementation mode after '" +
                                      entry.key + "='",
                  "IM-4");
      continue;
    }
    if (!isImplModeName(entry.value)) {
      reportUnknownMode(entry, entry.value, diags);
      continue;
    }
    // Lines before any section are ByOpType (the seed 001 example has none).
    auto &table = entry.section == "ByNodeName" ? result.byNodeName
                                                : result.byOpType;
    auto [it, inserted] =
        table.emplace(entry.key, ImplModeEntry{entry.value, entry.keyLoc});
    if (!inserted)
      diags.warning(entry.keyLoc, "'" + entry.key +
                                      "' is configured again; the first entry "
                                      "(line " +
                                      std::to_string(it->second.loc.line) +
                                      ") wins",
                    "IM-4")
          .notes.push_back(
              {Severity::Note, "", it->second.loc, "first entry here", {}});
  }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return result;
}

std::optional<ImplModeListFile> parseImplModeList(std::string_view text,
                                                  const std::string &file,
                                                  DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  std::optional<IniFile> ini = parseIni(text, file, diags);
  if (!ini)
    return std::nullopt;
  ImplModeListFile result;
  result.path = file;
  for (const IniEntry &entry : ini->entries) {
    std::vector<std::string> modes;
    size_t start = 0;
    std::string_view value = entry.value;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      std::string_view mode = value.substr(
          start, comma == std::string_view::npos ? std::string_view::npos
                                                 : comma - start);
      if (!isImplModeName(mode))
        reportUnknownMode(entry, mode, diags);
      else
        modes.emplace_back(mode);
      if (comma == std::string_view::npos)
        break;
      start = comma + 1;
    }
    if (result.modes.count(entry.key)) {
      diags.error(entry.keyLoc, "op type '" + entry.key + "' is listed twice",
                  "IM-2");
      continue;
    }
    result.modes[entry.key] = std::move(modes);
    result.locs[entry.key] = entry.keyLoc;
  }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return result;
}

} // namespace ascendprec::policy
