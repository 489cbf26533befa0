//===- ONNXNodeInference.cpp - a node's types from what the import knows --===//
//
// ONNX's shape inference runs once, before the import, on the graph as
// exported. It loses types where the import knows more:
//   - after shape arithmetic it cannot follow (Paddle's int32 shape chains,
//     Concat(Cast(Constant), Cast(Slice(Cast(Shape(t))))), ...): the importer
//     folds the chain (ONNXFolding.cpp), but ONNX left the Reshape and every
//     op after it untyped;
//   - inside If/Loop/Scan bodies, whose values ONNX types only as far as it
//     followed the outer graph (an untyped branch output, a nested If).
// For such a node, this runs the op schema's own inference function again,
// with the node's inputs as imported: their types (static where folding or
// --input_shape made them so) and the values of constant inputs. Only
// outputs whose recorded type is missing, unranked or less static gain
// from it; a type ONNX already gave is never replaced by a different one.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

/// Constant inputs larger than this are not handed to inference: only shape
/// vectors, axes and scalars decide an output's shape.
constexpr int64_t kMaxDataElements = 4096;

/// `type` as ONNX writes it: dynamic dimensions are left without a value.
std::optional<onnx::TypeProto> typeProto(Type type) {
  auto tensor = dyn_cast_or_null<TensorType>(type);
  if (!tensor)
    return std::nullopt;
  std::optional<int32_t> element = onnxElementType(tensor.getElementType());
  if (!element)
    return std::nullopt;
  onnx::TypeProto proto;
  onnx::TypeProto_Tensor *tensorProto = proto.mutable_tensor_type();
  tensorProto->set_elem_type(*element);
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    onnx::TensorShapeProto *shape = tensorProto->mutable_shape();
    for (int64_t dim : ranked.getShape()) {
      onnx::TensorShapeProto_Dimension *d = shape->add_dim();
      if (!ShapedType::isDynamic(dim))
        d->set_dim_value(dim);
    }
  }
  return proto;
}

/// A small constant's values as a TensorProto (typed fields), for inference
/// functions that read shape inputs.
std::optional<onnx::TensorProto> tensorProto(DenseElementsAttr value) {
  auto type = cast<RankedTensorType>(value.getType());
  std::optional<int32_t> element = onnxElementType(type.getElementType());
  if (!element || type.getNumElements() > kMaxDataElements)
    return std::nullopt;
  onnx::TensorProto proto;
  proto.set_data_type(*element);
  for (int64_t dim : type.getShape())
    proto.add_dims(dim);
  Type elementType = type.getElementType();
  if (elementType.isF32()) {
    for (const APFloat &v : value.getValues<APFloat>())
      proto.add_float_data(v.convertToFloat());
  } else if (elementType.isF64()) {
    for (const APFloat &v : value.getValues<APFloat>())
      proto.add_double_data(v.convertToDouble());
  } else if (isa<FloatType>(elementType)) {
    for (const APFloat &v : value.getValues<APFloat>()) // f16/bf16 bits
      proto.add_int32_data(static_cast<int32_t>(v.bitcastToAPInt().getZExtValue()));
  } else {
    auto integer = cast<IntegerType>(elementType);
    bool isUnsigned = integer.isUnsigned() || integer.getWidth() == 1;
    for (const APInt &v : value.getValues<APInt>()) {
      int64_t x = isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue();
      if (integer.getWidth() == 64 && !isUnsigned)
        proto.add_int64_data(x);
      else if (integer.getWidth() == 64 || (integer.getWidth() == 32 && isUnsigned))
        proto.add_uint64_data(static_cast<uint64_t>(x));
      else
        proto.add_int32_data(static_cast<int32_t>(x));
    }
  }
  return proto;
}

/// ONNX's InferenceContext over one node as the importer sees it.
class NodeContext final : public onnx::InferenceContext {
public:
  NodeContext(const onnx::NodeProto &node, std::vector<std::optional<onnx::TypeProto>> inputs,
              std::vector<std::optional<onnx::TensorProto>> data)
      : node(node), inputs(std::move(inputs)), data(std::move(data)),
        outputs(node.output_size()) {}

