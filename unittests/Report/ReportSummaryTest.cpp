//===- ReportSummaryTest.cpp - summary line and terminal table ------------===//
//
// FU-1 in the report: graph fusions and UB groups are counted apart, Casts
// inside a UB group's kernel are counted among the inserted ones, and a
// fused op's name gives way to a count when the column is narrow.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Report/Report.h"

#include <gtest/gtest.h>

using namespace ascendprec::report;

namespace {

ReportNode op(const std::string &name, const std::string &opType) {
  ReportNode node;
  node.name = name;
  node.opType = opType;
  node.engine = "AICore-vector";
  node.originDType = node.computeDType = "float32";
  node.inputDTypes = node.outputDTypes = {"float32"};
  node.list = "gray";
  node.rule = "ML-4";
  node.source = "built-in";
  return node;
}

/// conv (+bn) and relu form one UB group whose exit Cast is inside it; one
/// more Cast elsewhere.
ReportData convReluReport() {
  ReportData report;
  report.socVersion = "Ascend910";
  report.precisionMode = "allow_mix_precision";
  ReportNode conv = op("conv", "Conv2D");
  conv.absorbed = {"bn"};
  conv.fusedBy = {"ConvBatchnormFusionPass"};
  ReportNode relu = op("relu", "Relu");
  ReportNode exitCast = op("relu/Cast_float16", "Cast");
  exitCast.insertedCast = true;
  for (ReportNode *node : {&conv, &relu, &exitCast}) {
    node->bufferGroup = "conv";
    node->bufferPass = "TbeCommonRules0FusionPass";
  }
  ReportNode inputCast = op("x/Cast_float16", "Cast");
  inputCast.insertedCast = true;
  report.nodes = {conv, relu, exitCast, inputCast};
  report.castsInserted = 2;
  return report;
}

TEST(ReportSummary, FU_1_GraphFusionsAndUBGroupsCountedApart) {
  ReportData report = convReluReport();
  EXPECT_EQ(report.graphFusionsByPass().at("ConvBatchnormFusionPass"), 1);
  // One group, counted at the op it is named after, not once per member.
  EXPECT_EQ(report.bufferGroupsByPass().at("TbeCommonRules0FusionPass"), 1);
  EXPECT_EQ(report.fusionsByPass().size(), 2u);
  EXPECT_EQ(report.castsInBufferGroups(), 1);
  EXPECT_EQ(reportSummaryLine(report),
            "SoC Ascend910, precision mode allow_mix_precision: 2 ops, 1 fused "
            "(ConvBatchnormFusionPass 1), 1 UB group (TbeCommonRules0FusionPass 1), 2 casts "
            "inserted (1 inside UB groups), 0 removed");
}

TEST(ReportSummary, NoFusionNoFusionText) {
  ReportData report;
  report.socVersion = "Ascend910";
  report.precisionMode = "force_fp16";
  report.nodes = {op("relu", "Relu")};
  EXPECT_EQ(reportSummaryLine(report),
            "SoC Ascend910, precision mode force_fp16: 1 ops, 0 casts inserted, 0 removed");
}

TEST(ReportTerminalTable, FusedNameGivesWayToCount) {
  ReportData report = convReluReport();
  // Wide: the absorbed names in full.
  EXPECT_NE(reportTerminalTable(report, 200).find("conv (+bn)"), std::string::npos);
  // A long absorbed list in a narrow table: how many, never a name cut in
  // the middle.
  report.nodes[0].absorbed = {"batch_norm_0", "elementwise_add_0"};
  std::string narrow = reportTerminalTable(report, 80);
  EXPECT_NE(narrow.find("conv (+2"), std::string::npos) << narrow;
  EXPECT_EQ(narrow.find("batch_norm_0"), std::string::npos) << narrow;
}

TEST(ReportTerminalTable, CutNamesStayDistinct) {
  // Two names that differ only in their middle: cut in the middle they
  // would read alike; the cut moves until they differ.
  ReportData report;
  report.socVersion = "Ascend910";
  report.precisionMode = "force_fp16";
  report.nodes = {op("/encoder/layers.0/attention/query/MatMul", "MatMulV2"),
                  op("/encoder/layers.0/attention/value/MatMul", "MatMulV2")};
  std::string table = reportTerminalTable(report, 80);
  std::vector<std::string> names;
  size_t at = table.find('\n', table.find("---"));
  for (int row = 0; row < 2; ++row) {
    size_t end = table.find('\n', at + 1);
    std::string line = table.substr(at + 1, end - at - 1);
    names.push_back(line.substr(0, line.find("  ")));
    at = end;
  }
  ASSERT_EQ(names.size(), 2u) << table;
  EXPECT_NE(names[0], names[1]) << table;
  EXPECT_NE(names[0].find("..."), std::string::npos) << table;
}

} // namespace
