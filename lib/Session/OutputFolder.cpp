//===- OutputFolder.cpp - the folder prec-compile writes, safely ----------===//

#include "AscendPrec/Session/OutputFolder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Support/FileIo.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
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
/// A staging folder being removed (discard() renames it first, so that a
/// writer still running cannot add to it under its old name).
constexpr const char *kDiscardedSuffix = ".discarded";
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

/// The first line of a manifest this version writes. A manifest without it
/// (an earlier version's, names only) proves nothing about the files'
/// contents and is not trusted: its files are treated as the user's.
constexpr const char *kManifestHeader = "# prec-compile manifest 2";

/// A name prec-compile writes (OutputFolder::outputNames(), or a run's
/// run/output_<i>.pb). A manifest is a text file anyone can edit: an entry
/// naming anything else (notes.txt, ../x, /etc/y) is ignored.
bool isOutputName(const std::string &name) {
  if (llvm::is_contained(OutputFolder::outputNames(), name))
    return true;
  llvm::StringRef rest(name);
  if (!rest.consume_front(std::string(OutputFolder::kRunFolder) + "/output_") ||
      !rest.consume_back(".pb") || rest.empty() || rest.size() > 9)
    return false;
  return llvm::all_of(rest, [](char c) { return c >= '0' && c <= '9'; });
}

/// What the manifest says prec-compile wrote: per name, the (size, SHA-256)
/// of each version it wrote (two while a commit is moving files in).
using Manifest = std::map<std::string, std::set<std::pair<uint64_t, std::string>>>;

/// Whether `folder` holds a manifest of an earlier version (no digests).
bool hasOldManifest(const fs::path &folder) {
  std::ifstream in(folder / OutputFolder::kManifestName);
  std::string line;
  return in && std::getline(in, line) && line != kManifestHeader;
}

Manifest readManifest(const fs::path &folder) {
  Manifest manifest;
  std::ifstream in(folder / OutputFolder::kManifestName);
  std::string line;
  if (!std::getline(in, line) || line != kManifestHeader)
    return manifest;
  while (std::getline(in, line)) {
    // <sha256> <size> <name>
    std::istringstream fields(line);
    std::string digest, name;
    uint64_t size = 0;
    if (line.empty() || line[0] == '#' || !(fields >> digest >> size) || digest.size() != 64)
      continue;
    std::getline(fields >> std::ws, name);
    if (isOutputName(name))
      manifest[name].insert({size, digest});
  }
  return manifest;
}

