//===- GraphFusion.cpp - prec-graph-fusion (FU-1..FU-3, CD-7) -------------===//
//
// Runs the enabled graph fusion passes in the policy table's order. Each
// match keeps its anchor's node name, records what it absorbed, and is
// checked against the user's pins first: CANN drops a customize_dtypes pin
// on a fused node (FU-2), which we say; with respect-pins the match is
// skipped instead.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"
#include "FusionPatterns.h"
#include "PlanningState.h"
#include "PolicyBridge.h"

#include "llvm/ADT/SetVector.h"

namespace ascendprec::ascend {
#define GEN_PASS_DEF_GRAPHFUSION
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"
} // namespace ascendprec::ascend

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

NodeNames::NodeNames(Operation *module) {
  module->walk([&](AscendOpInterface op) { used.insert(op.getNodeName()); });
}

std::string NodeNames::claim(StringRef base) {
  std::string name = base.str();
  for (unsigned i = 1; used.contains(name); ++i)
    name = (base + "_" + Twine(i)).str();
  used.insert(name);
  return name;
}

Operation *ascendprec::ascend::soleUser(Value value) {
  return value.hasOneUse() ? *value.user_begin() : nullptr;
}

std::unique_ptr<FusionPattern> ascendprec::ascend::createFusionPattern(StringRef name) {
  if (name == "ConvBatchnormFusionPass")
    return createConvBatchnormFusionPass();
  if (name == "AABiasaddConvFusion")
    return createAABiasaddConvFusion();
  if (name == "MatMulBiasAddFusionPass")
    return createMatMulBiasAddFusionPass();
  if (name == kLayerNormFusion)
    return createLayerNormFusion();
  if (name == kGeluFusion)
    return createGeluFusion();
  if (name == kHardSwishFusion)
    return createHardSwishFusion();
  if (name == kSoftmaxFusion)
    return createSoftmaxFusion();
  return nullptr;
}

namespace {

Operation *rootOf(const FusionMatch &match) {
  return match.root ? match.root : static_cast<Operation *>(AscendOpInterface(match.absorbed.back()));
}

/// Whether every op of the match sits in the anchor's block (a match never
/// reaches into or out of an If/Loop/Scan body).
bool inOneBlock(const FusionMatch &match) {
  Block *block = match.anchor->getBlock();
  return llvm::all_of(match.absorbed,
                      [&](AscendOpInterface op) { return op->getBlock() == block; });
}

/// A user setting that names a node by its name.
struct NamePin {
  const char *what; ///< "customize_dtypes" or "keep_dtype"
  policy::SourceLoc loc;
};

class GraphFusionDriver {
public:
  GraphFusionDriver(ModuleOp module, const policy::Policy &policy, bool respectPins)
      : module(module), policy(policy), respectPins(respectPins), names(module) {}

  void run(const FusionPattern &pattern);
  /// EinsumPass: every Einsum it can express, rewritten (FusionPatterns.h).
  void decomposeEinsums();
  /// ConcatExt2FusionPass: every ConcatV2 of more than 63 inputs, split.
  void splitWideConcats();
  /// Puts the FU-2 diagnostics on the module for the report.
  void recordDiagnostics();

private:
  std::vector<NamePin> pinsOn(StringRef name) const;
  /// False when respect-pins keeps the match from applying.
  bool admit(const FusionPattern &pattern, const FusionMatch &match);
  void apply(const FusionPattern &pattern, const FusionMatch &match, Operation *fused);
  void note(StringRef severity, Location loc, const std::string &message,
            const policy::SourceLoc &entry);

