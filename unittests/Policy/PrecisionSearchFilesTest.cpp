//===- PrecisionSearchFilesTest.cpp - --search-precision's target parser and
//                                    the CANN files a search writes --------===//

#include "AscendPrec/Policy/AccuracyTarget.h"
#include "AscendPrec/Policy/ConfigFiles.h"
#include "AscendPrec/Policy/PrecisionEdits.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ascendprec::policy;

namespace {

//===--- the accuracy target ---===//

TEST(AccuracyTarget, OneConditionForEveryOutput) {
  DiagnosticList diags;
  std::optional<AccuracyTarget> target = parseAccuracyTarget("cosine>=0.9999", diags);
  ASSERT_TRUE(target) << diags.format();
  ASSERT_EQ(target->conditions.size(), 1u);
  const AccuracyCondition &condition = target->conditions[0];
  EXPECT_EQ(condition.output, "");
  EXPECT_EQ(condition.metric, AccuracyMetric::Cosine);
  EXPECT_DOUBLE_EQ(condition.bound, 0.9999);
  EXPECT_TRUE(condition.holdsFor(0.99995));
  EXPECT_TRUE(condition.holdsFor(0.9999));
  EXPECT_FALSE(condition.holdsFor(0.9998));
  EXPECT_FALSE(condition.holdsFor(NAN)) << "an overflowing output never meets a target";
  EXPECT_EQ(target->str(), "cosine>=0.9999");
}

TEST(AccuracyTarget, SeveralConditionsPerOutputWithBlanks) {
  DiagnosticList diags;
  std::optional<AccuracyTarget> target =
      parseAccuracyTarget(" logits : max_rel_err <= 1e-3 , scope::out:max_abs_err<=0.5,"
                          "rel_rmse<=2e-4",
                          diags);
  ASSERT_TRUE(target) << diags.format();
  ASSERT_EQ(target->conditions.size(), 3u);
  EXPECT_EQ(target->conditions[0].output, "logits");
  EXPECT_EQ(target->conditions[0].metric, AccuracyMetric::MaxRelErr);
  EXPECT_DOUBLE_EQ(target->conditions[0].bound, 1e-3);
  // The metric follows the last colon: output names may hold colons.
  EXPECT_EQ(target->conditions[1].output, "scope::out");
  EXPECT_EQ(target->conditions[1].metric, AccuracyMetric::MaxAbsErr);
  EXPECT_EQ(target->conditions[2].metric, AccuracyMetric::RelRmse);
  EXPECT_TRUE(target->conditions[0].holdsFor(1e-3));
  EXPECT_FALSE(target->conditions[0].holdsFor(INFINITY));
  // As written, so that messages and file headers quote the user.
  EXPECT_EQ(target->str(), "logits:max_rel_err<=1e-3,scope::out:max_abs_err<=0.5,"
                           "rel_rmse<=2e-4");
}

/// The first error's message, for the cases below.
std::string errorFor(const std::string &text) {
  DiagnosticList diags;
  EXPECT_FALSE(parseAccuracyTarget(text, diags)) << text;
  EXPECT_TRUE(diags.hasErrors()) << text;
  return diags.all().empty() ? "" : diags.all().front().message;
}

TEST(AccuracyTarget, BadTargetsSayWhatWasExpected) {
  EXPECT_NE(errorFor("").find("needs a target"), std::string::npos);
  EXPECT_NE(errorFor("cosine=0.99").find("no >= or <="), std::string::npos);
  // What the shell leaves of an unquoted `cosine>=0.99`.
  EXPECT_NE(errorFor("cosine").find("quote the target, as in --search-precision=\"cosine>=VALUE\""),
            std::string::npos);
  EXPECT_NE(errorFor("y:max_rel_err").find("\"max_rel_err<=VALUE\": unquoted, the shell reads"),
            std::string::npos);
  EXPECT_NE(errorFor("cosine>=0.99<=1").find("more than one comparison"), std::string::npos);
  EXPECT_NE(errorFor("cosin>=0.99").find("unknown metric 'cosin'"), std::string::npos);
  EXPECT_NE(errorFor("cosine>=high").find("'high' is not a finite number"), std::string::npos);
  EXPECT_NE(errorFor("cosine>=").find("is not a finite number"), std::string::npos);
  EXPECT_NE(errorFor("cosine>=inf").find("is not a finite number"), std::string::npos);
  EXPECT_NE(errorFor("cosine>=1e999").find("is not a finite number"), std::string::npos);
  DiagnosticList tiny;
  EXPECT_TRUE(parseAccuracyTarget("max_abs_err<=1e-310", tiny)) << "an underflow is a bound";
  EXPECT_NE(errorFor("cosine<=0.99").find("write cosine>=VALUE"), std::string::npos);
  EXPECT_NE(errorFor("cosine>=1.5").find("(-1, 1]"), std::string::npos);
  EXPECT_NE(errorFor("max_abs_err>=0.1").find("write max_abs_err<=VALUE"), std::string::npos);
  EXPECT_NE(errorFor("rel_rmse<=-1").find("cannot be negative"), std::string::npos);
  EXPECT_NE(errorFor(":cosine>=0.9").find("empty output name"), std::string::npos);
  EXPECT_NE(errorFor("cosine>=0.9,,rel_rmse<=1").find("empty condition"), std::string::npos);
}

TEST(AccuracyTarget, EveryBadConditionIsReported) {
  DiagnosticList diags;
  EXPECT_FALSE(parseAccuracyTarget("cosin>=0.9,max_rel_err>=1", diags));
  EXPECT_EQ(diags.errorCount(), 2u);
}

//===--- the files a search writes ---===//

TEST(PrecisionEdits, KD_1_KeepDTypeLinesReadBackAsTheSameNames) {
  std::vector<std::string> names = {"/blocks.0/attn/Softmax", "conv1", "a::b",
                                    "InputDtype:x",           "名前/層", "x y"};
  PrecisionEdits edits;
  for (const std::string &name : names) {
    std::string problem;
    std::optional<std::string> line = formatKeepDTypeLine(name, problem);
    ASSERT_TRUE(line) << name << ": " << problem;
    edits.nodeNames.push_back(*line);
  }
  edits.opTypes = {"LayerNorm", "SoftmaxV2"};
  std::string text = keepDTypeFileText(edits, "# the user's own\nconv0", {"added by a search"});
  DiagnosticList diags;
  std::optional<KeepDTypeList> list = parseKeepDType(text, "keep_dtype.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  EXPECT_FALSE(diags.hasErrors());
  ASSERT_EQ(list->entries.size(), 1 + 2 + names.size());
  EXPECT_EQ(list->entries[0].name, "conv0") << "the user's entries are kept first";
  EXPECT_TRUE(list->entries[1].isOpType);
  EXPECT_EQ(list->entries[2].name, "SoftmaxV2");
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_FALSE(list->entries[3 + i].isOpType);
    EXPECT_EQ(list->entries[3 + i].name, names[i]);
  }
}

TEST(PrecisionEdits, KD_1_NamesKeepDTypeCannotExpressAreRefused) {
  for (std::string name : {std::string(""), std::string(" lead"), std::string("trail\t"),
                           std::string("#hash"), std::string("OpType::Relu"),
                           std::string("two\nlines"), std::string("cr\rname"),
                           std::string("nul\0x", 5)}) {
    std::string problem;
    EXPECT_FALSE(formatKeepDTypeLine(name, problem)) << name;
    EXPECT_FALSE(problem.empty()) << name;
  }
}

TEST(PrecisionEdits, ML_5_BlackListFileParsesAndBlacklistsTheTypes) {
  std::string text = blackListFileText({"SoftmaxV2", "LayerNorm"}, {"added by a search"});
  DiagnosticList diags;
  std::optional<ModifyMixList> mix = parseModifyMixList(text, "modify_mixlist.json", diags);
  ASSERT_TRUE(mix) << diags.format() << text;
  EXPECT_EQ(mix->apply("SoftmaxV2", ListColor::Gray), ListColor::Black);
  EXPECT_EQ(mix->apply("LayerNorm", ListColor::White), ListColor::Black);
  EXPECT_EQ(mix->apply("Relu", ListColor::Gray), ListColor::Gray);
}

} // namespace
