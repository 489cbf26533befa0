//===- CollectReport.cpp - the precision report, read off planned IR ------===//

#include "AscendPrec/Dialect/Ascend/Transforms/CollectReport.h"
#include "PlanningState.h"
#include "PolicyBridge.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::report;

static std::string engineName(Engine engine) {
  switch (engine) {
  case Engine::AICoreCube:
    return "AICore-cube";
  case Engine::AICoreVector:
    return "AICore-vector";
  case Engine::AICPU:
    return "AICPU";
  }
  return "AICore-vector";
}

void ascendprec::ascend::recordImportDiagnostics(
    ModuleOp module, const std::vector<ReportData::Diagnostic> &diagnostics) {
  Builder b(module.getContext());
  SmallVector<Attribute> entries;
  for (const ReportData::Diagnostic &diag : diagnostics)
    entries.push_back(ascend::DiagnosticAttr::get(module.getContext(), diag.severity, diag.rule,
                                                  diag.location, diag.message));
  module->setAttr(kImportWarningsAttr, b.getArrayAttr(entries));
}

/// The control-flow regions around `op`, outermost first.
static std::string regionPath(Operation *op) {
  std::string path;
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (!isa<IfOp, LoopOp, ScanOp>(parent))
      break;
    std::string part = parent->getName().stripDialect().str() + " '" +
                       parent->getAttrOfType<StringAttr>("name").str() + "' ";
    if (auto branch = dyn_cast<IfOp>(parent))
      part += region == &branch.getThenBranch() ? "then" : "else";
    else
      part += "body";
    path = path.empty() ? part : part + " / " + path;
  }
  return path;
}

ReportData ascendprec::ascend::collectReport(ModuleOp module) {
  ReportData report;
  if (auto state = module->getAttrOfType<ascend::PolicyStateAttr>(kPolicyAttr)) {
    report.socVersion = state.getSocVersion().str();
    report.precisionMode = state.getPrecisionMode().str();
    for (NamedAttribute option : state.getOptions())
      if (auto value = dyn_cast<StringAttr>(option.getValue()))
        report.options[option.getName().str()] = value.str();
  }
  for (StringRef key : {kImportWarningsAttr, kFusionWarningsAttr, kWarningsAttr})
    if (auto warnings = module->getAttrOfType<ArrayAttr>(key))
      for (auto diag : warnings.getAsRange<ascend::DiagnosticAttr>())
        report.diagnostics.push_back({diag.getSeverity().str(), diag.getRule().str(),
                                      diag.getLocation().str(), diag.getMessage().str()});
  for (auto function : module.getOps<FunctionOpInterface>())
    if (!function.isExternal())
      for (BlockArgument arg : function.getArguments())
        report.graphInputs.push_back(ascend::valueName(arg));
  report.castsInserted = counter(module, kCastsInsertedAttr);
  report.castsRemoved = counter(module, kCastsRemovedAttr);
  report.constantsConverted = counter(module, kConstantsConvertedAttr);

  // A node per op, nearly: reserved at once, since growing a vector of
  // 200k nodes moves them all several times over.
  size_t ops = 0;
  for (auto function : module.getOps<FunctionOpInterface>())
    if (!function.isExternal())
      ops += function.getFunctionBody().front().getOperations().size();
  report.nodes.reserve(ops);
  std::vector<ReportNode> inserted;
  module.walk([&](AscendOpInterface op) {
    ReportNode node;
    node.name = op.getNodeName().str();
    node.opType = op.getOpType().str();
    node.region = regionPath(op);
    for (Value operand : op->getOperands())
      node.producers.push_back(ascend::valueName(operand));
    if (auto group = op->getAttrOfType<StringAttr>(kBufferGroupAttr))
      node.bufferGroup = group.str();
    if (auto pass = op->getAttrOfType<StringAttr>(kBufferPassAttr))
      node.bufferPass = pass.str();
    if (auto step = op->getAttrOfType<StringAttr>(kBufferStepAttr))
      node.bufferStep = step.str();
    if (op->hasAttr(kInsertedAttr)) {
      node.insertedCast = true;
      node.engine = "AICore-vector";
      node.inputDTypes = {dtypeNameOf(getElementTypeOrSelf(op->getOperand(0)))};
      node.outputDTypes = {dtypeNameOf(getElementTypeOrSelf(op->getResult(0)))};
      node.originDType = node.computeDType = node.outputDTypes.front();
      node.list = "none";
      node.rule = "OP-4";
      node.source = "inserted by prec-materialize-precision";
      inserted.push_back(std::move(node));
      return;
    }
    PrecisionAttr decision = op.getPrecisionDecision();
    if (!decision)
      return;
    node.generic = !op.hasDedicatedOp();
    if (auto branch = op->getAttrOfType<StringAttr>(kUnshapedBranchAttr))
      node.unshapedBranch = branch.str();
    node.source = decision.getSource().str();
    // An op the library does not know runs on an engine nobody chose.
    node.engine = node.source == ::ascendprec::policy::kNoLibraryEntrySource
                      ? "unknown"
                      : engineName(decision.getEngine());
    node.originDType = dtypeNameOf(decision.getOrigin());
    node.computeDType = dtypeNameOf(decision.getCompute());
    for (Type type : decision.getInputs())
      node.inputDTypes.push_back(dtypeNameOf(type));
    for (Type type : decision.getOutputs())
      node.outputDTypes.push_back(dtypeNameOf(type));
    if (std::optional<ImplMode> mode = op.getImplModeValue())
      node.implMode = stringifyImplMode(*mode).str();
    node.list = stringifyListColor(decision.getList()).str();
    node.rule = decision.getRule().str();
    // A named vector: drop_begin of a temporary would dangle.
    SmallVector<StringRef> originalNames = op.getOriginalNames();
    for (StringRef name : llvm::drop_begin(originalNames))
      node.absorbed.push_back(name.str());
    if (auto passes = op->getAttrOfType<ArrayAttr>("fused_by"))
      for (auto pass : passes.getAsRange<StringAttr>())
        node.fusedBy.push_back(pass.str());
    report.nodes.push_back(std::move(node));
  });
  report.nodes.insert(report.nodes.end(), inserted.begin(), inserted.end());
  return report;
}
