//===- PlanPrecision.cpp - prec-plan-precision ----------------------------===//

#include "AscendPrec/Transforms/Passes.h"
#include "AscendPrec/Transforms/PlanWithPolicy.h"
#include "PlanningState.h"
#include "PolicyBridge.h"
#include "PrecisionPlanner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::ascendprec {
#define GEN_PASS_DEF_PLANPRECISION
#include "AscendPrec/Transforms/Passes.h.inc"
} // namespace mlir::ascendprec

using namespace mlir;
using namespace mlir::ascendprec;
namespace policy = ::ascendprec::policy;

namespace {

struct PlanPrecisionPass
    : mlir::ascendprec::impl::PlanPrecisionBase<PlanPrecisionPass> {
  using PlanPrecisionBase::PlanPrecisionBase;

  std::vector<std::pair<std::string, std::string>> cannOptions() const {
    return {{"soc_version", socVersion},
            {"graph_run_mode", graphRunMode},
            {"precision_mode", precisionMode},
            {"precision_mode_v2", precisionModeV2},
            {"modify_mixlist", modifyMixlist},
            {"keep_dtype", keepDtype},
            {"customize_dtypes", customizeDtypes},
            {"op_select_implmode", opSelectImplmode},
            {"optypelist_for_implmode", optypelistForImplmode},
            {"op_precision_mode", opPrecisionMode},
            {"ops_info_dir", opsInfoDir}};
  }

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
    const policy::Policy *resolved = prebuilt.get();
    if (!resolved) {
      built = buildPolicyFromOptions(&getContext(), cannOptions(), sessionOptions,
                                     module.getLoc());
      if (!built)
        return signalPassFailure();
      resolved = &*built;
    }
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
};

} // namespace

std::unique_ptr<Pass> mlir::ascendprec::createPlanPrecision(
    std::shared_ptr<const policy::Policy> policy, bool explain,
    ArrayRef<std::string> explainOnly) {
  PlanPrecisionOptions options;
  options.explain = explain;
  options.explainOnly.assign(explainOnly.begin(), explainOnly.end());
  auto pass = std::make_unique<PlanPrecisionPass>(options);
  pass->prebuilt = std::move(policy);
  return pass;
}
