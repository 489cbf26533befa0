//===- ONNXImporter.cpp - ONNX models into the ascend dialect -------------===//
//
// Parses the protobuf, runs ONNX's checker and shape inference (isolated,
// ONNXValidation.cpp), then builds
// one func.func: graph inputs as arguments, initializers as ascend.Const
// (created when first used), one or more ascend ops per node, and
// ascend.generic (with a warning) for nodes without a mapping.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include "GraphOrder.h"
#include "PluginCheck.h"

#include "AscendPrec/Dialect/Ascend/IR/OpTypes.h"
#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/InputFile.h"
#include "AscendPrec/Policy/OnnxOpTypes.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include <set>
#include <system_error>
#include <thread>


using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

static void eraseDeadOps(Block &block);
static LogicalResult verifyImported(ModuleOp module, func::FuncOp func);

//===----------------------------------------------------------------------===//
// NodeConverter helpers
//===----------------------------------------------------------------------===//

Value NodeConverter::input(unsigned i) const {
  return hasInput(i) ? lookup(node.input(i)) : Value();
}

std::optional<DenseElementsAttr> NodeConverter::constantInput(unsigned i) const {
  if (!hasInput(i))
    return std::nullopt;
  if (std::optional<DenseElementsAttr> value = constant(node.input(i)))
    return value;
  if (runValueOf && decidesShape(node, i))
    if (std::optional<DenseElementsAttr> value = runValueOf(node.input(i))) {
      if (!llvm::is_contained(runValuesUsed, node.input(i)))
        runValuesUsed.push_back(node.input(i));
      return value;
    }
  return std::nullopt;
}

bool ascendprec::onnximport::decidesShape(const onnx::NodeProto &node, unsigned i) {
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return false;
  llvm::StringRef type = node.op_type();
  if (type.starts_with("Reduce"))
    return i == 1;
  if (type == "Slice")
    return i >= 1 && i <= 4;
  if (type == "Pad" || type == "Tile")
    return i == 1;
  if (type == "MaxUnpool")
    return i == 2;
  return false;
}

std::optional<DenseElementsAttr> Importer::runValue(const std::string &valueName) {
  auto it = runValues.find(valueName);
  auto type = dyn_cast_or_null<RankedTensorType>(typeOf(valueName));
  if (it == runValues.end() || !type || !isa<IntegerType>(type.getElementType()) ||
      !type.hasStaticShape() || type.getNumElements() != static_cast<int64_t>(it->second.size()))
    return std::nullopt;
  unsigned width = type.getElementTypeBitWidth();
  SmallVector<APInt> values;
  for (int64_t v : it->second)
    values.push_back(APInt(width, v, /*isSigned=*/true));
  return DenseElementsAttr::get(type, values);
}

std::optional<std::vector<int64_t>> NodeConverter::constantInts(unsigned i) const {
  std::optional<DenseElementsAttr> value = constantInput(i);
  if (!value || !isa<IntegerType>(value->getElementType()))
    return std::nullopt;
  std::vector<int64_t> ints;
  for (const APInt &v : value->getValues<APInt>())
    ints.push_back(v.getSExtValue());
  return ints;
}

RankedTensorType NodeConverter::outputType(unsigned i) const {
  if (i >= static_cast<unsigned>(node.output_size()) || node.output(i).empty())
    return {};
  auto type = dyn_cast_or_null<RankedTensorType>(typeOf(node.output(i)));
  if (!type && untypedOutput.empty())
    untypedOutput = node.output(i);
  return type;
}

RankedTensorType NodeConverter::inputType(unsigned i) const {
  Value value = input(i);
  return value ? dyn_cast<RankedTensorType>(value.getType()) : RankedTensorType();
}

const onnx::AttributeProto *NodeConverter::attr(const std::string &attrName) const {
  for (const auto &a : node.attribute())
    if (a.name() == attrName)
      return &a;
  return nullptr;
}

int64_t NodeConverter::intAttr(const std::string &attrName, int64_t fallback) const {
  const auto *a = attr(attrName);
  return a && a->has_i() ? a->i() : fallback;
}

float NodeConverter::floatAttr(const std::string &attrName, float fallback) const {
  const auto *a = attr(attrName);
  return a && a->has_f() ? a->f() : fallback;
}

std::string NodeConverter::stringAttr(const std::string &attrName,
                                      const std::string &fallback) const {
  const auto *a = attr(attrName);
  return a && a->has_s() ? a->s() : fallback;
}

