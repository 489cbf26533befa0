//===- PlanPrecision.cpp - prec-plan-precision ----------------------------===//

#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "PlanningState.h"
#include "PolicyBridge.h"
#include "PrecisionPlanner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace ascendprec::ascend {
#define GEN_PASS_DEF_PLANPRECISION
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"
} // namespace ascendprec::ascend

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

struct PlanPrecisionPass
    : ascendprec::ascend::impl::PlanPrecisionBase<PlanPrecisionPass> {
  PlanPrecisionPass() = default;

  PlanPrecisionPass(const PlanPrecisionOptions &options) : PlanPrecisionBase(options) {}
  // The CANN options are declared anew in the same order; Pass::clone then
  // copies every option's value by position.
  PlanPrecisionPass(const PlanPrecisionPass &other)
      : PlanPrecisionBase(other), prebuilt(other.prebuilt) {}

  /// Records the resolved policy and the planning warnings on the module.
  void recordState(ModuleOp module, const policy::Policy &resolved,
                   const policy::DiagnosticList &warnings) {
    Builder b(module.getContext());
    SmallVector<NamedAttribute> options;
    for (const auto &[name, value] : resolved.options.all())
      options.push_back(b.getNamedAttr(name, b.getStringAttr(value.text)));
    MLIRContext *context = module.getContext();
    module->setAttr(kPolicyAttr, ascend::PolicyStateAttr::get(context, resolved.socVersion,
                                                              resolved.modeSpelling,
                                                              b.getDictionaryAttr(options)));
    SmallVector<Attribute> list;
    auto addDiagnostic = [&](const policy::Diagnostic &diag) {
      list.push_back(ascend::DiagnosticAttr::get(
          context, diag.severity == policy::Severity::Error ? "error" : "warning", diag.rule,
          diag.loc.isKnown() ? diag.loc.str() : std::string(), diag.message));
    };
    for (const policy::Diagnostic &diag : resolved.buildDiagnostics.all())
      addDiagnostic(diag);
    for (const policy::Diagnostic &diag : warnings.all())
      addDiagnostic(diag);
    module->setAttr(kWarningsAttr, b.getArrayAttr(list));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<policy::Policy> built;
    const policy::Policy *resolved = resolvePassPolicy(
        prebuilt.get(), built, &getContext(), cann.values(), sessionOptions, module.getLoc());
    if (!resolved)
      return signalPassFailure();
    PrecisionPlanner planner(*resolved, explain,
                             std::vector<std::string>(explainOnly.begin(), explainOnly.end()));
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>())
      ok &= succeeded(planner.planFunction(func));
    if (!ok)
      return signalPassFailure();
    planner.reportModelWarnings(module.getLoc());
    recordState(module, *resolved, planner.warnings());
  }

  /// Set by the factory below; copied along when the pass is cloned.
  std::shared_ptr<const policy::Policy> prebuilt;
  /// soc_version, precision_mode, ...: every pass option of the option table.
  CannPassOptions cann{*this};
};

} // namespace

std::unique_ptr<Pass> ascendprec::ascend::createPlanPrecision(
    std::shared_ptr<const policy::Policy> policy, bool explain,
    ArrayRef<std::string> explainOnly) {
  PlanPrecisionOptions options;
  options.explain = explain;
  options.explainOnly.assign(explainOnly.begin(), explainOnly.end());
  auto pass = std::make_unique<PlanPrecisionPass>(options);
  pass->prebuilt = std::move(policy);
  return pass;
}

std::unique_ptr<Pass>
ascendprec::ascend::createPlanPrecision(const PlanPrecisionOptions &options,
                                      const CannOptionValues &cann) {
  return createWithCannOptions<PlanPrecisionPass>(options, cann);
}

std::optional<policy::Policy> ascendprec::ascend::policyRecordedOn(ModuleOp module) {
  auto state = module->getAttrOfType<ascend::PolicyStateAttr>(kPolicyAttr);
  if (!state) {
    emitError(module.getLoc()) << "the module has no " << kPolicyAttr
                               << " (run prec-plan-precision, or the precision pipeline, first)";
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> options;
  for (NamedAttribute option : state.getOptions())
    if (auto text = dyn_cast<StringAttr>(option.getValue()))
      options.emplace_back(option.getName().str(), text.str());
  return buildPolicyFromOptions(module.getContext(), options, /*sessionFile=*/"",
                                module.getLoc());
}
