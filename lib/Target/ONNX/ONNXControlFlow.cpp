//===- ONNXControlFlow.cpp - If, Loop and Scan with their subgraphs -------===//
//
// ONNX's control-flow ops become ascend.If / ascend.Loop / ascend.Scan whose
// regions hold the subgraphs' nodes, imported by the same converters as the
// main graph. A subgraph reads the values of the graphs around it by name
// (the regions are not isolated); its own names end with it. An If whose
// condition is known at import is replaced by the branch that runs.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include "AscendPrec/Policy/Diagnostics.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

const onnx::GraphProto *subgraph(const NodeConverter &node, const std::string &attrName) {
  const onnx::AttributeProto *attribute = node.attr(attrName);
  return attribute && attribute->has_g() ? &attribute->g() : nullptr;
}

/// `preferred` when it says more than `fallback` and fits it, else `fallback`.
Type moreSpecific(Type preferred, Type fallback) {
  if (!preferred)
    return fallback;
  if (!fallback)
    return preferred;
  bool fits = getElementTypeOrSelf(preferred) == getElementTypeOrSelf(fallback) &&
              succeeded(verifyCompatibleShape(preferred, fallback));
  return fits && isa<RankedTensorType>(preferred) ? preferred : fallback;
}

/// What holds whichever of two values a branch yields: the dimensions both
/// know alike; unranked when their ranks differ.
Type common(Type first, Type second) {
  auto a = dyn_cast<RankedTensorType>(first);
  auto b = dyn_cast<RankedTensorType>(second);
  if (a && b && a.getElementType() == b.getElementType() && a.getRank() == b.getRank()) {
    SmallVector<int64_t> shape(a.getShape());
    for (auto [dim, other] : llvm::zip(shape, b.getShape()))
      if (dim != other)
        dim = ShapedType::kDynamic;
    return a.clone(shape);
  }
  return UnrankedTensorType::get(getElementTypeOrSelf(first));
}

/// What two compatible descriptions of one value say together: every
/// dimension either knows (ONNX's `?x1` and both branches' `1x1` give
/// `1x1`); `first` when they disagree.
Type joined(Type first, Type second) {
  auto a = dyn_cast_or_null<RankedTensorType>(first);
  auto b = dyn_cast_or_null<RankedTensorType>(second);
  if (!a || !b)
    return moreSpecific(first, second);
  if (a.getElementType() != b.getElementType() || failed(verifyCompatibleShape(a, b)))
    return first;
  SmallVector<int64_t> shape(a.getShape());
  for (auto [dim, other] : llvm::zip(shape, b.getShape()))
    if (ShapedType::isDynamic(dim))
      dim = other;
  return a.clone(shape);
}

/// `slice` with a dynamic dimension inserted at `axis`: one scan output.
Type stacked(Type slice, int64_t axis) {
  auto ranked = dyn_cast<RankedTensorType>(slice);
  if (!ranked)
    return slice;
  SmallVector<int64_t> shape(ranked.getShape());
  int64_t rank = ranked.getRank() + 1;
  axis = axis < 0 ? axis + rank : axis;
  shape.insert(shape.begin() + std::clamp<int64_t>(axis, 0, rank - 1), ShapedType::kDynamic);
  return RankedTensorType::get(shape, ranked.getElementType());
}

/// `whole` without dimension `axis`: one scan input slice.
Type sliced(Type whole, int64_t axis) {
  auto ranked = dyn_cast<RankedTensorType>(whole);
  if (!ranked || ranked.getRank() == 0)
    return whole;
  SmallVector<int64_t> shape(ranked.getShape());
  axis = axis < 0 ? axis + ranked.getRank() : axis;
  shape.erase(shape.begin() + std::clamp<int64_t>(axis, 0, ranked.getRank() - 1));
  return RankedTensorType::get(shape, ranked.getElementType());
}

/// The type ONNX gives a subgraph input, or null.
Type inputType(MLIRContext *context, const onnx::GraphProto &graph, int index) {
  return index < graph.input_size() ? tensorType(context, graph.input(index).type()) : Type();
}

ArrayAttr inputNames(Builder &builder, const onnx::GraphProto &graph) {
  SmallVector<Attribute> names;
  for (const auto &input : graph.input())
    names.push_back(builder.getStringAttr(input.name()));
  return builder.getArrayAttr(names);
}

} // namespace

