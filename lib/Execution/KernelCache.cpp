//===- KernelCache.cpp - compiled kernels kept on disk across runs --------===//

#include "AscendPrec/Execution/KernelCache.h"

#include "AscendPrec/Support/FileIo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ascendprec::exec;

namespace {

/// The current format's first line; earlier formats ("ASCENDPREC-KERNELS 1",
/// no digest) are read as misses and replaced.
constexpr const char *kMagic = "ASCENDPREC-KERNELS 2";
constexpr const char *kMagicFamily = "ASCENDPREC-KERNELS ";
constexpr const char *kSuffix = ".kernels";
/// Temporary files: `.tmp-<pid>-<n>.kernels-part`, renamed into place.
constexpr const char *kTemporaryPrefix = ".tmp-";
constexpr const char *kTemporarySuffix = ".kernels-part";
/// No entry is larger: one kernel's object is kilobytes to a few megabytes,
/// and store() refuses more. A file above it is not ours (a symlink to
/// /dev/zero, a log grown in place) and is never read.
constexpr uint64_t kMaxEntryBytes = uint64_t{256} << 20;

std::mutex settingsMutex;
bool configured = false;
std::string configuredFolder;
std::atomic<unsigned> hitCount{0}, missCount{0};

/// Notes for the user (a damaged entry, an untrusted folder), kept on the
/// thread that loads and stores (the one preparing a run) until its
/// session forwards them.
thread_local std::vector<std::string> pendingNotes;
/// Notes given once per process (a folder refused, a full disk).
std::mutex onceMutex;
std::set<std::string> notedOnce;

std::string shownPath(const std::string &path) { return "'" + path + "'"; }

void note(std::string text) { pendingNotes.push_back(std::move(text)); }

void noteOnce(const std::string &text) {
  {
    std::lock_guard<std::mutex> lock(onceMutex);
    if (!notedOnce.insert(text).second)
      return;
  }
  note(text);
}

/// The entry's file name: the key's hash (the key itself is inside).
std::string fileNameOf(const std::string &key) {
  return llvm::utohexstr(llvm::xxh3_64bits(key), /*LowerCase=*/true) + kSuffix;
}

/// A name fileNameOf() makes: 1 to 16 lowercase hex digits, then the suffix.
bool isEntryName(const std::string &name) {
  size_t suffix = name.size() - std::min(name.size(), std::strlen(kSuffix));
  if (suffix == 0 || suffix > 16 || name.compare(suffix, std::string::npos, kSuffix) != 0)
    return false;
  return std::all_of(name.begin(), name.begin() + suffix,
                     [](char c) { return std::isdigit(c) || (c >= 'a' && c <= 'f'); });
}

std::string digestOf(llvm::StringRef bytes) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

/// Names and symbols are hex-encoded in the header: node names may hold
/// spaces and newlines.
std::string encode(const std::string &text) { return text.empty() ? "-" : llvm::toHex(text); }

std::optional<std::string> decode(const std::string &text) {
  if (text == "-")
    return std::string();
  std::string out;
  if (!llvm::tryGetFromHex(text, out))
    return std::nullopt;
  return out;
}

/// The body (what follows the digest line) of a stored entry.
std::optional<CachedKernels> parseBody(const std::string &bytes, const std::string &key) {
  std::istringstream in(bytes);
  std::string line;
  if (!std::getline(in, line) || line != "key " + encode(key))
    return std::nullopt; // another key that hashed alike
  CachedKernels entry;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    if (kind == "binding") {
      std::string name, symbol;
      fields >> name >> symbol;
      auto n = decode(name), s = decode(symbol);
      if (!n || !s)
        return std::nullopt;
      entry.bindings.push_back({*n, *s});
    } else if (kind == "kernel") {
      std::string name;
      CachedKernels::Kernel kernel;
      fields >> name >> kernel.blockDim >> kernel.numBuffers;
      auto n = decode(name);
      if (!n || fields.fail())
        return std::nullopt;
      kernel.name = *n;
      entry.kernels.push_back(kernel);
    } else if (kind == "object") {
      uint64_t size = 0;
      fields >> size;
      std::streamoff at = in.tellg();
      if (fields.fail() || at < 0 || static_cast<uint64_t>(bytes.size() - at) != size)
        return std::nullopt;
      entry.object = bytes.substr(static_cast<size_t>(at));
      return entry.kernels.empty() ? std::nullopt : std::optional<CachedKernels>(entry);
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// Closes a descriptor on every path out.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};

/// Whether the cache may use `dir` (creating it, 0700, when missing): a
/// folder of code this tool loads and runs must be the user's alone, as
/// ssh requires of its keys. A folder another user owns or others may
/// write is not used (noted once).
bool trustedFolder(const std::string &dir) {
  struct stat info;
  if (::stat(dir.c_str(), &info) != 0) {
    if (errno != ENOENT) {
      noteOnce("kernel cache: not using " + shownPath(dir) + ": " + std::strerror(errno) +
               "; kernels are compiled on every run");
      return false;
    }
    std::error_code ec;
    fs::path parent = fs::path(dir).parent_path();
    if (!parent.empty())
      fs::create_directories(parent, ec);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      noteOnce("kernel cache: cannot create " + shownPath(dir) + ": " + std::strerror(errno) +
               "; kernels are compiled on every run");
      return false;
    }
    if (::stat(dir.c_str(), &info) != 0)
      return false;
  }
  std::string why;
  if (!S_ISDIR(info.st_mode))
    why = "it is not a folder";
  else if (info.st_uid != ::geteuid())
    why = "it belongs to another user";
  else if (info.st_mode & (S_IWGRP | S_IWOTH))
    why = "others may write into it (chmod go-w " + shownPath(dir) + " to use it)";
  if (why.empty())
    return true;
  noteOnce("kernel cache: not using " + shownPath(dir) + ": " + why +
           "; its entries are code this tool runs, so the folder must be yours alone "
           "(docs/execution.md, \"The kernel cache\"); kernels are compiled on every run");
  return false;
}

/// An entry file this cache wrote: its name, a regular file of this user,
/// within the size bound, starting with the format's magic (any version).
bool isOwnEntry(const fs::path &path) {
  if (!isEntryName(path.filename().string()))
    return false;
  ascendprec::UntrustedFile file(path.c_str());
  if (!file.isRegular() || file.info.st_uid != ::geteuid() ||
      static_cast<uint64_t>(file.info.st_size) > kMaxEntryBytes)
    return false;
  std::string head;
  size_t length = std::strlen(kMagicFamily);
  return ascendprec::readExactly(file.fd, head, length) && head == kMagicFamily;
}

/// A temporary file of a store whose process is gone (killed mid-write).
bool isAbandonedTemporary(const fs::path &path) {
  std::string name = path.filename().string();
  if (name.rfind(kTemporaryPrefix, 0) != 0 || name.size() <= std::strlen(kTemporarySuffix) ||
      name.compare(name.size() - std::strlen(kTemporarySuffix), std::string::npos,
                   kTemporarySuffix) != 0)
    return false;
  long pid = std::strtol(name.c_str() + std::strlen(kTemporaryPrefix), nullptr, 10);
  struct stat info;
  return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH &&
         ::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         info.st_uid == ::geteuid();
}

/// Removes the least recently used entries (by modification time, which a
/// load refreshes) until the folder holds at most `limit` bytes of them.
/// Only files this cache wrote are counted or removed: a user-given folder
/// may hold the user's own files.
void evict(const fs::path &folder, uint64_t limit) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  uint64_t total = 0;
  for (const fs::directory_entry &file : fs::directory_iterator(folder, ec)) {
    std::error_code fileError;
    if (isAbandonedTemporary(file.path())) {
      fs::remove(file.path(), fileError);
      continue;
    }
    if (!isOwnEntry(file.path()))
      continue;
    total += file.file_size(fileError);
    entries.push_back({file.last_write_time(fileError), file.path()});
  }
  if (total <= limit)
    return;
  std::sort(entries.begin(), entries.end());
  for (const auto &[time, path] : entries) {
    if (total <= limit)
      break;
    uint64_t size = fs::file_size(path, ec);
    if (fs::remove(path, ec))
      total -= std::min(total, size);
  }
}

} // namespace

