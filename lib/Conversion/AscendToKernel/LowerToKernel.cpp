//===- LowerToKernel.cpp - prec-convert-ascend-to-kernel ------------------===//
//
// Drives the lowering: the target from the SoC's platform config, the
// options that change kernels (OP-3), the ops no pattern can lower named
// up front, UB groups, then the per-family patterns, applied once per op.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Conversion/AscendToKernel/AscendToKernel.h"
#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/Transforms/NodeLocation.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "AscendPrec/Dialect/Kernel/Analysis/KernelCost.h"
#include "CubeKernel.h"
#include "LoweringTables.h"
#include "RowKernels.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

namespace ascendprec {
#define GEN_PASS_DEF_CONVERTASCENDTOKERNEL
#include "AscendPrec/Conversion/Passes.h.inc"
} // namespace ascendprec

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

/// A dynamic-shape Reshape or GatherV2 fed (through others) by a NonZero or
/// NonMaxSuppressionV6: the host runs it (lib/Execution/DataDependentOps.cpp).
static bool dependsOnDataSizedResult(Operation *op) {
  if (!isa<ascend::ReshapeOp, ascend::GatherV2Op>(op))
    return false;
  for (Value operand : op->getOperands()) {
    Operation *producer = operand.getDefiningOp();
    if (producer && (isa<ascend::NonZeroOp, ascend::NonMaxSuppressionV6Op>(producer) ||
                     dependsOnDataSizedResult(producer)))
      return true;
  }
  return false;
}

