//===- ONNXValidationTest.cpp - streamed shape inference ------------------===//
//
// checkAndInferShapes can hand the importer a stream of the main graph's
// node types while libonnx still infers the rest. The importer's types must
// come out exactly as from the whole answer: these tests build models that
// exercise what the stream has to get right (chunks, nodes with several or
// empty outputs, the model's own value_info merged in place, untyped graph
// outputs, an inference error part way) and compare the two.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace ascendprec::onnximport;

namespace {

// Streaming needs the child processes checkAndInferShapes forks on POSIX
// systems; elsewhere it never makes a stream.
#if defined(__unix__) || defined(__APPLE__)
#define SKIP_WITHOUT_CHILD_PROCESSES()
#else
#define SKIP_WITHOUT_CHILD_PROCESSES() GTEST_SKIP() << "no child processes here"
#endif

void addTensorInfo(onnx::ValueInfoProto *info, const std::string &name, int elemType,
                   std::vector<int64_t> dims) {
  info->set_name(name);
  auto *tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elemType);
  auto *shape = tensor->mutable_shape();
  for (int64_t dim : dims)
    shape->add_dim()->set_dim_value(dim);
}

onnx::NodeProto *addNode(onnx::GraphProto &graph, const std::string &type,
                         std::vector<std::string> inputs, std::vector<std::string> outputs) {
  onnx::NodeProto *node = graph.add_node();
  node->set_op_type(type);
  node->set_name("n" + std::to_string(graph.node_size()));
  for (const std::string &input : inputs)
    node->add_input(input);
  for (const std::string &output : outputs)
    node->add_output(output);
  return node;
}

void addFloats(onnx::GraphProto &graph, const std::string &name, int64_t count) {
  onnx::TensorProto *init = graph.add_initializer();
  init->set_name(name);
  init->set_data_type(onnx::TensorProto_DataType_FLOAT);
  init->add_dims(count);
  for (int64_t i = 0; i < count; ++i)
    init->add_float_data(0.5f);
}

/// A chain of `nodes` ops over a [1, 16] float: Dropout with its mask,
/// Add of a [16] constant, Relu, Dropout with an empty mask output and
/// Sigmoid, in turn. `breakAt` >= 0 adds a [3] constant there, which does
/// not broadcast: inference cannot type that node or any after it.
onnx::ModelProto chainModel(int nodes, int breakAt) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  onnx::GraphProto &graph = *model.mutable_graph();
  graph.set_name("chain");
  addTensorInfo(graph.add_input(), "x", onnx::TensorProto_DataType_FLOAT, {1, 16});
  addFloats(graph, "c", 16);
  addFloats(graph, "bad", 3);
  std::string current = "x";
  for (int i = 0; i < nodes; ++i) {
    std::string out = "v" + std::to_string(i);
    if (i == breakAt) {
      addNode(graph, "Add", {current, "bad"}, {out});
    } else {
      switch (i % 5) {
      case 0:
        addNode(graph, "Dropout", {current}, {out, "mask" + std::to_string(i)});
        break;
      case 1:
        addNode(graph, "Add", {current, "c"}, {out});
        break;
      case 2:
        addNode(graph, "Relu", {current}, {out});
        break;
      case 3:
        addNode(graph, "Dropout", {current}, {out, ""});
        break;
      default:
        addNode(graph, "Sigmoid", {current}, {out});
      }
    }
    current = out;
  }
  // The model's own value_info: an element type whose shape inference
  // adds, and an entry with no type at all.
  onnx::ValueInfoProto *partial = graph.add_value_info();
  partial->set_name("v1002");
  partial->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto_DataType_FLOAT);
  graph.add_value_info()->set_name("v2003");
  addTensorInfo(graph.add_output(), current, onnx::TensorProto_DataType_FLOAT, {1, 16});
  return model;
}

/// The types the importer reads from a graph: the typed entries of its
/// inputs, value_info and outputs, later lists winning.
std::map<std::string, std::string> typesOf(const onnx::GraphProto &graph) {
  std::map<std::string, std::string> types;
  for (const auto *list : {&graph.input(), &graph.value_info(), &graph.output()})
    for (const onnx::ValueInfoProto &info : *list)
      if (info.has_type())
        types[info.name()] = info.type().SerializeAsString();
  return types;
}

struct Outcome {
  std::map<std::string, std::string> types;
  std::string shapeInferenceError;
  std::string outputs;
};

Outcome inferWhole(onnx::ModelProto model) {
  ValidationResult result = checkAndInferShapes(model, false, [] {}, /*allowStreaming=*/false);
  EXPECT_TRUE(result.ok) << result.error;
  EXPECT_FALSE(result.stream);
  return {typesOf(model.graph()), result.shapeInferenceError,
          model.graph().output(0).SerializeAsString()};
}

