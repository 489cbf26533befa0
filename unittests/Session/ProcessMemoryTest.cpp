//===- ProcessMemoryTest.cpp - giving back the compiler libraries' pages --===//
//
// releaseCompilerLibraryPages drops the resident pages of libLLVM's and
// libMLIR's read-only segments; the libraries must work as before.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Session/ProcessMemory.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

/// The resident kB of the read-only mappings of libLLVM and libMLIR, from
/// /proc/self/smaps (-1 where there is none).
long compilerLibraryResidentKb() {
  std::ifstream smaps("/proc/self/smaps");
  if (!smaps)
    return -1;
  long total = 0;
  bool counting = false;
  std::string line;
  while (std::getline(smaps, line)) {
    std::istringstream fields(line);
    std::string first, perms;
    fields >> first;
    if (first.find('-') != std::string::npos && first.back() != ':') {
      // A mapping's header: range, permissions, offset, device, inode, path.
      fields >> perms;
      counting = perms.size() > 1 && perms[1] != 'w' &&
                 (line.find("/libLLVM") != std::string::npos ||
                  line.find("/libMLIR") != std::string::npos);
    } else if (counting && first == "Rss:") {
      long kb = 0;
      fields >> kb;
      total += kb;
    }
  }
  return total;
}

TEST(ProcessMemory, CompilerLibraryPagesGoAndTheLibrariesStillWork) {
  long before = compilerLibraryResidentKb();
  size_t released = ascendprec::session::releaseCompilerLibraryPages();
  long after = compilerLibraryResidentKb();
#if defined(__linux__)
  ASSERT_GT(released, 0u) << "libLLVM and libMLIR are linked as shared libraries here";
  EXPECT_LT(after, before / 2) << before << " kB resident before, " << after << " after";
#endif
  // Code and read-only data come back as they are used.
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      "module attributes {test.released} {}", &context);
  ASSERT_TRUE(module);
  EXPECT_TRUE((*module)->hasAttr("test.released"));
}

} // namespace
