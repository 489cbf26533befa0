//===- ConfigFilesTest.cpp - modify_mixlist, keep_dtype, customize_dtypes,
//                            op_precision_mode parsers ----------------------===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "PolicyTestUtils.h"

using namespace ascendprec::policy;
using namespace ascendprec::policy::testing;

namespace {

//===--- modify_mixlist ---===//

std::optional<ModifyMixList> parseMix(const std::string &name,
                                      DiagnosticList &diags) {
  return parseModifyMixList(readInput(name), name, diags);
}

TEST(ModifyMixList, ML_5_Seed002ExampleWithCommentsParses) {
  DiagnosticList diags;
  auto mix = parseMix("seed002-ops_info.json", diags);
  ASSERT_TRUE(mix) << diags.format();
  EXPECT_FALSE(diags.hasErrors());
  ASSERT_EQ(mix->edits.size(), 5u);
  const MixListEdit &cast = mix->edits.at("Cast").front();
  EXPECT_EQ(cast.list, ListColor::Black);
  EXPECT_TRUE(cast.add);
  EXPECT_EQ(cast.loc.line, 8u);
  EXPECT_EQ(mix->edits.at("Conv2D").front().list, ListColor::White);
  EXPECT_FALSE(mix->edits.at("Conv2D").front().add);
}

TEST(ModifyMixList, ML_5_UnknownListKeySuggestsTheRightOne) {
  DiagnosticList diags;
  EXPECT_FALSE(parseMix("bad-mixlist-unknown-list.json", diags));
  EXPECT_DIAG_AT(diags, "ML-5", "unknown key \"blak-list\"", 2, 3);
  EXPECT_NE(findDiag(diags, "ML-5", "did you mean \"black-list\"?"), nullptr);
}

TEST(ModifyMixList, ML_5_ListsMustBeArraysOfStrings) {
  DiagnosticList diags;
  EXPECT_FALSE(parseMix("bad-mixlist-not-array.json", diags));
  EXPECT_DIAG_AT(diags, "ML-5", "must be an array of op type strings, found a string",
                 2, 29);
  DiagnosticList top;
  EXPECT_FALSE(parseModifyMixList("[1]", "f", top));
  EXPECT_NE(findDiag(top, "ML-5", "must be a JSON object"), nullptr);
  DiagnosticList action;
  EXPECT_FALSE(parseModifyMixList("{\"white-list\": {\"to_add\": []}}", "f", action));
  EXPECT_NE(findDiag(action, "ML-5", "did you mean \"to-add\"?"), nullptr);
  DiagnosticList element;
  EXPECT_FALSE(parseModifyMixList("{\"white-list\": {\"to-add\": [1]}}", "f", element));
  EXPECT_DIAG_AT(element, "ML-5", "expected an op type string", 1, 28);
}

// Seed 002: op A starts white.
TEST(ModifyMixList, ML_6_Seed002_BlackToAddMovesAToBlack) {
  DiagnosticList diags;
  auto mix = parseMix("seed002-A-to-black.json", diags);
  ASSERT_TRUE(mix);
  EXPECT_EQ(mix->apply("A", ListColor::White), ListColor::Black);
}

TEST(ModifyMixList, ML_6_Seed002_BlackToAddWithWhiteToRemoveIsBlack) {
  DiagnosticList diags;
  auto mix = parseMix("seed002-A-to-black-remove-white.json", diags);
  ASSERT_TRUE(mix) << diags.format();
  EXPECT_EQ(mix->apply("A", ListColor::White), ListColor::Black);
}

TEST(ModifyMixList, ML_6_Seed002_WhiteToRemoveAloneMakesAGray) {
  DiagnosticList diags;
  auto mix = parseMix("seed002-A-remove-white.json", diags);
  ASSERT_TRUE(mix);
  EXPECT_EQ(mix->apply("A", ListColor::White), ListColor::Gray);
}

TEST(ModifyMixList, ML_6_EveryLegalCombinationAndItsEffect) {
  struct Case {
    const char *json;
    ListColor builtin, expected;
  };
  const Case cases[] = {
      {R"({"black-list":{"to-remove":["A"]}})", ListColor::Black, ListColor::Gray},
      {R"({"white-list":{"to-remove":["A"]}})", ListColor::White, ListColor::Gray},
      {R"({"gray-list":{"to-add":["A"]}})", ListColor::White, ListColor::Gray},
      {R"({"gray-list":{"to-add":["A"]},"black-list":{"to-remove":["A"]}})",
       ListColor::Black, ListColor::Gray},
      {R"({"gray-list":{"to-add":["A"]},"white-list":{"to-remove":["A"]}})",
       ListColor::White, ListColor::Gray},
      {R"({"white-list":{"to-add":["A"]}})", ListColor::Black, ListColor::White},
      {R"({"white-list":{"to-add":["A"]},"gray-list":{"to-remove":["A"]}})",
       ListColor::Gray, ListColor::White},
      {R"({"white-list":{"to-add":["A"]},"black-list":{"to-remove":["A"]}})",
       ListColor::Black, ListColor::White},
      {R"({"black-list":{"to-add":["A"]}})", ListColor::Gray, ListColor::Black},
      {R"({"black-list":{"to-add":["A"]},"gray-list":{"to-remove":["A"]}})",
       ListColor::Gray, ListColor::Black},
      {R"({"black-list":{"to-add":["A"]},"white-list":{"to-remove":["A"]}})",
       ListColor::White, ListColor::Black},
  };
  for (const Case &c : cases) {
    DiagnosticList diags;
    auto mix = parseModifyMixList(c.json, "f", diags);
    ASSERT_TRUE(mix) << c.json << "\n" << diags.format();
    EXPECT_EQ(mix->apply("A", c.builtin), c.expected) << c.json;
    EXPECT_EQ(mix->apply("Other", ListColor::White), ListColor::White);
  }
}

TEST(ModifyMixList, ML_6_ConflictingEditsAreAnErrorNamingTheOp) {
  DiagnosticList diags;
  EXPECT_FALSE(parseMix("bad-mixlist-conflict.json", diags));
  EXPECT_DIAG_AT(diags, "ML-6",
                 "op type \"Relu\" has the conflicting edits add-black + add-white",
                 2, 30);
  EXPECT_EQ(diags.all().front().notes.size(), 2u);
  for (const char *json :
       {R"({"white-list":{"to-add":["A"],"to-remove":["A"]}})",
        R"({"black-list":{"to-remove":["A"]},"white-list":{"to-remove":["A"]}})",
        R"({"gray-list":{"to-add":["A"],"to-remove":["A"]}})"}) {
    DiagnosticList more;
    EXPECT_FALSE(parseModifyMixList(json, "f", more)) << json;
    EXPECT_NE(findDiag(more, "ML-6", "conflicting edits"), nullptr) << json;
  }
}

TEST(ModifyMixList, ML_7_RemovingFromAListTheOpIsNotOnChangesNothing) {
  DiagnosticList diags;
  auto mix = parseModifyMixList(R"({"black-list":{"to-remove":["A"]}})", "f", diags);
  ASSERT_TRUE(mix);
  std::vector<MixListEdit> ignored;
  EXPECT_EQ(mix->apply("A", ListColor::White, &ignored), ListColor::White);
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored.front().list, ListColor::Black);
}

