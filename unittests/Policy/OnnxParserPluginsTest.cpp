//===- OnnxParserPluginsTest.cpp - the table of CANN's ONNX parser plugins -===//
//
// data/onnx/parser-plugins.tsv as built in (OnnxParserPlugins.h): it parses,
// it is the file in the source tree, it answers what the research note
// (docs/research/cann-onnx-parser-plugins.md) says; a malformed table is an
// error naming the file and line.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Policy/OnnxParserPlugins.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace ascendprec::policy;

namespace {

/// The error a malformed table gives (empty when it parses).
std::string errorOf(const std::string &text) {
  std::string error;
  std::optional<OnnxParserPlugins> table = OnnxParserPlugins::parse(text, "t.tsv", error);
  EXPECT_EQ(table.has_value(), error.empty()) << error;
  return error;
}

TEST(OnnxParserPlugins, TheBuiltInTableParses) {
  std::string error;
  const OnnxParserPlugins *table = OnnxParserPlugins::builtin(error);
  ASSERT_TRUE(table) << error;
  EXPECT_TRUE(error.empty());
  // 267 ai.onnx op types and 53 of other domains, plus the two malformed
  // keys (the research note's count).
  EXPECT_GE(table->size(), 300u);
  EXPECT_EQ(OnnxParserPlugins::builtin(error), table); // read once
}

TEST(OnnxParserPlugins, TheBuiltInTableIsTheSourceTreesFile) {
  // ASCENDPREC_TEST_DATA_DIR is data/ops; the table is data/onnx's.
  std::ifstream file(std::string(ASCENDPREC_TEST_DATA_DIR) + "/../onnx/parser-plugins.tsv",
                     std::ios::binary);
  ASSERT_TRUE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(std::string(builtinParserPluginsText()), text.str())
      << "the built-in table is not data/onnx/parser-plugins.tsv: re-run CMake";
}

TEST(OnnxParserPlugins, WhatTheResearchNoteSays) {
  std::string error;
  const OnnxParserPlugins *table = OnnxParserPlugins::builtin(error);
  ASSERT_TRUE(table) << error;
  // Standard ops stop at opset 18, and start at 8; "" is ai.onnx.
  EXPECT_TRUE(table->hasPlugin("", 13, "Add"));
  EXPECT_TRUE(table->hasPlugin("ai.onnx", 18, "Add"));
  EXPECT_FALSE(table->hasPlugin("", 19, "Add"));
  EXPECT_FALSE(table->hasPlugin("", 7, "Add"));
  EXPECT_EQ(table->opsetsFor("", "Add"), "8-18");
  // ONNX's integer quantization: no plugin at any opset.
  for (const char *type : {"DynamicQuantizeLinear", "ConvInteger", "MatMulInteger",
                           "QLinearConv", "QLinearMatMul", "QuantizeLinear",
                           "DequantizeLinear"}) {
    EXPECT_FALSE(table->hasPlugin("", 13, type)) << type;
    EXPECT_EQ(table->opsetsFor("", type), "") << type;
  }
  // AMCT's deploy ops go to opset 22.
  EXPECT_TRUE(table->hasPlugin("", 22, "AscendQuant"));
  EXPECT_TRUE(table->hasPlugin("", 13, "AscendDequant"));
  // Gaps inside ranges, and the old opsets some types keep.
  EXPECT_TRUE(table->hasPlugin("", 9, "Upsample"));
  EXPECT_FALSE(table->hasPlugin("", 10, "Upsample"));
  EXPECT_EQ(table->opsetsFor("", "Upsample"), "8-9,11-16");
  EXPECT_EQ(table->opsetsFor("", "HardSigmoid"), "1,6,8-18");
  EXPECT_FALSE(table->hasPlugin("", 18, "ReduceL2"));
  // Other domains.
  EXPECT_TRUE(table->hasPlugin("npu", 1, "NPURmsNorm"));
  EXPECT_FALSE(table->hasPlugin("npu", 2, "NPURmsNorm"));
  EXPECT_FALSE(table->hasPlugin("com.microsoft", 1, "FusedGemm"));
  // A row whose key the parser can never produce covers no opset.
  const ParserPluginEntry *dead = table->find("aten", "adaptive_max_pool2d");
  ASSERT_TRUE(dead);
  EXPECT_TRUE(dead->opsets.empty());
  EXPECT_EQ(dead->cannType, "AdaptiveMaxPool2d");
  // Control flow: If has a plugin, Loop and Scan none.
  EXPECT_TRUE(table->hasPlugin("", 16, "If"));
  EXPECT_FALSE(table->hasPlugin("", 16, "Loop"));
  EXPECT_FALSE(table->hasPlugin("", 16, "Scan"));
}

TEST(OnnxParserPlugins, ParserKeys) {
  EXPECT_EQ(parserPluginKey("", 13, "DynamicQuantizeLinear"),
            "ai.onnx::13::DynamicQuantizeLinear");
  EXPECT_EQ(parserPluginKey("ai.onnx", 19, "Relu"), "ai.onnx::19::Relu");
  EXPECT_EQ(parserPluginKey("com.microsoft", 1, "FusedGemm"), "com.microsoft::1::FusedGemm");
  EXPECT_EQ(parserDomain(""), "ai.onnx");
  EXPECT_EQ(parserDomain("npu"), "npu");
}

TEST(OnnxParserPlugins, RowsCommentsAndLineEnds) {
  std::string error;
  std::optional<OnnxParserPlugins> table = OnnxParserPlugins::parse(
      "# a header\r\n\r\nAdd\t8-18\tAdd\tops-math:similar_opp_onnx_plugin.cpp\t# a comment\r\n"
      "ai.onnx::Relu\t13\tRelu\tsrc\n"
      "npu::NPUFoo\t1\tFoo\tsrc\n"
      "dead::key\t-\tBar\tsrc",
      "t.tsv", error);
  ASSERT_TRUE(table) << error;
  EXPECT_EQ(table->size(), 4u);
  EXPECT_TRUE(table->hasPlugin("", 8, "Add"));
  EXPECT_TRUE(table->hasPlugin("", 13, "Relu"));
  EXPECT_FALSE(table->hasPlugin("", 12, "Relu"));
  EXPECT_TRUE(table->hasPlugin("npu", 1, "NPUFoo"));
  EXPECT_FALSE(table->hasPlugin("", 1, "NPUFoo"));
  EXPECT_FALSE(table->hasPlugin("dead", 1, "key"));
  ASSERT_TRUE(table->find("", "Add"));
  EXPECT_EQ(table->find("", "Add")->line, 3u);
  EXPECT_EQ(table->find("", "Add")->source, "ops-math:similar_opp_onnx_plugin.cpp");
}

TEST(OnnxParserPlugins, AMalformedTableNamesTheFileAndLine) {
  EXPECT_EQ(errorOf("Add\t8-18\tAdd\n"),
            "t.tsv:1: expected 4 tab-separated columns (onnx_type, opsets, cann_type, source), "
            "found 3");
  EXPECT_EQ(errorOf("# header\nAdd\t18-8\tAdd\tsrc\n"),
            "t.tsv:2: '18-8' in the opsets column is not an opset N or a range N-M (N <= M), "
            "nor '-'");
  EXPECT_EQ(errorOf("Add\teight\tAdd\tsrc\n"),
            "t.tsv:1: 'eight' in the opsets column is not an opset N or a range N-M (N <= M), "
            "nor '-'");
  EXPECT_EQ(errorOf("Add\t8-12,10-18\tAdd\tsrc\n"),
            "t.tsv:1: the opsets '8-12,10-18' are not in ascending order without overlap");
  EXPECT_EQ(errorOf("Add\t8-18\tAdd\tsrc\n# gap\nAdd\t8\tAdd\tsrc\n"),
            "t.tsv:3: a second row for ai.onnx::Add (the first is at line 1): one row per op "
            "type, its opsets joined");
  // "" and ai.onnx are one domain.
  EXPECT_EQ(errorOf("Add\t8\tAdd\tsrc\nai.onnx::Add\t9\tAdd\tsrc\n"),
            "t.tsv:2: a second row for ai.onnx::Add (the first is at line 1): one row per op "
            "type, its opsets joined");
  EXPECT_EQ(errorOf("ai.onnx::13::Add\t13\tAdd\tsrc\n"),
            "t.tsv:1: 'ai.onnx::13::Add' is neither Type nor domain::Type (the opset goes in "
            "its own column)");
  EXPECT_EQ(errorOf("Add\t8-18\tAdd\tsrc\tnot a comment\n"),
            "t.tsv:1: text after the source column must be a '# comment'");
  EXPECT_EQ(errorOf("Add\t8-18\t\tsrc\n"),
            "t.tsv:1: the cann_type column is empty or has spaces around it");
  EXPECT_EQ(errorOf("# only comments\n\n"), "t.tsv:2: the table has no rows");
  EXPECT_EQ(errorOf(""), "t.tsv:1: the table has no rows");
}

} // namespace
