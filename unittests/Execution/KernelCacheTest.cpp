//===- KernelCacheTest.cpp - the disk cache trusts nothing unchecked ------===//
//
// Issue 55: an entry is native code the process runs, so a damaged or
// hostile entry must be a miss (with a note), never a crash, a hang or
// unbounded memory; a folder others may write is not used; eviction never
// removes a file the cache did not write.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Execution/KernelCache.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using ascendprec::exec::CachedKernels;
using ascendprec::exec::KernelCache;

namespace {

class KernelCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    folder = fs::temp_directory_path() /
             ("ascendprec-kernel-cache-test-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder);
    KernelCache::configure(folder.string());
    KernelCache::takeNotes();
  }
  void TearDown() override {
    ::chmod(folder.c_str(), 0700);
    fs::remove_all(folder);
    KernelCache::configure("off");
  }

  static CachedKernels sample(char fill = 'x') {
    CachedKernels entry;
    entry.object = std::string(4096, fill);
    entry.bindings = {{"exp", "ascendprec_exp"}};
    entry.kernels = {{"kernel_0", 4, 3}};
    return entry;
  }

  /// The one entry file in the folder.
  fs::path onlyEntry() const {
    for (const fs::directory_entry &file : fs::directory_iterator(folder))
      if (file.path().extension() == ".kernels")
        return file.path();
    return {};
  }

public:
  static std::string notesText() {
    std::string text;
    for (const std::string &note : KernelCache::takeNotes())
      text += note + "\n";
    return text;
  }

protected:
  fs::path folder;
};

TEST_F(KernelCacheTest, StoredEntryLoadsBackWholeInAPrivateFolder) {
  KernelCache::store("key", sample());
  std::optional<CachedKernels> loaded = KernelCache::load("key");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->object, sample().object);
  EXPECT_EQ(loaded->kernels[0].blockDim, 4);
  EXPECT_EQ(loaded->bindings, sample().bindings);
  struct stat info;
  ASSERT_EQ(::stat(folder.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  EXPECT_EQ(notesText(), "");
  EXPECT_FALSE(KernelCache::load("another key"));
}

TEST_F(KernelCacheTest, AnyFlippedBitIsAMissWithANote) {
  KernelCache::store("key", sample());
  fs::path entry = onlyEntry();
  std::ifstream in(entry, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  // Bits in the header, the digest and the object alike.
  for (size_t at : {size_t(3), size_t(30), bytes.size() / 2, bytes.size() - 1}) {
    std::string damaged = bytes;
    damaged[at] ^= 0x10;
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << damaged;
    EXPECT_FALSE(KernelCache::load("key")) << "flipped byte " << at;
    EXPECT_NE(notesText(), "") << "flipped byte " << at;
  }
  // Truncated.
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 7);
  EXPECT_FALSE(KernelCache::load("key"));
  EXPECT_NE(notesText().find("does not match its digest"), std::string::npos);
  // Rebuilt: a store replaces it.
  KernelCache::store("key", sample());
  EXPECT_TRUE(KernelCache::load("key"));
}

TEST_F(KernelCacheTest, DirectoryFifoAndLinksAreSkippedWithoutBlocking) {
  KernelCache::store("key", sample());
  fs::path entry = onlyEntry();
  // On a thread of its own, so that a hang fails the test; the notes are
  // the loading thread's.
  std::string notes;
  auto loadsInTime = [&] {
    auto loading = std::async(std::launch::async, [] {
      std::optional<CachedKernels> loaded = KernelCache::load("key");
      return std::make_pair(loaded.has_value(), notesText());
    });
    if (loading.wait_for(std::chrono::seconds(20)) != std::future_status::ready)
      std::abort();
    auto [loaded, text] = loading.get();
    notes = text;
    return loaded;
  };
  fs::remove(entry);
  fs::create_directory(entry);
  EXPECT_FALSE(loadsInTime());
  EXPECT_NE(notes.find("not a regular file"), std::string::npos) << notes;
  fs::remove(entry);
  ASSERT_EQ(::mkfifo(entry.c_str(), 0600), 0);
  EXPECT_FALSE(loadsInTime());
  EXPECT_NE(notes.find("not a regular file"), std::string::npos) << notes;
  fs::remove(entry);
  fs::create_symlink("/dev/zero", entry);
  EXPECT_FALSE(loadsInTime());
  EXPECT_NE(notes.find("symbolic link"), std::string::npos) << notes;
  // A store replaces the link itself, never writes through it.
  KernelCache::store("key", sample());
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(entry)));
  EXPECT_TRUE(KernelCache::load("key"));
}

TEST_F(KernelCacheTest, AFolderOthersMayWriteIsNotUsed) {
  KernelCache::store("key", sample());
  ASSERT_EQ(::chmod(folder.c_str(), 0777), 0);
  EXPECT_FALSE(KernelCache::load("key"));
  std::string notes = notesText();
  EXPECT_NE(notes.find("others may write into it"), std::string::npos) << notes;
  ASSERT_EQ(::chmod(folder.c_str(), 0700), 0);
  EXPECT_TRUE(KernelCache::load("key"));
}

TEST_F(KernelCacheTest, EvictionRemovesOnlyTheCachesOwnEntries) {
  fs::create_directories(folder);
  ::chmod(folder.c_str(), 0700);
  // The user's files: one named like an entry, one like a kernels file.
  std::ofstream(folder / "my.kernels") << std::string(100000, 'u');
  std::ofstream(folder / "abcdef.kernels") << std::string(100000, 'u');
  std::ofstream(folder / "notes.txt") << "mine";
  for (int i = 0; i < 8; ++i)
    KernelCache::store("key " + std::to_string(i), sample(static_cast<char>('a' + i)));
  ::setenv("ASCENDPREC_KERNEL_CACHE_MAX_BYTES", "10000", 1);
  KernelCache::evictBeyondLimit();
  ::unsetenv("ASCENDPREC_KERNEL_CACHE_MAX_BYTES");
  EXPECT_TRUE(fs::exists(folder / "my.kernels"));
  EXPECT_TRUE(fs::exists(folder / "abcdef.kernels"));
  EXPECT_TRUE(fs::exists(folder / "notes.txt"));
  int entries = 0;
  for (int i = 0; i < 8; ++i)
    entries += KernelCache::load("key " + std::to_string(i)).has_value();
  EXPECT_GE(entries, 1);
  EXPECT_LE(entries, 2);
}

TEST_F(KernelCacheTest, AFileOnTheWayToTheFolderIsNamed) {
  fs::create_directories(folder);
  std::ofstream(folder / "file") << "x";
  std::optional<std::string> why = KernelCache::whyNotAFolder((folder / "file" / "sub").string());
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("is a file, not a folder, so"), std::string::npos) << *why;
  EXPECT_FALSE(KernelCache::whyNotAFolder((folder / "new" / "sub").string()));
  EXPECT_FALSE(KernelCache::whyNotAFolder("off"));
}

} // namespace