LogicalResult Importer::importSubgraph(const onnx::GraphProto &graph, ValueRange inputs,
                                       SmallVectorImpl<Value> &outputs) {
  // The subgraph's initializers and inferred types join the outer ones for
  // as long as it is being imported.
  std::vector<std::string> ownInitializers;
  for (const onnx::TensorProto &init : graph.initializer())
    if (initializers.try_emplace(init.name(), const_cast<onnx::TensorProto *>(&init)).second)
      ownInitializers.push_back(init.name());
  for (const auto *list : {&graph.input(), &graph.value_info(), &graph.output()})
    for (const auto &info : *list)
      if (Type type = tensorType(context, info.type()))
        types[info.name()] = type;

  scopes.emplace_back();
  for (auto [index, value] : llvm::enumerate(inputs))
    define(graph.input(static_cast<int>(index)).name(), value);
  LogicalResult result = success();
  for (int i = 0; i < graph.node_size() && succeeded(result); ++i)
    result = convertNode(graph.node(i), i);
  for (int i = 0; i < graph.output_size() && succeeded(result); ++i) {
    Value value = lookup(graph.output(i).name());
    if (!value) {
      emitError(fileLoc()) << "subgraph '" << policy::escapeForDisplay(graph.name())
                           << "' has the output '"
                           << policy::escapeForDisplay(graph.output(i).name())
                           << "', which nothing in it or around it defines";
      result = failure();
    }
    outputs.push_back(value);
  }

  for (const std::string &name : scopes.back()) {
    values.erase(name);
    constants.erase(name);
  }
  scopes.pop_back();
  for (const std::string &name : ownInitializers) {
    initializers.erase(name);
    resources.erase(name);
  }
  return result;
}

std::unique_ptr<Block> Importer::importBody(const onnx::GraphProto &graph, TypeRange argTypes,
                                            Location loc) {
  auto block = std::make_unique<Block>();
  for (Type type : argTypes)
    block->addArgument(type, loc);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block.get());
  SmallVector<Value> outputs;
  if (failed(importSubgraph(graph, block->getArguments(), outputs)))
    return nullptr;
  ascend::YieldOp::create(builder, loc, outputs);
  return block;
}

LogicalResult Importer::convertControlFlow(NodeConverter &converter) {
  const std::string &opType = converter.node.op_type();
  LogicalResult result = opType == "If"     ? convertIf(converter)
                         : opType == "Loop" ? convertLoop(converter)
                                            : convertScan(converter);
  if (succeeded(result) && stats)
    ++stats->dedicated;
  return result;
}

LogicalResult Importer::convertIf(NodeConverter &converter) {
  const onnx::NodeProto &node = converter.node;
  const onnx::GraphProto *thenGraph = subgraph(converter, "then_branch");
  const onnx::GraphProto *elseGraph = subgraph(converter, "else_branch");
  if (!thenGraph || !elseGraph || node.input_size() < 1)
    return emitError(converter.loc) << "If node '" << policy::escapeForDisplay(converter.name)
                                    << "' lacks its condition or one of its branches";

  // A condition known now (a constant, or shape arithmetic that folded)
  // picks the branch at import: its nodes join the enclosing graph.
  if (std::optional<DenseElementsAttr> cond = converter.constantInput(0)) {
    if (cond->getNumElements() != 1)
      return emitError(converter.loc) << "If node '" << policy::escapeForDisplay(converter.name)
                                      << "' has a condition with " << cond->getNumElements()
                                      << " elements; ONNX requires one";
    bool taken = cond->getElementType().isInteger(1) ? *cond->value_begin<bool>()
                                                      : !(*cond->value_begin<APInt>()).isZero();
    SmallVector<Value> outputs;
    if (failed(importSubgraph(taken ? *thenGraph : *elseGraph, {}, outputs)))
      return failure();
    for (auto [index, value] : llvm::enumerate(outputs))
      if (static_cast<int>(index) < node.output_size() && !node.output(index).empty())
        define(node.output(index), value);
    return success();
  }

  Value cond = converter.input(0);
  if (!cond)
    return failure();
  // The branch being imported, for ops whose shapes do not follow in it.
  branches.push_back({converter.name, false});
  std::unique_ptr<Block> thenBlock = importBody(*thenGraph, {}, converter.loc);
  branches.back().second = true;
  std::unique_ptr<Block> elseBlock = thenBlock ? importBody(*elseGraph, {}, converter.loc)
                                               : nullptr;
  branches.pop_back();
  if (!elseBlock)
    return failure();
  auto thenYield = cast<ascend::YieldOp>(thenBlock->getTerminator());
  auto elseYield = cast<ascend::YieldOp>(elseBlock->getTerminator());
  if (thenYield.getValues().size() != elseYield.getValues().size() ||
      static_cast<int>(thenYield.getValues().size()) != node.output_size())
    return emitError(converter.loc)
           << "If node '" << policy::escapeForDisplay(converter.name) << "' has "
           << node.output_size() << " outputs, but its branches have "
           << thenYield.getValues().size() << " and " << elseYield.getValues().size();
  // Each result: the inferred type, else what both branches agree on.
  SmallVector<Type> resultTypes;
  for (int i = 0; i < node.output_size(); ++i) {
    Type fromThen = thenYield.getValues()[i].getType();
    Type fromElse = elseYield.getValues()[i].getType();
    Type branches = common(fromThen, fromElse);
    resultTypes.push_back(joined(typeOf(node.output(i)), branches));
  }
  OperationState state(converter.loc, ascend::IfOp::getOperationName());
  state.addOperands(cond);
  state.addTypes(resultTypes);
  state.addAttribute("name", converter.nameAttr());
  state.addRegion()->push_back(thenBlock.release());
  state.addRegion()->push_back(elseBlock.release());
  return finishControlFlowOp(converter, state);
}

