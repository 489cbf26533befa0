//===- ONNXImporter.h - state shared by the ONNX op converters ------------===//

#ifndef ASCENDPREC_LIB_TARGET_ONNX_ONNXIMPORTER_H
#define ASCENDPREC_LIB_TARGET_ONNX_ONNXIMPORTER_H

#include "AscendPrec/Dialect/Ascend/AscendOps.h"
#include "AscendPrec/Target/ONNX/ImportONNX.h"
#include "mlir/IR/Builders.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ascendprec::onnximport {

/// Maps an ONNX element type to MLIR's; null for unsupported ones.
Type elementType(MLIRContext *context, int32_t onnxType);
/// An ONNX TypeProto as a tensor type: ranked when the shape is known
/// (symbolic dims become `?`), unranked when not, null when not a tensor.
Type tensorType(MLIRContext *context, const onnx::TypeProto &type);
/// A TensorProto's contents; fails with `error` set for bad data.
/// Large raw tensors (weights) are imported as `dense_resource<name>` blobs
/// that take over the protobuf's bytes: no copy, and printing can leave them
/// out. Smaller ones stay `dense<...>`, which folds.
constexpr size_t kResourceThresholdBytes = 1024;

/// `tensor` as a resource blob that takes over its raw bytes (the tensor's
/// raw_data is empty afterwards), if it is a raw tensor larger than
/// kResourceThresholdBytes of a byte-sized element type; null otherwise, or
/// with `error` set when it is malformed.
DenseResourceElementsAttr takeLargeTensor(MLIRContext *context, onnx::TensorProto &tensor,
                                          std::string &error);

DenseElementsAttr tensorValue(MLIRContext *context, const onnx::TensorProto &tensor,
                              std::string &error);

/// What ONNX's checker and shape inference said about a model.
struct ValidationResult {
  bool ok = false;
  std::string error;               ///< why the model was rejected
  std::string shapeInferenceError; ///< shape inference failed (not fatal)
};
/// Runs ONNX's checker and shape inference (which fills `model`'s
/// value_info), at once in two child processes where the platform allows, so
/// that a crash inside libonnx becomes an error; shapes count only for a
/// model the checker accepts.
/// `strict`: a node whose shapes do not fit (e.g. after --input_shape) is a
/// shape-inference error instead of a node left without types.
ValidationResult checkAndInferShapes(onnx::ModelProto &model, bool strict = false);

/// One ONNX node being converted: its inputs, attributes and output types.
class NodeConverter {
public:
  NodeConverter(const onnx::NodeProto &node, std::string name, Location loc,
                OpBuilder &builder, int64_t opset,
                std::function<Value(const std::string &)> lookup,
                std::function<std::optional<DenseElementsAttr>(const std::string &)> constant,
                std::function<Type(const std::string &)> typeOf)
      : node(node), name(std::move(name)), loc(loc), builder(builder),
        opset(opset), lookup(std::move(lookup)), constant(std::move(constant)),
        typeOf(std::move(typeOf)) {}

  const onnx::NodeProto &node;
  std::string name;
  Location loc;
  OpBuilder &builder;
  int64_t opset;

  unsigned numInputs() const { return node.input_size(); }
  bool hasInput(unsigned i) const {
    return i < static_cast<unsigned>(node.input_size()) && !node.input(i).empty();
  }
  /// The value of input `i` (null if absent).
  Value input(unsigned i) const;
  /// Input `i` as a compile-time constant, if it is one.
  std::optional<DenseElementsAttr> constantInput(unsigned i) const;
  std::optional<std::vector<int64_t>> constantInts(unsigned i) const;
  /// The type shape inference gave output `i`, ranked or null.
  RankedTensorType outputType(unsigned i) const;
  RankedTensorType inputType(unsigned i) const;

  const onnx::AttributeProto *attr(const std::string &attrName) const;
  int64_t intAttr(const std::string &attrName, int64_t fallback) const;
  float floatAttr(const std::string &attrName, float fallback) const;
  std::string stringAttr(const std::string &attrName, const std::string &fallback) const;
  std::optional<std::vector<int64_t>> intsAttr(const std::string &attrName) const;

  StringAttr nameAttr() const { return builder.getStringAttr(name); }
  /// A named scalar/vector constant for operands ONNX gives as attributes.
  Value makeConst(DenseElementsAttr value, const std::string &suffix);

  /// The converted values of the node's outputs, in order.
  std::vector<Value> results;
  /// Why a dedicated op did not verify (buildOp), for the fallback warning.
  std::string rejection;

private:
  std::function<Value(const std::string &)> lookup;
  std::function<std::optional<DenseElementsAttr>(const std::string &)> constant;
  std::function<Type(const std::string &)> typeOf;
};

/// Creates `opName` with the node's name plus `attrs`, and verifies it
/// quietly: an op that does not verify is erased and null returned, so the
/// node falls back to ascend.generic instead of failing the import.
Operation *buildOp(NodeConverter &node, llvm::StringRef opName,
                   ValueRange operands, TypeRange results,
                   llvm::ArrayRef<NamedAttribute> attrs = {},
                   llvm::StringRef nameSuffix = "");

/// Shape arithmetic (Shape, Size, Gather, Slice, Concat, Unsqueeze, Squeeze,
/// Reshape, Cast, Range, ConstantOfShape, Expand, Equal, Where, integer
/// Add/Sub/Mul/Div, ...) on inputs known at compile time: the node's single
/// output as a constant, or nothing (ONNXFolding.cpp).
std::optional<DenseElementsAttr> foldShapeComputation(NodeConverter &node);

/// Converts `node` to dedicated ops (filling `results`); failure means the
/// importer falls back to ascend.generic. Converters by family:
LogicalResult convertMathOp(NodeConverter &node);
LogicalResult convertNNOp(NodeConverter &node);
LogicalResult convertShapeOp(NodeConverter &node);

} // namespace mlir::ascendprec::onnximport

#endif // ASCENDPREC_LIB_TARGET_ONNX_ONNXIMPORTER_H