std::optional<std::vector<int64_t>>
NodeConverter::intsAttr(const std::string &attrName) const {
  const auto *a = attr(attrName);
  if (!a)
    return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

Value NodeConverter::makeConst(DenseElementsAttr value, const std::string &suffix) {
  return ascend::ConstOp::create(builder, loc, value,
                                 builder.getStringAttr(name + "/" + suffix),
                                 nullptr, nullptr, nullptr, nullptr);
}

//===----------------------------------------------------------------------===//
// The importer
//===----------------------------------------------------------------------===//

void Importer::define(const std::string &valueName, Value value) {
  values[valueName] = value;
  if (!scopes.empty())
    scopes.back().push_back(valueName);
}

void Importer::defineConstant(const std::string &valueName, DenseElementsAttr value) {
  constants[valueName] = {value, StringAttr()};
  if (!scopes.empty())
    scopes.back().push_back(valueName);
}

Value Importer::lookup(const std::string &valueName) {
  auto it = values.find(valueName);
  if (it != values.end())
    return it->second;
  ElementsAttr value;
  StringAttr name;
  if (auto known = constants.find(valueName); known != constants.end()) {
    value = known->second.value;
    name = known->second.name;
  } else {
    value = largeInitializer(valueName);
    if (!value && !failedLookup)
      if (std::optional<DenseElementsAttr> dense = constantOf(valueName))
        value = *dense;
  }
  if (!value) {
    failedLookup = true;
    return {};
  }
  // Initializers become constants at their first use, named after them.
  // Inside a subgraph they go to the top of the function instead (a
  // constant has no operands, so that is valid anywhere), so that one
  // constant serves the subgraph and the graphs around it.
  OpBuilder::InsertionGuard guard(builder);
  if (!scopes.empty())
    builder.setInsertionPointToStart(functionEntry);
  auto constant = ascend::ConstOp::create(builder, fileLoc(), value,
                                          name ? name : builder.getStringAttr(valueName),
                                          nullptr, nullptr, nullptr, nullptr);
  values[valueName] = constant;
  return constant;
}

LogicalResult Importer::reportFailedLookup(Location loc, const std::string &nodeName,
                                           const std::string &opType) {
  if (reportedInitializerError)
    return failure(); // the initializer's own error says why
  return emitError(loc) << "node '" << nodeName << "' (" << opType
                        << ") reads a value that no node, input or initializer defines";
}

ElementsAttr Importer::largeInitializer(const std::string &valueName) {
  if (auto it = resources.find(valueName); it != resources.end())
    return it->second;
  auto it = initializers.find(valueName);
  if (it == initializers.end())
    return {};
  std::string message;
  DenseResourceElementsAttr value = takeLargeTensor(context, *it->second, message);
  if (!message.empty()) {
    error() << "malformed initializer: " << message;
    failedLookup = true;
    reportedInitializerError = true;
    return {};
  }
  if (value)
    resources[valueName] = value;
  return value;
}

std::optional<DenseElementsAttr> Importer::constantOf(const std::string &valueName) {
  if (auto it = constants.find(valueName); it != constants.end())
    return it->second.value;
  // A large weight is a resource, not a value converters fold.
  if (resources.count(valueName))
    return std::nullopt;
  auto it = initializers.find(valueName);
  if (it == initializers.end())
    return std::nullopt;
  std::string message;
  DenseElementsAttr value = tensorValue(context, *it->second, message);
  if (!value) {
    error() << "malformed initializer: " << message;
    failedLookup = true;
    reportedInitializerError = true;
    return std::nullopt;
  }
  constants[valueName] = {value, StringAttr()};
  return value;
}

Type Importer::typeOf(const std::string &valueName) {
  auto it = types.find(valueName);
  return it == types.end() ? Type() : it->second;
}

/// The op type a node that stays ascend.generic gets: the CANN (Ascend IR)
/// name of its ONNX op type, as ATC's ONNX parser names it, so that mixlist
/// and `OpType::` entries written for CANN match it (docs/onnx-import.md).
static std::string genericOpType(const std::string &onnxType) {
  if (!ascend::isWellFormedOpType(onnxType))
    return "ONNX_" + onnxType; // a custom op type with characters IR op types lack
  return policy::cannOpTypeForOnnx(onnxType);
}

void Importer::convertGeneric(NodeConverter &converter) {
  const onnx::NodeProto &node = converter.node;
  SmallVector<Value> operands;
  for (unsigned i = 0; i < converter.numInputs(); ++i)
    if (Value v = converter.input(i))
      operands.push_back(v);
  SmallVector<Type> resultTypes;
  for (int i = 0; i < node.output_size(); ++i) {
    Type type = typeOf(node.output(i));
    if (!type || !isa<TensorType>(type))
      type = UnrankedTensorType::get(builder.getF32Type());
    resultTypes.push_back(type);
  }
  std::string opType = genericOpType(node.op_type());
  auto generic = ascend::GenericOp::create(
      builder, converter.loc, resultTypes, builder.getStringAttr(opType), operands,
      converter.nameAttr(), nullptr, nullptr, nullptr, nullptr);
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    generic->setAttr("onnx.domain", builder.getStringAttr(node.domain()));
  if (opType != node.op_type())
    generic->setAttr("onnx.op_type", builder.getStringAttr(node.op_type()));
  converter.results.assign(generic->result_begin(), generic->result_end());
  // One warning per ONNX op type once the graph is read, naming the nodes.
  GenericNodes &nodes = genericNodes[node.op_type()];
  if (nodes.nodes.empty()) {
    nodes.loc = converter.loc;
    nodes.opType = opType;
  }
  // A converter that found no shape for an output it needed: that, not a
  // missing mapping, is what the user needs to hear.
  nodes.nodes.push_back(
      {converter.name, converter.rejection.empty() ? converter.untypedOutput : std::string()});
  // Inside an If branch, a value without a shape at the given input shapes
  // means the branch does not run with them (Silero VAD's 8 kHz branch at a
  // 16 kHz window): said once per branch, and counted apart in the report.
  // (An op fed a value without a shape is there for the same reason, whatever
  // its converter said.)
  bool shapeless = (converter.rejection.empty() && !converter.untypedOutput.empty()) ||
                   llvm::any_of(operands, [](Value v) { return isa<UnrankedTensorType>(v.getType()); });
  if (!branches.empty() && shapeless) {
    const auto &[ifName, elseBranch] = branches.back();
    auto same = [&](const UnshapedBranch &b) {
      return b.ifName == ifName && b.elseBranch == elseBranch;
    };
    auto found = llvm::find_if(unshapedBranches, same);
    if (found == unshapedBranches.end()) {
      std::string output = converter.untypedOutput;
      for (size_t i = 0; output.empty() && i < operands.size(); ++i)
        if (isa<UnrankedTensorType>(operands[i].getType()))
          output = node.input(i);
      unshapedBranches.push_back({ifName, elseBranch, converter.loc, converter.name, output, 0});
      found = std::prev(unshapedBranches.end());
    }
    generic->setAttr(ascend::kUnshapedBranchAttr,
                     builder.getStringAttr("If '" + ifName + "' " +
                                           (elseBranch ? "else" : "then") + " branch"));
  }
  if (nodes.reason.empty())
    nodes.reason = converter.rejection;
  if (stats) {
    ++stats->generic;
    ++stats->genericOpTypes[node.op_type()];
  }
}

void Importer::warnAboutGenericNodes(Block *body) {
  constexpr size_t kNamed = 5;
  std::set<std::string> alive;
  body->walk([&](ascend::GenericOp generic) { alive.insert(generic.getName().str()); });
  if (stats) {
    stats->generic = 0;
    stats->genericOpTypes.clear();
  }
  for (auto &[onnxType, all] : genericNodes) {
    GenericNodes nodes = all;
    llvm::erase_if(nodes.nodes, [&](const auto &node) { return !alive.count(node.first); });
    size_t count = nodes.nodes.size();
    if (count == 0)
      continue;
    auto untyped = llvm::find_if(nodes.nodes, [](const auto &node) { return !node.second.empty(); });
    std::string untypedOutput = untyped == nodes.nodes.end() ? "" : untyped->second;
    if (stats) {
      stats->generic += count;
      stats->genericOpTypes[onnxType] += count;
    }
    InFlightDiagnostic warning = emitWarning(*nodes.loc);
    warning << "ONNX op " << onnxType;
    if (nodes.reason.empty() && !untypedOutput.empty())
      warning << ": ONNX shape inference found no shape for output '"
              << policy::escapeForDisplay(untypedOutput) << "' (check the shapes that reach it"
              << (options.inputShapes.empty()
                      ? ", or give the model's input sizes with --input_shape"
                      : "")
              << "); ";
    else if (nodes.reason.empty())
      warning << " has no dedicated ascend op here; ";
    else
      warning << " does not fit its dedicated ascend op ("
              << policy::escapeForDisplay(nodes.reason) << "); ";
    warning << (count == 1 ? "node " : std::to_string(count) + " nodes ");
    for (size_t i = 0; i < count && i < kNamed; ++i)
      warning << (i ? ", '" : "'") << nodes.nodes[i].first << "'";
    if (count > kNamed)
      warning << " and " << count - kNamed << " more";
    warning << (count == 1 ? " is" : " are") << " imported as ascend.generic \""
            << nodes.opType << "\"";
  }
}

void Importer::warnAboutUnshapedBranches(Block *body) {
  for (UnshapedBranch &branch : unshapedBranches) {
    std::string label = "If '" + branch.ifName + "' " + (branch.elseBranch ? "else" : "then") +
                        " branch";
    branch.ops = 0;
    body->walk([&](ascend::GenericOp generic) {
      if (auto tag = generic->getAttrOfType<StringAttr>(ascend::kUnshapedBranchAttr))
        branch.ops += tag.getValue() == label;
    });
    if (branch.ops == 0)
      continue;
    bool otherAlsoUnshaped = llvm::any_of(unshapedBranches, [&](const UnshapedBranch &b) {
      return b.ifName == branch.ifName && b.elseBranch != branch.elseBranch;
    });
    InFlightDiagnostic warning = emitWarning(*branch.loc);
    warning << policy::escapeForDisplay(label)
            << " cannot run with the given input shapes: ONNX shape inference gives no shape "
               "to '"
            << policy::escapeForDisplay(branch.firstOutput) << "' of node '"
            << policy::escapeForDisplay(branch.firstNode) << "' and what follows, so "
            << branch.ops << (branch.ops == 1 ? " op stays" : " ops stay")
            << " generic, without kernels, counted apart in the report";
    if (otherAlsoUnshaped)
      warning << "; the other branch cannot run with them either: give --input_shape";
    else
      warning << "; the plan covers the condition being "
              << (branch.elseBranch ? "true (the then branch)" : "false (the else branch)");
  }
}

std::string ascendprec::onnximport::importedNodeName(const onnx::NodeProto &node,
                                                    unsigned index) {
  std::string name = node.name();
  for (int i = 0; name.empty() && i < node.output_size(); ++i)
    name = node.output(i);
  if (name.empty())
    name = node.op_type() + "_" + std::to_string(index);
  return name;
}

void Importer::prepareWhileInferring() {
  const onnx::GraphProto &graph = model.graph();
  mainGraphLocs.reserve(graph.node_size());
  for (int i = 0; i < graph.node_size(); ++i)
    mainGraphLocs.push_back(nodeLoc(importedNodeName(graph.node(i), i)));
  // Small initializers' values and names (large ones become resources at
  // their first use); a malformed one is left for its first use to report.
  for (const onnx::TensorProto &init : graph.initializer()) {
    if (init.data_location() == onnx::TensorProto_DataLocation_EXTERNAL ||
        (init.has_raw_data() && init.raw_data().size() > kResourceThresholdBytes))
      continue;
    std::string message;
    if (DenseElementsAttr value = tensorValue(context, init, message))
      constants.try_emplace(init.name(),
                            KnownConstant{value, StringAttr::get(context, init.name())});
  }
}

LogicalResult Importer::convertConstantNode(NodeConverter &converter) {
  const onnx::AttributeProto *value = converter.attr("value");
  std::string message;
  DenseElementsAttr tensor =
      value && value->has_t() ? tensorValue(context, value->t(), message) : nullptr;
  if (!tensor && converter.attr("value_float"))
    tensor = DenseElementsAttr::get(RankedTensorType::get({}, builder.getF32Type()),
                                    converter.floatAttr("value_float", 0));
  if (!tensor && converter.attr("value_int"))
    tensor = DenseElementsAttr::get(RankedTensorType::get({}, builder.getI64Type()),
                                    converter.intAttr("value_int", 0));
  if (!tensor && converter.attr("value_ints")) {
    std::vector<int64_t> ints = *converter.intsAttr("value_ints");
    tensor = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(ints.size())}, builder.getI64Type()),
        ArrayRef<int64_t>(ints));
  }
  if (!tensor) {
    emitError(converter.loc) << "Constant node '" << converter.name << "' has no usable value"
                             << (message.empty() ? "" : ": " + message);
    return failure();
  }
  defineConstant(converter.node.output(0), tensor);
  if (stats)
    ++stats->dedicated;
  return success();
}

