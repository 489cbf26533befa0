//===- RunInputs.cpp - what a run feeds the model, checked against it -----===//

#include "AscendPrec/Session/RunInputs.h"

#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"

#include "AscendPrec/Execution/DataMovement.h"
#include "AscendPrec/Execution/GraphRun.h"
#include "AscendPrec/Execution/InputConstraints.h"
#include "AscendPrec/Execution/RunMemory.h"
#include "AscendPrec/Policy/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

using namespace ascendprec;
using namespace ascendprec::session;
using runtime::ElementType;
using runtime::HostTensor;
using runtime::shapeText;
namespace fs = std::filesystem;

namespace {

/// `tensor` as `type`: the same bits for a uint16 file feeding bf16 (how
/// ONNX's test data stores bf16), converted values between floats or between
/// integers; nullopt for a float/integer mismatch.
std::optional<HostTensor> asElementType(const HostTensor &tensor, ElementType type) {
  if (tensor.type() == type)
    return tensor;
  if (tensor.type() == ElementType::U16 && type == ElementType::BF16) {
    HostTensor result(type, tensor.shape());
    std::memcpy(result.data(), tensor.data(), tensor.byteSize());
    return result;
  }
  if (runtime::isFloat(tensor.type()) != runtime::isFloat(type))
    return std::nullopt;
  return tensor.convertedTo(type);
}

/// The graph's inputs as the run sees them: names, fixed shapes, dtypes,
/// and the ranges their consumers accept.
struct GraphInputs {
  std::vector<std::string> names;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<ElementType> types;
  std::vector<std::optional<exec::InputConstraint>> constraints;
  /// An input's default (ascend.default: an ONNX initializer of its name),
  /// as the input's host type: used when the input is not given.
  std::vector<std::optional<HostTensor>> defaults;
};

/// The dimensions to give --input_shape for a dynamic input: the run
/// folder's file says them when there is one (`conflict` set when it
/// contradicts a fixed dimension), else "...".
std::string suggestedDims(mlir::ShapedType shaped, unsigned index, const std::string &runFolder,
                          std::string &conflict) {
  if (runFolder.empty())
    return "...";
  std::string ignored;
  std::string fileName = "input_" + std::to_string(index) + ".pb";
  auto file = readTensorFile((fs::path(runFolder) / fileName).string(), ignored);
  if (!file || file->tensor.shape().size() != static_cast<size_t>(shaped.getRank()))
    return "...";
  std::string dims;
  for (int64_t d = 0; d < shaped.getRank(); ++d) {
    int64_t given = file->tensor.shape()[d];
    bool fixed = !shaped.isDynamicDim(d);
    dims += (d ? "," : "") + std::to_string(fixed ? shaped.getDimSize(d) : given);
    if (fixed && given != shaped.getDimSize(d) && conflict.empty())
      conflict = "; " + fileName + " has shape " + shapeText(file->tensor.shape()) +
                 ", which the model's fixed dimension " + std::to_string(d) + " (" +
                 std::to_string(shaped.getDimSize(d)) + ") contradicts: check the folder";
  }
  return dims;
}

Status describeGraphInputs(mlir::func::FuncOp graph, const std::string &runFolder,
                           GraphInputs &described) {
  for (mlir::BlockArgument argument : graph.getArguments()) {
    auto named = graph.getArgAttrOfType<mlir::StringAttr>(argument.getArgNumber(), "ascend.name");
    std::string name = named ? named.str() : "input " + std::to_string(argument.getArgNumber());
    auto shaped = mlir::cast<mlir::ShapedType>(argument.getType());
    if (!shaped.hasStaticShape()) {
      std::string conflict;
      std::string dims = suggestedDims(shaped, argument.getArgNumber(), runFolder, conflict);
      return ErrorText("<command line>")
             << "--run needs every input's shape before planning; input '" << name
             << "' has a dynamic dimension: give it with --input_shape=\"" << name << ":" << dims
             << "\" (ATC's syntax)" << conflict;
    }
    auto type = exec::hostElementType(shaped.getElementType(), false);
    if (!type)
      return ErrorText("<command line>")
             << "--run: input '" << name << "' has element type " << shaped.getElementType()
             << ", which the host executor does not hold";
    described.names.push_back(name);
    described.shapes.push_back({shaped.getShape().begin(), shaped.getShape().end()});
    described.types.push_back(*type);
    std::optional<HostTensor> fallback;
    if (auto value = graph.getArgAttrOfType<mlir::ElementsAttr>(argument.getArgNumber(),
                                                                ascend::kArgDefaultAttr)) {
      std::string why;
      std::optional<HostTensor> stored = exec::tensorOfConstant(value, why);
      if (stored)
        fallback = asElementType(*stored, *type);
      if (!fallback || fallback->shape() != described.shapes.back())
        return ErrorText("") << "input '" << name << "': its default value (the initializer of "
                             << "its name) " << (why.empty() ? "does not fit the input" : why);
    }
    described.defaults.push_back(std::move(fallback));
  }
  // Indices and counts other ops depend on (InputConstraints.h).
  described.constraints = exec::inputConstraints(graph->getParentOfType<mlir::ModuleOp>(), graph);
  return {};
}

/// Refuses a run whose estimated peak (the plan and its fp32 reference in
/// lockstep, RunMemory.h) exceeds the memory available, before any input
/// is made or read: a run that does not fit would swap the machine and be
/// killed half-way.
Status checkRunMemory(mlir::func::FuncOp graph) {
  exec::RunMemoryEstimate estimate = exec::estimateRunMemory(graph, /*withReference=*/true);
  std::optional<uint64_t> available = exec::availableMemoryBytes();
  if (!available || estimate.peakBytes <= *available)
    return {};
  return ErrorText("<command line>")
         << "--run would need about " << exec::formatBytes(estimate.peakBytes)
         << " of memory at its peak (the plan and its fp32 reference; the largest value is "
         << policy::escapeForDisplay(estimate.largestValue) << ", "
         << exec::formatBytes(estimate.largestBytes) << "), and this machine has "
         << exec::formatBytes(*available)
         << " available: run smaller inputs (--input_shape) or on a machine with more "
            "memory; nothing was run or written";
}

/// Seeded random inputs, drawn within --run-range's ranges and the ranges
/// their consumers accept.
Status drawRandomInputs(const GraphInputs &graph, const AccuracyRun &run, RunInputs &prepared) {
  // --run-range names inputs by their model names.
  std::vector<const InputRange *> rangeOf(graph.shapes.size(), nullptr);
  std::string rangesText;
  for (const InputRange &range : run.ranges) {
    auto found = std::find(graph.names.begin(), graph.names.end(), range.input);
    if (found == graph.names.end())
      return ErrorText("<command line>")
             << "--run-range names input '" << policy::escapeForDisplay(range.input)
             << "', which the model does not have"
             << policy::unknownNameHint(range.input, graph.names, "inputs");
    size_t i = found - graph.names.begin();
    bool integer = !runtime::isFloat(graph.types[i]);
    if (integer && std::ceil(range.high) <= std::ceil(range.low))
      return ErrorText("<command line>")
             << "--run-range: input '" << policy::escapeForDisplay(range.input)
             << "' holds integers, and no whole number lies in [" << llvm::format("%g", range.low)
             << ", " << llvm::format("%g", range.high) << ")";
    rangeOf[i] = &range;
    auto shortest = [](double value) {
      return llvm::formatv("{0}", llvm::format("%g", value)).str();
    };
    rangesText += "; " + range.input + (integer ? " integers" : " uniform") + " in [" +
                  shortest(range.low) + ", " + shortest(range.high) + ")";
  }
  // An input another op takes as indices is drawn within their range, a
  // count that must match a declared shape is that count (unless
  // --run-range says otherwise).
  std::vector<InputRange> implied(graph.shapes.size());
  for (size_t i = 0; i < graph.shapes.size(); ++i) {
    if (rangeOf[i] || !graph.constraints[i])
      continue;
    const exec::InputConstraint &constraint = *graph.constraints[i];
    implied[i] = {graph.names[i], constraint.exact ? static_cast<double>(constraint.low) : 0.0,
                  static_cast<double>(constraint.exact ? constraint.low + 1 : constraint.high)};
    rangeOf[i] = &implied[i];
    rangesText += "; " + graph.names[i] +
                  (constraint.exact ? " = " + std::to_string(constraint.low)
                                    : " integers in [0, " + std::to_string(constraint.high) + ")") +
                  " (" + constraint.what + ", node '" + constraint.node + "')";
  }
  uint64_t state = run.seed;
  std::string defaulted;
  for (size_t i = 0; i < graph.shapes.size(); ++i) {
    // An input with a default takes it (a model's own weight, drawn at
    // random, would measure nothing), unless --run-range names it.
    if (graph.defaults[i] && !rangeOf[i]) {
      prepared.inputs.push_back(graph.defaults[i]->clone());
      defaulted += (defaulted.empty() ? "" : ", ") + graph.names[i];
      continue;
    }
    prepared.inputs.push_back(randomTensor(graph.types[i], graph.shapes[i], state, rangeOf[i]));
    const std::optional<exec::InputConstraint> &constraint = graph.constraints[i];
    if (constraint && constraint->exact && rangeOf[i] == &implied[i])
      for (int64_t k = 0; k < prepared.inputs.back().numElements(); ++k)
        prepared.inputs.back().set(k, static_cast<double>(constraint->low));
  }
  prepared.from = "random (seed " + std::to_string(run.seed) +
                  "; floats uniform in [-1, 1), integers in [0, 10)" + rangesText +
                  (defaulted.empty() ? "" : "; " + defaulted + " at " +
                                                (defaulted.find(',') == std::string::npos
                                                     ? "its default"
                                                     : "their defaults")) +
                  ")";
  return {};
}

/// Given tensors (a run folder's files or the API's), in the graph's input
/// order, checked and converted to each input's dtype. `describe(i, named)`
/// says where input i came from in messages (`named`: with the input's
/// name); `where` is the error's file.
Status takeGivenInputs(mlir::func::FuncOp graph, const GraphInputs &described,
                       const std::vector<const HostTensor *> &given, const std::string &where,
                       const std::function<std::string(size_t, bool)> &describe,
                       RunInputs &prepared) {
  for (size_t i = 0; i < described.shapes.size(); ++i) {
    // An input the planned graph never reads (CastLike's `like`, whose
    // dtype alone matters) is fed zeros: its shape does not matter.
    if (graph.getArgument(i).use_empty()) {
      prepared.inputs.emplace_back(described.types[i], described.shapes[i]);
      continue;
    }
    const HostTensor &tensor = *given[i];
    const std::string &name = described.names[i];
    if (tensor.shape() != described.shapes[i])
      return ErrorText(where) << describe(i, false) << " has shape " << shapeText(tensor.shape())
                              << ", but input '" << name << "' takes "
                              << shapeText(described.shapes[i]);
    std::optional<HostTensor> converted = asElementType(tensor, described.types[i]);
    if (!converted)
      return ErrorText(where) << describe(i, false) << " holds " << runtime::elementTypeName(tensor.type())
                              << ", but input '" << name << "' takes "
                              << runtime::elementTypeName(described.types[i]);
    if (const std::optional<exec::InputConstraint> &constraint = described.constraints[i])
      if (std::optional<std::string> bad = exec::violation(*converted, *constraint))
        return ErrorText(where)
               << describe(i, true) << " holds " << *bad << ", but node '"
               << policy::escapeForDisplay(constraint->node) << "' takes it as "
               << constraint->what << ": "
               << (constraint->exact ? "it must be " + std::to_string(constraint->low)
                                     : "values in [" + std::to_string(constraint->low) + ", " +
                                           std::to_string(constraint->high) + ")");
    prepared.inputs.push_back(std::move(*converted));
  }
  return {};
}

/// A run folder's expected outputs, as the model's output dtypes (bf16 test
/// data is stored as uint16 bit patterns).
Status takeExpectedOutputs(mlir::func::FuncOp graph, const std::string &runFolder,
                           std::vector<NamedTensor> expected, RunInputs &prepared) {
  for (size_t i = 0; i < expected.size() && i < graph.getNumResults(); ++i) {
    auto result = mlir::cast<mlir::ShapedType>(graph.getResultTypes()[i]);
    // A dynamic output (an op without a kernel) is refused when the run
    // starts, with the op named; nothing to compare it with here.
    if (!result.hasStaticShape())
      continue;
    std::vector<int64_t> shape(result.getShape().begin(), result.getShape().end());
    auto type = exec::hostElementType(result.getElementType(), false);
    std::optional<HostTensor> converted =
        type ? asElementType(expected[i].tensor, *type) : std::nullopt;
    if (expected[i].tensor.shape() != shape || !converted)
      return ErrorText("<command line>")
             << "--run=" << runFolder << ": output_" << i << ".pb holds "
             << shapeText(expected[i].tensor.shape()) << " "
             << runtime::elementTypeName(expected[i].tensor.type()) << ", but the model's output "
             << i << " is " << shapeText(shape) << " " << result.getElementType();
    expected[i].tensor = std::move(*converted);
  }
  if (!expected.empty() && expected.size() != prepared.outputNames.size())
    return ErrorText("<command line>")
           << "--run=" << runFolder << " holds " << expected.size()
           << " expected output files, the model has " << prepared.outputNames.size()
           << " outputs";
  prepared.expected = std::move(expected);
  return {};
}

/// The API's named tensors in the graph's input order: each input given
/// once, no name the model does not have.
Status orderGivenInputs(const GraphInputs &described, const std::vector<NamedTensor> &given,
                        std::vector<const HostTensor *> &ordered) {
  ordered.assign(described.names.size(), nullptr);
  for (const NamedTensor &tensor : given) {
    auto found = std::find(described.names.begin(), described.names.end(), tensor.name);
    if (found == described.names.end())
      return ErrorText("") << "the inputs name '" << policy::escapeForDisplay(tensor.name)
                           << "', which the model does not have"
                           << policy::unknownNameHint(tensor.name, described.names, "inputs");
    size_t i = found - described.names.begin();
    if (ordered[i])
      return ErrorText("") << "input '" << policy::escapeForDisplay(tensor.name)
                           << "' is given twice";
    ordered[i] = &tensor.tensor;
  }
  for (size_t i = 0; i < ordered.size(); ++i)
    if (!ordered[i] && described.defaults[i])
      ordered[i] = &*described.defaults[i];
  for (size_t i = 0; i < ordered.size(); ++i)
    if (!ordered[i])
      return ErrorText("") << "input '" << policy::escapeForDisplay(described.names[i])
                           << "' is not given: the model takes "
                           << policy::escapeForDisplay(llvm::join(described.names, ", "));
  return {};
}

} // namespace