namespace {

/// "If 'X' else branch" when `op` sits in a branch of an If in a function
/// whose arguments all have static shapes.
std::optional<std::string> branchWithStaticInputs(Operation *op) {
  Operation *child = op;
  for (Operation *parent = op->getParentOp(); parent; child = parent, parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<ascend::IfOp>(parent);
    if (!ifOp)
      continue;
    auto function = op->getParentOfType<FunctionOpInterface>();
    if (!function || llvm::any_of(function.getArgumentTypes(), [](Type type) {
          auto shaped = dyn_cast<ShapedType>(type);
          return shaped && !shaped.hasStaticShape();
        }))
      return std::nullopt;
    bool elseBranch = child->getParentRegion() == &ifOp->getRegion(1);
    auto name = ifOp->getAttrOfType<StringAttr>("name");
    return "If '" + (name ? name.str() : std::string("?")) + "' " +
           (elseBranch ? "else" : "then") + " branch";
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> ascendprec::kernel::whyNotLowerable(Operation *op,
                                                              const LoweringContext &context) {
  auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op);
  if (!ascendOp || ascendOp.holdsConstantData())
    return std::nullopt;
  if (auto branch = op->getAttrOfType<StringAttr>(ascend::kUnshapedBranchAttr))
    return "is a generic op of " + branch.str() +
           ", which cannot run with the given input shapes (no shape follows for its values)";
  if (!ascendOp.hasDedicatedOp())
    return "is a generic op ('" + ascendOp.getOpType().str() +
           "' has no dedicated Ascend op, so no kernel)";
  if (isa<ascend::IfOp, ascend::LoopOp, ascend::ScanOp>(op))
    return std::string("is control flow: it stays on the host graph (its subgraphs are "
                       "lowered)");
  if (isa<ascend::NonZeroOp, ascend::NonMaxSuppressionV6Op>(op))
    return std::string("writes as many elements as its input values decide: no kernel is "
                       "built; --run runs it on the host, as CANN runs it in dynamic-shape mode");
  // Data movement on such a result (Compress is NonZero, Reshape, GatherV2).
  if (dependsOnDataSizedResult(op))
    return std::string("moves data whose size a data-sized result decides: no kernel is "
                       "built; --run runs it on the host (exactly)");
  for (Type type : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type); shaped && !shaped.hasStaticShape()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "has a dynamic shape (" << type << ")";
      // With static model inputs, a branch whose shapes stay dynamic is
      // one that cannot run with them (a window of another sample rate).
      if (std::optional<std::string> branch = branchWithStaticInputs(op))
        os << " in " << *branch << ", whose shapes do not follow from the model's input shapes: "
           << "the branch cannot run with them";
      else
        os << ": give the input shapes (--input_shape)";
      return text;
    }
  StringRef opType = ascendOp.getOpType();
  ascend::PrecisionAttr decision = ascendOp.getPrecisionDecision();
  if (decision && decision.getEngine() == ascend::Engine::AICPU)
    return std::nullopt;
  if (isViewOpType(opType) || dmaKindOf(opType) || elementwiseKindOf(op) ||
      isa<ascend::CastOp, ascend::BatchNormOp, ascend::AscendQuantOp, ascend::AscendDequantOp,
          ascend::AscendAntiQuantOp>(op))
    return std::nullopt;
  if (isa<ascend::MatMulV2Op, ascend::BatchMatMulV2Op, ascend::Conv2DOp,
          ascend::Conv2DBackpropInputOp, ascend::Conv3DOp, ascend::Conv3DBackpropInputOp>(op))
    return whyCubeNotLowerable(op, context);
  if (reductionKindOf(opType))
    return whyReductionNotLowerable(op, context);
  if (isa<ascend::SoftmaxV2Op, ascend::LogSoftmaxV2Op, ascend::LayerNormOp,
          ascend::InstanceNormOp, ascend::LRNOp>(op))
    return whyNormalizationNotLowerable(op, context);
  if (isa<ascend::MaxPoolOp, ascend::AvgPoolOp, ascend::MaxPool3DOp, ascend::AvgPool3DOp>(op))
    return whyPoolingNotLowerable(op, context);
  if (isa<ascend::ResizeBilinearV2Op, ascend::ResizeBicubicOp, ascend::GridSampler2DOp>(op))
    return whyInterpolationNotLowerable(op, context);
  if (isa<ascend::DynamicRNNOp, ascend::DynamicGRUV2Op, ascend::RNNOp>(op))
    return whyRecurrentNotLowerable(op);
  if (isa<ascend::TopKV2Op>(op))
    return whySelectionNotLowerable(op, context);
  if (isa<ascend::EinsumOp>(op))
    return std::string("is an equation EinsumPass leaves whole ('...', a label repeated in an "
                       "operand, more than two operands or broadcast batch dimensions), and "
                       "CANN has no AI Core Einsum kernel");
  return std::string("has no kernel lowering yet");
}

namespace {

struct ConvertAscendToKernelPass
    : ascendprec::impl::ConvertAscendToKernelBase<ConvertAscendToKernelPass> {
  using ConvertAscendToKernelBase::ConvertAscendToKernelBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<policy::Policy> recorded;
    const policy::Policy *resolved = prebuilt.get();
    if (!resolved) {
      recorded = ascend::policyRecordedOn(module);
      if (!recorded)
        return signalPassFailure();
      resolved = &*recorded;
    }
    if (!resolved->library.platform) {
      module.emitError() << "no platform config for " << resolved->socVersion
                         << " in the operator library (" << resolved->librarySource
                         << "): the lowering needs its buffer sizes and core counts (OP-4)";
      return signalPassFailure();
    }
    LoweringContext context = makeContext(module, *resolved);
    SymbolTable symbols(module);
    context.symbols = &symbols;

    splitNonContiguousReductions(module);
    // --explain=OpType::T names the nodes of that type, and the kernels know
    // only node names: resolve it before the ops are lowered.
    llvm::StringSet<> explained;
    if (explain && !explainOnly.empty())
      explained = explainedNodes(module);
    llvm::DenseSet<Operation *> kept;
    if (failed(nameUnlowered(module, context, kept)))
      return signalPassFailure();
    lowerBufferGroups(module, context, explain);
    lowerEltwiseGroups(module, context, explain);

    RewritePatternSet patterns(&getContext());
    populateAICpuLoweringPatterns(patterns, context);
    populateCubeLoweringPatterns(patterns, context);
    populateVectorLoweringPatterns(patterns, context);
    populateQuantLoweringPatterns(patterns, context);
    populateReductionLoweringPatterns(patterns, context);
    populateInterpolationLoweringPatterns(patterns, context);
    populateRecurrentLoweringPatterns(patterns, context);
    populateSelectionLoweringPatterns(patterns, context);
    populateDataMovementLoweringPatterns(patterns, context);
    if (failed(lowerEachOp(module, kept, std::move(patterns))))
      return signalPassFailure();
    if (explain)
      explainKernels(module, explained);
  }