bool Importer::convertToDedicatedOps(NodeConverter &converter) {
  OpBuilder::InsertPoint point = builder.saveInsertionPoint();
  Block *block = builder.getInsertionBlock();
  // The last op before conversion (not the op count: a block's size() walks
  // the whole list, which made import quadratic in the node count).
  Operation *last = block->empty() ? nullptr : &block->back();
  bool converted = succeeded(convertQuantOp(converter)) ||
                   succeeded(convertMathOp(converter)) ||
                   succeeded(convertNNOp(converter)) ||
                   succeeded(convertShapeOp(converter)) ||
                   succeeded(convertRecurrentOp(converter)) ||
                   succeeded(convertTensorOp(converter)) ||
                   succeeded(convertIndexOp(converter)) ||
                   succeeded(convertLossOp(converter)) ||
                   succeeded(convertDecomposedOp(converter));
  if (!converted) {
    // Drop anything a converter built before giving up.
    while (!block->empty() && &block->back() != last)
      block->back().erase();
    builder.restoreInsertionPoint(point);
  }
  return converted;
}

bool Importer::foldKnownShapeVector(NodeConverter &converter) {
  // A shape vector whose every entry is known although its inputs are not
  // all constants (a Slice of the static part of a dynamic Shape) is a
  // compile-time value too: later Reshapes and Divs then see a constant.
  static const std::set<std::string> shapeOps = {"Shape", "Gather", "Slice", "Concat",
                                                 "Squeeze", "Unsqueeze", "Reshape", "Cast"};
  const onnx::NodeProto &node = converter.node;
  if (node.output_size() != 1 || !shapeOps.count(node.op_type()) || converter.results.empty())
    return false;
  std::optional<SmallVector<int64_t>> known = knownShapeValues(converter.results[0]);
  if (!known || llvm::any_of(*known, ShapedType::isDynamic))
    return false;
  auto type = cast<RankedTensorType>(converter.results[0].getType());
  SmallVector<APInt> values;
  for (int64_t v : *known)
    values.push_back(APInt(type.getElementTypeBitWidth(), v, /*isSigned=*/true));
  defineConstant(node.output(0), DenseElementsAttr::get(type, values));
  if (stats)
    ++stats->folded;
  return true;
}