TEST(ModifyMixList, ML_9_EmptyFileOrNotJsonIsAnError) {
  DiagnosticList empty;
  EXPECT_FALSE(parseMix("bad-empty.json", empty));
  EXPECT_NE(findDiag(empty, "", "the file is empty"), nullptr);
  DiagnosticList notJson;
  EXPECT_FALSE(parseModifyMixList("black-list: Relu", "f", notJson));
  EXPECT_TRUE(notJson.hasErrors());
  DiagnosticList emptyObject;
  EXPECT_FALSE(parseModifyMixList("{}", "f", emptyObject));
  EXPECT_NE(findDiag(emptyObject, "ML-9", "empty object"), nullptr);
}

//===--- keep_dtype ---===//

TEST(KeepDType, KD_1_NamesOpTypesCommentsAndBlankLines) {
  DiagnosticList diags;
  auto list = parseKeepDType(readInput("keep_dtype.cfg"), "keep.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  ASSERT_EQ(list->entries.size(), 3u);
  EXPECT_FALSE(list->entries[1].isOpType);
  EXPECT_EQ(list->entries[1].name, "stage2/block1/Relu");
  EXPECT_TRUE(list->entries[2].isOpType);
  EXPECT_EQ(list->entries[2].name, "SoftmaxV2");
  EXPECT_EQ(list->entries[2].loc.line, 4u);
}

TEST(KeepDType, KD_1_OpTypeMustBePascalCase) {
  DiagnosticList diags;
  EXPECT_FALSE(parseKeepDType(readInput("bad-keep_dtype-optype.cfg"), "k", diags));
  EXPECT_DIAG_AT(diags, "KD-1", "op type 'softmaxV2' is not PascalCase", 2, 9);
  DiagnosticList empty;
  EXPECT_FALSE(parseKeepDType("OpType::\n", "k", empty));
}

TEST(KeepDType, KD_1_CrlfAndIndentationAreTrimmed) {
  DiagnosticList diags;
  auto list = parseKeepDType("  conv1 \r\n\r\n", "k", diags);
  ASSERT_TRUE(list);
  EXPECT_EQ(list->entries.front().name, "conv1");
  EXPECT_EQ(list->entries.front().loc.column, 3u);
}

//===--- customize_dtypes ---===//

std::optional<CustomizeDTypesList> parseCustom(const std::string &name,
                                               DiagnosticList &diags) {
  return parseCustomizeDTypes(readInput(name), name, diags);
}

TEST(CustomizeDTypes, CD_1_Seed000OpnameExample) {
  DiagnosticList diags;
  auto list = parseCustom("seed000-customize_dtypes-opname.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  const CustomizeDTypesEntry *entry = list->findByName("fp32_vars/Relu");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->inputs, std::vector<DTypeSlot>{DType::Float16});
  EXPECT_EQ(entry->outputs, std::vector<DTypeSlot>{DType::Int8});
}

TEST(CustomizeDTypes, CD_1_NameEndsAtTheLastDoubleColon) {
  DiagnosticList diags;
  auto list = parseCustomizeDTypes(
      "scope::conv::InputDtype:float16,OutputDtype:float16\n"
      "x::InputDtype:y::InputDtype:float32,OutputDtype:float32\n",
      "names.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  ASSERT_TRUE(list->findByName("scope::conv"));
  const CustomizeDTypesEntry *entry = list->findByName("x::InputDtype:y");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->inputs, std::vector<DTypeSlot>{DType::Float32});
}

TEST(CustomizeDTypes, CD_1_LockfileLinesRefuseNamesTheFormatCannotHold) {
  std::string problem;
  EXPECT_EQ(formatCustomizeDTypesLine("a::b", {"float16", "float32"}, {"float16"}, problem),
            "a::b::InputDtype:float16,float32,OutputDtype:float16");
  for (std::string name : {std::string("#x"), std::string("OpType::Relu"), std::string(" x"),
                           std::string("x\t"), std::string("a\nb"), std::string("a\rb"),
                           std::string("a\0b", 3), std::string(), std::string(1100, 'n')}) {
    problem.clear();
    EXPECT_FALSE(formatCustomizeDTypesLine(name, {"float16"}, {"float16"}, problem)) << name;
    EXPECT_FALSE(problem.empty()) << name;
  }
}

TEST(CustomizeDTypes, CD_1_Seed000OpTypeExample) {
  DiagnosticList diags;
  auto list = parseCustom("seed000-customize_dtypes-optype.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  const CustomizeDTypesEntry *entry = list->findByOpType("Relu");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->outputs, std::vector<DTypeSlot>{DType::Int8});
}

TEST(CustomizeDTypes, CD_1_Seed004ExampleWithComments) {
  DiagnosticList diags;
  auto list = parseCustom("seed004-customize_dtypes.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  ASSERT_EQ(list->entries.size(), 2u);
  const CustomizeDTypesEntry *byName =
      list->findByName("resnet_v1_50/block1/unit_3/bottleneck_v1/Relu");
  ASSERT_TRUE(byName);
  EXPECT_EQ(byName->inputs.size(), 2u);
  EXPECT_EQ(byName->loc.line, 2u);
}

TEST(CustomizeDTypes, CD_1_SeedTemplateWithoutCommaBeforeOutputDtype) {
  DiagnosticList diags;
  auto list = parseCustom("seed004-customize_dtypes-template.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  const CustomizeDTypesEntry *entry = list->findByName("Opname1");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->inputs,
            (std::vector<DTypeSlot>{DType::Float16, DType::Float32}));
  EXPECT_EQ(entry->outputs, std::vector<DTypeSlot>{DType::Float16});
  EXPECT_EQ(list->findByOpType("MatMulV2")->outputs,
            std::vector<DTypeSlot>{DType::Float32});
}

TEST(CustomizeDTypes, CD_1_EmptyPositionsMeanAnyAndSectionsAreOptional) {
  DiagnosticList diags;
  auto list = parseCustom("customize-any-and-float.cfg", diags);
  ASSERT_TRUE(list) << diags.format();
  const CustomizeDTypesEntry *conv = list->findByName("conv1");
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->inputs, (std::vector<DTypeSlot>{std::nullopt, DType::Float16}));
  EXPECT_EQ(conv->outputs, std::vector<DTypeSlot>{DType::Float32});
  const CustomizeDTypesEntry *add = list->findByOpType("Add");
  ASSERT_TRUE(add);
  EXPECT_TRUE(add->inputs.empty());
}

TEST(CustomizeDTypes, CD_1_InputDtypeMustComeFirst) {
  DiagnosticList diags;
  EXPECT_FALSE(parseCustom("bad-customize-order.cfg", diags));
  EXPECT_DIAG_AT(diags, "CD-1", "InputDtype must come before OutputDtype", 1, 28);
}

TEST(CustomizeDTypes, CD_1_MisspelledKeywordSuggestsTheRightOne) {
  DiagnosticList diags;
  EXPECT_FALSE(parseCustom("bad-customize-keyword.cfg", diags));
  EXPECT_DIAG_AT(diags, "CD-1", "expected 'InputDtype:' or 'OutputDtype:', found 'InputDType'", 1, 8);
  EXPECT_NE(findDiag(diags, "CD-1", "did you mean 'InputDtype'?"), nullptr);
}

TEST(CustomizeDTypes, CD_1_LinesOver1024CharactersAreErrors) {
  DiagnosticList diags;
  std::string line = "n::InputDtype:float16,OutputDtype:float16" +
                     std::string(1000, ' ') + "\n";
  EXPECT_FALSE(parseCustomizeDTypes(line, "c", diags));
  EXPECT_NE(findDiag(diags, "CD-1", "at most 1024"), nullptr);
}

TEST(CustomizeDTypes, CD_1_MalformedLinesAreErrors) {
  for (const char *text :
       {"conv1\n", "::InputDtype:float16\n", "OpType::Relu\n",
        "OpType::relu:InputDtype:float16\n",
        "n::InputDtype:float16,InputDtype:float16\n"}) {
    DiagnosticList diags;
    EXPECT_FALSE(parseCustomizeDTypes(text, "c", diags)) << text;
    EXPECT_NE(findDiag(diags, "CD-1", ""), nullptr) << text << diags.format();
  }
}

TEST(CustomizeDTypes, CD_2_UnknownDTypeNamesTokenLineAndColumn) {
  DiagnosticList diags;
  EXPECT_FALSE(parseCustom("bad-customize-dtype.cfg", diags));
  EXPECT_DIAG_AT(diags, "CD-2", "unknown dtype 'fp32'", 1, 27);
}

TEST(CustomizeDTypes, CD_2_EveryDocumentedNameIsAccepted) {
  for (const std::string &name : configDTypeNames()) {
    DiagnosticList diags;
    auto list = parseCustomizeDTypes("n::InputDtype:" + name, "c", diags);
    EXPECT_TRUE(list) << name << diags.format();
  }
  EXPECT_EQ(parseConfigDType("float"), DType::Float32);
  EXPECT_EQ(parseConfigDType("hifloat8"), DType::HiFloat8);
}

TEST(CustomizeDTypes, CD_4_FirstOfTwoEntriesWinsWithAWarning) {
  DiagnosticList diags;
  auto list = parseCustomizeDTypes(
      "n::OutputDtype:float16\nn::OutputDtype:float32\n", "c", diags);
  ASSERT_TRUE(list);
  EXPECT_EQ(list->findByName("n")->outputs, std::vector<DTypeSlot>{DType::Float16});
  EXPECT_DIAG_AT(diags, "CD-4", "configured again; the first entry (line 1) wins",
                 2, 1);
}

TEST(CustomizeDTypes, CD_8_PathCharacters) {
  EXPECT_EQ(findForbiddenPathCharacter("/home/u/cfg-1_a.b:c/customize_dtypes.cfg"), "");
  EXPECT_EQ(findForbiddenPathCharacter("/home/u/\xE9\x85\x8D\xE7\xBD\xAE.cfg"), "");
  EXPECT_EQ(findForbiddenPathCharacter("/home/u/my cfg.cfg"), " ");
  EXPECT_EQ(findForbiddenPathCharacter("${HOME}/c.cfg"), "$");
  EXPECT_EQ(findForbiddenPathCharacter("/tmp/\xC3\xA9.cfg"), "\xC3\xA9");
  EXPECT_EQ(findForbiddenPathCharacter("/tmp/\xFF"), "\\xFF");
}

//===--- op_precision_mode and impl-mode lists ---===//

TEST(OpPrecisionMode, IM_4_Seed001LinesWithoutSectionAreByOpType) {
  DiagnosticList diags;
  auto file = parseOpPrecisionMode(readInput("seed001-op_precision.ini"), "o", diags);
  ASSERT_TRUE(file) << diags.format();
  EXPECT_EQ(file->byOpType.at("optype1").mode, "high_precision");
  EXPECT_EQ(file->byOpType.at("optype2").mode, "high_performance");
  EXPECT_TRUE(file->byNodeName.empty());
}

TEST(OpPrecisionMode, IM_4_Seed004SectionsAndEveryValue) {
  DiagnosticList diags;
  auto file = parseOpPrecisionMode(readInput("seed004-op_precision.ini"), "o", diags);
  ASSERT_TRUE(file) << diags.format();
  EXPECT_EQ(file->byOpType.size(), 4u);
  EXPECT_EQ(file->byNodeName.at("nodename4").mode, "support_out_of_bound_index");
  EXPECT_EQ(file->byNodeName.at("nodename4").loc.line, 10u);
  for (const std::string &mode : implModeNames()) {
    DiagnosticList each;
    EXPECT_TRUE(parseOpPrecisionMode("Op=" + mode, "o", each)) << mode;
  }
}

TEST(OpPrecisionMode, IM_4_UnknownValueNamesLineAndValue) {
  DiagnosticList diags;
  EXPECT_FALSE(parseOpPrecisionMode(readInput("bad-op_precision-value.ini"), "o", diags));
  EXPECT_DIAG_AT(diags, "IM-4", "unknown implementation mode 'high_precison'", 2, 13);
  EXPECT_NE(findDiag(diags, "IM-4", "did you mean 'high_precision'?"), nullptr);
}

TEST(OpPrecisionMode, IM_4_UnknownSectionIsAnError) {
  DiagnosticList diags;
  EXPECT_FALSE(parseOpPrecisionMode(readInput("bad-op_precision-section.ini"), "o", diags));
  EXPECT_DIAG_AT(diags, "IM-4", "unknown section '[ByType]'", 1, 1);
  DiagnosticList missing;
  EXPECT_FALSE(parseOpPrecisionMode("Relu=\n", "o", missing));
  EXPECT_NE(findDiag(missing, "IM-4", "missing implementation mode"), nullptr);
}

TEST(ImplModeList, IM_2_ListsAndAllOpsModes) {
  DiagnosticList diags;
  auto list = parseImplModeList("SoftmaxV2=high_precision,high_performance\n"
                                "Rsqrt=high_precision\n",
                                "all_ops_impl_mode.ini", diags);
  ASSERT_TRUE(list) << diags.format();
  EXPECT_EQ(list->modes.at("SoftmaxV2").size(), 2u);
  EXPECT_EQ(list->locs.at("Rsqrt").line, 2u);
  DiagnosticList bad;
  EXPECT_FALSE(parseImplModeList("A=fast\n", "l.ini", bad));
  EXPECT_NE(findDiag(bad, "IM-4", "unknown implementation mode 'fast'"), nullptr);
  DiagnosticList twice;
  EXPECT_FALSE(parseImplModeList("A=keep_fp16\nA=keep_fp16\n", "l.ini", twice));
  EXPECT_NE(findDiag(twice, "IM-2", "listed twice"), nullptr);
}

} // namespace