  /// The node names --explain=... selects: those named, and those of the
  /// op types named as OpType::T (with every name fused into them).
  llvm::StringSet<> explainedNodes(ModuleOp module) {
    llvm::StringSet<> names;
    for (const std::string &key : explainOnly)
      names.insert(key);
    module.walk([&](ascend::AscendOpInterface op) {
      if (!llvm::is_contained(explainOnly, "OpType::" + op.getOpType().str()))
        return;
      for (StringRef name : op.getOriginalNames())
        names.insert(name);
    });
    return names;
  }

  /// Replaces every ascend op that computes (not a constant, not one of
  /// `kept`) with its launch, in the order the graph lists them: the first
  /// op of a signature builds the kernel and names it. Every op lowers
  /// exactly once and nameUnlowered has already refused those that cannot,
  /// so a plain walk does what DialectConversion did, without its rollback
  /// bookkeeping (two thirds of the lowering time on a 200k-op graph).
  LogicalResult lowerEachOp(ModuleOp module, const llvm::DenseSet<Operation *> &kept,
                            RewritePatternSet &&patterns) {
    SmallVector<Operation *> toLower;
    module.walk([&](Operation *op) {
      auto ascendOp = dyn_cast<ascend::AscendOpInterface>(op);
      if (ascendOp && !ascendOp.holdsConstantData() && !kept.contains(op))
        toLower.push_back(op);
    });
    FrozenRewritePatternSet frozen(std::move(patterns));
    PatternApplicator applicator(frozen);
    applicator.applyDefaultCostModel();
    PatternRewriter rewriter(&getContext());
    SmallVector<OpFoldResult> folded;
    for (Operation *op : toLower) {
      // An identity Cast, Reshape or Transpose folds to its input.
      folded.clear();
      rewriter.setInsertionPoint(op);
      if (succeeded(op->fold(folded)) && !folded.empty() &&
          llvm::all_of(folded, [](OpFoldResult result) { return isa<Value>(result); })) {
        rewriter.replaceOp(op, llvm::map_to_vector(folded, [](OpFoldResult result) {
                             return cast<Value>(result);
                           }));
        continue;
      }
      if (failed(applicator.matchAndRewrite(op, rewriter)))
        return op->emitError() << "internal error: no kernel lowering applies to this op "
                                  "although it passed the lowering's checks; please report "
                                  "this with the model";
    }
    return success();
  }

  /// --explain: a remark per kernel on its op, with the tiles, what happens
  /// to the dtypes and the estimate; with explainOnly, only for kernels
  /// computing a named node.
  void explainKernels(ModuleOp module, const llvm::StringSet<> &explained) {
    auto target = module->getAttrOfType<TargetAttr>("akernel.target");
    SymbolTable symbols(module);
    llvm::DenseMap<Operation *, KernelCost> costs;
    // One remark per launch (a kernel shared by several nodes is explained
    // for each of them), on the node's own location.
    module.walk([&](LaunchOp launch) {
      auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
      ArrayAttr nodes = launch.getNodesAttr() ? launch.getNodesAttr() : kernel.getNodes();
      if (!kernel || (!explainOnly.empty() && llvm::none_of(nodes, [&](Attribute node) {
                        return explained.contains(cast<StringAttr>(node).getValue());
                      })))
        return;
      auto [it, inserted] = costs.try_emplace(kernel.getOperation());
      if (inserted)
        it->second = estimateKernel(kernel, target);
      explainLaunch(launch, kernel, it->second, target);
    });
  }