mlir::func::FuncOp session::graphOf(mlir::ModuleOp kernels) {
  for (auto function : kernels.getOps<mlir::func::FuncOp>())
    if (!function.isPrivate() && !function.isExternal())
      return function;
  return nullptr;
}

Status session::prepareRunInputs(mlir::func::FuncOp graph, const InputSource &source,
                                 const AccuracyRun &run, RunInputs &prepared) {
  GraphInputs described;
  if (Status status = describeGraphInputs(graph, source.folder, described); !status)
    return status;
  // Before anything is allocated: will the run fit the memory there is?
  if (Status status = checkRunMemory(graph); !status)
    return status;
  for (unsigned i = 0; i < graph.getNumResults(); ++i) {
    auto named = graph.getResultAttrOfType<mlir::StringAttr>(i, "ascend.name");
    prepared.outputNames.push_back(named ? named.str() : "output_" + std::to_string(i));
  }
  if (source.random())
    return drawRandomInputs(described, run, prepared);
  if (source.folder.empty()) {
    std::vector<const HostTensor *> ordered;
    if (Status status = orderGivenInputs(described, source.given, ordered); !status)
      return status;
    prepared.from = "given arrays";
    return takeGivenInputs(
        graph, described, ordered, "",
        [&](size_t i, bool) { return "input '" + described.names[i] + "'"; }, prepared);
  }
  std::string error;
  std::vector<bool> optional;
  for (const std::optional<HostTensor> &fallback : described.defaults)
    optional.push_back(fallback.has_value());
  std::optional<RunFolder> folder =
      readRunFolder(source.folder, described.shapes.size(), error, optional);
  if (!folder)
    return ErrorText("<command line>") << error;
  std::vector<const HostTensor *> ordered;
  for (size_t i = 0; i < folder->inputs.size(); ++i)
    ordered.push_back(folder->inputs[i] ? &folder->inputs[i]->tensor : &*described.defaults[i]);
  auto describe = [&](size_t i, bool named) {
    std::string file = "input_" + std::to_string(i) + ".pb";
    return "--run=" + source.folder + ": " +
           (named ? "input '" + described.names[i] + "' (" + file + ")" : file);
  };
  if (Status status =
          takeGivenInputs(graph, described, ordered, "<command line>", describe, prepared);
      !status)
    return status;
  prepared.from = source.folder;
  return takeExpectedOutputs(graph, source.folder, std::move(folder->expected), prepared);
}
