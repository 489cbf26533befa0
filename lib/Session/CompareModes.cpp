//===- CompareModes.cpp - --compare-modes ---------------------------------===//

#include "AscendPrec/Session/CompareModes.h"
#include "AscendPrec/Session/HostKernels.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/CollectReport.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "AscendPrec/Dialect/Kernel/Analysis/KernelReport.h"
#include "AscendPrec/Policy/Policy.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::session;

namespace {

/// The first diagnostic on one line, without its location and "error:"
/// prefix (the row already says which mode it is about): continuation lines
/// (the kernel rows after "its kernels support:") are joined.
std::string firstLine(const std::string &text) {
  std::string joined;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    // Only the first diagnostic: the next one starts a line of its own.
    if (!joined.empty() && (line.contains("error: ") || line.contains("warning: ")))
      break;
    // A list after "...:" reads "a: x; y; z".
    const char *separator = joined.empty() ? "" : llvm::StringRef(joined).ends_with(":") ? " " : "; ";
    joined += separator + line.trim().str();
  }
  size_t error = joined.find("error: ");
  return error == std::string::npos ? joined : joined.substr(error + 7);
}

} // namespace

bool session::isLowPrecisionDType(const std::string &dtype) {
  return dtype == "float16" || dtype == "bfloat16" || dtype == "f16" || dtype == "bf16";
}

const std::vector<std::string> &session::comparedModes() {
  static const std::vector<std::string> modes = {
      "force_fp16",         "allow_mix_precision",      "allow_fp32_to_fp16",
      "must_keep_origin_dtype", "force_fp32",           "cube_fp16in_fp32out",
      "allow_mix_precision_bf16", "allow_fp32_to_bf16"};
  return modes;
}

void session::countLowPrecision(const report::ReportData &report, int64_t &lowPrecisionOps,
                               int64_t &casts) {
  lowPrecisionOps = casts = 0;
  for (const report::ReportNode &node : report.nodes) {
    if (node.insertedCast)
      ++casts;
    else if (isLowPrecisionDType(node.computeDType))
      ++lowPrecisionOps;
  }
}

OwningOpRef<ModuleOp> session::planAndLower(ModuleOp imported,
                                           std::shared_ptr<const policy::Policy> policy,
                                           const ModeComparisonOptions &planning,
                                           report::ReportData &report, std::string &why,
                                           int64_t hostBlocks) {
  MLIRContext *context = imported.getContext();
  // This plan's diagnostics are its own: the first error becomes the
  // reason, nothing is printed.
  ScopedDiagnosticHandler quiet(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error || !why.empty())
      return success();
    // The notes carry what the message announces ("its kernels support:").
    std::string text = diag.str();
    bool firstNote = true;
    for (Diagnostic &note : diag.getNotes()) {
      std::string line = note.str();
      // MLIR's own notes (the op printed, where a setting came from) add
      // nothing to a one-line reason.
      if (llvm::StringRef(line).starts_with("see current operation") ||
          line == "configured here")
        continue;
      text += (firstNote ? " " : "; ") + line;
      firstNote = false;
    }
    why = firstLine(text);
    return success();
  });
  OwningOpRef<ModuleOp> module = imported.clone();
  PassManager pm(context);
  ascend::GraphPrepareOptions prepare;
  prepare.renameDuplicates = true;
  ascend::buildGraphPreparePipeline(pm, prepare);
  ascend::PrecisionPipelineOptions precision;
  precision.keepIoDtypes = planning.keepIoDtypes;
  precision.fusionRespectsPins = planning.fusionRespectsPins;
  ascend::buildPrecisionPipeline(pm, precision, policy);
  pm.enableVerifier(false);
  if (failed(pm.run(*module)) || failed(verify(*module))) {
    if (why.empty())
      why = "planning failed";
    return nullptr;
  }
  report = ascend::collectReport(*module);
  OwningOpRef<ModuleOp> forHost = hostBlocks > 0 ? module->clone() : nullptr;
  PassManager lowering(context);
  lowering.addPass(createConvertAscendToKernel(policy, /*allowUnlowered=*/true));
  lowering.enableVerifier(false);
  if (failed(lowering.run(*module)) || failed(verify(*module))) {
    why = "lowering to kernels failed";
    return nullptr;
  }
  kernel::attachKernelEstimates(*module, report);
  // The device kernels run as well (slower) when the host's lowering fails.
  std::string hostWhy;
  if (forHost && lowerForHost(*forHost, policy, hostBlocks, hostWhy))
    return forHost;
  return module;
}