std::string KernelCache::defaultFolder() {
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
    return (fs::path(xdg) / "ascendprec" / "kernels").string();
  if (const char *home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "ascendprec" / "kernels").string();
  return "";
}

void KernelCache::configure(const std::string &folderOrOff) {
  std::lock_guard<std::mutex> lock(settingsMutex);
  configured = true;
  configuredFolder = folderOrOff == "off" ? "" : folderOrOff;
}

std::optional<std::string> KernelCache::whyNotAFolder(const std::string &folderOrOff) {
  if (folderOrOff == "off")
    return std::nullopt;
  if (folderOrOff.empty())
    return std::string("an empty name is not a folder");
  std::error_code ec;
  fs::path existing = folderOrOff;
  while (!existing.empty() && !fs::exists(existing, ec))
    existing = existing.parent_path();
  if (existing.empty() || fs::is_directory(existing, ec))
    return std::nullopt;
  return shownPath(existing.string()) + " is a file, not a folder" +
         (existing == folderOrOff ? std::string()
                                  : ", so " + shownPath(folderOrOff) + " cannot be created");
}

std::string KernelCache::folder() {
  std::lock_guard<std::mutex> lock(settingsMutex);
  return configured ? configuredFolder : defaultFolder();
}

uint64_t KernelCache::maxBytes() {
  if (const char *text = std::getenv("ASCENDPREC_KERNEL_CACHE_MAX_BYTES"))
    if (uint64_t value = std::strtoull(text, nullptr, 10))
      return value;
  return uint64_t{1} << 30;
}

