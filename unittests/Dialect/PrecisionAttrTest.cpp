//===- PrecisionAttrTest.cpp - #ascend.precision --------------------------===//

#include "TestUtils.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using ascendprec::testing::DialectTest;

namespace {

using PrecisionAttrTest = DialectTest;

TEST_F(PrecisionAttrTest, PrintsEveryField) {
  Builder b(&context);
  Type f16 = b.getF16Type(), f32 = b.getF32Type();
  auto attr = PrecisionAttr::get(&context, f32, f16, {f16, f32}, {f16},
                                 Engine::AICoreCube, ListColor::White, "ML-2",
                                 "mixlist.json:4");
  std::string text;
  llvm::raw_string_ostream os(text);
  Attribute(attr).print(os);
  EXPECT_EQ(text, "#ascend.precision<origin = f32, compute = f16, inputs = "
                  "[f16, f32], outputs = [f16], engine = aicore_cube, list = "
                  "white, rule = \"ML-2\", source = \"mixlist.json:4\">");
  EXPECT_EQ(parseAttribute(text, &context), attr);
}

TEST_F(PrecisionAttrTest, RejectsMalformedRuleIds) {
  Builder b(&context);
  Type f16 = b.getF16Type();
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  for (StringRef rule : {"", "ML", "ML-", "ml-2", "ML-2a", "-2"}) {
    auto attr = PrecisionAttr::getChecked(
        [&] { return emitError(UnknownLoc::get(&context)); }, &context, f16,
        f16, {}, {}, Engine::AICPU, ListColor::None, rule, "built-in");
    EXPECT_FALSE(attr) << rule.str();
    EXPECT_NE(message.find("is not a rule ID"), std::string::npos) << message;
  }
}

} // namespace
