//===- HostRun.cpp - prec-compile --run -----------------------------------===//

#include "HostRun.h"

#include "ExitCode.h"

#include "AscendPrec/Execution/DataMovement.h"
#include "AscendPrec/Execution/GraphRun.h"
#include "AscendPrec/Execution/InputConstraints.h"
#include "AscendPrec/Execution/KernelCache.h"
#include "AscendPrec/Execution/RunMemory.h"
#include "AscendPrec/Policy/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

using namespace ascendprec;
using namespace ascendprec::driver;
using runtime::shapeText;
namespace fs = std::filesystem;

namespace {

bool writeTextFile(const std::string &path, const std::string &text) {
  std::ofstream stream(path, std::ios::binary);
  stream << text;
  return static_cast<bool>(stream);
}

/// The graph function of a kernels module (the one public function).
mlir::func::FuncOp graphOf(mlir::ModuleOp kernels) {
  for (auto function : kernels.getOps<mlir::func::FuncOp>())
    if (!function.isPrivate() && !function.isExternal())
      return function;
  return nullptr;
}

/// `tensor` as `type`: the same bits for a uint16 file feeding bf16 (how
/// ONNX's test data stores bf16), converted values between floats or between
/// integers; nullopt for a float/integer mismatch.
std::optional<ascendprec::runtime::HostTensor>
asElementType(const ascendprec::runtime::HostTensor &tensor, ascendprec::runtime::ElementType type) {
  using ascendprec::runtime::ElementType;
  if (tensor.type() == type)
    return tensor;
  if (tensor.type() == ElementType::U16 && type == ElementType::BF16) {
    ascendprec::runtime::HostTensor result(type, tensor.shape());
    std::memcpy(result.data(), tensor.data(), tensor.byteSize());
    return result;
  }
  if (ascendprec::runtime::isFloat(tensor.type()) != ascendprec::runtime::isFloat(type))
    return std::nullopt;
  return tensor.convertedTo(type);
}

/// Refuses a run whose estimated peak (the plan and its fp32 reference in
/// lockstep, RunMemory.h) exceeds the memory available, before any input
/// is made or read: a run that does not fit would swap the machine and be
/// killed half-way.
int checkRunMemory(mlir::func::FuncOp graph) {
  ascendprec::exec::RunMemoryEstimate estimate =
      ascendprec::exec::estimateRunMemory(graph, /*withReference=*/true);
  std::optional<uint64_t> available = ascendprec::exec::availableMemoryBytes();
  if (!available || estimate.peakBytes <= *available)
    return Success;
  llvm::errs() << "<command line>: error: --run would need about "
               << ascendprec::exec::formatBytes(estimate.peakBytes)
               << " of memory at its peak (the plan and its fp32 reference; the largest value is "
               << policy::escapeForDisplay(estimate.largestValue) << ", "
               << ascendprec::exec::formatBytes(estimate.largestBytes) << "), and this machine has "
               << ascendprec::exec::formatBytes(*available)
               << " available: run smaller inputs (--input_shape) or on a machine with more "
                  "memory; nothing was run or written\n";
  return UserError;
}

/// The run's inputs (--run=DIR or seeded random) and the model's output
/// names, checked against the graph's inputs.
int prepareRunInputs(mlir::func::FuncOp graph, const std::string &runFolder, const AccuracyRun &run,
                     RunInputs &prepared) {
  // Inputs: the model's input shapes, fixed (a dynamic one needs
  // --input_shape first).
  std::vector<std::string> inputNames;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<ascendprec::runtime::ElementType> types;
  for (mlir::BlockArgument argument : graph.getArguments()) {
    auto named = graph.getArgAttrOfType<mlir::StringAttr>(argument.getArgNumber(), "ascend.name");
    std::string name = named ? named.str() : "input " + std::to_string(argument.getArgNumber());
    auto shaped = mlir::cast<mlir::ShapedType>(argument.getType());
    if (!shaped.hasStaticShape()) {
      // The run folder's file, when there is one, tells the dynamic
      // dimensions to give; the model's fixed ones stay as they are.
      std::string dims = "...", conflict;
      if (!runFolder.empty()) {
        std::string ignored;
        std::string fileName = "input_" + std::to_string(argument.getArgNumber()) + ".pb";
        auto file = readTensorFile((fs::path(runFolder) / fileName).string(), ignored);
        if (file && file->tensor.shape().size() == static_cast<size_t>(shaped.getRank())) {
          dims.clear();
          for (int64_t d = 0; d < shaped.getRank(); ++d) {
            int64_t given = file->tensor.shape()[d];
            bool fixed = !shaped.isDynamicDim(d);
            dims += (d ? "," : "") + std::to_string(fixed ? shaped.getDimSize(d) : given);
            if (fixed && given != shaped.getDimSize(d) && conflict.empty())
              conflict = "; " + fileName + " has shape " + shapeText(file->tensor.shape()) +
                         ", which the model's fixed dimension " + std::to_string(d) + " (" +
                         std::to_string(shaped.getDimSize(d)) + ") contradicts: check the folder";
          }
        }
      }
      llvm::errs() << "<command line>: error: --run needs every input's shape before planning; "
                   << "input '" << name << "' has a dynamic dimension: give it with "
                   << "--input_shape=\"" << name << ":" << dims << "\" (ATC's syntax)" << conflict
                   << "\n";
      return UserError;
    }
    auto type = ascendprec::exec::hostElementType(shaped.getElementType(), false);
    if (!type) {
      llvm::errs() << "<command line>: error: --run: input '" << name << "' has element type "
                   << shaped.getElementType() << ", which the host executor does not hold\n";
      return UserError;
    }
    inputNames.push_back(name);
    shapes.push_back({shaped.getShape().begin(), shaped.getShape().end()});
    types.push_back(*type);
  }
  // Before anything is allocated: will the run fit the memory there is?
  if (int status = checkRunMemory(graph); status != Success)
    return status;
  // Indices and counts other ops depend on (InputConstraints.h).
  std::vector<std::optional<ascendprec::exec::InputConstraint>> constraints =
      ascendprec::exec::inputConstraints(graph->getParentOfType<mlir::ModuleOp>(), graph);
  std::vector<ascendprec::runtime::HostTensor> &inputs = prepared.inputs;
  std::vector<NamedTensor> &expected = prepared.expected;
  std::string error, &inputsFrom = prepared.from;
  if (runFolder.empty()) {
    // --run-range names inputs by their model names.
    std::vector<const InputRange *> rangeOf(shapes.size(), nullptr);
    std::string rangesText;
    for (const InputRange &range : run.ranges) {
      auto found = std::find(inputNames.begin(), inputNames.end(), range.input);
      if (found == inputNames.end()) {
        llvm::errs() << "<command line>: error: --run-range names input '"
                     << policy::escapeForDisplay(range.input) << "', which the model does not have"
                     << policy::unknownNameHint(range.input, inputNames, "inputs") << "\n";
        return UserError;
      }
      size_t i = found - inputNames.begin();
      bool integer = !ascendprec::runtime::isFloat(types[i]);
      if (integer && std::ceil(range.high) <= std::ceil(range.low)) {
        llvm::errs() << "<command line>: error: --run-range: input '"
                     << policy::escapeForDisplay(range.input)
                     << "' holds integers, and no whole number lies in ["
                     << llvm::format("%g", range.low) << ", " << llvm::format("%g", range.high)
                     << ")\n";
        return UserError;
      }
      rangeOf[i] = &range;
      auto shortest = [](double value) { return llvm::formatv("{0}", llvm::format("%g", value)).str(); };
      rangesText += "; " + range.input + (integer ? " integers" : " uniform") + " in [" +
                    shortest(range.low) + ", " + shortest(range.high) + ")";
    }
    // An input another op takes as indices is drawn within their range, a
    // count that must match a declared shape is that count (unless
    // --run-range says otherwise).
    std::vector<InputRange> implied(shapes.size());
    for (size_t i = 0; i < shapes.size(); ++i) {
      if (rangeOf[i] || !constraints[i])
        continue;
      const ascendprec::exec::InputConstraint &constraint = *constraints[i];
      implied[i] = {inputNames[i], constraint.exact ? static_cast<double>(constraint.low) : 0.0,
                    static_cast<double>(constraint.exact ? constraint.low + 1 : constraint.high)};
      rangeOf[i] = &implied[i];
      rangesText += "; " + inputNames[i] +
                    (constraint.exact ? " = " + std::to_string(constraint.low)
                                      : " integers in [0, " + std::to_string(constraint.high) + ")") +
                    " (" + constraint.what + ", node '" + constraint.node + "')";
    }
    uint64_t state = run.seed;
    for (size_t i = 0; i < shapes.size(); ++i) {
      inputs.push_back(randomTensor(types[i], shapes[i], state, rangeOf[i]));
      if (constraints[i] && constraints[i]->exact && rangeOf[i] == &implied[i])
        for (int64_t k = 0; k < inputs.back().numElements(); ++k)
          inputs.back().set(k, static_cast<double>(constraints[i]->low));
    }
    inputsFrom = "random (seed " + std::to_string(run.seed) +
                 "; floats uniform in [-1, 1), integers in [0, 10)" + rangesText + ")";
  } else {
    std::optional<RunFolder> folder = readRunFolder(runFolder, shapes.size(), error);
    if (!folder) {
      llvm::errs() << "<command line>: error: " << error << "\n";
      return UserError;
    }
    for (size_t i = 0; i < shapes.size(); ++i) {
      const ascendprec::runtime::HostTensor &given = folder->inputs[i].tensor;
      // An input the planned graph never reads (CastLike's `like`, whose
      // dtype alone matters) is fed zeros: its file's shape does not matter.
      if (graph.getArgument(i).use_empty()) {
        inputs.emplace_back(types[i], shapes[i]);
        continue;
      }
      if (given.shape() != shapes[i]) {
        llvm::errs() << "<command line>: error: --run=" << runFolder << ": input_" << i
                     << ".pb has shape " << shapeText(given.shape()) << ", but input '"
                     << inputNames[i] << "' takes " << shapeText(shapes[i]) << "\n";
        return UserError;
      }
      std::optional<ascendprec::runtime::HostTensor> converted =
          asElementType(given, types[i]);
      if (!converted) {
        llvm::errs() << "<command line>: error: --run=" << runFolder << ": input_" << i
                     << ".pb holds " << ascendprec::runtime::elementTypeName(given.type())
                     << ", but input '" << inputNames[i] << "' takes "
                     << ascendprec::runtime::elementTypeName(types[i]) << "\n";
        return UserError;
      }
      if (constraints[i])
        if (std::optional<std::string> bad = ascendprec::exec::violation(*converted, *constraints[i])) {
          const ascendprec::exec::InputConstraint &constraint = *constraints[i];
          llvm::errs() << "<command line>: error: --run=" << runFolder << ": input '"
                       << inputNames[i] << "' (input_" << i << ".pb) holds " << *bad
                       << ", but node '" << policy::escapeForDisplay(constraint.node)
                       << "' takes it as " << constraint.what << ": "
                       << (constraint.exact ? "it must be " + std::to_string(constraint.low)
                                            : "values in [" + std::to_string(constraint.low) +
                                                  ", " + std::to_string(constraint.high) + ")")
                       << "\n";
          return UserError;
        }
      inputs.push_back(*converted);
    }
    expected = std::move(folder->expected);
    // Expected outputs as the model's output dtypes (bf16 test data is
    // stored as uint16 bit patterns).
    for (size_t i = 0; i < expected.size() && i < graph.getNumResults(); ++i) {
      auto result = mlir::cast<mlir::ShapedType>(graph.getResultTypes()[i]);
      // A dynamic output (an op without a kernel) is refused when the run
      // starts, with the op named; nothing to compare it with here.
      if (!result.hasStaticShape())
        continue;
      std::vector<int64_t> shape(result.getShape().begin(), result.getShape().end());
      auto type = ascendprec::exec::hostElementType(result.getElementType(), false);
      std::optional<ascendprec::runtime::HostTensor> converted =
          type ? asElementType(expected[i].tensor, *type) : std::nullopt;
      if (expected[i].tensor.shape() != shape || !converted) {
        llvm::errs() << "<command line>: error: --run=" << runFolder << ": output_" << i
                     << ".pb holds " << shapeText(expected[i].tensor.shape()) << " "
                     << ascendprec::runtime::elementTypeName(expected[i].tensor.type())
                     << ", but the model's output " << i << " is " << shapeText(shape) << " "
                     << result.getElementType() << "\n";
        return UserError;
      }
      expected[i].tensor = *converted;
    }
    inputsFrom = runFolder;
  }
  std::vector<std::string> &outputNames = prepared.outputNames;
  for (unsigned i = 0; i < graph.getNumResults(); ++i) {
    auto named = graph.getResultAttrOfType<mlir::StringAttr>(i, "ascend.name");
    outputNames.push_back(named ? named.str() : "output_" + std::to_string(i));
  }
  if (!expected.empty() && expected.size() != outputNames.size()) {
    llvm::errs() << "<command line>: error: --run=" << runFolder << " holds "
                 << expected.size() << " expected output files, the model has "
                 << outputNames.size() << " outputs\n";
    return UserError;
  }
  return Success;
}

/// --run: the plan and its fp32 reference on the host; run/output_<i>.pb
/// and accuracy.json staged, the report given each op's error.

} // namespace

