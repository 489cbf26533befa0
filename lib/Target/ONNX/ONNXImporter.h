//===- ONNXImporter.h - state shared by the ONNX op converters ------------===//

#ifndef ASCENDPREC_LIB_TARGET_ONNX_ONNXIMPORTER_H
#define ASCENDPREC_LIB_TARGET_ONNX_ONNXIMPORTER_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Target/ONNX/ImportONNX.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::onnximport {

/// Maps an ONNX element type to MLIR's; null for unsupported ones.
Type elementType(MLIRContext *context, int32_t onnxType);
/// The inverse: the ONNX element type of an MLIR one, if ONNX has it.
std::optional<int32_t> onnxElementType(Type element);
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

class InferenceStream;

/// What ONNX's checker and shape inference said about a model.
struct ValidationResult {
  ValidationResult();
  ValidationResult(ValidationResult &&);
  ValidationResult &operator=(ValidationResult &&);
  ~ValidationResult();

  bool ok = false;
  std::string error;               ///< why the model was rejected
  std::string shapeInferenceError; ///< shape inference failed (not fatal)
  /// Set when shape inference still runs: the types arrive through it while
  /// the importer converts nodes, and its finish() gives the rest.
  std::unique_ptr<InferenceStream> stream;
};
/// Runs ONNX's checker and shape inference (which fills `model`'s
/// value_info), at once in two child processes where the platform allows, so
/// that a crash inside libonnx becomes an error; shapes count only for a
/// model the checker accepts.
/// `strict`: a node whose shapes do not fit (e.g. after --input_shape) is a
/// shape-inference error instead of a node left without types.
/// `meanwhile` runs while the child processes work (it must not change
/// `model`): on large models, the importer's work that needs no inferred
/// type.
/// `allowStreaming`: the main graph has no subgraphs and the caller reads
/// types through ValidationResult::stream when it is set. It is set when
/// the checker has accepted the model, inference runs in a child process,
/// and libonnx infers the main graph's nodes one by one in order (no
/// model-local functions, no op expanded into its function body).
ValidationResult checkAndInferShapes(onnx::ModelProto &model, bool strict = false,
                                     llvm::function_ref<void()> meanwhile = [] {},
                                     bool allowStreaming = false);

/// Shape inference of a model's main graph, still running in its child
/// process, which sends the output types of the nodes it has finished, in
/// node order, while it goes on with the next ones (ONNXValidation.cpp).
/// The importer converts node i as soon as nodes 0..i are typed, instead of
/// waiting for the whole graph (on a 200k-node graph, inference takes as
/// long as converting).
class InferenceStream {
public:
  using TypeCallback = llvm::function_ref<void(const std::string &, const onnx::TypeProto &)>;

  InferenceStream(int pid, int fd, const onnx::GraphProto &graph);
  ~InferenceStream(); ///< stops a child still running
  InferenceStream(const InferenceStream &) = delete;
  InferenceStream &operator=(const InferenceStream &) = delete;

  /// Waits until the output types of the graph's first `count` nodes have
  /// arrived, or inference has ended; `onType` gets each (value name,
  /// type) that arrives. A node without a type after this is one inference
  /// could not type.
  void awaitNodes(int count, TypeCallback onType);
  /// Whether inference has ended without its answer (it crashed, or sent
  /// something it should not): finish() says which.
  bool failed() const { return malformed || (ended && endMessage.empty()); }
  /// Waits for inference to end: `ok` with shapeInferenceError set as
  /// checkAndInferShapes would, or an error when libonnx crashed. `model`'s
  /// graph outputs take their inferred types.
  ValidationResult finish(onnx::ModelProto &model);

  /// The child's first message: true when it said it cannot stream this
  /// model (libonnx would ask for schemas other than one per node), and
  /// collectWhole() then reads its usual two-part answer.
  bool answersWhole();
  std::optional<std::vector<std::string>> collectWhole(std::string &crash);

private:
  /// Reads the next message; false at the end of the stream.
  bool nextMessage(std::string &message);
  void deliverChunk(const std::string &message, TypeCallback onType);
  /// Closes the pipe and waits for the child: its wait status.
  int reap();