  void explainLaunch(LaunchOp launch, KernelOp kernel, const KernelCost &cost,
                     TargetAttr target) {
    double freq = std::max<int64_t>(target.getFreqMhz(), 1);
    auto us = [](double value) {
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%.3g", value);
      return text;
    };
    // The remark belongs to the launch's first node (a UB group's anchor, an
    // inserted Cast's own name), whatever location the launch kept, so that
    // --explain never files it under another node; the others are named.
    ArrayAttr nodes = launch.getNodesAttr();
    InFlightDiagnostic remark = emitRemark(ascend::nodeLocation(
        nodes && !nodes.empty() ? cast<StringAttr>(nodes[0]) : StringAttr(), launch.getLoc()));
    remark << "lowered to kernel @" << kernel.getSymName();
    if (nodes && nodes.size() > 1) {
      remark << " (with";
      for (size_t i = 1; i < nodes.size(); ++i)
        remark << (i > 1 ? ", " : " ") << cast<StringAttr>(nodes[i]).getValue();
      remark << ")";
    }
    if (nodes && !nodes.empty() && kernel.getSymName() != cast<StringAttr>(nodes[0]).getValue())
      remark << " (shared with the ops of the same signature)";
    remark << ": " << stringifyEngine(kernel.getEngine())
           << (kernel.getEngine() == Engine::Mix ? " (cube and vector in one kernel)" : "")
           << " on " << kernel.getBlockDim()
           << (kernel.getBlockDim() == 1 ? " core" : " cores");
    if (DictionaryAttr tiling = kernel.getTilingAttr()) {
      remark << ", tiles";
      for (NamedAttribute entry : tiling)
        if (auto value = dyn_cast<IntegerAttr>(entry.getValue()))
          remark << " " << entry.getName().getValue() << "=" << value.getInt();
    }
    remark << "; " << describeKernelPrecision(kernel) << "; est " << us(cost.us) << " us";
    if (cost.engine == Engine::AICPU)
      remark << " on the AI CPU = launch " << us(cost.launchUs) << " + "
             << us(cost.us - cost.launchUs) << " of work";
    else
      // The pipes' busy times overlap (docs/cost-model.md, "Overlap"): they
      // do not add up to the estimate, which also holds the launch.
      remark << " = launch " << us(cost.launchUs) << " + " << us(cost.us - cost.launchUs)
             << " on the pipes, which overlap (busy: cube " << us(cost.cubeCycles / freq)
             << ", vector " << us(cost.vectorCycles / freq) << ", data movement "
             << us(cost.moveCycles / freq) << " over its pipes)";
  }

  LoweringContext makeContext(ModuleOp module, const policy::Policy &resolved) {
    LoweringContext context;
    context.target = buildTarget(&getContext(), *resolved.library.platform, resolved.library);
    module->setAttr("akernel.target", context.target);
    TargetAttr t = context.target;
    context.facts = {t.getCubeCores(), t.getVectorCores(), t.getCubeM(), t.getCubeN(),
                     t.getCubeK(), t.getL1(), t.getL0a(), t.getL0b(), t.getL0c(), t.getUb(),
                     t.getL2(), t.getDdrRate(), t.getL2Rate()};
    context.cubeCores = t.getCubeCores();
    context.vectorCores = t.getVectorCores();
    // OP-3: aicore_num=cube|vector bounds the cores the tiling uses.
    if (resolved.aicoreNum) {
      context.cubeCores = std::min<int64_t>(context.cubeCores, resolved.aicoreNum->first);
      context.vectorCores = std::min<int64_t>(context.vectorCores, resolved.aicoreNum->second);
    }
    context.cubeCores = std::max<int64_t>(context.cubeCores, 1);
    context.vectorCores = std::max<int64_t>(context.vectorCores, 1);
    context.hostBlocks = std::max<int64_t>(hostBlocks, 0);
    context.deterministic = resolved.deterministic;
    context.enableSmallChannel = resolved.enableSmallChannel;
    return context;
  }

