//===- ModelInputsTest.cpp - ATC's input/output options (OP-1) ------------===//

#include "AscendPrec/Policy/ModelInputs.h"
#include "PolicyTestUtils.h"

using namespace ascendprec::policy;
using namespace ascendprec::policy::testing;

namespace {

std::optional<ModelInputOptions> parse(const std::vector<std::string> &args,
                                       DiagnosticList &diags) {
  SessionOptions options;
  if (!options.parseCommandLine(args, diags, nullptr, {}, nullptr))
    return std::nullopt;
  return parseModelInputOptions(options, diags);
}

TEST(ModelInputs, OP_1_InputShapeInAtcSyntax) {
  DiagnosticList diags;
  auto parsed = parse({"--input_shape=x:1,3,224,224;scope:y:-1,10;s:"}, diags);
  ASSERT_TRUE(parsed) << diags.format();
  ASSERT_EQ(parsed->shapes.size(), 3u);
  EXPECT_EQ(parsed->shapes[0].name, "x");
  EXPECT_EQ(parsed->shapes[0].dims, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(parsed->shapes[1].name, "scope:y"); // the last ':' separates
  EXPECT_EQ(parsed->shapes[1].dims, (std::vector<int64_t>{-1, 10}));
  EXPECT_TRUE(parsed->shapes[2].dims.empty()); // a scalar
}

TEST(ModelInputs, OP_1_InputShapeErrors) {
  for (const char *bad : {"--input_shape=x", "--input_shape=x:1,-2", "--input_shape=:1",
                          "--input_shape=x:1;x:2", "--input_shape=x:1,,2"}) {
    DiagnosticList diags;
    EXPECT_FALSE(parse({bad}, diags)) << bad;
    EXPECT_TRUE(diags.hasErrors()) << bad;
  }
}

TEST(ModelInputs, OP_1_DynamicOptionsAsAtcChecksThem) {
  DiagnosticList diags;
  auto batch = parse({"--input_shape=x:-1,3,8,8", "--dynamic_batch_size=1,2,4"}, diags);
  ASSERT_TRUE(batch) << diags.format();
  EXPECT_EQ(batch->dynamicKind, "batch");
  EXPECT_EQ(batch->gears.size(), 3u);
  auto image = parse({"--input_shape=x:1,3,-1,-1", "--dynamic_image_size=224,224;448,448"},
                     diags);
  ASSERT_TRUE(image) << diags.format();
  EXPECT_EQ(image->gears[1], (std::vector<int64_t>{448, 448}));
  auto dims = parse({"--input_shape=x:-1,-1;y:-1", "--dynamic_dims=1,2,3;4,5,6"}, diags);
  ASSERT_TRUE(dims) << diags.format();

  struct Case {
    std::vector<std::string> args;
    const char *message;
  };
  for (const Case &c : std::vector<Case>{
           {{"--input_shape=x:-1,3", "--dynamic_batch_size=1"}, "takes 2 to 100 gears; got 1"},
           {{"--input_shape=x:-1,3", "--dynamic_batch_size=1,1"}, "lists a gear twice"},
           {{"--input_shape=x:-1,3", "--dynamic_batch_size=1,0"}, "is not a positive integer"},
           {{"--input_shape=x:-1,3,8,8", "--dynamic_image_size=1,2;3"}, "is not 2 positive"},
           {{"--input_shape=x:1,3,-1,8", "--dynamic_image_size=1,2;3,4"},
            "must have -1 at dimensions 2 and 3 only"},
           {{"--input_shape=x:-1,-1", "--dynamic_dims=1,2;3"}, "gears differ in length"},
           {{"--input_shape=x:1,3", "--dynamic_batch_size=1,2"}, "needs -1 in --input_shape"},
       }) {
    DiagnosticList errors;
    EXPECT_FALSE(parse(c.args, errors)) << c.message;
    EXPECT_NE(findDiag(errors, "OP-1", c.message), nullptr) << errors.format();
  }
}

TEST(ModelInputs, OP_1_Fp16InputsAndOutputTypes) {
  DiagnosticList diags;
  auto parsed = parse({"--input_fp16_nodes=x;y", "--output_type=fc:0:FP16;a:b:1:UINT8"}, diags);
  ASSERT_TRUE(parsed) << diags.format();
  EXPECT_EQ(parsed->fp16Inputs, (std::vector<std::string>{"x", "y"}));
  ASSERT_EQ(parsed->outputTypes.size(), 2u);
  EXPECT_EQ(parsed->outputTypes[0].node, "fc");
  EXPECT_EQ(parsed->outputTypes[0].dtype, DType::Float16);
  EXPECT_EQ(parsed->outputTypes[1].node, "a:b"); // node names may hold ':'
  EXPECT_EQ(parsed->outputTypes[1].index, 1);
  auto all = parse({"--output_type=FP32"}, diags);
  ASSERT_TRUE(all);
  EXPECT_TRUE(all->outputTypes[0].node.empty());
  DiagnosticList bad;
  EXPECT_FALSE(parse({"--output_type=fc:x:FP16"}, bad));
  EXPECT_FALSE(parse({"--output_type=INT8"}, bad));
}

} // namespace