LogicalResult Importer::convertLoop(NodeConverter &converter) {
  const onnx::NodeProto &node = converter.node;
  const onnx::GraphProto *body = subgraph(converter, "body");
  if (!body)
    return emitError(converter.loc) << "Loop node '" << policy::escapeForDisplay(converter.name)
                                    << "' has no body";
  unsigned carried = node.input_size() > 2 ? node.input_size() - 2 : 0;
  if (body->input_size() != static_cast<int>(carried + 2) ||
      body->output_size() < static_cast<int>(carried + 1))
    return emitError(converter.loc)
           << "Loop node '" << policy::escapeForDisplay(converter.name) << "' carries " << carried
           << " values, but its body takes " << body->input_size() << " inputs and gives "
           << body->output_size() << " outputs (expected " << carried + 2 << " and at least "
           << carried + 1 << ")";
  Value maxTrips = converter.input(0), cond = converter.input(1);
  SmallVector<Value> initial;
  for (unsigned i = 0; i < carried; ++i) {
    Value value = converter.input(2 + i);
    if (!value)
      return failure();
    initial.push_back(value);
  }
  if (failedLookup)
    return failure();

  // Body arguments: the iteration number, the condition, then each
  // loop-carried value as the body declares it where that fits the initial
  // value, else as the initial value is.
  SmallVector<Type> argTypes = {RankedTensorType::get({}, builder.getI64Type()),
                                RankedTensorType::get({}, builder.getI1Type())};
  for (unsigned i = 0; i < carried; ++i)
    argTypes.push_back(
        moreSpecific(inputType(context, *body, 2 + i), initial[i].getType()));
  std::unique_ptr<Block> block = importBody(*body, argTypes, converter.loc);
  if (!block)
    return failure();
  auto yield = cast<ascend::YieldOp>(block->getTerminator());
  SmallVector<Type> resultTypes;
  for (unsigned i = 1; i < yield.getValues().size(); ++i) {
    Type yielded = yield.getValues()[i].getType();
    Type expected = i <= carried ? yielded : stacked(yielded, 0);
    resultTypes.push_back(static_cast<int>(i - 1) < node.output_size()
                              ? moreSpecific(typeOf(node.output(i - 1)), expected)
                              : expected);
  }
  OperationState state(converter.loc, ascend::LoopOp::getOperationName());
  if (maxTrips)
    state.addOperands(maxTrips);
  if (cond)
    state.addOperands(cond);
  state.addOperands(initial);
  state.addAttribute(ascend::LoopOp::getOperandSegmentSizesAttrName(state.name),
                     builder.getDenseI32ArrayAttr({maxTrips ? 1 : 0, cond ? 1 : 0,
                                                   static_cast<int32_t>(carried)}));
  state.addTypes(resultTypes);
  state.addAttribute("name", converter.nameAttr());
  state.addAttribute("arg_names", inputNames(builder, *body));
  state.addRegion()->push_back(block.release());
  return finishControlFlowOp(converter, state);
}

