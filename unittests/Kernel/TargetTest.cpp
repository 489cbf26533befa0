//===- TargetTest.cpp - the #akernel.target built from a platform config --===//

#include "AscendPrec/Conversion/AscendToKernel/AscendToKernel.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelDialect.h"
#include "AscendPrec/Policy/OpLibrary.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// A platform config with the memory rates CANN's 910A and 910B files
/// share (data/ops): all buildTarget reads that matters here.
policy::PlatformInfo platformOf(const char *soc, const char *family) {
  policy::PlatformInfo platform;
  platform.socVersion = soc;
  platform.shortSocVersion = family;
  platform.ddrRate = platform.ddrWriteRate = 32;
  platform.l2Rate = 110;
  platform.l1ToL0aRate = 512;
  platform.l1ToL0bRate = 256;
  platform.ubToDdrRate = 64;
  return platform;
}

class TargetTest : public ::testing::Test {
protected:
  TargetTest() { context.loadDialect<KernelDialect>(); }
  mlir::MLIRContext context;
  policy::OpLibrary library;
};

TEST_F(TargetTest, The910BFamilyTakesItsMeasuredL1ToL0Rates) {
  // msKPP's port widths, 256 and 128 bytes per cycle (its 910B1 curves:
  // 434 GB/s = 258.9 B/cycle and 218.8 GB/s = 130.5 at 32 KiB, 1.8 GHz),
  // in place of the .ini's 512 and 256.
  TargetAttr target = buildTarget(&context, platformOf("Ascend910B2", "Ascend910B"), library);
  EXPECT_EQ(target.getL1L0aRate(), 256);
  EXPECT_EQ(target.getL1L0bRate(), 128);
  // The rest is the config's, as given.
  EXPECT_EQ(target.getL2Rate(), 110);
  EXPECT_EQ(target.getDdrWriteRate(), 32);
  EXPECT_EQ(target.getUbDdrRate(), 64);
}

TEST_F(TargetTest, OtherFamiliesKeepTheirConfigsRates) {
  // Keyed by the config's Short_SoC_version, not by the name's prefix.
  for (auto [soc, family] : {std::pair{"Ascend910A", "Ascend910"},
                             std::pair{"Ascend310P3", "Ascend310P"},
                             std::pair{"Ascend910B2", ""}}) {
    TargetAttr target = buildTarget(&context, platformOf(soc, family), library);
    EXPECT_EQ(target.getL1L0aRate(), 512) << soc << " " << family;
    EXPECT_EQ(target.getL1L0bRate(), 256) << soc << " " << family;
  }
}

} // namespace
