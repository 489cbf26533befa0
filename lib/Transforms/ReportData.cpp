//===- ReportData.cpp - the precision report, read from planned IR --------===//

#include "AscendPrec/Transforms/Report.h"
#include "PlanningState.h"
#include "PolicyBridge.h"

#include "AscendPrec/Dialect/Ascend/AscendOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::ascend;
using namespace mlir::ascendprec;

size_t ReportData::plannedCount() const {
  return llvm::count_if(nodes, [](const ReportNode &n) { return !n.insertedCast; });
}

size_t ReportData::genericCount() const {
  return llvm::count_if(nodes, [](const ReportNode &n) { return n.generic; });
}

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

static std::string producerName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return "arg" + std::to_string(arg.getArgNumber());
  if (auto op = dyn_cast<AscendOpInterface>(value.getDefiningOp()))
    return op.getNodeName().str();
  return "?";
}

ReportData mlir::ascendprec::collectReport(ModuleOp module) {
  ReportData report;
  if (auto state = module->getAttrOfType<DictionaryAttr>(kPolicyAttr)) {
    if (auto soc = state.getAs<StringAttr>("soc_version"))
      report.socVersion = soc.str();
    if (auto mode = state.getAs<StringAttr>("precision_mode"))
      report.precisionMode = mode.str();
    if (auto options = state.getAs<DictionaryAttr>("options"))
      for (NamedAttribute option : options)
        if (auto value = dyn_cast<StringAttr>(option.getValue()))
          report.options[option.getName().str()] = value.str();
  }
  if (auto warnings = module->getAttrOfType<ArrayAttr>(kWarningsAttr))
    for (auto entry : warnings.getAsRange<DictionaryAttr>()) {
      auto text = [&](StringRef key) {
        auto value = entry.getAs<StringAttr>(key);
        return value ? value.str() : std::string();
      };
      report.diagnostics.push_back(
          {text("severity"), text("rule"), text("location"), text("message")});
    }
  report.castsInserted = counter(module, kCastsInsertedAttr);
  report.castsRemoved = counter(module, kCastsRemovedAttr);
  report.constantsConverted = counter(module, kConstantsConvertedAttr);

  std::vector<ReportNode> inserted;
  module.walk([&](AscendOpInterface op) {
    ReportNode node;
    node.name = op.getNodeName().str();
    node.opType = op.getOpType().str();
    for (Value operand : op->getOperands())
      node.producers.push_back(producerName(operand));
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
    node.generic = isa<GenericOp>(op.getOperation());
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
    for (StringRef name : llvm::drop_begin(op.getOriginalNames()))
      node.absorbed.push_back(name.str());
    report.nodes.push_back(std::move(node));
  });
  report.nodes.insert(report.nodes.end(), inserted.begin(), inserted.end());
  return report;
}