  int pid;
  int fd;
  const onnx::GraphProto &graph;
  std::string pending; ///< bytes read but not yet consumed
  size_t consumed = 0;
  int typedNodes = 0;
  bool ended = false;      ///< no more chunks: the end message or a crash
  bool malformed = false;  ///< a message this child does not send
  std::string endMessage;  ///< the end message, when it came
  onnx::TypeProto scratch; ///< parsed into for each type
};

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

  /// Any value, constant or type of the graph by its ONNX name (a
  /// converter that looks through its inputs' producers).
  Value valueNamed(const std::string &valueName) const { return lookup(valueName); }
  std::optional<DenseElementsAttr> constantNamed(const std::string &valueName) const {
    return constant(valueName);
  }
  Type typeNamed(const std::string &valueName) const { return typeOf(valueName); }
  /// The node that defines a value (null for graph inputs, initializers and
  /// values of an enclosing graph not seen yet).
  std::function<const onnx::NodeProto *(const std::string &)> producerOf;
  /// The value a run feeds a graph input (ONNXImportOptions::runInputValues);
  /// constantInput() takes it for the inputs that decide a result's shape.
  std::function<std::optional<DenseElementsAttr>(const std::string &)> runValueOf;
  /// The graph inputs constantInput() took run values of.
  mutable std::vector<std::string> runValuesUsed;
  /// ONNXImportOptions::trainingGraph.
  bool trainingGraph = false;

  StringAttr nameAttr() const { return builder.getStringAttr(name); }
  /// A named scalar/vector constant for operands ONNX gives as attributes.
  Value makeConst(DenseElementsAttr value, const std::string &suffix);

  /// The converted values of the node's outputs, in order.
  std::vector<Value> results;
  /// Why a dedicated op did not verify (buildOp), for the fallback warning.
  std::string rejection;
  /// An output a converter asked the type of and shape inference left
  /// without a ranked one (outputType): why no dedicated op could be made
  /// when nothing else says.
  mutable std::string untypedOutput;

private:
  std::function<Value(const std::string &)> lookup;
  std::function<std::optional<DenseElementsAttr>(const std::string &)> constant;
  std::function<Type(const std::string &)> typeOf;
};

/// The name a node's ops get: its own, else its first named output's
/// (stable across runs), else "<op type>_<index>" (its index in its graph).
std::string importedNodeName(const onnx::NodeProto &node, unsigned index);

/// Whether input `i` of `node` only decides the shape of its result (the
/// axes of a reduction, Slice's starts/ends/axes/steps, Pad's pads, Tile's
/// repeats): a run's value may stand in for it (runInputValues).
bool decidesShape(const onnx::NodeProto &node, unsigned i);

/// Creates `opName` with the node's name plus `attrs`, and verifies it
/// quietly: an op that does not verify is erased and null returned, so the
/// node falls back to ascend.generic instead of failing the import.
Operation *buildOp(NodeConverter &node, llvm::StringRef opName,
                   ValueRange operands, TypeRange results,
                   llvm::ArrayRef<NamedAttribute> attrs = {},
                   llvm::StringRef nameSuffix = "");

/// `buildOp` for a one-result op: its result, or null.
Value buildValue(NodeConverter &node, llvm::StringRef opName, ValueRange operands,
                 Type result, llvm::ArrayRef<NamedAttribute> attrs = {},
                 llvm::StringRef nameSuffix = "");

/// What is known at compile time of a run-time shape vector (a 1-D or
/// scalar integer value): one entry per element, `ShapedType::kDynamic`
/// where unknown; nothing when even its length is unknown. Reads constants
/// and Shape, Gather, Concat, Slice, Cast and Reshape chains
/// (ONNXTypeInference.cpp).
std::optional<SmallVector<int64_t>> knownShapeValues(Value value);
/// The result type of ONNX Reshape of `x` (ranked) to the run-time shape
/// `target`: entries known at compile time are used, 0 copies x's dimension
/// unless `allowZero`, and -1 is inferred when x's dimensions that no entry
/// copies (`x.view(x.size(0), -1)`) are static; null for a malformed target.
RankedTensorType reshapeResultType(Value x, Value target, bool allowZero);

