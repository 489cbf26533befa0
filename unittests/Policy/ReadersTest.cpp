//===- ReadersTest.cpp - located JSON and INI readers (OP-5, ML-9) --------===//

#include "AscendPrec/Policy/Ini.h"
#include "AscendPrec/Policy/InputFile.h"

#include <cstdio>
#include "PolicyTestUtils.h"

using namespace ascendprec::policy;
using namespace ascendprec::policy::testing;

namespace {

TEST(JsonReader, ValuesRememberLineAndColumn) {
  DiagnosticList diags;
  auto value = parseJson("{\n  \"a\": [1, \"x\"],\n  \"b\": true\n}", "f.json",
                         diags);
  ASSERT_TRUE(value) << diags.format();
  const JsonValue *a = value->find("a");
  ASSERT_TRUE(a && a->isArray());
  EXPECT_EQ(a->loc.line, 2u);
  EXPECT_EQ(a->loc.column, 8u);
  EXPECT_EQ(a->array[1].string, "x");
  EXPECT_EQ(a->array[1].loc.column, 12u);
  EXPECT_EQ(value->keyLocs[1].line, 3u);
}

TEST(JsonReader, ML_9_AcceptsLineAndBlockComments) {
  DiagnosticList diags;
  auto value = parseJson("// head\n{ /* x */ \"k\": 1 // tail\n}", "f", diags);
  ASSERT_TRUE(value) << diags.format();
  EXPECT_EQ(value->find("k")->number, 1);
}

TEST(JsonReader, ML_9_EmptyFileIsAnError) {
  DiagnosticList diags;
  EXPECT_FALSE(parseJson("  // only a comment\n", "f", diags));
  EXPECT_DIAG_AT(diags, "", "the file is empty", 2, 1);
}

TEST(JsonReader, OP_5_MissingCommaNamesItsPosition) {
  DiagnosticList diags;
  EXPECT_FALSE(parseJson(readInput("bad-mixlist-missing-comma.json"),
                         "bad.json", diags));
  EXPECT_DIAG_AT(diags, "", "expected ',' or ']' after an array element (a "
                            "missing comma?)",
                 2, 37);
}

TEST(JsonReader, OP_5_RejectsMalformedInputWithoutCrashing) {
  for (const char *text :
       {"{", "[1,]", "{\"a\" 1}", "{\"a\":}", "\"unterminated", "tru", "01x",
        "{\"a\":1,}", "[\"\\q\"]", "\"\\ud800\"", "/* open", "{} extra",
        "{\"k\":1,\"k\":2}", "-", "1e", "[[[[[[[[[[[[[[[[[[[[[[[[[[[["}) {
    DiagnosticList diags;
    EXPECT_FALSE(parseJson(text, "f", diags)) << text;
    EXPECT_TRUE(diags.hasErrors()) << text;
    EXPECT_TRUE(diags.all().front().loc.line >= 1) << text;
  }
}

TEST(JsonReader, OP_5_DeepNestingIsBounded) {
  DiagnosticList diags;
  std::string deep(100000, '[');
  EXPECT_FALSE(parseJson(deep, "f", diags));
  EXPECT_NE(findDiag(diags, "", "nested more than"), nullptr);
}

TEST(JsonReader, DuplicateKeysAreErrorsWithANoteAtTheFirst) {
  DiagnosticList diags;
  EXPECT_FALSE(parseJson("{\"a\": 1,\n \"a\": 2}", "f", diags));
  EXPECT_DIAG_AT(diags, "", "duplicate key \"a\"", 2, 2);
  EXPECT_EQ(diags.all().front().notes.front().loc.line, 1u);
}

TEST(JsonReader, UnicodeEscapesBecomeUtf8) {
  DiagnosticList diags;
  auto value = parseJson("\"\\u9ed1\\ud83d\\ude00\"", "f", diags);
  ASSERT_TRUE(value);
  EXPECT_EQ(value->string, "\xE9\xBB\x91\xF0\x9F\x98\x80");
}

TEST(IniReader, SectionsKeysAndSpacesAroundEquals) {
  DiagnosticList diags;
  auto ini = parseIni("# c\n; c\nglobal=1\n[S]\n  key = value \n", "f.ini", diags);
  ASSERT_TRUE(ini) << diags.format();
  ASSERT_EQ(ini->entries.size(), 2u);
  EXPECT_EQ(ini->entries[0].section, "");
  const IniEntry *entry = ini->find("S", "key");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->value, "value");
  EXPECT_EQ(entry->keyLoc.line, 5u);
  EXPECT_EQ(entry->keyLoc.column, 3u);
  EXPECT_EQ(entry->valueLoc.column, 9u);
}

TEST(IniReader, SeveralPairsOnOneLineAsTheDocsPrintThem) {
  DiagnosticList diags;
  auto ini = parseIni(readInput("seed001-op_precision.ini"), "f", diags);
  ASSERT_TRUE(ini) << diags.format();
  ASSERT_EQ(ini->entries.size(), 2u);
  EXPECT_EQ(ini->entries[1].key, "optype2");
  EXPECT_EQ(ini->entries[1].keyLoc.column, 24u);
}

TEST(IniReader, OP_5_MalformedLinesNameLineAndColumn) {
  DiagnosticList diags;
  EXPECT_FALSE(parseIni("[S]\n  lonely\n", "f.ini", diags));
  EXPECT_DIAG_AT(diags, "", "expected 'key=value', found 'lonely'", 2, 3);
  DiagnosticList header;
  EXPECT_FALSE(parseIni("[S\n", "f.ini", header));
  EXPECT_DIAG_AT(header, "", "malformed section header", 1, 1);
  DiagnosticList equals;
  EXPECT_FALSE(parseIni("=x\n", "f.ini", equals));
  EXPECT_DIAG_AT(equals, "", "'=' without a key", 1, 1);
}

