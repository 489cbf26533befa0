//===- OutputFolderTest.cpp - writing outputs says why it failed ----------===//

#include "AscendPrec/Session/OutputFolder.h"

#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>

#include <unistd.h>

using ascendprec::session::writeTextFile;
namespace fs = std::filesystem;

namespace {

// Issue 55: a full disk's message names the cause, as the system says it.
TEST(OutputFolderTest, AFullDiskIsNamedInTheError) {
  std::string error;
  ASSERT_FALSE(writeTextFile("/dev/full", std::string(1 << 16, 'x'), error));
  EXPECT_NE(error.find("No space left on device"), std::string::npos) << error;
  EXPECT_NE(error.find("'/dev/full'"), std::string::npos) << error;
}

// A staged output is never written through a link (a link to a user's file
// in the staging folder would otherwise be overwritten).
TEST(OutputFolderTest, AStagedFileIsNeverWrittenThroughALink) {
  fs::path folder = fs::temp_directory_path() / ("ascendprec-write-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  std::ofstream(folder / "users.txt") << "mine";
  fs::create_symlink(folder / "users.txt", folder / "report.txt");
  std::string error;
  EXPECT_FALSE(writeTextFile((folder / "report.txt").string(), "ours", error));
  std::ifstream in(folder / "users.txt");
  std::string kept;
  in >> kept;
  EXPECT_EQ(kept, "mine");
  fs::remove_all(folder);
}

} // namespace