  /// Names every op no pattern lowers: an error each, or with
  /// allow-unlowered one warning per reason, on its first op, naming the
  /// others (a model with unknown shapes would otherwise print one warning
  /// per op). The ops are kept and the module lists them.
  LogicalResult nameUnlowered(ModuleOp module, const LoweringContext &context,
                              llvm::DenseSet<Operation *> &kept) {
    SmallVector<Attribute> names;
    llvm::MapVector<StringRef, SmallVector<Operation *>> byReason;
    std::vector<std::unique_ptr<std::string>> keys; // byReason's key storage
    llvm::DenseMap<Operation *, std::string> reasons;
    module.walk([&](Operation *op) {
      std::optional<std::string> why = whyNotLowerable(op, context);
      if (!why)
        return;
      kept.insert(op);
      names.push_back(StringAttr::get(op->getContext(),
                                      cast<ascend::AscendOpInterface>(op).getNodeName()));
      reasons[op] = *why;
      std::string key = groupKey(*why);
      auto found = llvm::find_if(keys, [&](const auto &k) { return *k == key; });
      if (found == keys.end()) {
        keys.push_back(std::make_unique<std::string>(key));
        found = std::prev(keys.end());
      }
      byReason[**found].push_back(op);
    });
    module->setAttr("akernel.unlowered", ArrayAttr::get(module.getContext(), names));
    if (!allowUnlowered) {
      for (auto &[reason, ops] : byReason)
        for (Operation *op : ops)
          emitError(op->getLoc()) << describe(op) << " is not lowered: it " << reasons[op];
      return failure(!byReason.empty());
    }
    for (auto &[reason, ops] : byReason) {
      InFlightDiagnostic diag = emitWarning(ops.front()->getLoc());
      diag << describe(ops.front()) << " is not lowered: it " << reasons[ops.front()];
      if (ops.size() > 1) {
        diag << "; so are " << ops.size() - 1 << " more:";
        for (Operation *op : ArrayRef(ops).drop_front().take_front(5))
          diag << " '" << cast<ascend::AscendOpInterface>(op).getNodeName() << "'";
        if (ops.size() > 6)
          diag << " and " << ops.size() - 6 << (ops.size() == 7 ? " other" : " others");
      }
      diag << " (no kernel, no time estimate)";
    }
    return success();
  }

  static std::string describe(Operation *op) {
    auto ascendOp = cast<ascend::AscendOpInterface>(op);
    return "'" + ascendOp.getNodeName().str() + "' (" + ascendOp.getOpType().str() + ")";
  }

  /// Reasons that differ only by the op's type group together.
  static std::string groupKey(const std::string &why) {
    StringRef text(why);
    if (text.starts_with("has a dynamic shape"))
      return "has a dynamic shape";
    return why;
  }

  std::shared_ptr<const policy::Policy> prebuilt;
  /// prec-compile's --explain (set by the factory).
  bool explain = false;
  std::vector<std::string> explainOnly;
};

} // namespace

std::unique_ptr<Pass>
ascendprec::createConvertAscendToKernel(std::shared_ptr<const policy::Policy> policy,
                                        bool allowUnlowered, bool explain,
                                        ArrayRef<std::string> explainOnly, int64_t hostBlocks) {
  ConvertAscendToKernelOptions options;
  options.allowUnlowered = allowUnlowered;
  options.hostBlocks = hostBlocks;
  auto pass = std::make_unique<ConvertAscendToKernelPass>(options);
  pass->prebuilt = std::move(policy);
  pass->explain = explain;
  pass->explainOnly.assign(explainOnly.begin(), explainOnly.end());
  return pass;
}

void ascendprec::registerLowerToKernelPipeline() {
  PassPipelineRegistration<>(
      "prec-lower-to-kernel",
      "Lowers a planned graph to akernel kernels; fails on any op it cannot lower",
      [](OpPassManager &pm) {
        pm.addPass(createConvertAscendToKernel());
        pm.addPass(createCSEPass());
      });
}
