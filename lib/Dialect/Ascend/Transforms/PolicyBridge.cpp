//===- PolicyBridge.cpp - the plain-C++ policy seen from MLIR -------------===//

#include "PolicyBridge.h"

#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

Location ascendprec::ascend::toLocation(MLIRContext *context,
                                      const policy::SourceLoc &loc,
                                      Location fallback) {
  if (!loc.isKnown() || loc.file.front() == '<')
    return fallback;
  return FileLineColLoc::get(context, loc.file, loc.line, loc.column);
}

void ascendprec::ascend::emitPolicyDiagnostic(MLIRContext *context,
                                            const policy::Diagnostic &diag,
                                            Location fallback) {
  Location loc = toLocation(context, diag.loc, fallback);
  std::string message = diag.message;
  if (!diag.rule.empty())
    message += " [" + diag.rule + "]";
  InFlightDiagnostic inFlight =
      diag.severity == policy::Severity::Error     ? emitError(loc)
      : diag.severity == policy::Severity::Warning ? emitWarning(loc)
                                                   : emitRemark(loc);
  inFlight << message;
  tagRule(inFlight, diag.rule);
  for (const policy::Diagnostic &note : diag.notes)
    inFlight.attachNote(toLocation(context, note.loc, fallback)) << note.message;
}

void ascendprec::ascend::emitPolicyDiagnostics(MLIRContext *context,
                                             const policy::DiagnosticList &diags,
                                             Location fallback) {
  for (const policy::Diagnostic &diag : diags.all())
    emitPolicyDiagnostic(context, diag, fallback);
}

std::optional<policy::DType> ascendprec::ascend::toDType(Type type) {
  using policy::DType;
  if (type.isF16())
    return DType::Float16;
  if (type.isF32())
    return DType::Float32;
  if (type.isBF16())
    return DType::BFloat16;
  if (type.isF64())
    return DType::Double;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    bool isUnsigned = intType.isUnsigned();
    switch (intType.getWidth()) {
    case 1:
      return DType::Bool;
    case 8:
      return isUnsigned ? DType::UInt8 : DType::Int8;
    case 16:
      return isUnsigned ? DType::UInt16 : DType::Int16;
    case 32:
      return isUnsigned ? DType::UInt32 : DType::Int32;
    case 64:
      return isUnsigned ? DType::UInt64 : DType::Int64;
    }
  }
  return std::nullopt;
}

Type ascendprec::ascend::toMlirType(MLIRContext *context, policy::DType dtype) {
  Builder b(context);
  using policy::DType;
  switch (dtype) {
  case DType::Float16:
    return b.getF16Type();
  case DType::Float32:
    return b.getF32Type();
  case DType::BFloat16:
    return b.getBF16Type();
  case DType::Double:
    return b.getF64Type();
  case DType::Int8:
    return b.getIntegerType(8);
  case DType::UInt8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case DType::Int16:
    return b.getIntegerType(16);
  case DType::UInt16:
    return b.getIntegerType(16, false);
  case DType::Int32:
    return b.getI32Type();
  case DType::UInt32:
    return b.getIntegerType(32, false);
  case DType::Int64:
    return b.getI64Type();
  case DType::UInt64:
    return b.getIntegerType(64, false);
  case DType::Bool:
    return b.getI1Type();
  case DType::HiFloat8:
  case DType::Complex64:
  case DType::Complex128:
    return {};
  }
  return {};
}

std::string ascendprec::ascend::dtypeNameOf(Type type) {
  if (std::optional<policy::DType> dtype = toDType(type))
    return policy::dtypeName(*dtype);
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::optional<policy::Policy> ascendprec::ascend::buildPolicyFromOptions(
    MLIRContext *context,
    const std::vector<std::pair<std::string, std::string>> &options,
    const std::string &sessionFile, Location loc) {
  policy::DiagnosticList diags;
  policy::SessionOptions session;
  for (const auto &[name, value] : options)
    if (!value.empty())
      session.set(name, value, policy::SourceLoc{"<pass options>"},
                  /*fromCommandLine=*/true, diags);
  if (!sessionFile.empty())
    session.loadSessionFile(sessionFile, diags);
  std::optional<policy::Policy> result;
  if (!diags.hasErrors())
    result = policy::Policy::build(session, diags);
  emitPolicyDiagnostics(context, diags, loc);
  return result;
}

const policy::Policy *ascendprec::ascend::resolvePassPolicy(
    const policy::Policy *prebuilt, std::optional<policy::Policy> &storage,
    MLIRContext *context, const std::vector<std::pair<std::string, std::string>> &options,
    const std::string &sessionFile, Location loc) {
  if (prebuilt)
    return prebuilt;
  storage = buildPolicyFromOptions(context, options, sessionFile, loc);
  return storage ? &*storage : nullptr;
}