namespace {

/// The model planned and lowered under `options`; null with `why` set when
/// the mode cannot be planned (the SoC lacks it, a rule cannot be met).
OwningOpRef<ModuleOp> planUnderMode(ModuleOp imported, const policy::SessionOptions &options,
                                    const ModeComparisonOptions &planning,
                                    report::ReportData &report, std::string &why,
                                    int64_t hostBlocks) {
  policy::DiagnosticList diags;
  std::optional<policy::Policy> built = policy::Policy::build(options, diags);
  if (!built) {
    why = firstLine(diags.format());
    return nullptr;
  }
  return planAndLower(imported, std::make_shared<const policy::Policy>(std::move(*built)),
                      planning, report, why, hostBlocks);
}

} // namespace

std::vector<report::ReportModeComparison>
session::compareModes(ModuleOp imported, const policy::SessionOptions &options,
                     const ModeComparisonOptions &planning, const AccuracyRun &run,
                     const RunInputs &inputs,
                     std::vector<std::vector<OutputAccuracy>> *outputs,
                     const std::function<void(const std::string &)> &onStep) {
  std::vector<report::ReportModeComparison> rows;
  size_t index = 0;
  for (const std::string &mode : comparedModes()) {
    if (run.isCancelled())
      break; // the caller reports the interruption
    ++index;
    if (onStep)
      onStep(mode + " (" + std::to_string(index) + " of " +
             std::to_string(comparedModes().size()) + ")");
    if (outputs)
      outputs->emplace_back();
    report::ReportModeComparison row;
    row.mode = mode;
    policy::SessionOptions modeOptions = options;
    modeOptions.erase("precision_mode_v2");
    policy::DiagnosticList diags;
    modeOptions.set("precision_mode", mode, {"--compare-modes"}, /*fromCommandLine=*/true, diags);
    report::ReportData report;
    std::string why;
    OwningOpRef<ModuleOp> kernels = planUnderMode(imported, modeOptions, planning, report, why,
                                                  hostBlocksFor(run.threads));
    if (!kernels) {
      row.note = "not planned: " + why;
      rows.push_back(row);
      continue;
    }
    countLowPrecision(report, row.lowPrecisionOps, row.casts);
    row.estDeviceUs = report.estDeviceUs();
    AccuracyRun once = run;
    once.iterations = 1;
    std::vector<std::string> problems;
    std::string error;
    std::optional<AccuracyResult> accuracy = measureAccuracy(
        *kernels, once, inputs.inputs, inputs.expected, inputs.outputNames, problems, error);
    if (!accuracy) {
      // The estimate stands without a run.
      row.note = problems.empty()
                     ? "run failed: " + error
                     : "est. " + std::string(llvm::formatv("{0:F1}", row.estDeviceUs)) +
                           " us, not measured: " + std::to_string(problems.size()) +
                           " ops cannot be executed on the host (" + problems.front() + ")";
      rows.push_back(row);
      continue;
    }
    for (const OutputAccuracy &output : accuracy->outputs)
      row.relRmse = std::max(row.relRmse, output.vsReference.relRmse);
    if (outputs)
      outputs->back() = accuracy->outputs;
    rows.push_back(row);
  }
  return rows;
}

std::string session::modeComparisonTable(const std::vector<report::ReportModeComparison> &modes,
                                        const std::string &soc, const std::string &inputsFrom) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "Precision modes on " << soc
     << " (error: the worst output's rel rmse vs the fp32 reference; inputs: " << inputsFrom
     << "):\n";
  os << llvm::format("  %-26s %13s %6s %10s %9s\n", "mode", "fp16/bf16 ops", "casts",
                     "est us", "rel err");
  for (const report::ReportModeComparison &mode : modes) {
    if (!mode.note.empty()) {
      os << llvm::format("  %-26s ", mode.mode.c_str()) << mode.note << "\n";
      continue;
    }
    os << llvm::format("  %-26s %13lld %6lld %10.1f %9s\n", mode.mode.c_str(),
                       static_cast<long long>(mode.lowPrecisionOps),
                       static_cast<long long>(mode.casts), mode.estDeviceUs,
                       report::errorCell(mode.relRmse).c_str());
  }
  return text;
}

std::string session::modeComparisonJson(const std::vector<report::ReportModeComparison> &modes,
                                       const std::string &soc, const std::string &inputsFrom) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("soc_version", soc);
    json.attribute("inputs", inputsFrom);
    json.attributeArray("modes", [&] {
      for (const report::ReportModeComparison &mode : modes)
        json.object([&] {
          json.attribute("precision_mode", mode.mode);
          if (!mode.note.empty()) {
            json.attribute("note", mode.note);
            json.attribute("rel_rmse", nullptr);
            return;
          }
          json.attribute("low_precision_ops", mode.lowPrecisionOps);
          json.attribute("casts", mode.casts);
          json.attribute("est_device_us", mode.estDeviceUs);
          if (std::isfinite(mode.relRmse))
            json.attribute("rel_rmse", mode.relRmse);
          else
            json.attribute("rel_rmse", nullptr);
        });
    });
  });
  os << "\n";
  return text;
}