LogicalResult Importer::convertNode(const onnx::NodeProto &node, unsigned index) {
  std::string name = importedNodeName(node, index);
  bool inMainGraph = scopes.empty() && index < mainGraphLocs.size();
  NodeConverter converter(
      node, name, inMainGraph ? mainGraphLocs[index] : nodeLoc(name), builder, opset,
      [this](const std::string &v) { return lookup(v); },
      [this](const std::string &v) { return constantOf(v); },
      [this](const std::string &v) { return typeOf(v); });
  converter.producerOf = [this](const std::string &v) -> const onnx::NodeProto * {
    auto it = producers.find(v);
    return it == producers.end() ? nullptr : it->second;
  };
  for (const std::string &output : node.output())
    if (!output.empty())
      producers[output] = &node;
  if (!runValues.empty())
    converter.runValueOf = [this](const std::string &v) { return runValue(v); };
  converter.trainingGraph = options.trainingGraph;
  if (stats)
    ++stats->nodes;

  if ((node.op_type() == "If" || node.op_type() == "Loop" || node.op_type() == "Scan") &&
      (node.domain().empty() || node.domain() == "ai.onnx"))
    return convertControlFlow(converter);
  // Other ops with subgraphs (Sequence*, custom ones): an error naming the
  // node, never an op whose subgraph silently vanishes.
  for (const onnx::AttributeProto &attribute : node.attribute())
    if (attribute.has_g() || attribute.graphs_size() > 0) {
      emitError(converter.loc) << "ONNX op " << node.op_type() << " (node '"
                               << policy::escapeForDisplay(name) << "') has the subgraph '"
                               << attribute.name()
                               << "'; only If, Loop and Scan subgraphs are imported, so the "
                                  "model cannot be planned completely";
      return failure();
    }

  // Constant nodes are compile-time values.
  if (node.op_type() == "Constant" && node.domain().empty())
    return convertConstantNode(converter);

  // Identity and inference-mode Dropout (without its mask output) forward
  // their input.
  bool wantsMask = node.op_type() == "Dropout" && node.output_size() > 1 &&
                   !node.output(1).empty();
  // A training_mode that is not a constant false makes Dropout random: it
  // takes the general path (a generic op, with the reason), never Identity.
  if (node.op_type() == "Dropout" && node.input_size() >= 3 && !node.input(2).empty()) {
    std::optional<DenseElementsAttr> training = converter.constantInput(2);
    if (!training || !training->isSplat() || training->getSplatValue<bool>())
      wantsMask = true;
  }
  if ((node.op_type() == "Identity" || node.op_type() == "Dropout") && !wantsMask &&
      node.domain().empty() && node.input_size() >= 1) {
    Value in = converter.input(0);
    if (!in)
      return failure();
    define(node.output(0), in);
    if (stats)
      ++stats->dedicated;
    return success();
  }

  // Types ONNX's pass could not give, from what the import knows by now
  // (folded shapes, outer values of a subgraph); folding below needs them.
  refineOutputTypes(converter);
  if (failedLookup)
    return reportFailedLookup(converter.loc, name, node.op_type());

  // Shape arithmetic on known inputs is a compile-time value, like a
  // Constant node.
  if ((node.domain().empty() || node.domain() == "ai.onnx") && node.output_size() == 1)
    if (std::optional<DenseElementsAttr> folded = foldShapeComputation(converter)) {
      defineConstant(node.output(0), *folded);
      if (stats) {
        ++stats->dedicated;
        ++stats->folded;
      }
      return success();
    }
  if (failedLookup)
    return reportFailedLookup(converter.loc, name, node.op_type());

  // Look every input up first: an initializer becomes a Const here, outside
  // the converter's rollback below, so no cached value can dangle. Constants
  // only read as attributes end up unused and canonicalization drops them.
  for (unsigned i = 0; i < converter.numInputs(); ++i)
    if (converter.hasInput(i))
      (void)converter.input(i);
  if (failedLookup)
    return reportFailedLookup(converter.loc, name, node.op_type());

  // Other domains' nodes stay generic, except CANN's own quantization ops
  // (AMCT's deploy models name them; ONNXQuantOps.cpp).
  bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
  bool amctOp = node.op_type() == "AscendQuant" || node.op_type() == "AscendDequant" ||
                node.op_type() == "AscendAntiQuant";
  bool converted = (defaultDomain || amctOp) && convertToDedicatedOps(converter);
  if (failedLookup)
    return reportFailedLookup(converter.loc, name, node.op_type());
  if (converted) {
    if (stats)
      ++stats->dedicated;
    // ATC has no plugin for QuantizeLinear/DequantizeLinear (E13010, the
    // warning above): a QDQ model reaches CANN as AMCT's deploy model, which
    // is what its int8 nodes became. Said once per model.
    if (defaultDomain && !remarkedQdq &&
        (node.op_type() == "QuantizeLinear" || node.op_type() == "DequantizeLinear")) {
      remarkedQdq = true;
      emitRemark(fileLoc())
          << "QuantizeLinear/DequantizeLinear nodes are planned as AMCT's deploy model "
             "(AscendQuant, AscendAntiQuant, int8 cube ops with AscendDequant): ATC has no "
             "plugin for QuantizeLinear or DequantizeLinear (E13010), so a QDQ model reaches "
             "CANN through AMCT (convert_qat_model), and that deploy model is what this plan "
             "models (docs/quantization.md)";
    }
    // A plan made for a run's input value says so: another value would
    // give other shapes (CANN reads it when the graph runs).
    if (!converter.runValuesUsed.empty()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::interleaveComma(converter.runValuesUsed, os, [&](const std::string &input) {
        os << "'" << input << "' = [";
        llvm::interleaveComma(runValues[input], os);
        os << "]";
      });
      bool one = converter.runValuesUsed.size() == 1;
      emitWarning(converter.loc)
          << "node '" << policy::escapeForDisplay(name) << "' (" << node.op_type()
          << ") is planned for the " << (one ? "value" : "values") << " the run gives graph "
          << (one ? "input " : "inputs ") << text << ": "
          << (one ? "it decides" : "they decide")
          << " the node's result shape, which CANN reads when the graph runs; without "
             "--run=DIR the node stays generic";
    }
  } else {
    converter.results.clear();
    convertGeneric(converter);
  }
  if (converted && foldKnownShapeVector(converter))
    return success();
  for (int i = 0; i < node.output_size() && i < static_cast<int>(converter.results.size()); ++i)
    if (!node.output(i).empty())
      define(node.output(i), converter.results[i]);
  return success();
}

