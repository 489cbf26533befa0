//===- OutputDirectory.cpp - all-or-nothing output folders ----------------===//

#include "OutputDirectory.h"

#include <filesystem>
#include <random>

namespace fs = std::filesystem;

namespace ascendprec::driver {

static std::string uniqueSibling(const fs::path &path, const std::string &tag) {
  std::random_device device;
  std::mt19937 random(device());
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path candidate = path;
    candidate += "." + tag + "-" + std::to_string(random() % 1000000);
    std::error_code error;
    if (!fs::exists(candidate, error))
      return candidate.string();
  }
  return (path.string() + "." + tag);
}

OutputDirectory::OutputDirectory(std::string requested)
    : finalPath(std::move(requested)) {
  fs::path target = fs::absolute(finalPath);
  std::error_code error;
  if (fs::exists(target, error) && !fs::is_directory(target, error)) {
    errorMessage = "--output='" + finalPath + "' exists and is not a directory";
    return;
  }
  fs::create_directories(target.parent_path(), error);
  tempPath = uniqueSibling(target, "partial");
  if (!fs::create_directory(tempPath, error))
    errorMessage = "cannot create '" + tempPath + "': " + error.message();
}

OutputDirectory::~OutputDirectory() {
  if (!committed && !tempPath.empty()) {
    std::error_code error;
    fs::remove_all(tempPath, error);
  }
}

std::string OutputDirectory::path(const std::string &name) const {
  return (fs::path(tempPath) / name).string();
}

bool OutputDirectory::commit() {
  fs::path target = fs::absolute(finalPath);
  std::error_code error;
  std::string old;
  if (fs::exists(target, error)) {
    old = uniqueSibling(target, "old");
    fs::rename(target, old, error);
    if (error) {
      errorMessage = "cannot replace '" + finalPath + "': " + error.message();
      return false;
    }
  }
  fs::rename(tempPath, target, error);
  if (error) {
    errorMessage = "cannot move the outputs to '" + finalPath + "': " + error.message();
    if (!old.empty())
      fs::rename(old, target, error); // put the previous outputs back
    return false;
  }
  committed = true;
  if (!old.empty())
    fs::remove_all(old, error);
  return true;
}

} // namespace ascendprec::driver
