//===- RuleDiagnostics.cpp - diagnostics that report a precision rule -----===//

#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

using namespace mlir;
using namespace ascendprec;

/// The metadata entry: {ascendprec.rule = "<rule>"}.
static constexpr StringLiteral kRuleKey = "ascendprec.rule";

void ascendprec::ascend::tagRule(Diagnostic &diag, StringRef rule) {
  if (rule.empty())
    return;
  MLIRContext *context = diag.getLocation()->getContext();
  NamedAttribute entry(StringAttr::get(context, kRuleKey), StringAttr::get(context, rule));
  diag.getMetadata().push_back(DiagnosticArgument(DictionaryAttr::get(context, {entry})));
}

void ascendprec::ascend::tagRule(InFlightDiagnostic &diag, StringRef rule) {
  if (Diagnostic *underlying = diag.getUnderlyingDiagnostic())
    tagRule(*underlying, rule);
}

StringRef ascendprec::ascend::taggedRule(Diagnostic &diag) {
  for (const DiagnosticArgument &argument : diag.getMetadata())
    if (argument.getKind() == DiagnosticArgument::DiagnosticArgumentKind::Attribute)
      if (auto entries = dyn_cast<DictionaryAttr>(argument.getAsAttribute()))
        if (auto rule = entries.getAs<StringAttr>(kRuleKey))
          return rule.getValue();
  return {};
}
