//===- OpLibraryLoader.cpp - load a directory of CANN files (OP-4) --------===//

#include "AscendPrec/Policy/Json.h"
#include "AscendPrec/Policy/OpLibrary.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace ascendprec::policy {

/// Regular files directly in `dir` whose names end in `extension`, sorted so
/// loading (and error order) does not depend on the file system.
static std::vector<fs::path> listFiles(const fs::path &dir,
                                       const std::string &extension) {
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error))
    if (it->is_regular_file(error) && it->path().extension() == extension)
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<OpLibrary> loadOpLibrary(const std::string &dir,
                                       DiagnosticList &diags,
                                       const std::string &platformName) {
  size_t errorsBefore = diags.errorCount();
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    diags.error(SourceLoc{dir}, "operator library directory '" + dir +
                                    "' does not exist or is not a directory",
                "OP-4");
    return std::nullopt;
  }
  OpLibrary library;
  library.dir = dir;
  std::vector<fs::path> jsonFiles = listFiles(dir, ".json");
  if (jsonFiles.empty()) {
    diags.error(SourceLoc{dir}, "operator library directory '" + dir +
                                    "' holds no .json ops-info files",
                "OP-4");
    return std::nullopt;
  }
  for (const fs::path &path : jsonFiles) {
    std::string text;
    if (!readFile(path.string(), text, diags))
      continue;
    library.files.push_back(path.string());
    parseOpsInfoJson(text, path.string(), library, diags);
  }

  fs::path implDir = fs::path(dir) / "impl_mode";
  for (const fs::path &path : listFiles(implDir, ".ini")) {
    std::string text;
    if (!readFile(path.string(), text, diags))
      continue;
    library.files.push_back(path.string());
    if (auto list = parseImplModeList(text, path.string(), diags))
      library.implModeLists[path.stem().string()] = std::move(*list);
  }

  fs::path platformDir = fs::path(dir) / "platform_config";
  std::vector<fs::path> platformFiles = listFiles(platformDir, ".ini");
  std::optional<fs::path> platformFile;
  if (platformFiles.size() == 1) {
    platformFile = platformFiles.front();
  } else if (platformFiles.size() > 1) {
    // One file per SoC variant, as CANN installs them: this SoC's.
    for (const fs::path &path : platformFiles)
      if (!platformName.empty() && path.stem().string() == platformName)
        platformFile = path;
    if (!platformFile) {
      std::string present;
      for (const fs::path &path : platformFiles)
        present += (present.empty() ? "" : ", ") + path.stem().string();
      diags.error(SourceLoc{platformDir.string()},
                  platformName.empty()
                      ? "platform_config/ holds " + std::to_string(platformFiles.size()) +
                            " .ini files and no SoC was named to choose one"
                      : "platform_config/ has no " + platformName + ".ini; it has " + present,
                  "OP-4");
    }
  }
  if (platformFile) {
    std::string text;
    if (readFile(platformFile->string(), text, diags)) {
      library.files.push_back(platformFile->string());
      library.platform = parsePlatformConfig(text, platformFile->string(), diags);
    }
  }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return library;
}

} // namespace ascendprec::policy