const std::string &KernelCache::environmentKey() {
  static const std::string key = [] {
    std::string text = std::string("llvm ") + LLVM_VERSION_STRING + "; cpu " +
                       llvm::sys::getHostCPUName().str() + ";";
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    std::vector<std::string> names;
    for (const auto &feature : features)
      names.push_back((feature.getValue() ? "+" : "-") + feature.getKey().str());
    std::sort(names.begin(), names.end());
    for (const std::string &name : names)
      text += " " + name;
    // The engine's own build: a rebuilt code generator may compile the same
    // IR differently (size and modification time of the file holding this
    // code: the executable, or the Python extension that embeds it).
    struct stat self;
    Dl_info info;
    const char *file = ::dladdr(reinterpret_cast<void *>(&KernelCache::environmentKey), &info) &&
                               info.dli_fname && *info.dli_fname
                           ? info.dli_fname
                           : "/proc/self/exe";
    if (::stat(file, &self) != 0)
      file = "/proc/self/exe";
    if (::stat(file, &self) == 0)
      text += "; build " + std::to_string(self.st_size) + "/" +
              std::to_string(self.st_mtim.tv_sec) + "." + std::to_string(self.st_mtim.tv_nsec);
    return text;
  }();
  return key;
}

std::optional<CachedKernels> KernelCache::load(const std::string &key) {
  std::string dir = folder();
  if (dir.empty() || !trustedFolder(dir))
    return std::nullopt;
  fs::path path = fs::path(dir) / fileNameOf(key);
  // Never blocks (a FIFO), never follows a link (to /dev/zero, to another
  // user's file): checked before a byte is read.
  ascendprec::UntrustedFile file(path.c_str());
  auto ignored = [&](const std::string &why) -> std::optional<CachedKernels> {
    note("kernel cache: ignored " + shownPath(path.string()) + ": " + why +
         "; the kernel is compiled again");
    return std::nullopt;
  };
  if (file.fd < 0) {
    if (file.error == ENOENT)
      return std::nullopt;
    return ignored(file.error == ELOOP
                       ? "it is a symbolic link, not an entry the cache wrote"
                       : std::string("it cannot be opened: ") + std::strerror(file.error));
  }
  const struct stat &info = file.info;
  if (!S_ISREG(info.st_mode))
    return ignored("it is not a regular file");
  if (info.st_uid != ::geteuid())
    return ignored("it belongs to another user");
  if (static_cast<uint64_t>(info.st_size) > kMaxEntryBytes)
    return ignored("it is larger than any entry can be");
  std::string bytes;
  if (!ascendprec::readExactly(file.fd, bytes, static_cast<size_t>(info.st_size)))
    return ignored("it could not be read whole");
  // The first line names the format; an earlier format is a plain miss.
  size_t magicEnd = bytes.find('\n');
  std::string magic = bytes.substr(0, magicEnd);
  if (magic != kMagic) {
    if (magic.rfind(kMagicFamily, 0) == 0)
      return std::nullopt;
    return ignored("it is not a kernel cache entry");
  }
  // The digest covers everything after its own line, and is checked before
  // anything in the entry is trusted: the object is native code.
  size_t digestEnd = magicEnd == std::string::npos ? magicEnd : bytes.find('\n', magicEnd + 1);
  if (digestEnd == std::string::npos)
    return ignored("it is truncated");
  std::string digestLine = bytes.substr(magicEnd + 1, digestEnd - magicEnd - 1);
  llvm::StringRef body = llvm::StringRef(bytes).substr(digestEnd + 1);
  if (digestLine != "digest " + digestOf(body))
    return ignored("its content does not match its digest (the file was damaged)");
  std::optional<CachedKernels> entry = parseBody(body.str(), key);
  if (entry) {
    // The most recently used now (eviction goes by this time).
    ::futimens(file.fd, nullptr);
  }
  return entry;
}