LogicalResult Importer::convertScan(NodeConverter &converter) {
  const onnx::NodeProto &node = converter.node;
  const onnx::GraphProto *body = subgraph(converter, "body");
  if (opset < 9)
    return emitError(converter.loc)
           << "Scan node '" << policy::escapeForDisplay(converter.name)
           << "' uses the opset-8 form (with sequence_lens and a batch axis), which is not "
              "imported; re-export the model at opset 9 or later";
  int64_t scanInputs = converter.intAttr("num_scan_inputs", 0);
  int64_t states = node.input_size() - scanInputs;
  if (!body || scanInputs <= 0 || states < 0 || body->input_size() != node.input_size() ||
      body->output_size() < states)
    return emitError(converter.loc)
           << "Scan node '" << policy::escapeForDisplay(converter.name)
           << "' does not fit its body: " << node.input_size() << " inputs with num_scan_inputs "
           << scanInputs << ", a body with " << (body ? body->input_size() : 0) << " inputs and "
           << (body ? body->output_size() : 0) << " outputs";
  SmallVector<Value> operands;
  for (int i = 0; i < node.input_size(); ++i) {
    Value value = converter.input(i);
    if (!value)
      return failure();
    operands.push_back(value);
  }
  std::vector<int64_t> inputAxes =
      converter.intsAttr("scan_input_axes").value_or(std::vector<int64_t>(scanInputs, 0));
  std::vector<int64_t> outputAxes = converter.intsAttr("scan_output_axes")
                                        .value_or(std::vector<int64_t>(
                                            std::max<int64_t>(0, body->output_size() - states), 0));
  if (static_cast<int64_t>(inputAxes.size()) != scanInputs ||
      static_cast<int64_t>(outputAxes.size()) != body->output_size() - states)
    return emitError(converter.loc) << "Scan node '" << policy::escapeForDisplay(converter.name)
                                    << "' has scan axes that do not match its scan inputs "
                                       "and outputs";

  SmallVector<Type> argTypes;
  for (int64_t i = 0; i < node.input_size(); ++i) {
    Type fromOperand = i < states ? operands[i].getType()
                                  : sliced(operands[i].getType(), inputAxes[i - states]);
    argTypes.push_back(moreSpecific(inputType(context, *body, i), fromOperand));
  }
  std::unique_ptr<Block> block = importBody(*body, argTypes, converter.loc);
  if (!block)
    return failure();
  auto yield = cast<ascend::YieldOp>(block->getTerminator());
  SmallVector<Type> resultTypes;
  for (int64_t i = 0; i < static_cast<int64_t>(yield.getValues().size()); ++i) {
    Type yielded = yield.getValues()[i].getType();
    Type expected = i < states ? yielded : stacked(yielded, outputAxes[i - states]);
    resultTypes.push_back(i < node.output_size() ? moreSpecific(typeOf(node.output(i)), expected)
                                                 : expected);
  }
  OperationState state(converter.loc, ascend::ScanOp::getOperationName());
  state.addOperands(operands);
  state.addAttribute(ascend::ScanOp::getOperandSegmentSizesAttrName(state.name),
                     builder.getDenseI32ArrayAttr(
                         {static_cast<int32_t>(states), static_cast<int32_t>(scanInputs)}));
  auto copyArray = [&](const char *name) {
    if (std::optional<std::vector<int64_t>> values = converter.intsAttr(name))
      state.addAttribute(name, builder.getDenseI64ArrayAttr(*values));
  };
  for (const char *name : {"scan_input_axes", "scan_input_directions", "scan_output_axes",
                           "scan_output_directions"})
    copyArray(name);
  state.addTypes(resultTypes);
  state.addAttribute("name", converter.nameAttr());
  state.addAttribute("arg_names", inputNames(builder, *body));
  state.addRegion()->push_back(block.release());
  return finishControlFlowOp(converter, state);
}

LogicalResult Importer::finishControlFlowOp(NodeConverter &converter, OperationState &state) {
  Operation *op = builder.create(state);
  // A body whose shapes ONNX could not line up with the node's is a model
  // error worth its own message, not a crash later.
  std::string why;
  {
    ScopedDiagnosticHandler quiet(context, [&](Diagnostic &diag) {
      if (why.empty())
        why = diag.str();
      return success();
    });
    // The op's own checks only: inside a body still being built (an If in a
    // Loop) there is no enclosing function for dominance yet; the module is
    // verified as a whole at the end of the import.
    if (succeeded(op->getName().verifyInvariants(op))) {
      for (int i = 0; i < converter.node.output_size() &&
                      i < static_cast<int>(op->getNumResults());
           ++i)
        if (!converter.node.output(i).empty())
          define(converter.node.output(i), op->getResult(i));
      return success();
    }
  }
  op->erase();
  return emitError(converter.loc) << converter.node.op_type() << " node '"
                                  << policy::escapeForDisplay(converter.name)
                                  << "' does not fit its body: " << why;
}
