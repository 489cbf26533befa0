//===- Soc.cpp - what AscendPrec knows about each soc_version -------------===//

#include "AscendPrec/Policy/Soc.h"

#include <cstdlib>
#include <filesystem>

namespace ascendprec::policy {

namespace {
struct SocFamily {
  const char *family;
  std::vector<std::string> names;
  const char *libraryDir;
  bool bf16, hif8, fp32Cube;
  /// FU-4: the v220+ cores move L0C out through a FixPipe (910B, 910_93,
  /// 310B, 950); the 910 and 310P convert L0C into UB on the vector side.
  bool fixpipe;
  /// The variant whose platform config the family's own name reads.
  const char *representative = "";
};

const std::vector<SocFamily> &families() {
  static const std::vector<SocFamily> list = {
      {"Ascend910",
       {"Ascend910", "Ascend910A", "Ascend910ProA", "Ascend910ProB",
        "Ascend910PremiumA"},
       "Ascend910", false, false, false, false, "Ascend910A"},
      {"Ascend910B",
       {"Ascend910B", "Ascend910B1", "Ascend910B2", "Ascend910B3",
        "Ascend910B4", "Ascend910B4-1", "Ascend910B2C"},
       "Ascend910B", true, false, true, true, "Ascend910B3"},
      {"Ascend910_93",
       {"Ascend910_93", "Ascend910_9391", "Ascend910_9392", "Ascend910_9381",
        "Ascend910_9382", "Ascend910_9372", "Ascend910_9362"},
       "", true, false, true, true},
      {"Ascend310P", {"Ascend310P", "Ascend310P1", "Ascend310P3"}, "Ascend310P",
       false, false, false, false, "Ascend310P3"},
      {"Ascend310B", {"Ascend310B", "Ascend310B1", "Ascend310B4"}, "", true,
       false, false, true},
      {"Ascend950", {"Ascend950", "Ascend950PR", "Ascend950DT"}, "", true, true,
       true, true},
  };
  return list;
}
} // namespace

std::optional<SocInfo> lookupSoc(const std::string &socVersion) {
  for (const SocFamily &family : families())
    for (const std::string &name : family.names)
      if (name == socVersion)
        return SocInfo{family.family, family.libraryDir, family.bf16,
                       family.hif8, family.fp32Cube, family.fixpipe};
  return std::nullopt;
}

std::string platformConfigName(const std::string &socVersion) {
  for (const SocFamily &family : families())
    if (socVersion == family.family && *family.representative)
      return family.representative;
  return socVersion;
}

std::vector<std::string> knownSocVersions() {
  std::vector<std::string> names;
  for (const SocFamily &family : families())
    names.insert(names.end(), family.names.begin(), family.names.end());
  return names;
}

std::string defaultOpsDataDir() {
  if (const char *env = std::getenv("ASCENDPREC_DATA_DIR"); env && *env)
    return env;
  std::error_code error;
#ifdef ASCENDPREC_INSTALL_DATA_DIR
  if (std::filesystem::is_directory(ASCENDPREC_INSTALL_DATA_DIR, error))
    return ASCENDPREC_INSTALL_DATA_DIR;
#endif
#ifdef ASCENDPREC_SOURCE_DATA_DIR
  return ASCENDPREC_SOURCE_DATA_DIR;
#else
  return "data/ops";
#endif
}

} // namespace ascendprec::policy