/// The type ONNX inferred with its unknown dimensions filled in from the one
/// a converter computed (ONNX loses dimensions after a Reshape it could not
/// follow, even with --input_shape); either alone when the other is null or
/// they disagree in rank or element type.
RankedTensorType refineType(RankedTensorType inferred, RankedTensorType computed);

/// Makes `value` the node's only result; fails when it is null.
LogicalResult setResult(NodeConverter &node, Value value);

/// A rank-0 constant of `element` type holding `value`.
DenseElementsAttr scalarValue(Type element, double value);

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
LogicalResult convertRecurrentOp(NodeConverter &node);
/// Fill, Range, BroadcastTo, Tile, OneHot, TopKV2, Size, Einsum,
/// GridSampler2D, LRN, Mod (ONNXTensorOps.cpp).
LogicalResult convertTensorOp(NodeConverter &node);
/// GatherElements, ScatterElements, GatherND, ScatterND, Trilu, CumSum
/// (ONNXIndexOps.cpp).
LogicalResult convertIndexOp(NodeConverter &node);
/// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss as the ops of their
/// function bodies (ONNXLossOps.cpp).
LogicalResult convertLossOp(NodeConverter &node);
/// QuantizeLinear, DequantizeLinear, and AMCT's AscendQuant, AscendDequant
/// and AscendAntiQuant nodes (ONNXQuantOps.cpp).
LogicalResult convertQuantOp(NodeConverter &node);

/// The int8 form of a Conv, MatMul or Gemm in a QDQ model: its data input a
/// DequantizeLinear of int8 data, its weight a DequantizeLinear of int8
/// constants, both with zero points of 0 (ONNXQuantOps.cpp).
struct QuantizedCube {
  Value x;        ///< the int8 data
  Value weight;   ///< the int8 weights (a constant)
  Value bias;     ///< the bias requantized to int32 (a constant), or null
  Value deqScale; ///< fp32 scales of the int32 accumulator, per output channel or one
};
/// `weightAxis`: the weight's output-channel dimension; `biasInput`: the
/// node's bias input, if it has one. Nothing when the node is not quantized
/// that way (it then imports in float, from the dequantized values).
std::optional<QuantizedCube> matchQuantizedCube(NodeConverter &node, int64_t weightAxis,
                                                std::optional<unsigned> biasInput);
/// The node's float result from a quantized cube op's int32 accumulator:
/// an AscendDequant along `channelAxis`, named "<node>/dequant".
Value dequantizeCube(NodeConverter &node, Value accumulator, const QuantizedCube &cube,
                     RankedTensorType result, int64_t channelAxis);

/// Nodes that become several ascend ops (ONNXDecompositions.cpp).
LogicalResult convertDecomposedOp(NodeConverter &node);

//===----------------------------------------------------------------------===//
// The importer
//===----------------------------------------------------------------------===//

/// Builds the module for one ONNX model. Subgraphs (If, Loop and Scan
/// bodies, ONNXControlFlow.cpp) are imported into regions by the same
/// importer, with their names scoped: a subgraph sees the names of the
/// graphs around it, and its own names are forgotten when it ends.
class Importer {
public:
  Importer(MLIRContext *context, StringRef path, ONNXImportStats *stats,
           const ONNXImportOptions &options)
      : context(context), path(path.str()), builder(context), stats(stats),
        options(options) {}

