//===- PlatformConfig.cpp - CANN platform-config .ini (OP-4) --------------===//

#include "AscendPrec/Policy/Ini.h"
#include "AscendPrec/Policy/OpLibrary.h"

namespace ascendprec::policy {

namespace {
struct Field {
  const char *section;
  const char *key;
  uint64_t PlatformInfo::*member;
  bool required;
};

// The keys AscendPrec reads; CANN's files carry many more, which are fine.
constexpr Field kFields[] = {
    {"SoCInfo", "ai_core_cnt", &PlatformInfo::aiCoreCount, true},
    {"SoCInfo", "cube_core_cnt", &PlatformInfo::cubeCoreCount, false},
    {"SoCInfo", "vector_core_cnt", &PlatformInfo::vectorCoreCount, false},
    {"SoCInfo", "ai_cpu_cnt", &PlatformInfo::aiCpuCount, false},
    {"SoCInfo", "l2_size", &PlatformInfo::l2Size, false},
    {"SoCInfo", "memory_size", &PlatformInfo::memorySize, false},
    {"AICoreSpec", "cube_freq", &PlatformInfo::cubeFreqMHz, false},
    {"AICoreSpec", "cube_m_size", &PlatformInfo::cubeM, true},
    {"AICoreSpec", "cube_n_size", &PlatformInfo::cubeN, true},
    {"AICoreSpec", "cube_k_size", &PlatformInfo::cubeK, true},
    {"AICoreSpec", "l0_a_size", &PlatformInfo::l0aSize, true},
    {"AICoreSpec", "l0_b_size", &PlatformInfo::l0bSize, true},
    {"AICoreSpec", "l0_c_size", &PlatformInfo::l0cSize, true},
    {"AICoreSpec", "l1_size", &PlatformInfo::l1Size, true},
    {"AICoreSpec", "ub_size", &PlatformInfo::ubSize, true},
    {"AICoreMemoryRates", "ddr_rate", &PlatformInfo::ddrRate, false},
    {"AICoreMemoryRates", "l2_rate", &PlatformInfo::l2Rate, false},
    {"AICoreMemoryRates", "ddr_write_rate", &PlatformInfo::ddrWriteRate, false},
    {"AICoreMemoryRates", "l1_to_l0_a_rate", &PlatformInfo::l1ToL0aRate, false},
    {"AICoreMemoryRates", "l1_to_l0_b_rate", &PlatformInfo::l1ToL0bRate, false},
    {"AICoreMemoryRates", "ub_to_ddr_rate", &PlatformInfo::ubToDdrRate, false},
};

bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() || text.size() > 19)
    return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + (c - '0');
  }
  return true;
}
} // namespace

std::optional<PlatformInfo> parsePlatformConfig(std::string_view text,
                                                const std::string &file,
                                                DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  std::optional<IniFile> ini = parseIni(text, file, diags);
  if (!ini)
    return std::nullopt;
  PlatformInfo info;
  info.path = file;
  if (const IniEntry *soc = ini->find("version", "SoC_version"))
    info.socVersion = soc->value;
  if (const IniEntry *shortSoc = ini->find("version", "Short_SoC_version"))
    info.shortSocVersion = shortSoc->value;
  if (info.socVersion.empty())
    diags.error(SourceLoc{file}, "platform config has no [version] "
                                 "SoC_version=...",
                "OP-4");
  for (const Field &field : kFields) {
    const IniEntry *entry = ini->find(field.section, field.key);
    if (!entry) {
      if (field.required)
        diags.error(SourceLoc{file}, std::string("platform config lacks [") +
                                         field.section + "] " + field.key,
                    "OP-4");
      continue;
    }
    if (!parseUnsigned(entry->value, info.*field.member))
      diags.error(entry->valueLoc, std::string("[") + field.section + "] " +
                                       field.key +
                                       " must be a non-negative integer, "
                                       "found '" + entry->value + "'",
                  "OP-4");
  }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  if (!info.cubeCoreCount)
    info.cubeCoreCount = info.aiCoreCount;
  return info;
}

} // namespace ascendprec::policy
