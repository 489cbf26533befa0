//===- KernelCache.cpp - compiled kernels kept on disk across runs --------===//

#include "AscendPrec/Execution/KernelCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ascendprec::exec;

namespace {

constexpr const char *kMagic = "ASCENDPREC-KERNELS 1";
constexpr const char *kSuffix = ".kernels";

std::mutex settingsMutex;
bool configured = false;
std::string configuredFolder;
std::atomic<unsigned> hitCount{0}, missCount{0};

/// The entry's file name: the key's hash (the key itself is inside).
std::string fileNameOf(const std::string &key) {
  return llvm::utohexstr(llvm::xxh3_64bits(key), /*LowerCase=*/true) + kSuffix;
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

std::optional<CachedKernels> parse(const std::string &bytes, const std::string &key) {
  std::istringstream in(bytes);
  std::string line;
  if (!std::getline(in, line) || line != kMagic)
    return std::nullopt;
  if (!std::getline(in, line) || line != "key " + encode(key))
    return std::nullopt; // another key that hashed alike, or a foreign file
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
        return std::nullopt; // truncated, or more than the object
      entry.object = bytes.substr(static_cast<size_t>(at));
      return entry.kernels.empty() ? std::nullopt : std::optional<CachedKernels>(entry);
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// Removes the least recently used entries (by modification time, which a
/// load refreshes) until the folder holds at most `limit` bytes.
void evict(const fs::path &folder, uint64_t limit) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  uint64_t total = 0;
  for (const fs::directory_entry &file : fs::directory_iterator(folder, ec)) {
    if (file.path().extension() != kSuffix || !file.is_regular_file(ec))
      continue;
    total += file.file_size(ec);
    entries.push_back({file.last_write_time(ec), file.path()});
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
  if (dir.empty())
    return std::nullopt;
  fs::path path = fs::path(dir) / fileNameOf(key);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::optional<CachedKernels> entry = parse(bytes, key);
  if (entry) {
    // The most recently used now (eviction goes by this time).
    std::error_code ec;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
  }
  return entry;
}

void KernelCache::store(const std::string &key, const CachedKernels &entry) {
  std::string dir = folder();
  if (dir.empty())
    return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return;
  std::string header = std::string(kMagic) + "\nkey " + encode(key) + "\n";
  for (const auto &[name, symbol] : entry.bindings)
    header += "binding " + encode(name) + " " + encode(symbol) + "\n";
  for (const CachedKernels::Kernel &kernel : entry.kernels)
    header += "kernel " + encode(kernel.name) + " " + std::to_string(kernel.blockDim) + " " +
              std::to_string(kernel.numBuffers) + "\n";
  header += "object " + std::to_string(entry.object.size()) + "\n";
  // A file of its own first, renamed into place: a reader never sees half
  // an entry, and two writers of one key leave one whole file.
  std::random_device random;
  fs::path temporary = fs::path(dir) / (".tmp-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(random()));
  {
    std::ofstream out(temporary, std::ios::binary);
    out << header;
    out.write(entry.object.data(), static_cast<std::streamsize>(entry.object.size()));
    if (!out) {
      out.close();
      fs::remove(temporary, ec);
      return;
    }
  }
  fs::rename(temporary, fs::path(dir) / fileNameOf(key), ec);
  if (ec)
    fs::remove(temporary, ec);
}

void KernelCache::evictBeyondLimit() {
  std::string dir = folder();
  if (!dir.empty())
    evict(dir, maxBytes());
}

unsigned KernelCache::hits() { return hitCount.load(); }
unsigned KernelCache::misses() { return missCount.load(); }
void KernelCache::countHit() { ++hitCount; }
void KernelCache::countMiss() { ++missCount; }