  /// Imports `parsed`, which the importer takes over.
  OwningOpRef<ModuleOp> run(onnx::ModelProto &&parsed);
  /// Frees the model's protobuf on a thread of its own when it is large:
  /// nothing refers to it once run() has returned, and freeing a 200k-node
  /// model's messages one by one takes a fifth of a second.
  void releaseModelInBackground();
  InFlightDiagnostic error() { return emitError(fileLoc()); }

private:
  /// The model file's location, made once (a node's location hangs off it).
  Location fileLoc() {
    if (!modelFileLoc)
      modelFileLoc = FileLineColLoc::get(context, path, 0, 0);
    return *modelFileLoc;
  }
  Location nodeLoc(const std::string &name) {
    // The node name, in the model file. No line: a protobuf has none, and
    // diagnostics would print binary "source lines". Messages name the node.
    return NameLoc::get(StringAttr::get(context, name), fileLoc());
  }
  Value lookup(const std::string &valueName);
  LogicalResult reportFailedLookup(Location loc, const std::string &nodeName,
                                   const std::string &opType);
  std::optional<DenseElementsAttr> constantOf(const std::string &valueName);
  /// A large raw initializer as a resource blob (ONNXTensors.cpp), taken over
  /// from the protobuf at its first use; null for others.
  ElementsAttr largeInitializer(const std::string &valueName);
  Type typeOf(const std::string &valueName);
  LogicalResult convertNode(const onnx::NodeProto &node, unsigned index);
  /// A Constant node's value, bound as a compile-time constant.
  LogicalResult convertConstantNode(NodeConverter &converter);
  /// Tries every converter family; what a failed one built is dropped.
  bool convertToDedicatedOps(NodeConverter &converter);
  /// Binds a converted shape vector whose entries are all known as a
  /// constant instead of its ops' results.
  bool foldKnownShapeVector(NodeConverter &converter);
  /// What needs no inferred type, done while ONNX's shape inference runs:
  /// the small initializers' values and the main graph's node locations.
  void prepareWhileInferring();
  void convertGeneric(NodeConverter &converter);
  /// Runs the node's ONNX inference function again on its imported inputs
  /// when that can type outputs ONNX's pass left untyped or dynamic
  /// (ONNXNodeInference.cpp).
  void refineOutputTypes(NodeConverter &converter);
  /// A value's type without converting it (an initializer stays unused until
  /// a converter takes it); `smallConstant` gets its values when it is a
  /// small compile-time constant.
  Type peekInput(const std::string &valueName, std::optional<DenseElementsAttr> &smallConstant);
  void warnAboutGenericNodes(Block *body);
  LogicalResult applyInputShapes();
  /// --input_shape, ONNX's checker and shape inference, the opset: fails
  /// after reporting why the model cannot be imported. Shape inference may
  /// still run afterwards (inferenceStream).
  LogicalResult validateModel();
  /// Shape inference's outcome: an error under --input_shape, else a
  /// warning when it failed.
  LogicalResult reportShapeInference(const ValidationResult &validation);
  void warnAboutOpset();
  /// ATC's pre-check against the table of CANN's ONNX parser plugins
  /// (PluginCheck.h): fills `atcRefusals`; with
  /// ONNXImportOptions::atcRefusalsAreErrors a refused node is an error and
  /// the import fails.
  LogicalResult checkParserPlugins();
  /// One warning per refused parser key, in ATC's words (E13010), where
  /// warnAboutOpset says its own.
  void warnAboutAtcRefusals();
  /// Waits for a streamed inference to end, then says what validateModel
  /// would have said after it.
  LogicalResult finishInference();
  /// The graph outputs' types; fails with an error for one that is not a
  /// tensor of a supported element type.
  LogicalResult checkOutputTypes(SmallVectorImpl<Type> &outputTypes);
  /// The main graph's nodes, in order, as their types arrive.
  LogicalResult convertMainGraph();