/// (size, SHA-256) of a regular file, read without following a link or
/// blocking; nullopt for anything else.
std::optional<std::pair<uint64_t, std::string>> fingerprint(const fs::path &path) {
  UntrustedFile file(path.c_str());
  if (!file.isRegular())
    return std::nullopt;
  llvm::SHA256 hash;
  std::vector<char> buffer(1 << 20);
  uint64_t total = 0;
  for (;;) {
    ssize_t got = ::read(file.fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return std::nullopt;
    if (got == 0)
      break;
    hash.update(llvm::StringRef(buffer.data(), static_cast<size_t>(got)));
    total += static_cast<uint64_t>(got);
  }
  return std::make_pair(total, llvm::toHex(hash.final(), /*LowerCase=*/true));
}

/// Whether `folder`/`name` is a file prec-compile wrote and nobody changed
/// since: a regular file whose size and digest the manifest lists.
bool isUnchangedOutput(const fs::path &folder, const std::string &name, const Manifest &manifest) {
  auto listed = manifest.find(name);
  if (listed == manifest.end())
    return false;
  std::optional<std::pair<uint64_t, std::string>> now = fingerprint(folder / name);
  return now && listed->second.count(*now);
}

bool writeManifest(const fs::path &folder, const fs::path &scratch, const Manifest &manifest,
                   std::string &error) {
  std::string text = std::string(kManifestHeader) +
                     "\n# Files prec-compile wrote into this folder: SHA-256, size, name. It "
                     "overwrites or\n# removes only these, and only while their content is "
                     "what it wrote.\n";
  for (const auto &[name, versions] : manifest)
    for (const auto &[size, digest] : versions)
      text += digest + " " + std::to_string(size) + " " + name + "\n";
  fs::path temp = scratch / OutputFolder::kManifestName;
  if (!writeTextFile(temp.string(), text, error))
    return false;
  if (::rename(temp.c_str(), (folder / OutputFolder::kManifestName).c_str()) != 0) {
    error = "cannot update " + shown(folder / OutputFolder::kManifestName) + ": " +
            std::strerror(errno);
    return false;
  }
  return true;
}

/// Whether `path` is a real folder (not a link to one).
bool isRealFolder(const fs::path &path) {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

/// Outputs in `folder` that are not prec-compile's to replace: a file of
/// that name the manifest does not list, one whose content changed since
/// it was written, anything but a regular file, or a subfolder (run/,
/// search/) that is not a real folder (a link would lead the outputs
/// elsewhere).
std::vector<std::string> foreignFiles(const fs::path &folder,
                                      const std::vector<std::string> &names,
                                      const Manifest &ours) {
  std::vector<std::string> foreign;
  for (const std::string &name : names) {
    size_t slash = name.find('/');
    if (slash != std::string::npos) {
      std::string subfolder = name.substr(0, slash);
      if (pathExists(folder / subfolder) && !isRealFolder(folder / subfolder)) {
        if (!llvm::is_contained(foreign, subfolder))
          foreign.push_back(subfolder);
        continue;
      }
    }
    if (pathExists(folder / name) && !isUnchangedOutput(folder, name, ours))
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
         ", which prec-compile did not write or which changed since (" +
         OutputFolder::kManifestName +
         " lists what it wrote, with each file's digest); prec-compile overwrites only its "
         "own files: move " +
         (foreign.size() == 1 ? "it" : "them") + " away or choose another folder" +
         (hasOldManifest(folder) ? " (the folder's manifest is an earlier prec-compile's, "
                                   "which recorded no digests, so its files count as yours)"
                                 : "");
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
    if (end == pidText || pid <= 0 || (*end != '\0' && std::strcmp(end, kDiscardedSuffix) != 0))
      continue;
    // Only a real folder of this user: a file of the user's that happens to
    // bear the name is left alone.
    struct stat info;
    if (::lstat(entry.path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode) ||
        info.st_uid != ::geteuid())
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      fs::remove_all(entry.path(), ec);
  }
}

/// An exclusive lock on the output folder itself (flock on the folder's
/// descriptor), released on destruction: concurrent runs take turns, and
/// no lock file is left behind, whatever happens to the run.
class FolderLock {
public:
  bool acquire(const fs::path &folder, const std::string &option, std::string &error) {
    fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      error = option + ": cannot open " + shown(folder) + ": " + std::strerror(errno);
      return false;
    }
    auto deadline = std::chrono::steady_clock::now() + kLockWait;
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        error = option + ": cannot lock " + shown(folder) + ": " + std::strerror(errno);
        return false;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        error = option + ": " + shown(folder) +
                " is in use by another prec-compile run; try again when that run has finished";
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
    // Under the folder's lock: another run's commit, half-way, would show
    // files whose new content its manifest does not list yet.
    FolderLock lock;
    if (!lock.acquire(folder, option, error))
      return nullptr;
    std::vector<std::string> foreign = foreignFiles(folder, outputNames(), readManifest(folder));
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
  Manifest previous = readManifest(folder);
  std::vector<std::string> foreign = foreignFiles(folder, staged, previous);
  if (!foreign.empty()) {
    error = foreignFilesError(option, folder, foreign);
    return false;
  }
  removeAbandonedStaging(folder);

  Manifest current;
  for (const std::string &name : staged) {
    std::optional<std::pair<uint64_t, std::string>> print = fingerprint(staging / name);
    if (!print) {
      error = option + ": cannot read the staged " + shown(staging / name);
      return false;
    }
    current[name].insert(*print);
  }
  // The manifest lists every file's old and new content before any is
  // moved in, so that a run killed half-way (SIGKILL, power loss) leaves
  // only files a later run knows as its own.
  Manifest both = previous;
  for (const auto &[name, versions] : current)
    both[name].insert(versions.begin(), versions.end());
  if (!writeManifest(folder, staging, both, error))
    return false;
  for (const std::string &name : staged) {
    size_t slash = name.find('/');
    fs::path subfolder = slash == std::string::npos ? fs::path() : folder / name.substr(0, slash);
    if (!subfolder.empty() && !pathExists(subfolder) && ::mkdir(subfolder.c_str(), 0777) != 0 &&
        errno != EEXIST) {
      error = option + ": cannot create " + shown(subfolder) + ": " + std::strerror(errno);
      return false;
    }
    // Never through a link: run/ pointing elsewhere would put the outputs
    // (and overwrite files) outside the folder.
    if (!subfolder.empty() && !isRealFolder(subfolder)) {
      error = option + ": " + shown(subfolder) +
              " is not a folder (a link is not followed); prec-compile writes some of its "
              "outputs into it: move it away";
      return false;
    }
    if (::rename((staging / name).c_str(), (folder / name).c_str()) != 0) {
      error = option + ": cannot move " + shown(name) + " into " + shown(folder) + ": " +
              std::strerror(errno);
      return false;
    }
  }
  // Files an earlier run wrote that this one did not: still ours while
  // their content is what was written, now stale.
  for (const auto &[name, versions] : previous)
    if (!current.count(name) && isUnchangedOutput(folder, name, previous))
      ::unlink((folder / name).c_str());
  // A subfolder this run wrote nothing into goes when it is left empty.
  for (const std::string &subfolder : subfolders())
    if (isRealFolder(folder / subfolder) &&
        llvm::none_of(staged, [&](const std::string &name) {
          return llvm::StringRef(name).starts_with(subfolder + "/");
        }))
      ::rmdir((folder / subfolder).c_str());
  if (!writeManifest(folder, staging, current, error))
    return false;
  std::error_code ec2;
  fs::remove_all(staging, ec2);
  committed = true;
  written = std::move(staged);
  return true;
}

void OutputFolder::discard() {
  std::lock_guard<std::mutex> guard(mutex);
  if (committed)
    return;
  std::error_code ec;
  if (!staging.empty()) {
    // Renamed first: a writer thread still at work (an interrupt comes at
    // any moment) then fails to open staging/x instead of adding files
    // while the folder is being removed.
    fs::path gone = staging;
    gone += kDiscardedSuffix;
    if (::rename(staging.c_str(), gone.c_str()) == 0)
      fs::remove_all(gone, ec);
    else
      fs::remove_all(staging, ec);
  }
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

bool writeTextFile(const std::string &path, const std::string &text, std::string &error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  int failure = fd < 0 ? errno : writeAll(fd, text.data(), text.size());
  // close() reports what a network or full file system deferred.
  if (fd >= 0 && ::close(fd) != 0 && !failure)
    failure = errno;
  if (failure)
    error = "cannot write " + shown(path) + ": " + std::strerror(failure);
  return !failure;
}

} // namespace ascendprec::session
