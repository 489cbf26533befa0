//===- OutputFolder.cpp - the folder prec-compile writes, safely ----------===//

#include "AscendPrec/Session/OutputFolder.h"

#include "llvm/ADT/STLExtras.h"

#include "AscendPrec/Policy/Diagnostics.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <set>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ascendprec::session {

namespace {

constexpr const char *kStagingPrefix = ".prec-compile-staging-";
/// How long commit() waits for another run's commit (a few renames).
constexpr std::chrono::seconds kLockWait{30};

std::mutex activeMutex;
OutputFolder *active = nullptr;

std::string shown(const fs::path &path) {
  return "'" + policy::escapeForDisplay(path.string()) + "'";
}

/// `inner` is `outer` or lies below it (both absolute and normalized).
bool isWithin(const fs::path &inner, const fs::path &outer) {
  auto [outerEnd, innerAt] =
      std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return outerEnd == outer.end();
}

/// An absolute path with symlinks of its existing part resolved, `.` and
/// `..` applied and no trailing separator.
fs::path resolve(const fs::path &path) {
  std::error_code ec;
  fs::path result = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec)
    result = fs::absolute(path).lexically_normal();
  while (!result.has_filename() && result.has_relative_path())
    result = result.parent_path();
  return result;
}

bool pathExists(const fs::path &path) {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0;
}

bool isRegularFile(const fs::path &path) {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

/// The names a folder's manifest lists (none when there is no manifest).
std::set<std::string> readManifest(const fs::path &folder) {
  std::set<std::string> names;
  std::ifstream in(folder / OutputFolder::kManifestName);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#')
      names.insert(line);
  return names;
}

bool writeManifest(const fs::path &folder, const fs::path &scratch,
                   const std::set<std::string> &names, std::string &error) {
  fs::path temp = scratch / OutputFolder::kManifestName;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << "# Files prec-compile wrote into this folder. It overwrites or removes\n"
           "# only these (and never a file of the same name that it did not write).\n";
    for (const std::string &name : names)
      out << name << "\n";
    if (!out) {
      error = "cannot write " + shown(temp);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(temp, folder / OutputFolder::kManifestName, ec);
  if (ec)
    error = "cannot update " + shown(folder / OutputFolder::kManifestName) + ": " +
            ec.message();
  return !ec;
}

/// Outputs of ours in `folder` that prec-compile did not write: a file of
/// that name the manifest does not list, or anything but a regular file.
std::vector<std::string> foreignFiles(const fs::path &folder,
                                      const std::vector<std::string> &names) {
  std::set<std::string> ours = readManifest(folder);
  std::vector<std::string> foreign;
  for (const std::string &name : names) {
    fs::path path = folder / name;
    if (pathExists(path) && (!ours.count(name) || !isRegularFile(path)))
      foreign.push_back(name);
  }
  return foreign;
}

std::string foreignFilesError(const std::string &option, const fs::path &folder,
                              const std::vector<std::string> &foreign) {
  std::string list;
  for (size_t i = 0; i < foreign.size() && i < 3; ++i)
    list += (i ? ", " : "") + shown(foreign[i]);
  if (foreign.size() > 3)
    list += " and " + std::to_string(foreign.size() - 3) + " more";
  return option + ": " + shown(folder) + " already holds " + list +
         ", which prec-compile did not write (it is not in " +
         OutputFolder::kManifestName +
         "); prec-compile overwrites only its own files: move " +
         (foreign.size() == 1 ? "it" : "them") + " away or choose another folder";
}

/// A manifest entry this tool may remove when stale: a file in the folder or
/// in one of its subfolders (run/, search/), never a path that leaves them
/// (a manifest is a text file anyone can edit).
bool isOwnPath(const std::string &name) {
  size_t slash = name.find('/');
  if (slash == std::string::npos)
    return !name.empty() && name != "." && name != "..";
  std::string file = name.substr(slash + 1);
  return llvm::is_contained(OutputFolder::subfolders(), name.substr(0, slash)) &&
         !file.empty() && file.find('/') == std::string::npos && file != "." && file != "..";
}

/// Staging folders of runs that died without cleaning up (SIGKILL, power
/// loss): ours by name, and their process is gone.
void removeAbandonedStaging(const fs::path &folder) {
  std::error_code ec;
  for (const fs::directory_entry &entry : fs::directory_iterator(folder, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kStagingPrefix, 0) != 0)
      continue;
    const char *pidText = name.c_str() + std::strlen(kStagingPrefix);
    char *end = nullptr;
    long pid = std::strtol(pidText, &end, 10);
    if (end == pidText || *end != '\0' || pid <= 0)
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      fs::remove_all(entry.path(), ec);
  }
}

/// An exclusive lock on the folder's lock file, released on destruction.
class FolderLock {
public:
  bool acquire(const fs::path &folder, const std::string &option, std::string &error) {
    fs::path path = folder / OutputFolder::kLockName;
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      error = option + ": cannot create the lock file " + shown(path) + ": " +
              std::strerror(errno);
      return false;
    }
    auto deadline = std::chrono::steady_clock::now() + kLockWait;
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        error = option + ": cannot lock " + shown(path) + ": " + std::strerror(errno);
        return false;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        error = option + ": " + shown(folder) +
                " is in use by another prec-compile run (it holds " + shown(path) +
                "); try again when that run has finished";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
  }
  ~FolderLock() {
    if (fd >= 0)
      ::close(fd); // releases the lock
  }

private:
  int fd = -1;
};

} // namespace