int driver::runOnHost(mlir::ModuleOp kernels, const std::string &runFolder, const AccuracyRun &run,
              ascendprec::report::ReportData &report, OutputFolder &out, RunInputs &prepared,
              std::optional<AccuracyResult> &accuracy) {
  if (!kernels) {
    llvm::errs() << "prec-compile: error: --run needs the plan's kernels, and lowering failed "
                    "(see the warning above)\n";
    return InternalError;
  }
  mlir::func::FuncOp graph = graphOf(kernels);
  if (!graph) {
    llvm::errs() << "prec-compile: internal error: the kernels have no graph function\n";
    return InternalError;
  }
  if (int status = prepareRunInputs(graph, runFolder, run, prepared); status != Success)
    return status;
  const std::vector<std::string> &outputNames = prepared.outputNames;
  const std::string &inputsFrom = prepared.from;
  std::string error;
  std::vector<std::string> problems;
  accuracy = measureAccuracy(kernels, run, prepared.inputs, prepared.expected, outputNames,
                             problems, error);
  if (!accuracy) {
    if (!problems.empty()) {
      llvm::errs() << "prec-compile: error: the plan cannot run on the host: "
                   << problems.size() << (problems.size() == 1 ? " op" : " ops")
                   << " cannot be executed (nothing was written):\n";
      for (size_t i = 0; i < problems.size() && i < 20; ++i)
        llvm::errs() << "  " << policy::escapeForDisplay(problems[i]) << "\n";
      if (problems.size() > 20)
        llvm::errs() << "  ... and " << problems.size() - 20 << " more\n";
      return UserError;
    }
    // Values that do not fit the model (an index out of range, a count that
    // contradicts a declared shape) are the inputs' or the model's fault.
    if (llvm::StringRef(error).contains(ascendprec::exec::kInvalidDataError)) {
      llvm::errs() << "prec-compile: error: the values do not fit the model: "
                   << policy::escapeForDisplay(error)
                   << " (from the inputs given, or computed by the model from them); nothing "
                      "was written\n";
      return UserError;
    }
    llvm::errs() << "prec-compile: error: running the plan failed: " << error << "\n";
    return InternalError;
  }
  std::error_code ec;
  fs::create_directory(out.stagedPath(OutputFolder::kRunFolder), ec);
  for (size_t i = 0; i < accuracy->planOutputs.size(); ++i) {
    std::string path = out.stagedPath(std::string(OutputFolder::kRunFolder) + "/output_" +
                                      std::to_string(i) + ".pb");
    if (!writeTensorFile(path, outputNames[i], accuracy->planOutputs[i], error)) {
      llvm::errs() << "error: " << error << "\n";
      return UserError;
    }
  }
  if (!writeTextFile(out.stagedPath("accuracy.json"), accuracyJson(*accuracy, run, inputsFrom))) {
    llvm::errs() << "error: cannot write " << out.stagedPath("accuracy.json") << "\n";
    return UserError;
  }
  // The report: each op's error (a kernel's on its first node).
  std::map<std::string, double> errorByNode;
  for (const OpAccuracy &op : accuracy->ops)
    if (!op.nodes.empty()) {
      errorByNode.emplace(op.nodes.front(), op.vsReference.relRmse);
      report.errorAlongGraph.push_back({op.nodes.front(), op.vsReference.relRmse});
    }
  for (ascendprec::report::ReportNode &node : report.nodes)
    if (auto found = errorByNode.find(node.name); found != errorByNode.end())
      node.relErr = found->second;
  report.measured = true;
  for (const OutputAccuracy &output : accuracy->outputs) {
    ascendprec::report::ReportOutputAccuracy row;
    row.name = output.name;
    row.relRmse = output.vsReference.relRmse;
    row.maxAbsErr = output.vsReference.maxAbsErr;
    row.cosine = output.vsReference.cosine;
    if (output.vsExpected)
      row.withinTolerance = output.withinTolerance;
    report.outputAccuracy.push_back(row);
  }
  for (size_t index : accuracy->errorJumps)
    if (!accuracy->ops[index].nodes.empty())
      report.errorJumps.push_back(accuracy->ops[index].nodes.front());
  return Success;
}

/// The lines after the table: each output's error, where it jumps, timing.
std::string driver::accuracySummary(const AccuracyResult &accuracy, const AccuracyRun &run,
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
    os << " (median of " << accuracy.runMs.size() << ")";
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