  const onnx::AttributeProto *getAttribute(const std::string &name) const override {
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == name)
        return &attribute;
    return nullptr;
  }
  size_t getNumInputs() const override { return inputs.size(); }
  const onnx::TypeProto *getInputType(size_t index) const override {
    return index < inputs.size() && inputs[index] ? &*inputs[index] : nullptr;
  }
  const onnx::TensorProto *getInputData(size_t index) const override {
    return index < data.size() && data[index] ? &*data[index] : nullptr;
  }
  size_t getNumOutputs() const override { return outputs.size(); }
  onnx::TypeProto *getOutputType(size_t index) override {
    return index < outputs.size() ? &outputs[index] : nullptr;
  }
  onnx::GraphInferencer *getGraphAttributeInferencer(const std::string &) override {
    return nullptr; // If/Loop/Scan are typed by the importer (ONNXControlFlow.cpp)
  }
  const onnx::SparseTensorProto *getInputSparseData(size_t) const override { return nullptr; }
  const onnx::TensorShapeProto *getSymbolicInput(size_t) const override { return nullptr; }

  const onnx::NodeProto &node;
  std::vector<std::optional<onnx::TypeProto>> inputs;
  std::vector<std::optional<onnx::TensorProto>> data;
  std::vector<onnx::TypeProto> outputs;
};

/// Whether `type` says all a type can: ranked with every dimension known.
bool isStatic(Type type) {
  auto ranked = dyn_cast_or_null<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape();
}

} // namespace

Type Importer::peekInput(const std::string &valueName,
                         std::optional<DenseElementsAttr> &smallConstant) {
  if (auto it = values.find(valueName); it != values.end())
    return it->second.getType();
  if (auto it = constants.find(valueName); it != constants.end()) {
    smallConstant = it->second.value;
    return it->second.value.getType();
  }
  if (auto it = resources.find(valueName); it != resources.end())
    return it->second.getType();
  auto it = initializers.find(valueName);
  if (it == initializers.end())
    return {};
  // An initializer not used yet: its type from the proto; its values only
  // when small (a weight stays for lookup() to take over as a blob).
  const onnx::TensorProto &init = *it->second;
  Type element = elementType(context, init.data_type());
  if (!element)
    return {};
  SmallVector<int64_t> shape(init.dims().begin(), init.dims().end());
  int64_t count = 1;
  for (int64_t dim : shape)
    if (dim < 0 || llvm::MulOverflow(count, dim, count))
      return {};
  if (count <= kMaxDataElements)
    smallConstant = constantOf(valueName);
  return RankedTensorType::get(shape, element);
}

void Importer::refineOutputTypes(NodeConverter &converter) {
  const onnx::NodeProto &node = converter.node;
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return;
  // Worth it when an output lacks a type, or lacks dimensions that static
  // inputs would give it. A model whose values are all typed (the common
  // case), or all symbolic, costs nothing here.
  bool missing = false, partial = false;
  for (const std::string &output : node.output()) {
    if (output.empty())
      continue;
    Type recorded = typeOf(output);
    if (!isa_and_nonnull<RankedTensorType>(recorded))
      missing = true;
    else if (!isStatic(recorded))
      partial = true;
  }
  if (!missing && !partial)
    return;
  // What the import knows of the inputs; the protos are built only when
  // inference runs.
  SmallVector<Type> inputTypes;
  SmallVector<std::optional<DenseElementsAttr>> constants;
  bool inputsStatic = true;
  for (unsigned i = 0; i < converter.numInputs(); ++i) {
    inputTypes.emplace_back();
    constants.emplace_back();
    if (!converter.hasInput(i))
      continue;
    inputTypes.back() = peekInput(node.input(i), constants.back());
    // A run's value of an input that decides the shape (runInputValues).
    if (!constants.back() && !runValues.empty() && decidesShape(node, i))
      constants.back() = runValue(node.input(i));
    inputsStatic &= isStatic(inputTypes.back());
  }
  if (!missing && !inputsStatic)
    return;

  const onnx::OpSchema *schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
  if (!schema || !schema->has_type_and_shape_inference_function())
    return;
  std::vector<std::optional<onnx::TypeProto>> inputs;
  std::vector<std::optional<onnx::TensorProto>> data;
  for (auto [type, constant] : llvm::zip(inputTypes, constants)) {
    inputs.push_back(type ? typeProto(type) : std::nullopt);
    data.push_back(constant ? tensorProto(*constant) : std::nullopt);
  }
  NodeContext context(node, std::move(inputs), std::move(data));
  try {
    schema->GetTypeAndShapeInferenceFunction()(context);
  } catch (const std::exception &) {
    return; // the import goes on with what ONNX's own pass found
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty() || !context.outputs[i].has_tensor_type())
      continue;
    Type inferred = tensorType(this->context, context.outputs[i]);
    auto inferredRanked = dyn_cast_or_null<RankedTensorType>(inferred);
    if (!inferredRanked)
      continue;
    Type recorded = typeOf(node.output(i));
    auto recordedRanked = dyn_cast_or_null<RankedTensorType>(recorded);
    if (!recordedRanked) {
      if (!recorded || getElementTypeOrSelf(recorded) == inferredRanked.getElementType())
        types[node.output(i)] = inferredRanked;
      continue;
    }
    types[node.output(i)] = refineType(recordedRanked, inferredRanked);
  }
}
