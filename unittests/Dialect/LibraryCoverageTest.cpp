//===- LibraryCoverageTest.cpp - the library covers the dialect (OP-4) ----===//
//
// Every dedicated `ascend` op type (except Const, which is no kernel, and the
// control-flow ops, which compute nothing themselves) has an
// entry in each built-in operator library, with kernel rows whose arity fits
// the op's operands and results.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/OpLibrary.h"
#include "AscendPrec/Policy/Soc.h"
#include "TestUtils.h"

using namespace mlir;
using namespace ascendprec;
using ascendprec::testing::DialectTest;

namespace {

using LibraryCoverageTest = DialectTest;

TEST_F(LibraryCoverageTest, OP_4_EveryDialectOpTypeIsInEveryBuiltinLibrary) {
  std::vector<std::string> opTypes;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "ascend")
      continue;
    // If, Loop, Scan and Yield are control flow, not kernels.
    if (!name.hasInterface<ascend::AscendOpInterface>())
      continue;
    StringRef opType = name.stripDialect();
    if (opType != "Const" && opType != "generic")
      opTypes.push_back(opType.str());
  }
  ASSERT_EQ(opTypes.size(), 130u);
  for (const char *soc : {"Ascend910", "Ascend910B", "Ascend310P"}) {
    ascendprec::policy::DiagnosticList diags;
    auto library = ascendprec::policy::loadOpLibrary(
        std::string(ASCENDPREC_TEST_DATA_DIR) + "/" + soc, diags,
        ascendprec::policy::platformConfigName(soc));
    ASSERT_TRUE(library) << diags.format();
    for (const std::string &opType : opTypes)
      EXPECT_TRUE(library->find(opType)) << soc << " lacks " << opType;
  }
}

} // namespace