  ModuleOp module;
  const policy::Policy &policy;
  bool respectPins;
  NodeNames names;
  SmallVector<Attribute> diagnostics;
  /// The ops one run() erased (absorbed ops and their dead constants), so
  /// that its candidate list is never read through a freed op.
  llvm::DenseSet<Operation *> erasedOps;
};

std::vector<NamePin> GraphFusionDriver::pinsOn(StringRef name) const {
  std::vector<NamePin> pins;
  if (policy.customizeActive && policy.customizeList)
    if (const policy::CustomizeDTypesEntry *entry =
            policy.customizeList->findByName(name.str()))
      pins.push_back({"customize_dtypes", entry->loc});
  // keep_dtype by name is inherited by the fused op (FU-3): it only stops a
  // match when the user asked for pins to hold.
  if (respectPins && policy.keepDTypeActive && policy.keepDTypeList)
    for (const policy::KeepDTypeEntry &entry : policy.keepDTypeList->entries)
      if (!entry.isOpType && entry.name == name)
        pins.push_back({"keep_dtype", entry.loc});
  return pins;
}

void GraphFusionDriver::note(StringRef severity, Location loc, const std::string &message,
                             const policy::SourceLoc &entry) {
  MLIRContext *context = module.getContext();
  std::string rule = "FU-2";
  InFlightDiagnostic diag = severity == "warning" ? emitWarning(loc) : emitRemark(loc);
  diag << message << " [" << rule << "]";
  diag.attachNote(toLocation(context, entry, loc)) << "the entry is here";
  tagRule(diag, rule);
  diagnostics.push_back(
      DiagnosticAttr::get(context, severity == "warning" ? "warning" : "note", rule,
                          entry.str(), message));
}

bool GraphFusionDriver::admit(const FusionPattern &pattern, const FusionMatch &match) {
  AscendOpInterface anchorOp = match.anchor;
  std::string anchor =
      (match.fusedOpType.empty() ? anchorOp.getOpType() : match.fusedOpType).str() + " '" +
      anchorOp.getNodeName().str() + "'";
  bool skip = false;
  for (AscendOpInterface absorbed : match.absorbed)
    for (StringRef name : absorbed.getOriginalNames())
      for (const NamePin &pin : pinsOn(name)) {
        std::string node = absorbed.getOpType().str() + " '" + name.str() + "'";
        if (respectPins) {
          note("remark", absorbed.getLoc(),
               pattern.name().str() + " did not fuse " + node + " into " + anchor +
                   ": its " + pin.what + " entry (" + pin.loc.fileAndLine() +
                   ") holds with --fusion-respects-pins",
               pin.loc);
          skip = true;
          continue;
        }
        note("warning", absorbed.getLoc(),
             std::string(pin.what) + " entry for '" + name.str() + "' (" +
                 pin.loc.fileAndLine() + ") has no effect: " + pattern.name().str() +
                 " fused " + node + " into " + anchor +
                 ", and CANN drops a pin on a fused node (CD-7); "
                 "--fusion-respects-pins keeps the node unfused",
             pin.loc);
      }
  return !skip;
}

void GraphFusionDriver::apply(const FusionPattern &pattern, const FusionMatch &match,
                              Operation *fused) {
  Builder b(module.getContext());
  // FU-3: the anchor's name, everything it and the absorbed ops carried.
  SmallVector<Attribute> absorbedNames, passes;
  if (ArrayAttr earlier = match.anchor->getAttrOfType<ArrayAttr>("absorbed"))
    llvm::append_range(absorbedNames, earlier.getValue());
  for (AscendOpInterface absorbed : match.absorbed)
    for (StringRef name : absorbed.getOriginalNames())
      absorbedNames.push_back(b.getStringAttr(name));
  if (ArrayAttr earlier = match.anchor->getAttrOfType<ArrayAttr>("fused_by"))
    llvm::append_range(passes, earlier.getValue());
  passes.push_back(b.getStringAttr(pattern.name()));
  // An impl_mode set before planning: the surviving op's, else the first
  // absorbed op's (docs/decisions.md).
  if (!fused->hasAttr("impl_mode"))
    for (AscendOpInterface absorbed : match.absorbed)
      if (Attribute mode = absorbed->getAttr("impl_mode")) {
        fused->setAttr("impl_mode", mode);
        break;
      }
  fused->setAttr("absorbed", b.getArrayAttr(absorbedNames));
  fused->setAttr("fused_by", b.getArrayAttr(passes));

  rootOf(match)->getResult(0).replaceAllUsesWith(fused->getResult(0));
  // Users before producers, so that no op is erased while still read.
  SmallVector<Operation *> erased = {match.anchor};
  llvm::append_range(erased, match.absorbed);
  llvm::sort(erased, [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  // A constant two absorbed ops read is listed once: it is erased once.
  llvm::SetVector<Operation *> constants;
  for (Operation *op : erased) {
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp(); producer && isa<ConstOp>(producer))
        constants.insert(producer);
    erasedOps.insert(op);
    op->erase();
  }
  // Constants only the absorbed ops read (a BatchNorm's statistics, the
  // filter before folding) go with them.
  for (Operation *constant : constants)
    if (constant->use_empty()) {
      names.release(cast<ConstOp>(constant).getName());
      erasedOps.insert(constant);
      constant->erase();
    }
}

void GraphFusionDriver::run(const FusionPattern &pattern) {
  SmallVector<AscendOpInterface> candidates;
  module.walk([&](AscendOpInterface op) { candidates.push_back(op); });
  erasedOps.clear();
  for (AscendOpInterface op : candidates) {
    // The address of an op erased earlier may be reused by an op a match
    // built since: such an op is not a candidate, so skipping it is right.
    if (erasedOps.contains(op.getOperation()))
      continue;
    std::optional<FusionMatch> match = pattern.match(op);
    if (!match || !inOneBlock(*match) || !admit(pattern, *match))
      continue;
    OpBuilder builder(rootOf(*match));
    Operation *fused = match->build(builder, names);
    if (!fused)
      continue;
    apply(pattern, *match, fused);
  }
}

void GraphFusionDriver::decomposeEinsums() {
  SmallVector<EinsumOp> einsums;
  module.walk([&](EinsumOp op) { einsums.push_back(op); });
  for (EinsumOp einsum : einsums)
    decomposeEinsum(einsum, names);
}

void GraphFusionDriver::splitWideConcats() {
  SmallVector<ConcatV2Op> concats;
  module.walk([&](ConcatV2Op op) { concats.push_back(op); });
  for (ConcatV2Op concat : concats)
    splitWideConcat(concat, names);
}

void GraphFusionDriver::recordDiagnostics() {
  if (diagnostics.empty())
    return;
  SmallVector<Attribute> all;
  if (auto earlier = module->getAttrOfType<ArrayAttr>(kFusionWarningsAttr))
    llvm::append_range(all, earlier.getValue());
  llvm::append_range(all, diagnostics);
  module->setAttr(kFusionWarningsAttr, ArrayAttr::get(module.getContext(), all));
}

struct GraphFusionPass : ascendprec::ascend::impl::GraphFusionBase<GraphFusionPass> {
  GraphFusionPass() = default;
  explicit GraphFusionPass(const GraphFusionOptions &options) : GraphFusionBase(options) {}
  // The CANN options are declared anew in the same order; Pass::clone then
  // copies every option's value by position.
  GraphFusionPass(const GraphFusionPass &other)
      : GraphFusionBase(other), prebuilt(other.prebuilt) {}

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<policy::Policy> built;
    const policy::Policy *resolved = resolvePassPolicy(
        prebuilt.get(), built, &getContext(), cann.values(), sessionOptions, module.getLoc());
    if (!resolved)
      return signalPassFailure();
    GraphFusionDriver driver(module, *resolved, respectPins);
    for (const policy::FusionPassInfo &info : policy::fusionPasses()) {
      if (info.kind != policy::FusionKind::Graph || !resolved->fusion.isOn(info.name))
        continue;
      if (info.name == kEinsumPass)
        driver.decomposeEinsums();
      else if (info.name == kConcatSplitPass)
        driver.splitWideConcats();
      else if (std::unique_ptr<FusionPattern> pattern = createFusionPattern(info.name))
        driver.run(*pattern);
    }
    driver.recordDiagnostics();
  }

  /// Set by the factory below; copied along when the pass is cloned.
  std::shared_ptr<const policy::Policy> prebuilt;
  /// soc_version, customize_dtypes, ...: every pass option of the option table.
  CannPassOptions cann{*this};
};

} // namespace

std::unique_ptr<Pass>
ascendprec::ascend::createGraphFusion(std::shared_ptr<const policy::Policy> policy,
                                      bool respectPins) {
  GraphFusionOptions options;
  options.respectPins = respectPins;
  auto pass = std::make_unique<GraphFusionPass>(options);
  pass->prebuilt = std::move(policy);
  return pass;
}

std::unique_ptr<Pass> ascendprec::ascend::createGraphFusion(const GraphFusionOptions &options,
                                                            const CannOptionValues &cann) {
  return createWithCannOptions<GraphFusionPass>(options, cann);
}
