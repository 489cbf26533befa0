//===- HostRun.cpp - a plan run on the host against its fp32 reference ----===//

#include "AscendPrec/Session/HostRun.h"

#include "AscendPrec/Execution/DataMovement.h"
#include "AscendPrec/Execution/KernelCache.h"
#include "AscendPrec/Policy/Diagnostics.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <filesystem>
#include <map>

using namespace ascendprec;
using namespace ascendprec::session;
namespace fs = std::filesystem;

Status session::runOnHost(mlir::ModuleOp kernels, const AccuracyRun &run,
                          const RunInputs &prepared, std::optional<AccuracyResult> &accuracy) {
  std::string error;
  std::vector<std::string> problems;
  accuracy = measureAccuracy(kernels, run, prepared.inputs, prepared.expected,
                             prepared.outputNames, problems, error);
  if (accuracy)
    return {};
  if (!problems.empty()) {
    Status status = ErrorText("") << "the plan cannot run on the host: " << problems.size()
                                  << (problems.size() == 1 ? " op" : " ops")
                                  << " cannot be executed (nothing was written):";
    std::vector<std::string> &details = status.error().details;
    for (size_t i = 0; i < problems.size() && i < 20; ++i)
      details.push_back(policy::escapeForDisplay(problems[i]));
    if (problems.size() > 20)
      details.push_back("... and " + std::to_string(problems.size() - 20) + " more");
    return status;
  }
  // Values that do not fit the model (an index out of range, a count that
  // contradicts a declared shape) are the inputs' or the model's fault.
  if (llvm::StringRef(error).contains(exec::kInvalidDataError))
    return ErrorText("") << "the values do not fit the model: " << policy::escapeForDisplay(error)
                         << " (from the inputs given, or computed by the model from them); "
                            "nothing was written";
  return ErrorText("", Error::Kind::Internal) << "running the plan failed: " << error;
}

Status session::stageRunFiles(const AccuracyResult &accuracy, const AccuracyRun &run,
                              const RunInputs &prepared, OutputFolder &out) {
  std::error_code ec;
  fs::create_directory(out.stagedPath(OutputFolder::kRunFolder), ec);
  std::string error;
  for (size_t i = 0; i < accuracy.planOutputs.size(); ++i) {
    std::string path = out.stagedPath(std::string(OutputFolder::kRunFolder) + "/output_" +
                                      std::to_string(i) + ".pb");
    if (!writeTensorFile(path, prepared.outputNames[i], accuracy.planOutputs[i], error))
      return Status::user("", error);
  }
  if (!writeTextFile(out.stagedPath("accuracy.json"), accuracyJson(accuracy, run, prepared.from),
                     error))
    return Status::user("", error);
  return {};
}

void session::recordAccuracy(const AccuracyResult &accuracy, report::ReportData &report) {
  // A later run's figures replace an earlier one's.
  report.errorAlongGraph.clear();
  report.outputAccuracy.clear();
  report.errorJumps.clear();
  for (report::ReportNode &node : report.nodes)
    node.relErr.reset();
  // Each op's error (a kernel's on its first node).
  std::map<std::string, double> errorByNode;
  for (const OpAccuracy &op : accuracy.ops)
    if (!op.nodes.empty()) {
      errorByNode.emplace(op.nodes.front(), op.vsReference.relRmse);
      report.errorAlongGraph.push_back({op.nodes.front(), op.vsReference.relRmse});
    }
  for (report::ReportNode &node : report.nodes)
    if (auto found = errorByNode.find(node.name); found != errorByNode.end())
      node.relErr = found->second;
  report.measured = true;
  for (const OutputAccuracy &output : accuracy.outputs) {
    report::ReportOutputAccuracy row;
    row.name = output.name;
    row.relRmse = output.vsReference.relRmse;
    row.maxAbsErr = output.vsReference.maxAbsErr;
    row.cosine = output.vsReference.cosine;
    if (output.vsExpected)
      row.withinTolerance = output.withinTolerance;
    report.outputAccuracy.push_back(row);
  }
  for (size_t index : accuracy.errorJumps)
    if (!accuracy.ops[index].nodes.empty())
      report.errorJumps.push_back(accuracy.ops[index].nodes.front());
}

/// The lines after the table: each output's error, where it jumps, timing.
std::string session::accuracySummary(const AccuracyResult &accuracy, const AccuracyRun &run,
                                    const std::string &runFolder) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "Measured on the host CPU with the device's rounding ("
     << (runFolder.empty() ? "random inputs, seed " + std::to_string(run.seed)
                           : "inputs from " + runFolder)
     << "), against the fp32 reference:\n";
  for (const OutputAccuracy &output : accuracy.outputs) {
    os << "  output '" << policy::escapeForDisplay(output.name) << "': rel rmse "
       << ascendprec::report::errorCell(output.vsReference.relRmse) << ", max abs err "
       << ascendprec::report::errorCell(output.vsReference.maxAbsErr)
       << (std::isnan(output.vsReference.cosine)
               ? std::string(", cosine -")
               : llvm::formatv(", cosine {0:F7}", output.vsReference.cosine).str());
    if (output.vsReference.nonFinite)
      os << ", " << output.vsReference.nonFinite << " of " << output.vsReference.elements
         << " elements Inf or NaN where fp32 is finite (overflow)";
    if (output.vsReference.referenceNonFinite)
      os << "; warning: the fp32 reference itself is Inf or NaN at "
         << output.vsReference.referenceNonFinite << " of " << output.vsReference.elements
         << " elements (the model overflows or takes an invalid value in fp32 on these inputs: "
            "check --run-range), which are not compared";
    if (output.vsExpected)
      os << "; vs expected: "
         << (output.withinTolerance ? "within" : "OUTSIDE") << " rtol "
         << llvm::format("%g", run.rtol) << " atol " << llvm::format("%g", run.atol)
         << " (max abs err " << ascendprec::report::errorCell(output.vsExpected->maxAbsErr)
         << ")";
    os << "\n";
  }
  if (!accuracy.errorJumps.empty()) {
    os << "  the error first jumps at:";
    for (size_t i = 0; i < accuracy.errorJumps.size() && i < 5; ++i) {
      const OpAccuracy &op = accuracy.ops[accuracy.errorJumps[i]];
      os << (i ? ", " : " ") << policy::escapeForDisplay(op.nodes.empty() ? op.kernel : op.nodes.front())
         << " (" << ascendprec::report::errorCell(op.vsReference.relRmse) << ")";
    }
    os << "\n";
  }
  os << llvm::format("  host time: JIT %.0f ms (+%.0f ms reference), run %.1f ms", accuracy.jitMs,
                     accuracy.referenceJitMs, accuracy.medianRunMs());
  if (accuracy.runMs.size() > 1)
    os << " (median of the " << accuracy.runMs.size() - 1 << " after the first)";
  os << " on " << run.threads << (run.threads == 1 ? " thread" : " threads");
  // Compiled kernels found on disk (KernelCache.h) load in milliseconds.
  unsigned hits = ascendprec::exec::KernelCache::hits();
  unsigned misses = ascendprec::exec::KernelCache::misses();
  if (hits)
    os << "; " << hits << " of " << hits + misses << (hits + misses == 1 ? " kernel" : " kernels")
       << " from the kernel cache";
  os << "; per-op errors in accuracy.json\n";
  return text;
}