/// What the importer ends with when it reads the stream: the model's own
/// types, overwritten by each one that arrives, asked for in steps of
/// `step` nodes.
Outcome inferStreamed(onnx::ModelProto model, int step) {
  std::map<std::string, std::string> types = typesOf(model.graph());
  ValidationResult result = checkAndInferShapes(model, false, [] {}, /*allowStreaming=*/true);
  EXPECT_TRUE(result.ok) << result.error;
  if (!result.stream) {
    ADD_FAILURE() << "no stream";
    return {};
  }
  int nodes = model.graph().node_size();
  for (int done = 0; done < nodes;) {
    done = std::min(nodes, done + step);
    result.stream->awaitNodes(done, [&](const std::string &name, const onnx::TypeProto &type) {
      types[name] = type.SerializeAsString();
    });
  }
  ValidationResult end = result.stream->finish(model);
  EXPECT_TRUE(end.ok) << end.error;
  return {types, end.shapeInferenceError, model.graph().output(0).SerializeAsString()};
}

void expectSame(const Outcome &whole, const Outcome &streamed) {
  EXPECT_EQ(whole.shapeInferenceError, streamed.shapeInferenceError);
  EXPECT_EQ(whole.outputs, streamed.outputs);
  ASSERT_EQ(whole.types.size(), streamed.types.size());
  for (const auto &[name, type] : whole.types) {
    auto it = streamed.types.find(name);
    ASSERT_NE(it, streamed.types.end()) << name << " has no streamed type";
    EXPECT_EQ(type, it->second) << name;
  }
}

TEST(ONNXValidation, StreamedTypesMatchWholeInferenceAcrossChunks) {
  SKIP_WITHOUT_CHILD_PROCESSES();
  // 6000 nodes: three chunks, and a last one cut short.
  onnx::ModelProto model = chainModel(6000, /*breakAt=*/-1);
  Outcome whole = inferWhole(model);
  EXPECT_EQ(whole.types.count("v1002"), 1u);
  EXPECT_EQ(whole.types.count("v5999"), 1u);
  for (int step : {1, 777, 6000})
    expectSame(whole, inferStreamed(model, step));
}

TEST(ONNXValidation, StreamedTypesStopWhereInferenceFails) {
  SKIP_WITHOUT_CHILD_PROCESSES();
  onnx::ModelProto model = chainModel(5000, /*breakAt=*/4100);
  Outcome whole = inferWhole(model);
  EXPECT_EQ(whole.types.count("v4099"), 1u);
  EXPECT_EQ(whole.types.count("v4100"), 0u);
  expectSame(whole, inferStreamed(model, 1000));
}

TEST(ONNXValidation, FinishingEarlyStillGivesTheAnswer) {
  SKIP_WITHOUT_CHILD_PROCESSES();
  // An importer that stops converting (an error) still waits for the end.
  onnx::ModelProto model = chainModel(4000, /*breakAt=*/-1);
  Outcome whole = inferWhole(model);
  ValidationResult result = checkAndInferShapes(model, false, [] {}, /*allowStreaming=*/true);
  ASSERT_TRUE(result.stream);
  result.stream->awaitNodes(10, [](const std::string &, const onnx::TypeProto &) {});
  ValidationResult end = result.stream->finish(model);
  ASSERT_TRUE(end.ok) << end.error;
  EXPECT_EQ(whole.outputs, model.graph().output(0).SerializeAsString());
}

TEST(ONNXValidation, ModelLocalFunctionsGetTheWholeAnswer) {
  SKIP_WITHOUT_CHILD_PROCESSES();
  // libonnx infers a call of a model's own function through its body, so
  // its schema requests no longer follow the nodes: no stream.
  onnx::ModelProto model = chainModel(3, /*breakAt=*/-1);
  onnx::OperatorSetIdProto *custom = model.add_opset_import();
  custom->set_domain("custom");
  custom->set_version(1);
  onnx::FunctionProto *function = model.add_functions();
  function->set_name("Twice");
  function->set_domain("custom");
  function->add_input("a");
  function->add_output("b");
  function->add_opset_import()->set_version(17);
  onnx::NodeProto *inner = function->add_node();
  inner->set_op_type("Add");
  inner->add_input("a");
  inner->add_input("a");
  inner->add_output("b");
  onnx::GraphProto &graph = *model.mutable_graph();
  std::string last = graph.output(0).name();
  onnx::NodeProto *call = addNode(graph, "Twice", {last}, {"twice"});
  call->set_domain("custom");
  graph.mutable_output(0)->set_name("twice");

  onnx::ModelProto copy = model;
  ValidationResult result = checkAndInferShapes(copy, false, [] {}, /*allowStreaming=*/true);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_FALSE(result.stream);
  EXPECT_EQ(typesOf(copy.graph()), inferWhole(model).types);
}

} // namespace