const std::vector<std::string> &OutputFolder::subfolders() {
  static const std::vector<std::string> names = {kRunFolder, kSearchFolder};
  return names;
}

const std::vector<std::string> &OutputFolder::outputNames() {
  static const std::vector<std::string> names = {
      "planned.mlir", "kernels.mlir",    "report.json", "report.txt",
      "report.html",  "report.dot",      "report.lock.cfg", "options.json",
      "accuracy.json", "compare.json",
      // --search-precision's files (checked before any work like the others).
      "search/options.json", "search/keep_dtype.cfg", "search/modify_mixlist.json",
      "search/report.lock.cfg", "search/search.json"};
  return names;
}

std::unique_ptr<OutputFolder>
OutputFolder::open(const std::string &requested, const std::vector<std::string> &inputs,
                   const std::vector<std::string> &inputFolders,
                   std::string &error) {
  std::string option = "--output=" + policy::escapeForDisplay(requested);
  if (requested.empty()) {
    error = "--output needs a folder: --output=DIR";
    return nullptr;
  }
  fs::path folder = resolve(requested);
  std::error_code ec;
  fs::file_status status = fs::status(folder, ec);
  bool folderExists = fs::exists(status);
  if (folderExists && !fs::is_directory(status)) {
    error = option + ": " + shown(folder) +
            " exists and is not a folder; --output names the folder for the outputs";
    return nullptr;
  }

  // Refuse a folder that holds the work the run is about.
  for (const std::string &input : inputs) {
    if (!fs::exists(input, ec))
      continue;
    fs::path real = resolve(input);
    // A sibling of the input (or of the folder), never a folder inside an
    // input folder.
    auto suggestion = [&] {
      fs::path base = isWithin(folder, real) ? real : folder;
      return policy::escapeForDisplay(
          (base.parent_path() / (base.filename().string() + "-precision-out")).string());
    };
    if (isWithin(real, folder)) {
      error = option + ": " + shown(folder) + " holds the input " + shown(input) +
              "; prec-compile does not write into a folder that contains its inputs: "
              "choose a new folder, e.g. --output=" + suggestion();
      return nullptr;
    }
    // An input folder (a --run folder) may not hold the output folder.
    bool isInputFolder = std::find(inputFolders.begin(), inputFolders.end(), input) !=
                         inputFolders.end();
    if (isInputFolder && fs::is_directory(real, ec) && isWithin(folder, real)) {
      error = option + ": " + shown(folder) + " lies inside the input folder " + shown(input) +
              "; prec-compile does not write into its inputs: choose a folder outside it, "
              "e.g. --output=" + suggestion();
      return nullptr;
    }
  }
  fs::path cwd = resolve(fs::current_path(ec));
  if (!ec && isWithin(cwd, folder)) {
    error = option + ": " + shown(folder) +
            (cwd == folder ? " is the working directory"
                           : " is a parent of the working directory") +
            "; prec-compile writes into a folder of its own: choose a new one, "
            "e.g. --output=precision-out";
    return nullptr;
  }

  // Writable: the folder itself, or the nearest existing ancestor that will
  // hold it.
  fs::path writable = folder;
  while (!fs::exists(writable, ec) && writable.has_relative_path())
    writable = writable.parent_path();
  if (!fs::is_directory(writable, ec)) {
    error = option + ": cannot create " + shown(folder) + ": " + shown(writable) +
            " is not a folder";
    return nullptr;
  }
  if (::access(writable.c_str(), W_OK | X_OK) != 0) {
    error = option + ": cannot write into " + shown(writable) + ": " +
            std::strerror(errno);
    return nullptr;
  }

  if (folderExists) {
    std::vector<std::string> foreign = foreignFiles(folder, outputNames());
    if (!foreign.empty()) {
      error = foreignFilesError(option, folder, foreign);
      return nullptr;
    }
  }
  return std::unique_ptr<OutputFolder>(new OutputFolder(option, folder));
}

OutputFolder::~OutputFolder() {
  discard();
  std::lock_guard<std::mutex> guard(activeMutex);
  if (active == this)
    active = nullptr;
}