void KernelCache::store(const std::string &key, const CachedKernels &entry) {
  std::string dir = folder();
  if (dir.empty() || !trustedFolder(dir))
    return;
  std::string body = "key " + encode(key) + "\n";
  for (const auto &[name, symbol] : entry.bindings)
    body += "binding " + encode(name) + " " + encode(symbol) + "\n";
  for (const CachedKernels::Kernel &kernel : entry.kernels)
    body += "kernel " + encode(kernel.name) + " " + std::to_string(kernel.blockDim) + " " +
            std::to_string(kernel.numBuffers) + "\n";
  body += "object " + std::to_string(entry.object.size()) + "\n";
  body += entry.object;
  std::string bytes = std::string(kMagic) + "\ndigest " + digestOf(body) + "\n" + body;
  if (bytes.size() > kMaxEntryBytes)
    return;
  // A file of its own first, renamed into place: a reader never sees half
  // an entry, two writers of one key leave one whole file, and a link or
  // FIFO in the entry's place is replaced, never written through.
  std::random_device random;
  fs::path temporary = fs::path(dir) / (kTemporaryPrefix + std::to_string(::getpid()) + "-" +
                                        std::to_string(random()) + kTemporarySuffix);
  fs::path target = fs::path(dir) / fileNameOf(key);
  int failure = 0; // errno of the step that failed
  {
    FileDescriptor out{
        ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)};
    failure = out.fd < 0 ? errno : ascendprec::writeAll(out.fd, bytes.data(), bytes.size());
  }
  if (!failure && ::rename(temporary.c_str(), target.c_str()) == 0)
    return;
  int renameFailure = errno;
  ::unlink(temporary.c_str());
  if (!failure) { // something not ours holds the entry's name (a folder)
    note("kernel cache: cannot replace " + shownPath(target.string()) + ": " +
         std::strerror(renameFailure) + "; move it away to cache this kernel");
    return;
  }
  // A full disk or a read-only folder only means no caching; said once.
  noteOnce("kernel cache: cannot store kernels in " + shownPath(dir) + ": " +
           std::strerror(failure) + "; they are compiled again on the next run");
}

void KernelCache::evictBeyondLimit() {
  std::string dir = folder();
  if (!dir.empty() && trustedFolder(dir))
    evict(dir, maxBytes());
}

std::vector<std::string> KernelCache::takeNotes() {
  std::vector<std::string> notes;
  notes.swap(pendingNotes);
  return notes;
}

unsigned KernelCache::hits() { return hitCount.load(); }
unsigned KernelCache::misses() { return missCount.load(); }
void KernelCache::countHit() { ++hitCount; }
void KernelCache::countMiss() { ++missCount; }