/// --input_shape: the user's dims replace the model's before shape inference.
LogicalResult Importer::applyInputShapes() {
  if (options.inputShapes.empty())
    return success();
  std::vector<std::string> names;
  std::set<std::string> initializerNames;
  for (const auto &init : model.graph().initializer())
    initializerNames.insert(init.name());
  for (const auto &input : model.graph().input())
    if (!initializerNames.count(input.name()))
      names.push_back(input.name());
  for (const auto &[name, dims] : options.inputShapes) {
    onnx::ValueInfoProto *input = nullptr;
    for (onnx::ValueInfoProto &candidate : *model.mutable_graph()->mutable_input())
      if (candidate.name() == name && !initializerNames.count(name))
        input = &candidate;
    if (!input) {
      emitError(fileLoc()) << "--input_shape names '" << policy::escapeForDisplay(name)
                           << "', which is not an input of the model"
                           << policy::unknownNameHint(name, names, "inputs");
      return failure();
    }
    onnx::TensorShapeProto *shape =
        input->mutable_type()->mutable_tensor_type()->mutable_shape();
    if (shape->dim_size() != 0 && shape->dim_size() != static_cast<int>(dims.size())) {
      // Shown as --input_shape takes it, -1 for a dynamic dimension, so it
      // can be copied and filled in.
      std::string modelShape;
      for (const onnx::TensorShapeProto_Dimension &dim : shape->dim())
        modelShape += (modelShape.empty() ? "" : ",") +
                      (dim.has_dim_value() ? std::to_string(dim.dim_value()) : std::string("-1"));
      emitError(fileLoc())
          << "--input_shape gives input '" << policy::escapeForDisplay(name) << "' "
          << dims.size() << " dimensions; the model's has " << shape->dim_size() << ": "
          << policy::escapeForDisplay(name) << ":" << modelShape << " (-1: dynamic)";
      return failure();
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      onnx::TensorShapeProto_Dimension *dim =
          i < static_cast<size_t>(shape->dim_size()) ? shape->mutable_dim(i) : shape->add_dim();
      // A dimension the model fixes cannot be changed, only one it leaves
      // open (ATC refuses such shapes too): the weights were made for it.
      if (dims[i] >= 0 && dim->has_dim_value() && dim->dim_value() != dims[i]) {
        emitError(fileLoc()) << "--input_shape gives input '" << policy::escapeForDisplay(name)
                             << "' dimension " << i << " as " << dims[i]
                             << ", but the model fixes it at " << dim->dim_value()
                             << "; only its dynamic dimensions can be set";
        return failure();
      }
      if (dims[i] >= 0)
        dim->set_dim_value(dims[i]);
      else if (!dim->has_dim_param())
        dim->set_dim_param(name + "_dim" + std::to_string(i)); // stays dynamic
    }
  }
  return success();
}

