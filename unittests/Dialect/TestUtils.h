//===- TestUtils.h - parse IR snippets in unit tests ----------------------===//

#ifndef ASCENDPREC_UNITTESTS_DIALECT_TESTUTILS_H
#define ASCENDPREC_UNITTESTS_DIALECT_TESTUTILS_H

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include <gtest/gtest.h>

namespace ascendprec::testing {

/// A context with every AscendPrec dialect loaded.
class DialectTest : public ::testing::Test {
protected:
  DialectTest() {
    mlir::DialectRegistry registry;
    ascendprec::registerAllAscendPrecDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source`; the test fails if it does not parse and verify.
  mlir::OwningOpRef<mlir::ModuleOp> parse(llvm::StringRef source) {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module) << "failed to parse:\n" << source.str();
    return module;
  }

  /// The first op of type OpT in `module`.
  template <typename OpT> OpT first(mlir::ModuleOp module) {
    OpT found;
    module.walk([&](OpT op) {
      if (!found)
        found = op;
    });
    return found;
  }

  mlir::MLIRContext context;
};

} // namespace ascendprec::testing

#endif // ASCENDPREC_UNITTESTS_DIALECT_TESTUTILS_H
