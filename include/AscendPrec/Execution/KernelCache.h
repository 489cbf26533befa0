//===- KernelCache.h - compiled kernels kept on disk across runs -*- C++ -*-===//
//
// Compiling a plan's kernels takes seconds; the same plan is run again and
// again (a second --run, each mode of --compare-modes, every step of a
// search, the next day). Each compiled kernel is stored on disk by content:
// the key hashes the kernel's generated code, the LLVM version,
// the host CPU and its features, and the build of the tool itself, so an
// entry is only ever loaded by a run that would have compiled the same
// bytes. Entries are written whole (a temporary file renamed into place),
// so concurrent runs never read half an entry.
//
// An entry is native code the process will run, so nothing in it is
// trusted before it is checked (docs/execution.md, "The kernel cache"):
// the folder must be the user's alone (owned, not writable by others;
// created 0700); an entry is opened without blocking or following links,
// must be a regular file of the user within a size bound, and carries a
// SHA-256 digest of its content, checked before its object is linked. An
// entry that fails is ignored with a note and rebuilt. The folder is
// bounded: the least recently used entries go first, and eviction removes
// only files the cache wrote (by name, owner and header).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_EXECUTION_KERNELCACHE_H
#define ASCENDPREC_EXECUTION_KERNELCACHE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::exec {

/// One compiled kernel as stored: the object code, the runtime functions
/// it calls (declared name -> the runtime's symbol), and the kernel's
/// launch facts (one entry in `kernels`).
struct CachedKernels {
  struct Kernel {
    std::string name;
    int64_t blockDim = 1;
    unsigned numBuffers = 0;
  };
  std::string object;
  std::vector<std::pair<std::string, std::string>> bindings;
  std::vector<Kernel> kernels;
};

/// The on-disk cache. Settings are process-wide (prec-compile's
/// --kernel-cache); every call is safe from any thread and any process.
class KernelCache {
public:
  /// $XDG_CACHE_HOME/ascendprec/kernels, else ~/.cache/ascendprec/kernels.
  static std::string defaultFolder();
  /// `folder`, or "off" for no disk cache; the default folder until set.
  static void configure(const std::string &folderOrOff);
  /// Why `folderOrOff` cannot be a cache folder (a file where it, or a
  /// folder on the way to it, would be: the run would go uncached without
  /// a word), or nullopt when it can.
  static std::optional<std::string> whyNotAFolder(const std::string &folderOrOff);
  /// The folder in use, empty when off.
  static std::string folder();
  /// At most this many bytes of entries (default 1 GiB, or
  /// $ASCENDPREC_KERNEL_CACHE_MAX_BYTES).
  static uint64_t maxBytes();

  /// The part of every key that is not the kernels: LLVM's version, the
  /// host CPU and features, the tool's own build.
  static const std::string &environmentKey();

  /// The entry stored under `key`, if there is a valid one (touched, so it
  /// is the most recently used).
  static std::optional<CachedKernels> load(const std::string &key);
  /// Stores an entry; failures (a read-only folder, a full disk) only mean
  /// no caching.
  static void store(const std::string &key, const CachedKernels &entry);
  /// Evicts the least recently used entries above maxBytes(): once after a
  /// batch of stores (it reads the whole folder, and a module's kernels are
  /// stored one entry each).
  static void evictBeyondLimit();

  /// The notes for the user this thread's loads and stores made since the
  /// last call (an entry ignored, a folder not used, a store that failed),
  /// one line each; the session forwards them as warnings.
  static std::vector<std::string> takeNotes();

  /// Counts for this process: what was found on disk, what was compiled.
  static unsigned hits();
  static unsigned misses();
  static void countHit();
  static void countMiss();
};

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_KERNELCACHE_H