LogicalResult Importer::validateModel() {
  // Before the checker, which would look for the data file relative to the
  // working directory rather than the model.
  for (const auto &init : model.graph().initializer())
    if (init.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) {
      error() << "initializer '" << init.name()
              << "' keeps its data in an external file, which is not supported; "
                 "re-save the model with its data inside: python3 -c \"import onnx; "
                 "onnx.save(onnx.load('in.onnx'), 'out.onnx')\"";
      return failure();
    }
  // Nodes linked by tensor name and sorted, as GE's ONNX parser does (the
  // checker below would refuse an unsorted file).
  GraphOrderResult order = putInTopologicalOrder(*model.mutable_graph());
  if (!order.error.empty()) {
    error() << "malformed ONNX model: " << order.error;
    return failure();
  }
  if (!order.outOfOrder.empty())
    emitRemark(fileLoc()) << "the file's nodes are not in topological order ("
                          << order.outOfOrder
                          << "); sorted as CANN's ONNX parser sorts them (depth-first, the "
                             "file's order breaking ties)";
  if (failed(applyInputShapes()))
    return failure();
  // With user-given input shapes, a node they do not fit is an error: the
  // import then waits for all of shape inference instead of streaming it.
  bool strict = !options.inputShapes.empty();
  ValidationResult validation = checkAndInferShapes(
      model, strict, [this] { prepareWhileInferring(); }, /*allowStreaming=*/!strict);
  if (!validation.ok) {
    error() << validation.error;
    return failure();
  }
  for (const auto &import : model.opset_import())
    if (import.domain().empty() || import.domain() == "ai.onnx")
      opset = import.version();
  // ATC's pre-check, on the model the checker accepted (its graphs sorted):
  // with --atc-refusals=error a node without a parser plugin ends it here.
  if (failed(checkParserPlugins()))
    return failure();
  if (validation.stream) {
    // The opset's warning waits too: a crash of inference is reported alone.
    inferenceStream = std::move(validation.stream);
    return success();
  }
  warnAboutOpset();
  warnAboutAtcRefusals();
  return reportShapeInference(validation);
}

void Importer::warnAboutOpset() {
  if (opset < 6 || opset > 17)
    emitWarning(fileLoc()) << "opset " << opset << " is outside the tested range 6..17";
}

LogicalResult Importer::checkParserPlugins() {
  std::string tableError;
  const policy::OnnxParserPlugins *plugins = policy::OnnxParserPlugins::builtin(tableError);
  if (!plugins) {
    error() << "internal error: the built-in table of CANN's ONNX parser plugins does not "
               "parse ("
            << tableError << "); please report it";
    return failure();
  }
  atcRefusals = findAtcRefusals(model, *plugins);
  if (stats) {
    stats->atcChecked = true;
    stats->atcRefusals = atcRefusals;
  }
  if (!options.atcRefusalsAreErrors || atcRefusals.empty())
    return success();
  // As ATC stops: the E13010 lines, and nothing planned.
  for (const policy::AtcRefusal &refusal : atcRefusals)
    emitError(nodeLoc(refusal.nodes.front())) << policy::atcRefusalMessage(refusal);
  return failure();
}

void Importer::warnAboutAtcRefusals() {
  // A model ATC refuses is still planned and run for the user: the host can
  // run these ops (docs/decisions.md, "ATC's refusals").
  for (const policy::AtcRefusal &refusal : atcRefusals)
    emitWarning(nodeLoc(refusal.nodes.front())) << policy::atcRefusalMessage(refusal);
}

LogicalResult Importer::finishInference() {
  ValidationResult inferred = inferenceStream->finish(model);
  inferenceStream.reset();
  if (!inferred.ok) {
    error() << inferred.error;
    return failure();
  }
  warnAboutOpset();
  warnAboutAtcRefusals();
  return reportShapeInference(inferred);
}

LogicalResult Importer::reportShapeInference(const ValidationResult &validation) {
  if (!validation.shapeInferenceError.empty() && !options.inputShapes.empty()) {
    error() << "the shapes --input_shape gives do not fit the model: "
            << validation.shapeInferenceError;
    return failure();
  }
  if (!validation.shapeInferenceError.empty())
    emitWarning(fileLoc()) << "ONNX shape inference failed ("
                           << validation.shapeInferenceError
                           << "); ops without known shapes become ascend.generic";
  return success();
}