bool OutputFolder::stage(std::string &error) {
  {
    // Never held together with `mutex` in this order: discardActive() takes
    // activeMutex first.
    std::lock_guard<std::mutex> activeGuard(activeMutex);
    active = this;
  }
  std::lock_guard<std::mutex> guard(mutex);
  // Create the missing folders one by one, remembering those this run made.
  std::vector<fs::path> missing;
  for (fs::path p = folder; !pathExists(p) && p.has_relative_path(); p = p.parent_path())
    missing.push_back(p);
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) == 0) {
      created.push_back(*it);
    } else if (errno != EEXIST) {
      error = option + ": cannot create " + shown(*it) + ": " + std::strerror(errno);
      return false;
    }
  }
  // What a killed run left (its process gone) goes now, whether or not this
  // run gets to commit; commit() looks again.
  removeAbandonedStaging(folder);
  staging = folder / (kStagingPrefix + std::to_string(::getpid()));
  if (::mkdir(staging.c_str(), 0700) != 0) {
    error = option + ": cannot create " + shown(staging) + ": " + std::strerror(errno);
    staging.clear();
    return false;
  }
  return true;
}

std::string OutputFolder::stagedPath(const std::string &name) const {
  return (staging / name).string();
}

bool OutputFolder::commit(std::vector<std::string> &written, std::string &error) {
  // Wait for another run's commit before taking `mutex`, so that an
  // interrupt while waiting is handled at once.
  FolderLock lock;
  if (!lock.acquire(folder, option, error))
    return false;
  std::lock_guard<std::mutex> guard(mutex);
  if (staging.empty()) {
    error = option + ": interrupted";
    return false;
  }

  std::error_code ec;
  std::vector<std::string> staged;
  for (const fs::directory_entry &entry : fs::directory_iterator(staging, ec))
    if (isRegularFile(entry.path()))
      staged.push_back(entry.path().filename().string());
  // A run's outputs (--run) go into run/, a search's files into search/.
  for (const std::string &subfolder : subfolders())
    if (!ec && pathExists(staging / subfolder))
      for (const fs::directory_entry &entry : fs::directory_iterator(staging / subfolder, ec))
        if (isRegularFile(entry.path()))
          staged.push_back(subfolder + "/" + entry.path().filename().string());
  if (ec) {
    error = option + ": cannot read " + shown(staging) + ": " + ec.message();
    return false;
  }
  // In the order outputNames() gives (the main output first), then others.
  auto rank = [](const std::string &name) {
    const std::vector<std::string> &known = outputNames();
    return std::find(known.begin(), known.end(), name) - known.begin();
  };
  std::sort(staged.begin(), staged.end(), [&](const std::string &a, const std::string &b) {
    return std::make_pair(rank(a), a) < std::make_pair(rank(b), b);
  });
  // Checked again under the lock: the folder may have changed during the run.
  std::vector<std::string> foreign = foreignFiles(folder, staged);
  if (!foreign.empty()) {
    error = foreignFilesError(option, folder, foreign);
    return false;
  }
  removeAbandonedStaging(folder);

  // The manifest names every file before it is moved in, so that a run
  // killed half-way leaves only files a later run knows as its own.
  std::set<std::string> previous = readManifest(folder);
  std::set<std::string> both = previous;
  both.insert(staged.begin(), staged.end());
  if (!writeManifest(folder, staging, both, error))
    return false;
  for (const std::string &name : staged) {
    size_t slash = name.find('/');
    fs::path subfolder = slash == std::string::npos ? fs::path() : folder / name.substr(0, slash);
    if (!subfolder.empty() && !pathExists(subfolder)) {
      if (::mkdir(subfolder.c_str(), 0777) != 0 && errno != EEXIST) {
        error = option + ": cannot create " + shown(subfolder) + ": " + std::strerror(errno);
        return false;
      }
    }
    if (!subfolder.empty() && !fs::is_directory(subfolder, ec)) {
      error = option + ": " + shown(subfolder) +
              " is not a folder; prec-compile writes some of its outputs into it";
      return false;
    }
    fs::rename(staging / name, folder / name, ec);
    if (ec) {
      error = option + ": cannot move " + shown(name) + " into " + shown(folder) +
              ": " + ec.message();
      return false;
    }
  }
  // Files an earlier run wrote that this one did not: still ours, now stale.
  std::set<std::string> current(staged.begin(), staged.end());
  for (const std::string &name : previous)
    if (!current.count(name) && isOwnPath(name) && isRegularFile(folder / name))
      fs::remove(folder / name, ec);
  if (!writeManifest(folder, staging, current, error))
    return false;
  fs::remove_all(staging, ec);
  committed = true;
  written = std::move(staged);
  return true;
}

void OutputFolder::discard() {
  std::lock_guard<std::mutex> guard(mutex);
  if (committed)
    return;
  std::error_code ec;
  if (!staging.empty())
    fs::remove_all(staging, ec);
  staging.clear();
  // Innermost first; rmdir leaves a folder that is no longer empty (another
  // run may have started writing into it).
  for (auto it = created.rbegin(); it != created.rend(); ++it)
    ::rmdir(it->c_str());
  created.clear();
}

void OutputFolder::discardActive() {
  std::lock_guard<std::mutex> guard(activeMutex);
  if (active)
    active->discard();
}

bool writeTextFile(const std::string &path, const std::string &text) {
  std::ofstream stream(path, std::ios::binary);
  stream << text;
  return static_cast<bool>(stream);
}

} // namespace ascendprec::session
