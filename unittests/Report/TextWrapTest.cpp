//===- TextWrapTest.cpp - prose and tables fitted to a terminal ----------===//
//
// Issue 33: terminal output fits COLUMNS; prose wraps between words, a
// continuation indented under its line; names are cut in the middle so
// that their distinguishing ends stay; a table too wide leaves out its
// dtype columns before it cuts names short.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Report/Report.h"
#include "AscendPrec/Report/TextWrap.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace ascendprec::report;

namespace {

size_t longestLine(const std::string &text) {
  std::istringstream in(text);
  size_t longest = 0;
  for (std::string line; std::getline(in, line);)
    longest = std::max(longest, line.size());
  return longest;
}

TEST(TextWrap, ShortLinesAreKept) {
  EXPECT_EQ(wrapText("one two\n  three\n", 40), "one two\n  three\n");
  EXPECT_EQ(wrapText("", 40), "");
}

TEST(TextWrap, BreaksBetweenWordsWithHangingIndent) {
  std::string line = "  output 'y': rel rmse 6.4e-04, max abs err 2.9e-03, cosine 0.9999998";
  EXPECT_EQ(wrapText(line, 40), "  output 'y': rel rmse 6.4e-04, max abs\n"
                                "    err 2.9e-03, cosine 0.9999998");
  EXPECT_EQ(wrapText("a b c d e f g h i j k l m n o p q r s t u v w x y z", 20, 2),
            "a b c d e f g h i j\n  k l m n o p q r s\n  t u v w x y z");
}

TEST(TextWrap, AWordLongerThanTheWidthStaysWhole) {
  std::string path(60, 'p');
  std::string wrapped = wrapText("Outputs in " + path + ": report.json", 40);
  EXPECT_EQ(wrapped, "Outputs in\n  " + path + ":\n  report.json");
}

TEST(TextWrap, EveryLineFitsWhenItsWordsDo) {
  std::string text;
  for (int i = 0; i < 50; ++i)
    text += "word" + std::to_string(i) + (i % 17 == 16 ? "\n" : " ");
  EXPECT_LE(longestLine(wrapText(text, 33)), 33u);
}

TEST(ShortenMiddle, KeepsBothEnds) {
  EXPECT_EQ(shortenMiddle("/encoder/layer.0/attention/self/query/MatMul", 20),
            "/encoder/...y/MatMul");
  EXPECT_EQ(shortenMiddle("short", 20), "short");
}

ReportNode node(const std::string &name) {
  ReportNode n;
  n.name = name;
  n.opType = "BatchMatMulV2";
  n.engine = "AICore-cube";
  n.originDType = "float32";
  n.computeDType = "float16";
  n.inputDTypes = {"float16", "float16"};
  n.outputDTypes = {"float16"};
  n.list = "white";
  n.rule = "ML-2";
  n.source = "built-in";
  return n;
}

TEST(TerminalTable, LeavesOutDtypeColumnsBeforeCuttingNames) {
  ReportData report;
  report.socVersion = "Ascend910";
  report.precisionMode = "allow_mix_precision";
  report.nodes = {node("/encoder/layer.0/attention/self/query/MatMul"),
                  node("/encoder/layer.0/attention/self/key/MatMul")};
  std::string wide = reportTerminalTable(report, 200);
  EXPECT_NE(wide.find("inputs"), std::string::npos);
  EXPECT_EQ(wide.find("left out"), std::string::npos);

  std::string narrow = reportTerminalTable(report, 100);
  EXPECT_LE(longestLine(narrow), 100u);
  EXPECT_EQ(narrow.find("inputs  "), std::string::npos);
  // The node column keeps 30 characters or more: enough to tell the two
  // apart with room to spare.
  EXPECT_NE(narrow.find("the inputs column is left out"), std::string::npos);
  EXPECT_GE(narrow.find("op type") - narrow.find("node"), 32u);

  // Narrower still: names are cut in the middle, and stay distinct.
  std::string narrowest = reportTerminalTable(report, 70);
  EXPECT_LE(longestLine(narrowest), 70u);
  std::istringstream rows(narrowest);
  std::string header, rule, first, second;
  std::getline(rows, header);
  std::getline(rows, rule);
  rows >> first;
  rows.ignore(1000, '\n');
  rows >> second;
  EXPECT_NE(first.find("..."), std::string::npos);
  EXPECT_NE(first, second);
}

} // namespace