OwningOpRef<ModuleOp> Importer::run(onnx::ModelProto &&parsed) {
  model.Swap(&parsed);
  if (failed(validateModel()))
    return {};
  const onnx::GraphProto &graph = model.graph();
  // Sized once: growing maps of a 200k-node model rehash long names often.
  initializers = NameMap<onnx::TensorProto *>(graph.initializer_size());
  types = NameMap<Type>(graph.input_size() + graph.value_info_size() + graph.output_size() +
                       (inferenceStream ? graph.node_size() : 0));
  values = NameMap<Value>(graph.input_size() + graph.node_size());
  for (onnx::TensorProto &init : *model.mutable_graph()->mutable_initializer())
    initializers[init.name()] = &init;
  for (const auto *list : {&graph.input(), &graph.value_info(), &graph.output()})
    for (const auto &info : *list)
      if (Type type = tensorType(context, info.type()))
        types[info.name()] = type;

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc());
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> inputTypes, outputTypes;
  SmallVector<std::string> inputNames;
  // An input with an initializer of its name: from IR version 4 on, ONNX
  // makes the initializer the input's default (the input stays, fed or
  // defaulted, as onnxruntime runs it); before, every initializer was
  // listed as an input too, and it is a constant.
  bool initializersAreDefaults = model.ir_version() >= 4;
  SmallVector<std::pair<unsigned, ElementsAttr>> defaults;
  for (const auto &input : graph.input()) {
    bool hasDefault = initializers.count(input.name()) != 0;
    if (hasDefault && !initializersAreDefaults)
      continue;
    if (hasDefault) {
      ElementsAttr value = largeInitializer(input.name());
      if (!value && !failedLookup)
        if (std::optional<DenseElementsAttr> dense = constantOf(input.name()))
          value = *dense;
      if (!value)
        return {}; // the initializer's own error says why
      defaults.push_back({static_cast<unsigned>(inputNames.size()), value});
      // Never folded as a constant: a run may feed another value.
      initializers.erase(input.name());
      constants.erase(input.name());
      resources.erase(input.name());
    }
    Type type = typeOf(input.name());
    if (!type) {
      // Inference's own warnings would have come first.
      if (inferenceStream && failed(finishInference()))
        return {};
      error() << "graph input '" << input.name()
              << "' is not a tensor of a supported element type (float, "
                 "integer or bool; strings and complex numbers are not)";
      return {};
    }
    size_t position = inputNames.size();
    if (position < options.runInputValues.size() && options.runInputValues[position])
      runValues[input.name()] = *options.runInputValues[position];
    inputTypes.push_back(type);
    inputNames.push_back(input.name());
  }
  // With inference still running, the outputs are checked once it ends; the
  // function's type is set from what it returns in any case.
  if (!inferenceStream && failed(checkOutputTypes(outputTypes)))
    return {};
  std::string funcName = graph.name().empty() ? "main" : graph.name();
  auto func = func::FuncOp::create(builder, fileLoc(), "main",
                                   builder.getFunctionType(inputTypes, outputTypes));
  if (funcName != "main")
    func->setAttr("onnx.graph_name", builder.getStringAttr(funcName));
  Block *entry = func.addEntryBlock();
  functionEntry = entry;
  builder.setInsertionPointToStart(entry);
  for (auto [name, arg] : llvm::zip(inputNames, entry->getArguments())) {
    values[name] = arg;
    func.setArgAttr(arg.getArgNumber(), ascend::kArgNameAttr, builder.getStringAttr(name));
  }
  for (const auto &[position, value] : defaults) {
    func.setArgAttr(position, ascend::kArgDefaultAttr, value);
    emitRemark(fileLoc()) << "input '" << policy::escapeForDisplay(inputNames[position])
                          << "' has an initializer of its name: it stays an input, and the "
                             "initializer is its default (ONNX IR version 4 and later); a run "
                             "uses the default unless the input is given";
  }

  if (failed(convertMainGraph()))
    return {};

  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    Value value = lookup(output.name());
    if (!value) {
      error() << "graph output '" << output.name() << "' is never produced";
      return {};
    }
    results.push_back(value);
  }
  func::ReturnOp::create(builder, fileLoc(), results);
  // Ops nothing uses (shape computations whose consumers took the inferred
  // types instead) go now, so that warnings and counts are about the ops
  // that stay.
  eraseDeadOps(*entry);
  warnAboutGenericNodes(entry);
  warnAboutUnshapedBranches(entry);
  // The ops' result types are what the function returns.
  func.setType(builder.getFunctionType(inputTypes, TypeRange(ValueRange(results))));
  // The model's output names, for files that hold a run's outputs.
  for (auto [i, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, ascend::kArgNameAttr, builder.getStringAttr(output.name()));
  if (failed(verifyImported(*module, func)))
    return {};
  return module;
}

LogicalResult Importer::checkOutputTypes(SmallVectorImpl<Type> &outputTypes) {
  for (const auto &output : model.graph().output()) {
    Type type = typeOf(output.name());
    if (!type) {
      error() << "graph output '" << output.name()
              << "' is not a tensor of a supported element type (float, "
                 "integer or bool; strings and complex numbers are not)";
      return failure();
    }
    outputTypes.push_back(type);
  }
  return success();
}

LogicalResult Importer::convertMainGraph() {
  const onnx::GraphProto &graph = model.graph();
  if (!inferenceStream) {
    for (int i = 0; i < graph.node_size(); ++i)
      if (failed(convertNode(graph.node(i), i)))
        return failure();
    return success();
  }
  // Node i is converted once inference has typed nodes 0..i. What the
  // conversion reports is held until inference has ended, so that the
  // diagnostics come in the order they would without streaming: a failed
  // inference's warning (or an output error, which stops the import)
  // first.
  std::vector<Diagnostic> held;
  LogicalResult converted = success();
  {
    ScopedDiagnosticHandler hold(context, [&](Diagnostic &diag) {
      held.push_back(std::move(diag));
      return success();
    });
    auto setType = [&](const std::string &name, const onnx::TypeProto &type) {
      if (Type tensor = tensorType(context, type))
        types[name] = tensor;
    };
    for (int i = 0; i < graph.node_size() && succeeded(converted); ++i) {
      inferenceStream->awaitNodes(i + 1, setType);
      // Inference died: finishInference reports it, and what was converted
      // is dropped.
      if (inferenceStream->failed())
        break;
      converted = convertNode(graph.node(i), i);
    }
  }
  if (failed(finishInference()))
    return failure();
  for (const onnx::ValueInfoProto &output : graph.output())
    if (Type type = tensorType(context, output.type()))
      types[output.name()] = type;
  SmallVector<Type> outputTypes;
  if (failed(checkOutputTypes(outputTypes)))
    return failure();
  for (Diagnostic &diag : held)
    context->getDiagEngine().emit(std::move(diag));
  return converted;
}