TEST(Diagnostics, FormatNamesFileLineColumnAndRule) {
  DiagnosticList diags;
  diags.error({"a.json", 3, 7}, "bad thing", "ML-5");
  EXPECT_EQ(diags.format(), "a.json:3:7: error: bad thing [ML-5]\n");
}

TEST(Diagnostics, DidYouMeanFindsCloseWordsOnly) {
  EXPECT_EQ(closestMatch("precison_mode", {"precision_mode", "keep_dtype"}),
            "precision_mode");
  EXPECT_EQ(closestMatch("zzz", {"precision_mode"}), "");
}

TEST(Diagnostics, LikelyMeantIgnoresCaseAndDashesThenPrefersPrefixesAndOneLetterOff) {
  using V = std::vector<std::string>;
  // '-' against '_' and case do not count.
  EXPECT_EQ(likelyMeant("compare_modes", {"compare-modes", "run"}), V{"compare-modes"});
  // A prefix either way: the shortest candidates, a family before its members.
  EXPECT_EQ(likelyMeant("output_dir", {"output", "op_debug_level"}), V{"output"});
  EXPECT_EQ(likelyMeant("Ascend310", {"Ascend910", "Ascend310P", "Ascend310P1", "Ascend310B"}),
            (V{"Ascend310P", "Ascend310B"}));
  // One letter off: every such candidate; else the longest prefix of it.
  EXPECT_EQ(likelyMeant("Ascend910B5", {"Ascend910", "Ascend910B", "Ascend910B1", "Ascend910B2",
                                        "Ascend910B3", "Ascend910B4", "Ascend910B2C"}),
            (V{"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4"}));
  EXPECT_EQ(likelyMeant("Ascend910B9x", {"Ascend910", "Ascend910B", "Ascend910B1"}),
            V{"Ascend910B"});
  // Else the closest by edit distance, or nothing.
  EXPECT_EQ(likelyMeant("runn", {"run", "threads"}), V{"run"});
  EXPECT_EQ(likelyMeant("zzz", {"precision_mode"}), V{});
}

TEST(Diagnostics, EscapeForDisplayKeepsUtf8AndEscapesTheRest) {
  EXPECT_EQ(escapeForDisplay("conv1/relu"), "conv1/relu");
  EXPECT_EQ(escapeForDisplay("\xe5\x8d\xb7\xe7\xa7\xaf"), "\xe5\x8d\xb7\xe7\xa7\xaf"); // CJK kept
  EXPECT_EQ(escapeForDisplay("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(escapeForDisplay(std::string("a\0b\x1b[31m", 8)), "a\\x00b\\x1b[31m");
  EXPECT_EQ(escapeForDisplay("\x7f"), "\\x7f");
  // Invalid UTF-8: a lone continuation byte, a truncated sequence, an
  // overlong '/', a surrogate.
  EXPECT_EQ(escapeForDisplay("\x80"), "\\x80");
  EXPECT_EQ(escapeForDisplay("\xe5\x8d"), "\\xe5\\x8d");
  EXPECT_EQ(escapeForDisplay("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(escapeForDisplay("\xed\xa0\x80"), "\\xed\\xa0\\x80");
}

TEST(InputFile, NormalizeDropsBomAndReadsEveryLineEnd) {
  EXPECT_EQ(normalizeConfigText("a\nb"), "a\nb");
  EXPECT_EQ(normalizeConfigText("\xEF\xBB\xBF" "a\r\nb\r\n"), "a\nb\n");
  EXPECT_EQ(normalizeConfigText("a\rb\r"), "a\nb\n");
  EXPECT_EQ(normalizeConfigText("a\r\rb"), "a\n\nb"); // a blank line
  EXPECT_EQ(normalizeConfigText("\xEF\xBB"), "\xEF\xBB"); // not a whole BOM
}

TEST(InputFile, RefusesWhatIsNotARegularFile) {
  std::string why;
  EXPECT_FALSE(InputFile::open("/dev/zero", why));
  EXPECT_EQ(why, "it is not a regular file (a device, pipe or socket)");
  EXPECT_FALSE(InputFile::open("/", why));
  EXPECT_EQ(why, "it is a folder, not a file");
  EXPECT_FALSE(InputFile::open("/no/such/file.cfg", why));
  EXPECT_EQ(why, "no such file");
}

TEST(InputFile, ReadFileNormalizesAndNamesTheOption) {
  std::string path = ::testing::TempDir() + "/bom-cr.cfg";
  {
    std::FILE *f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    std::fputs("\xEF\xBB\xBF" "conv\rrelu\r", f);
    std::fclose(f);
  }
  DiagnosticList diags;
  std::string text;
  ASSERT_TRUE(readFile(path, text, diags));
  EXPECT_EQ(text, "conv\nrelu\n");
  EXPECT_FALSE(readFile("/dev/zero", text, diags, SourceLoc{"<command line>"}, "KD-1",
                        "keep_dtype"));
  EXPECT_EQ(diags.all().back().format(),
            "<command line>: error: cannot read the --keep_dtype file '/dev/zero': it is "
            "not a regular file (a device, pipe or socket) [KD-1]");
  std::remove(path.c_str());
}

} // namespace
