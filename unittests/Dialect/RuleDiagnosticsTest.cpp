//===- RuleDiagnosticsTest.cpp - rules travel with diagnostics ------------===//

#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ascendprec;

namespace {

/// The rule each emitted diagnostic carries, as the handler sees it.
std::vector<std::string> rulesSeen(llvm::function_ref<void(MLIRContext &)> emit) {
  MLIRContext context;
  std::vector<std::string> rules;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    rules.push_back(ascendprec::ascend::taggedRule(diag).str());
    return success();
  });
  emit(context);
  return rules;
}

TEST(RuleDiagnostics, TheRuleTravelsWithTheDiagnostic) {
  std::vector<std::string> rules = rulesSeen([](MLIRContext &context) {
    InFlightDiagnostic error = emitError(UnknownLoc::get(&context)) << "no kernel [PM-9]";
    ascendprec::ascend::tagRule(error, "PM-9");
  });
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0], "PM-9");
}

TEST(RuleDiagnostics, TextAloneIsNotATag) {
  // A message that merely looks like it names a rule is not classified by it.
  std::vector<std::string> rules = rulesSeen([](MLIRContext &context) {
    emitError(UnknownLoc::get(&context)) << "internal error [PM-9]";
    InFlightDiagnostic empty = emitError(UnknownLoc::get(&context)) << "no rule";
    ascendprec::ascend::tagRule(empty, "");
  });
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0], "");
  EXPECT_EQ(rules[1], "");
}

} // namespace