/// The import's last check, without re-deriving dominance in the function's
/// body: its ops are made in the graph's order, which ONNX's checker has
/// found topological, from values already made, so each use follows its
/// definition by construction (on a 200k-node graph, the order and
/// dominance walk was two thirds of verifying). Every op still has its own
/// checks run, and an op with regions (If, Loop, Scan) is verified whole,
/// dominance inside its bodies included.
/// Whether `type` has more elements than any tensor can (2^62: element
/// counts times a dtype's bytes must fit 63 bits everywhere downstream, in
/// planning, the cost model and a run), found without overflowing.
static bool tooManyElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return false;
  constexpr uint64_t kLimit = uint64_t{1} << 62;
  uint64_t elements = 1;
  for (int64_t dim : shaped.getShape()) {
    if (dim <= 0)
      continue; // dynamic, or empty
    if (elements > kLimit / static_cast<uint64_t>(dim))
      return true;
    elements *= static_cast<uint64_t>(dim);
  }
  return elements > kLimit;
}

/// Refuses shapes whose element count overflows: a declared shape, an
/// --input_shape or shape inference that multiplies to more than 2^62
/// elements is an error naming the input or node, not a wrapped count.
static LogicalResult checkShapeSizes(func::FuncOp func) {
  for (BlockArgument argument : func.getArguments())
    if (tooManyElements(argument.getType())) {
      auto name = func.getArgAttrOfType<StringAttr>(argument.getArgNumber(), "ascend.name");
      emitError(func.getLoc()) << "input '" << (name ? name.getValue() : StringRef("?"))
                               << "' has the shape " << argument.getType()
                               << ", more than 2^62 elements: no tensor can be that large; "
                                  "check --input_shape and the model's input shapes";
      return failure();
    }
  WalkResult walked = func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (tooManyElements(result.getType())) {
        op->emitError() << "its result has the shape " << result.getType()
                        << ", more than 2^62 elements: no tensor can be that large; check "
                           "--input_shape and the shapes the model computes";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walked.wasInterrupted());
}

static LogicalResult verifyImported(ModuleOp module, func::FuncOp func) {
  if (failed(checkShapeSizes(func)))
    return failure();
  if (failed(verify(module, /*verifyRecursively=*/false)) ||
      failed(verify(func, /*verifyRecursively=*/false)))
    return failure();
  for (Operation &op : func.getBody().front())
    if (failed(verify(&op, /*verifyRecursively=*/op.getNumRegions() != 0)))
      return failure();
  return success();
}

/// Erases ops nothing uses, inside If/Loop/Scan regions too.
static void eraseDeadOps(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        eraseDeadOps(inner);
    if (isOpTriviallyDead(&op))
      op.erase();
  }
}

void Importer::releaseModelInBackground() {
  constexpr int kBackgroundReleaseNodes = 10000;
  if (model.graph().node_size() < kBackgroundReleaseNodes)
    return;
  auto released = std::make_unique<onnx::ModelProto>();
  released->Swap(&model); // both on the heap: pointers change hands
  try {
    std::thread([released = std::move(released)]() mutable { released.reset(); }).detach();
  } catch (const std::system_error &) {
    // No thread to be had: the model is freed here, as it would have been.
  }
}

/// The protobuf limit: a serialized message over 2 GB cannot be read.
static bool tooLarge(size_t bytes) { return bytes > static_cast<size_t>(INT32_MAX); }

static void reportUnparsable(Importer &importer, StringRef path, size_t bytes) {
  if (tooLarge(bytes))
    importer.error() << "'" << policy::escapeForDisplay(path.str())
                     << "' is larger than 2 GB, which a protobuf cannot hold; "
                        "such models keep their weights as external data, which "
                        "is not supported";
  else
    importer.error() << "'" << policy::escapeForDisplay(path.str())
                     << "' is not an ONNX model: the protobuf does not parse";
}

OwningOpRef<ModuleOp> ascendprec::importONNX(StringRef bytes, StringRef path,
                                                   MLIRContext *context,
                                                   ONNXImportStats *stats,
                                                   const ONNXImportOptions &options) {
  context->loadDialect<ascend::AscendDialect, func::FuncDialect>();
  Importer importer(context, path, stats, options);
  onnx::ModelProto model;
  if (tooLarge(bytes.size()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    reportUnparsable(importer, path, bytes.size());
    return {};
  }
  OwningOpRef<ModuleOp> module = importer.run(std::move(model));
  importer.releaseModelInBackground();
  return module;
}

OwningOpRef<ModuleOp> ascendprec::importONNXFile(StringRef path,
                                                       MLIRContext *context,
                                                       ONNXImportStats *stats,
                                                       const ONNXImportOptions &options) {
  context->loadDialect<ascend::AscendDialect, func::FuncDialect>();
  Importer importer(context, path, stats, options);
  // A regular file, parsed straight from the descriptor (no copy of the
  // whole file in memory) and never past the size it had when opened.
  std::string why;
  std::optional<policy::InputFile> file = policy::InputFile::open(path.str(), why);
  if (!file) {
    importer.error() << "cannot read the model '" << policy::escapeForDisplay(path.str())
                     << "': " << why;
    return {};
  }
  onnx::ModelProto model;
  google::protobuf::io::FileInputStream stream(file->descriptor());
  google::protobuf::io::CodedInputStream coded(&stream);
  // The file's size as the limit also lets protobuf reserve each large
  // string at once instead of growing it by doubling (a transient of half
  // the tensor again).
  if (!tooLarge(file->size()))
    coded.SetTotalBytesLimit(static_cast<int>(file->size()));
  if (tooLarge(file->size()) || !model.ParseFromCodedStream(&coded) ||
      !coded.ConsumedEntireMessage()) {
    reportUnparsable(importer, path, file->size());
    return {};
  }
  OwningOpRef<ModuleOp> module = importer.run(std::move(model));
  importer.releaseModelInBackground();
  return module;
}
