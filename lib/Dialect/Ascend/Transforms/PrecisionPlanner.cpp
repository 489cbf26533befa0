//===- PrecisionPlanner.cpp - decide every op's dtypes --------------------===//
//
// For each op: describe it to the policy (op type, names, origin dtypes),
// build the ordered list of dtype requests the rules allow (mode, list colour,
// keep_dtype, customize_dtypes pins), take the first request some kernel row
// fits, and record the decision with its rule and source.
//
//===----------------------------------------------------------------------===//

#include "PrecisionPlanner.h"
#include "PolicyBridge.h"

#include "AscendPrec/Policy/DTypeRequests.h"
#include "AscendPrec/Policy/OnnxOpTypes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"

#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"
#include "AscendPrec/Dialect/Ascend/Transforms/NodeLocation.h"

#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using policy::DType;
using policy::PrecisionMode;

namespace {

/// ST-1: a 2-D MaxPool CANN's ONNX parser builds on the AI CPU instead of
/// MaxPoolV3 (hicann/ops-nn common/src/framework/max_pool_onnx_plugin.cpp,
/// ParseOpToGraphMaxPool: a window over 255 elements or a stride over 63,
/// on every SoC before the Ascend950 family).
bool parserSendsToAICpu(Operation *op) {
  auto pool = dyn_cast<MaxPoolOp>(op);
  if (!pool)
    return false;
  ArrayRef<int64_t> ksize = pool.getKsize(), strides = pool.getStrides();
  return ksize.size() == 2 && strides.size() == 2 &&
         (ksize[0] * ksize[1] > 255 || strides[0] > 63 || strides[1] > 63);
}


using policy::OpShape;
using policy::Unit;

ascend::ListColor toAttr(policy::ListColor color) {
  switch (color) {
  case policy::ListColor::White:
    return ascend::ListColor::White;
  case policy::ListColor::Black:
    return ascend::ListColor::Black;
  case policy::ListColor::Gray:
    return ascend::ListColor::Gray;
  case policy::ListColor::None:
    return ascend::ListColor::None;
  }
  return ascend::ListColor::None;
}

std::string mlirName(DType dtype, MLIRContext *context) {
  Type type = toMlirType(context, dtype);
  if (!type)
    return policy::dtypeName(dtype);
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

bool isWider(DType a, DType b) {
  auto rank = [](DType d) {
    switch (d) {
    case DType::Double:
      return 4;
    case DType::Float32:
      return 3;
    case DType::Float16:
    case DType::BFloat16:
      return 2;
    case DType::HiFloat8:
      return 1;
    default:
      return 0;
    }
  };
  return rank(a) > rank(b);
}

} // namespace

const policy::ListAnswer &
PrecisionPlanner::listColorOf(const std::string &opType) {
  auto it = listColors.find(opType);
  if (it == listColors.end())
    it = listColors.emplace(opType, policy.listColor(opType)).first;
  return it->second;
}

const policy::KernelRowsAnswer &
PrecisionPlanner::rowsOf(const policy::OpQuery &query) {
  auto it = unpinnedRows.find(query.opType);
  if (it == unpinnedRows.end()) {
    policy::DiagnosticList unused; // rows without a pin report nothing
    it = unpinnedRows.emplace(query.opType, policy.kernelRows(query, {}, unused))
             .first;
  }
  return it->second;
}

LogicalResult PrecisionPlanner::planFunction(func::FuncOp func) {
  bool ok = true;
  // About one value per op: sized once rather than grown (and rehashed)
  // step by step on graphs of 100k+ ops.
  if (!func.getBody().empty())
    planned.reserve(planned.size() + func.getBody().front().getOperations().size());
  func.walk([&](AscendOpInterface op) {
    if (op.holdsConstantData()) {
      planned[op->getResult(0)] = getElementTypeOrSelf(op->getResult(0));
      return;
    }
    ok &= succeeded(planOp(op));
  });
  ok &= !reportUnplannable();
  return success(ok);
}

bool PrecisionPlanner::reportUnplannable() {
  constexpr size_t kNamed = 5;
  for (const Unplannable &group : unplannable) {
    InFlightDiagnostic error = group.first->emitOpError()
                               << "(" << group.nodes.front() << ", origin " << group.origin
                               << ") " << group.failure << " [" << group.rule << "]";
    size_t more = group.nodes.size() - 1;
    if (more > 0) {
      error << "; the same holds for " << more << " more " << group.opType
            << (more == 1 ? " op (" : " ops (");
      for (size_t i = 1; i <= more && i <= kNamed; ++i)
        error << (i > 1 ? ", " : "") << group.nodes[i];
      if (more > kNamed)
        error << " and " << more - kNamed << " more";
      error << ")";
    }
    error << "; its kernels support:" << group.rows;
    tagRule(error, group.rule);
    if (group.configured)
      error.attachNote(*group.configured) << "configured here";
  }
  bool any = !unplannable.empty();
  unplannable.clear();
  unplannableIndex.clear();
  return any;
}

Type PrecisionPlanner::followedDType(AscendOpInterface op,
                                     std::string &producerName) {
  for (unsigned index : op.getInputVisitOrder()) {
    Value value = op->getOperand(index);
    if (!isa<FloatType>(getElementTypeOrSelf(value)))
      continue; // indices and other integer inputs carry no precision
    Operation *producer = value.getDefiningOp();
    // ML-4: graph inputs are passed over like constants (docs/decisions.md),
    // so that x + f(x) and f(x) + x follow f alike. So are the results and
    // body arguments of If, Loop and Scan: they keep the model's dtypes
    // (docs/control-flow.md).
    auto producerOp = dyn_cast_or_null<AscendOpInterface>(producer);
    if (!producerOp || producerOp.holdsConstantData())
      continue;
    Type dtype = planned.lookup(value);
    if (!dtype)
      dtype = getElementTypeOrSelf(value);
    // ML-4: a Cast from a low dtype to fp32 that is not black is looked
    // through: the op follows what the Cast converts.
    if (auto cast = dyn_cast<CastOp>(producer)) {
      Type source = planned.lookup(cast.getX());
      if (!source)
        source = getElementTypeOrSelf(cast.getX());
      if (dtype.isF32() && (source.isF16() || source.isBF16()) &&
          policy.listColor("Cast").color != policy::ListColor::Black) {
        producerName = cast.getName().str() + "'s input";
        return source;
      }
    }
    producerName = cast<AscendOpInterface>(producer).getNodeName().str();
    return dtype;
  }
  return {};
}

LogicalResult PrecisionPlanner::describeOp(AscendOpInterface op, OpShape &shape) {
  shape.query.opType = op.getOpType().str();
  shape.query.nodeName = op.getNodeName().str();
  // A named vector: drop_begin of a temporary would dangle.
  SmallVector<StringRef> originalNames = op.getOriginalNames();
  for (StringRef name : llvm::drop_begin(originalNames))
    shape.query.absorbedNames.push_back(name.str());
  // Names and types are only needed for the unused-settings warnings and
  // for suggesting what an --explain name that matches nothing meant.
  bool byName = policy.keepDTypeList || policy.customizeList || policy.opPrecisionMode ||
                !explainOnly.empty();
  if (byName) {
    nodeNames.insert(shape.query.nodeName);
    nodeNames.insert(shape.query.absorbedNames.begin(), shape.query.absorbedNames.end());
  }
  if (byName || policy.mixList || !policy.optypelistForImplmode.empty())
    opTypes.insert(shape.query.opType);

  // Origin dtypes; an element type the policy cannot name is not planned.
  auto describe = [&](Type type, std::vector<DType> &dtypes, std::vector<bool> &isFloat,
                      int &primary) {
    std::optional<DType> dtype = toDType(type);
    if (!dtype)
      return false;
    isFloat.push_back(policy::isFloat(*dtype) && isa<FloatType>(type));
    if (isFloat.back() && primary < 0)
      primary = static_cast<int>(dtypes.size());
    dtypes.push_back(*dtype);
    return true;
  };
  for (Value operand : op->getOperands())
    if (!describe(getElementTypeOrSelf(operand), shape.query.inputDTypes, shape.floatInputs,
                  shape.primaryInput))
      return op->emitOpError("has an operand of element type ")
             << getElementTypeOrSelf(operand)
             << ", which no CANN dtype names; it cannot be planned";
  for (Value result : op->getResults())
    if (!describe(getElementTypeOrSelf(result), shape.query.outputDTypes, shape.floatOutputs,
                  shape.primaryOutput))
      return op->emitOpError("has a result of element type ")
             << getElementTypeOrSelf(result)
             << ", which no CANN dtype names; it cannot be planned";

  // Shape and Size read dimensions only: no float data of theirs.
  if (op->hasTrait<ascend::ReadsOnlyDimensions>())
    shape.primaryInput = -1;
  if (shape.primaryInput >= 0)
    shape.origin = shape.query.inputDTypes[shape.primaryInput];
  else if (shape.primaryOutput >= 0)
    shape.origin = shape.query.outputDTypes[shape.primaryOutput];
  return success();
}

bool PrecisionPlanner::flushDiagnostics(Operation *op, policy::DiagnosticList &diags) {
  // Per-op policy errors become op errors with a note at the config line.
  bool failedAny = false;
  for (const policy::Diagnostic &diag : diags.all()) {
    std::string text = diag.message + (diag.rule.empty() ? "" : " [" + diag.rule + "]");
    if (diag.severity == policy::Severity::Error) {
      InFlightDiagnostic error = op->emitError(text);
      tagRule(error, diag.rule);
      if (diag.loc.isKnown())
        error.attachNote(toLocation(op->getContext(), diag.loc, op->getLoc()))
            << "configured here";
      failedAny = true;
    } else {
      op->emitWarning(text);
      collected.warning(diag.loc, diag.message, diag.rule);
    }
  }
  diags = {};
  return failedAny;
}

bool PrecisionPlanner::inOperatorLibrary(AscendOpInterface op, const std::string &opType,
                                         bool &misfit) {
  const policy::OpInfo *info = policy.library.find(opType);
  misfit = false;
  if (!info)
    return false;
  if (op.hasDedicatedOp())
    return true;
  // A generic op may share a dedicated op type in a form the library's
  // kernels do not take (a 3-input Max as Maximum): then it is unknown too.
  auto fits = [&](const std::optional<policy::KernelInfo> &kernel) {
    if (!kernel)
      return false;
    auto dynamic = [](const std::vector<policy::KernelParam> &params) {
      return llvm::any_of(params, [](const policy::KernelParam &param) {
        return param.paramType == "dynamic";
      });
    };
    return (op->getNumOperands() <= kernel->inputs.size() || dynamic(kernel->inputs)) &&
           (op->getNumResults() <= kernel->outputs.size() || dynamic(kernel->outputs));
  };
  misfit = !fits(info->aicore) && !fits(info->aicpu);
  return !misfit;
}

void PrecisionPlanner::keepAsIs(AscendOpInterface op, OpDecision &decision,
                                policy::Provenance why) {
  // Casts keep their conversion: the input follows its producer. So does
  // AscendQuant's fp16 or fp32 input (its kernel takes both, QT-1).
  bool isCast = isa<CastOp>(op.getOperation());
  bool followsProducer = isCast || isa<AscendQuantOp>(op.getOperation());
  for (Value operand : op->getOperands()) {
    Type in = planned.lookup(operand);
    bool accepted = in && (isCast || in.isF16() || in.isF32());
    decision.inputs.push_back(followsProducer && accepted ? in : getElementTypeOrSelf(operand));
  }
  for (Value result : op->getResults())
    decision.outputs.push_back(getElementTypeOrSelf(result));
  if (isCast)
    decision.compute = decision.outputs.front();
  decision.why = std::move(why);
}

LogicalResult PrecisionPlanner::planOp(AscendOpInterface op) {
  OpShape shape;
  if (failed(describeOp(op, shape)))
    return failure();
  OpDecision decision;
  decision.origin = decision.compute = toMlirType(op->getContext(), shape.origin);
  decision.engine = op.getComputeUnit() == ComputeUnit::Cube ? ascend::Engine::AICoreCube
                                                             : ascend::Engine::AICoreVector;
  bool misfit = false;
  bool inLibrary = inOperatorLibrary(op, shape.query.opType, misfit);
  bool dimensionsOnly = op->hasTrait<ascend::ReadsOnlyDimensions>();
  bool isQuantization = isa<AscendQuantOp, AscendDequantOp, AscendAntiQuantOp>(op.getOperation());
  if (isa<CastOp>(op.getOperation())) {
    // A Cast an option asked for (--input_fp16_nodes, --output_type) names
    // that option as its source.
    policy::SourceLoc from;
    if (auto option = op->getAttrOfType<StringAttr>(ascend::kRequestedByAttr))
      from = policy::SourceLoc{option.str()};
    keepAsIs(op, decision, {"OP-4", from, "Cast keeps its target dtype; its input follows its producer"});
  } else if (isQuantization) {
    // QT-1: the quantization parameters fix these dtypes; no mode or list
    // changes them (docs/quantization.md).
    keepAsIs(op, decision, {"QT-1", {}, "a quantization op keeps the dtypes its quantization fixed"});
    // What the kernel computes in (docs/quantization.md): fp16, except
    // AscendDequant's fp32 product outside the Ascend910 (v100) family.
    bool halfDequant = policy.soc.family == "Ascend910" || policy.soc.family == "Ascend310";
    decision.compute = isa<AscendDequantOp>(op.getOperation()) && !halfDequant
                           ? Type(Float32Type::get(op->getContext()))
                           : Type(Float16Type::get(op->getContext()));
    policy::DiagnosticList diags;
    if (policy.customizeDTypes(shape.query, diags).pinned || policy.keepDType(shape.query).keep)
      op->emitWarning() << "node '" << shape.query.nodeName << "' (" << shape.query.opType
                        << ") is a quantization op: its dtypes are fixed by the quantization, "
                           "so its customize_dtypes / keep_dtype entry has no effect [QT-1]";
  } else if (shape.primaryInput < 0 && shape.primaryOutput < 0) {
    // Integer and bool ops compute in their own dtype; Shape and Size in
    // their result's.
    Value data = op->getNumOperands() && !dimensionsOnly ? op->getOperand(0) : op->getResult(0);
    decision.origin = decision.compute = getElementTypeOrSelf(data);
    keepAsIs(op, decision, {"OP-4", {}, dimensionsOnly ? "reads only its input's dimensions"
                                                       : "no floating-point data"});
    // An op only the AI CPU implements (BitShift's LeftShift/RightShift)
    // runs there whatever its dtype (OP-4).
    if (const policy::OpInfo *info = policy.library.find(shape.query.opType);
        info && !info->aicore && info->aicpu)
      decision.engine = ascend::Engine::AICPU;
  } else if (!inLibrary) {
    (misfit ? misfitGenericOpTypes : unknownOpTypes).insert(shape.query.opType);
    keepAsIs(op, decision,
             {"OP-4", policy::SourceLoc{policy::kNoLibraryEntrySource},
              misfit ? "its operands or results do not fit the library entry of " +
                           shape.query.opType + ": kept at its origin dtype"
                     : "not in the operator library for " + policy.soc.family +
                           ": kept at its origin dtype"});
  } else if (failed(decideByRules(op, shape, decision))) {
    return failure();
  }
  // Lists sort floating-point computation; integer ops are on none.
  decision.listed = policy::isMixedMode(policy.mode) && inLibrary && !isQuantization &&
                    (shape.primaryInput >= 0 || shape.primaryOutput >= 0);
  recordDecision(op, shape, decision);
  return success();
}

LogicalResult PrecisionPlanner::decideByRules(AscendOpInterface op, const OpShape &shape,
                                              OpDecision &decision) {
  MLIRContext *context = op->getContext();
  // What the configuration asks for, strongest first: customize_dtypes
  // (CD-4), keep_dtype (KD-2), then the precision mode.
  policy::DiagnosticList diags;
  policy::OpSituation situation;
  situation.pin = policy.customizeDTypes(shape.query, diags);
  situation.keep = policy.keepDType(shape.query);
  if (flushDiagnostics(op, diags))
    return failure();
  policy::KernelRowsAnswer pinnedRows;
  if (situation.pin.pinned) {
    pinnedRows = policy.kernelRows(shape.query, situation.pin, diags);
    if (flushDiagnostics(op, diags) || !pinnedRows.ok)
      return failure();
  }
  const policy::KernelRowsAnswer &rows =
      situation.pin.pinned ? pinnedRows : rowsOf(shape.query);
  situation.cube = op.getComputeUnit() == ComputeUnit::Cube;
  situation.list = listColorOf(shape.query.opType);
  situation.rows = &rows;
  if (policy::isMixedMode(policy.mode) && situation.list.color == policy::ListColor::Gray) {
    // ML-4: the dtype of the producer a gray op follows.
    std::string producer;
    if (Type followed = followedDType(op, producer))
      if (std::optional<DType> dtype = toDType(followed)) {
        situation.followed = dtype;
        situation.followedText = producer + " (" + mlirName(*dtype, context) + ")";
      }
  }
  policy::RequestPlan plan = policy::planRequests(policy, shape, situation, diags);
  if (flushDiagnostics(op, diags))
    return failure();

  // The first request some row fits decides.
  std::optional<policy::RowChoice> choice = policy::chooseRow(plan, rows, shape);
  if (!choice) {
    noteUnplannable(op, shape, plan);
    return failure();
  }
  decision.compute = toMlirType(context, choice->compute);
  if (!decision.compute)
    return op->emitOpError("would compute in ")
           << policy::dtypeName(choice->compute)
           << ", which has no MLIR element type yet (hifloat8)";
  for (size_t i = 0; i < shape.query.inputDTypes.size(); ++i)
    decision.inputs.push_back(toMlirType(context, policy::rowDType(choice->row->inputs, i)));
  for (size_t j = 0; j < shape.query.outputDTypes.size(); ++j)
    decision.outputs.push_back(toMlirType(context, policy::rowDType(choice->row->outputs, j)));
  if (llvm::any_of(decision.inputs, [](Type t) { return !t; }) ||
      llvm::any_of(decision.outputs, [](Type t) { return !t; }))
    return op->emitOpError("its kernel row uses a dtype without an MLIR "
                           "element type (hifloat8)");
  if (choice->unit == Unit::AICPU)
    decision.engine = ascend::Engine::AICPU;
  if (parserSendsToAICpu(op)) {
    decision.engine = ascend::Engine::AICPU;
    Fallback &fallback = parserAicpuFallbacks[{shape.query.opType, ""}];
    if (fallback.nodes.empty())
      fallback.loc = op->getLoc();
    fallback.rule = "ST-1";
    fallback.nodes.push_back(shape.query.nodeName);
  }
  noteFallbacks(op, shape, plan, *choice, decision);
  decision.why = plan.why;
  return success();
}

void PrecisionPlanner::noteUnplannable(AscendOpInterface op, const OpShape &shape,
                                       const policy::RequestPlan &plan) {
  // One error per op type and cause (reportUnplannable), not per op.
  std::optional<Location> configured;
  if (plan.why.source.isKnown())
    configured = toLocation(op->getContext(), plan.why.source, op->getLoc());
  std::string originName = policy::dtypeName(shape.origin);
  std::string key = shape.query.opType + '\0' + originName + '\0' + plan.failure + '\0' +
                    plan.failureRule + '\0' + plan.why.sourceText();
  auto [it, inserted] = unplannableIndex.try_emplace(key, unplannable.size());
  if (inserted)
    unplannable.push_back({op.getOperation(), shape.query.opType, originName, plan.failure,
                           plan.failureRule, policy::rowsText(rowsOf(shape.query)), configured,
                           {}});
  unplannable[it->second].nodes.push_back(shape.query.nodeName);
}

void PrecisionPlanner::noteFallbacks(AscendOpInterface op, const OpShape &shape,
                                     const policy::RequestPlan &plan,
                                     const policy::RowChoice &choice,
                                     const OpDecision &decision) {
  auto note = [&](Fallback &fallback) {
    fallback.rule = plan.why.rule;
    if (fallback.nodes.empty())
      fallback.loc = op->getLoc();
    fallback.nodes.push_back(shape.query.nodeName);
  };
  // PM-6: force_fp32 falls back to a lower dtype where no kernel has
  // float32; say so, once per op type, as for AI CPU. A pin that asked for
  // the lower dtype (customize_dtypes, a replayed lockfile) is no fallback.
  llvm::StringRef rule = plan.why.rule;
  bool pinned = rule.starts_with("CD-") || rule.starts_with("KD-");
  if (policy.mode == PrecisionMode::ForceFp32 && !pinned && decision.origin &&
      decision.origin.isF32() && decision.compute.getIntOrFloatBitWidth() < 32)
    note(fp32Fallbacks[{shape.query.opType, dtypeNameOf(decision.compute)}]);
  if (choice.unit == Unit::AICPU)
    note(aicpuFallbacks[{shape.query.opType,
                         policy::dtypeName(policy::rowDType(choice.row->inputs, 0))}]);
}

void PrecisionPlanner::recordDecision(AscendOpInterface op, const OpShape &shape,
                                      const OpDecision &decision) {
  MLIRContext *context = op->getContext();
  for (auto [result, type] : llvm::zip(op->getResults(), decision.outputs))
    planned[result] = type;
  Type origin = decision.origin ? decision.origin : decision.compute;
  Type compute = decision.compute ? decision.compute : decision.origin;
  const policy::Provenance &why = decision.why;
  auto attr = PrecisionAttr::get(
      context, origin, compute, decision.inputs, decision.outputs, decision.engine,
      decision.listed ? toAttr(listColorOf(shape.query.opType).color) : ascend::ListColor::None,
      why.rule.empty() ? "OP-4" : why.rule, why.sourceText());
  op.setPrecisionDecision(attr);

  // IM-5/IM-6: the implementation mode.
  policy::DiagnosticList diags;
  policy::ImplModeAnswer impl = policy.implMode(shape.query, diags);
  flushDiagnostics(op, diags);
  if (impl.mode)
    if (std::optional<ImplMode> value = symbolizeImplMode(*impl.mode))
      op->setAttr("impl_mode", ImplModeAttr::get(context, *value));

  if (shouldExplain(shape.query)) {
    std::string computeName;
    llvm::raw_string_ostream os(computeName);
    attr.getCompute().print(os);
    InFlightDiagnostic remark = emitRemark(nodeLocation(op));
    remark << shape.query.nodeName;
    if (!shape.query.absorbedNames.empty())
      remark << " (with " << llvm::join(shape.query.absorbedNames, ", ")
             << ", fused into it)";
    remark << " computes in " << computeName << " on "
           << stringifyEngine(decision.engine) << ": " << why.why << " [" << attr.getRule()
           << ", " << attr.getSource() << "]";
    if (impl.mode)
      remark << "; impl mode " << *impl.mode << " [" << impl.why.rule << ", "
             << impl.why.sourceText() << "]";
  }
}

bool PrecisionPlanner::shouldExplain(const policy::OpQuery &op) {
  if (!explain)
    return false;
  if (explainOnly.empty())
    return true;
  // An original name explains the op it was fused into (FU-3).
  std::vector<std::string> keys = {op.nodeName, "OpType::" + op.opType};
  keys.insert(keys.end(), op.absorbedNames.begin(), op.absorbedNames.end());
  bool matched = false;
  for (const std::string &key : keys)
    if (explainOnly.count(key)) {
      explainMatched.insert(key);
      matched = true;
    }
  return matched;
}

void PrecisionPlanner::reportModelWarnings(Location loc) {
  policy::DiagnosticList diags;
  std::vector<std::string> unexplained;
  std::vector<std::string> types(opTypes.begin(), opTypes.end());
  std::vector<std::string> names(nodeNames.begin(), nodeNames.end());
  for (const std::string &key : explainOnly) {
    if (explainMatched.count(key))
      continue;
    // What it likely meant among the model's node names or op types; an
    // ONNX op type by its CANN name first (OpType::MatMul is BatchMatMulV2).
    std::vector<std::string> meant;
    llvm::StringRef type = key;
    if (type.consume_front("OpType::")) {
      std::string cann = policy::cannOpTypeForOnnx(type.str());
      if (cann != type && opTypes.count(cann))
        meant = {cann};
      else
        meant = policy::likelyMeant(type.str(), types);
      for (std::string &choice : meant)
        choice = "OpType::" + choice;
    } else {
      meant = policy::likelyMeant(key, names);
    }
    unexplained.push_back(meant.empty() ? key
                                        : key + " (did you mean " +
                                              policy::joinChoices(meant) + "?)");
  }
  if (explain && !unexplained.empty())
    diags.warning({"<command line>"},
                  "--explain names what matches no op of the model: " +
                      policy::joinChoices(unexplained, ", ") +
                      " (give node names, or OpType::<type>)");
  policy.reportUnusedSettings(nodeNames, opTypes, diags);
  // One warning per op type and dtype, at its first op (an editor can jump
  // there), naming up to five nodes.
  auto warnFallbacks = [&](const auto &fallbacks, const std::string &defaultRule,
                           auto describe) {
    for (const auto &[key, fallback] : fallbacks) {
      const auto &[opType, dtype] = key;
      size_t count = fallback.nodes.size();
      std::vector<std::string> named(fallback.nodes.begin(),
                                     fallback.nodes.begin() + std::min<size_t>(count, 5));
      std::string rule = fallback.rule.empty() ? defaultRule : fallback.rule;
      std::string text = std::to_string(count) + " " + opType + " " +
                         describe(count, opType, dtype) + " (" +
                         policy::joinChoices(named, ", ") +
                         (count > 5 ? " and " + std::to_string(count - 5) + " more" : "") +
                         ")";
      emitWarning(*fallback.loc) << text << " [" << rule << "]";
      collected.warning({}, text, rule);
    }
  };
  warnFallbacks(fp32Fallbacks, "PM-6",
                [&](size_t count, const std::string &opType, const std::string &dtype) {
                  return std::string(count == 1 ? "op computes" : "ops compute") + " in " +
                         dtype + ", not float32, under force_fp32: no AI Core kernel of " +
                         opType + " on " + policy.soc.family + " has float32";
                });
  warnFallbacks(parserAicpuFallbacks, "ST-1",
                [&](size_t count, const std::string &, const std::string &) {
                  return std::string(count == 1 ? "op runs" : "ops run") +
                         " on AI CPU, far slower than AI Core: CANN's ONNX parser sends a "
                         "MaxPool whose window holds more than 255 elements or whose stride "
                         "exceeds 63 there (max_pool_onnx_plugin.cpp), padded with -65504";
                });
  warnFallbacks(aicpuFallbacks, "OP-4",
                [&](size_t count, const std::string &opType, const std::string &dtype) {
                  const policy::OpInfo *info = policy.library.find(opType);
                  std::string why = info && !info->aicore
                                        ? "CANN has no AI Core kernel of " + opType
                                        : "the AI Core kernels of " + opType + " on " +
                                              policy.soc.family + " have no " + dtype + " row";
                  return std::string(count == 1 ? "op runs" : "ops run") +
                         " on AI CPU, far slower than AI Core: " + why;
                });
  if (!unknownOpTypes.empty()) {
    std::vector<std::string> names(unknownOpTypes.begin(), unknownOpTypes.end());
    diags.warning({}, "the operator library for " + policy.soc.family +
                          " has no entry for " + policy::joinChoices(names, ", ") +
                          "; these ops keep their origin dtypes",
                  "OP-4");
  }
  if (!misfitGenericOpTypes.empty()) {
    std::vector<std::string> names(misfitGenericOpTypes.begin(), misfitGenericOpTypes.end());
    diags.warning({}, "the operator library's entries for " + policy::joinChoices(names, ", ") +
                          " do not fit the operands or results of these ascend.generic ops; "
                          "they keep their origin dtypes",
                  "OP-4");
  }
  emitPolicyDiagnostics(loc.getContext(), diags, loc);
  collected.append(diags);
}