  /// Binds an ONNX value name in the current scope.
  void define(const std::string &valueName, Value value);
  void defineConstant(const std::string &valueName, DenseElementsAttr value);
  /// If, Loop and Scan (ONNXControlFlow.cpp).
  LogicalResult convertControlFlow(NodeConverter &converter);
  LogicalResult convertIf(NodeConverter &converter);
  LogicalResult convertLoop(NodeConverter &converter);
  LogicalResult convertScan(NodeConverter &converter);
  /// Creates the op `state` describes, verifies it, and binds its results.
  LogicalResult finishControlFlowOp(NodeConverter &converter, OperationState &state);
  /// Imports `graph`'s nodes at the builder's insertion point, with its
  /// inputs bound to `inputs`, and returns its outputs in `outputs`; the
  /// subgraph's own names are forgotten afterwards.
  LogicalResult importSubgraph(const onnx::GraphProto &graph, ValueRange inputs,
                               SmallVectorImpl<Value> &outputs);
  /// `importSubgraph` into a new block with arguments of `argTypes`, ended
  /// by an ascend.Yield of the outputs; null on failure.
  std::unique_ptr<Block> importBody(const onnx::GraphProto &graph, TypeRange argTypes,
                                    Location loc);

  MLIRContext *context;
  std::string path;
  OpBuilder builder;
  ONNXImportStats *stats;
  const ONNXImportOptions &options;
  onnx::ModelProto model;
  std::optional<Location> modelFileLoc;
  int64_t opset = 1;
  // Hash maps: value names in exported models share long prefixes
  // ("/blocks.12/attn/..."), which makes ordered-map comparisons costly.
  // Their entries (key inline) come from one bump allocator each: a model
  // has a few entries per node, built once and dropped together.
  template <typename T>
  using NameMap = llvm::StringMap<T, llvm::BumpPtrAllocator>;
  NameMap<Value> values;
  NameMap<onnx::TensorProto *> initializers;
  NameMap<DenseResourceElementsAttr> resources;
  /// A value known at import time: a Constant node's output or a small
  /// initializer, whose name is made while ONNX infers shapes.
  struct KnownConstant {
    DenseElementsAttr value;
    StringAttr name; ///< null until first needed
  };
  NameMap<KnownConstant> constants;
  NameMap<Type> types;
  /// The node that defines each value (a QDQ model's Conv looks through
  /// its DequantizeLinear inputs).
  NameMap<const onnx::NodeProto *> producers;
  /// The run's values of graph inputs (options.runInputValues), by name.
  NameMap<std::vector<int64_t>> runValues;
  /// A graph input's run value as a constant of the input's type.
  std::optional<DenseElementsAttr> runValue(const std::string &valueName);
  /// ONNX op type -> the nodes imported as ascend.generic, for one warning.
  struct GenericNodes {
    std::optional<Location> loc;
    std::string opType;
    /// Each node, with the output its converter found no shape for (empty
    /// when it did not ask, or had one).
    std::vector<std::pair<std::string, std::string>> nodes;
    std::string reason; ///< the first dedicated op's verifier message
  };
  std::map<std::string, GenericNodes> genericNodes;
  /// The If branches being imported, innermost last: the If's node name and
  /// whether it is the else branch.
  std::vector<std::pair<std::string, bool>> branches;
  /// Branches with values ONNX's shape inference gives no shape at the
  /// given input shapes (a branch for another sample rate), in model order.
  struct UnshapedBranch {
    std::string ifName;
    bool elseBranch = false;
    std::optional<Location> loc;
    std::string firstNode, firstOutput;
    size_t ops = 0;
  };
  std::vector<UnshapedBranch> unshapedBranches;
  /// One warning per branch without shapes; after warnAboutGenericNodes.
  void warnAboutUnshapedBranches(Block *body);
  /// The main graph's node locations, by node index (prepareWhileInferring).
  std::vector<Location> mainGraphLocs;
  /// Shape inference still running while the main graph is converted.
  std::unique_ptr<InferenceStream> inferenceStream;
  Block *functionEntry = nullptr;
  /// Per subgraph being imported (innermost last): the names it defined.
  std::vector<std::vector<std::string>> scopes;
  bool failedLookup = false;
  bool reportedInitializerError = false; ///< said why a lookup failed
  /// The parser keys no CANN plugin registers (checkParserPlugins).
  std::vector<policy::AtcRefusal> atcRefusals;
  /// Said that QDQ nodes are planned as AMCT's deploy model (once).
  bool remarkedQdq = false;
};

} // namespace ascendprec::onnximport

#endif // ASCENDPREC_LIB_TARGET_ONNX_ONNXIMPORTER_H
