//===- prec-compile.cpp - the user-facing AscendPrec driver ---------------===//
//
// prec-compile MODEL --soc_version=... [CANN options] --output=DIR
//
// Takes CANN's own option names and config files, plans the model's precision
// (prepare, plan, materialize, clean up), and writes the planned IR, the
// report, a picture and a lockfile, all or nothing.
//
//===----------------------------------------------------------------------===//

#include "Accuracy.h"
#include "CompareModes.h"
#include "Help.h"
#include "ModelLoader.h"
#include "AtcOptions.h"
#include "DiagnosticPrinter.h"
#include "InterruptCleanup.h"
#include "ModelIo.h"
#include "OutputFolder.h"
#include "PlannedIRWriter.h"
#include "Progress.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Kernel/Analysis/KernelReport.h"
#include "AscendPrec/InitAll.h"
#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/JsonOutput.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "AscendPrec/Dialect/Ascend/Transforms/CollectReport.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <thread>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace ascendprec;
using namespace ascendprec::driver;
namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
#define ASCENDPREC_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASCENDPREC_UNDER_ASAN 1
#endif
#endif

namespace {

/// Ends a finished run at once: the output folder is committed and the
/// streams are flushed, so freeing the IR, the context and the report one
/// object at a time (a tenth of a 200k-op run) only delays the prompt; the
/// system takes the memory back in one step. Sanitizer builds return
/// normally, so that LeakSanitizer still checks every run.
void exitWithoutTeardown(int code) {
#ifndef ASCENDPREC_UNDER_ASAN
  std::cout.flush();
  llvm::outs().flush();
  llvm::errs().flush();
  std::_Exit(code);
#else
  (void)code;
#endif
}

enum ExitCode { Success = 0, UserError = 1, InternalError = 2 };

/// The effective options as a session-options file (absolute paths), so the
/// passes see exactly what the driver validated.
std::string effectiveOptionsJson(const policy::SessionOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    for (const auto &[name, value] : options.all()) {
      const policy::OptionSpec *spec = policy::findOptionSpec(name);
      if (spec->type == policy::OptionType::Int)
        json.attribute(name, static_cast<int64_t>(std::stoll(value.text)));
      else if (spec->type == policy::OptionType::Bool)
        json.attribute(name, value.text == "true");
      else if (spec->type == policy::OptionType::Path ||
               spec->type == policy::OptionType::Directory)
        json.attribute(name, policy::jsonText(fs::absolute(value.text).lexically_normal().string()));
      else
        json.attribute(name, policy::jsonText(value.text));
    }
  });
  os << "\n";
  return text;
}

bool writeText(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

/// Every file and folder the run reads: the model, the session-options file
/// and every path-valued option. The output folder must hold none of them.
std::vector<std::string> inputPaths(const policy::ParsedCommandLine &parsed) {
  std::vector<std::string> inputs = parsed.positional;
  if (!parsed.sessionOptionsFile.empty())
    inputs.push_back(parsed.sessionOptionsFile);
  for (const auto &[name, value] : parsed.options.all()) {
    const policy::OptionSpec *spec = policy::findOptionSpec(name);
    if (spec->type == policy::OptionType::Path ||
        spec->type == policy::OptionType::Directory)
      inputs.push_back(value.text);
  }
  return inputs;
}

/// Columns for the summary table: $COLUMNS, else the terminal's width when
/// stdout is one, else 100.
unsigned terminalWidth() {
  if (const char *columns = std::getenv("COLUMNS"))
    if (int value = std::atoi(columns); value >= 40)
      return static_cast<unsigned>(value);
  struct winsize size;
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 &&
      size.ws_col >= 40)
    return size.ws_col;
  return 100;
}

/// prec-compile's own flags (not CANN options).
struct DriverFlags {
  std::string output;
  bool quiet = false, explain = false, fullConstants = false, keepIo = true;
  bool fusionRespectsPins = false; ///< FU-2's opt-in

  /// --explain=NODE,OpType::T: those only; empty with --explain: every op.
  std::vector<std::string> explainOnly;

  /// --run[=DIR]: run the plan on the host (DIR empty: random inputs).
  std::optional<std::string> run;
  unsigned runIterations = 1, threads = 1;
  /// --compare-modes: plan, estimate and run every precision mode.
  bool compareModes = false;
};

/// A positive count from a flag, or an error naming it.
std::optional<unsigned> positiveFlag(const std::string &name, const std::string &value,
                                     unsigned max, policy::DiagnosticList &diags) {
  char *end = nullptr;
  unsigned long number = std::strtoul(value.c_str(), &end, 10);
  if (value.empty() || *end || value[0] == '-' || number == 0 || number > max) {
    diags.error({"<command line>"},
                "--" + name + " takes a whole number from 1 to " + std::to_string(max) +
                    ", not '" + policy::escapeForDisplay(value) + "'");
    return std::nullopt;
  }
  return static_cast<unsigned>(number);
}

std::optional<DriverFlags> readDriverFlags(const policy::ParsedCommandLine &parsed,
                                           policy::DiagnosticList &diags) {
  auto flag = [&](const std::string &name) -> const std::string * {
    auto it = parsed.toolFlags.find(name);
    return it == parsed.toolFlags.end() ? nullptr : &it->second;
  };
  auto isSet = [&](const std::string &name) { return flag(name) && *flag(name) != "false"; };
  DriverFlags flags;
  const std::string *output = flag("output");
  if (!output || *output == "true") {
    diags.error({"<command line>"}, "--output=DIR is required", "OP-1");
    return std::nullopt;
  }
  flags.output = *output;
  flags.quiet = isSet("quiet");
  flags.explain = isSet("explain");
  if (flags.explain && *flag("explain") != "true") {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(*flag("explain")).split(items, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef item : items)
      flags.explainOnly.push_back(item.trim().str());
  }
  flags.fullConstants = isSet("full-constants");
  flags.fusionRespectsPins = isSet("fusion-respects-pins");
  flags.keepIo = !(flag("keep-io-dtypes") && *flag("keep-io-dtypes") == "false");
  if (const std::string *run = flag("run"); run && *run != "false")
    flags.run = *run == "true" ? "" : *run;
  flags.compareModes = isSet("compare-modes");
  if (flags.compareModes && !flags.run)
    flags.run = ""; // it measures: seeded random inputs unless --run=DIR
  for (const char *name : {"run-iterations", "threads"}) {
    const std::string *value = flag(name);
    if (!value)
      continue;
    if (!flags.run) {
      diags.error({"<command line>"},
                  std::string("--") + name + " applies to a run: add --run (or --run=DIR)");
      return std::nullopt;
    }
    std::optional<unsigned> number =
        positiveFlag(name, *value, std::string(name) == "threads" ? 256 : 1000, diags);
    if (!number)
      return std::nullopt;
    (std::string(name) == "threads" ? flags.threads : flags.runIterations) = *number;
  }
  return flags;
}

/// The planned module's kernels: a copy lowered by
/// prec-convert-ascend-to-kernel with allow-unlowered; null (after an
/// internal-error message) if the lowering fails.
mlir::OwningOpRef<mlir::ModuleOp>
lowerToKernels(mlir::ModuleOp planned, std::shared_ptr<const policy::Policy> policy,
               const DriverFlags &flags) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = planned.clone();
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(planned.getContext());
  pm.addPass(ascendprec::createConvertAscendToKernel(std::move(policy), /*allowUnlowered=*/true,
                                                     flags.explain, flags.explainOnly));
  pm.enableVerifier(false);
  if (mlir::failed(pm.run(*copy)) || mlir::failed(mlir::verify(*copy))) {
    // The precision plan stands on its own: it is still written, without
    // kernels.mlir and without estimates.
    llvm::errs() << "prec-compile: warning: internal error while lowering the plan to "
                    "kernels (please report it with the model); the precision plan and "
                    "reports are written without kernels.mlir and without time estimates\n";
    return nullptr;
  }
  return copy;
}

/// The graph function of a kernels module (the one public function).
mlir::func::FuncOp graphOf(mlir::ModuleOp kernels) {
  for (auto function : kernels.getOps<mlir::func::FuncOp>())
    if (!function.isPrivate() && !function.isExternal())
      return function;
  return nullptr;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

/// `tensor` as `type`: the same bits for a uint16 file feeding bf16 (how
/// ONNX's test data stores bf16), converted values between floats or between
/// integers; nullopt for a float/integer mismatch.
std::optional<ascendprec::runtime::HostTensor>
asElementType(const ascendprec::runtime::HostTensor &tensor, ascendprec::runtime::ElementType type) {
  using ascendprec::runtime::ElementType;
  if (tensor.type() == type)
    return tensor;
  ascendprec::runtime::HostTensor result(type, tensor.shape());
  if (tensor.type() == ElementType::U16 && type == ElementType::BF16) {
    std::memcpy(result.data(), tensor.data(), tensor.byteSize());
    return result;
  }
  bool fromFloat = ascendprec::runtime::isFloat(tensor.type());
  if (fromFloat != ascendprec::runtime::isFloat(type))
    return std::nullopt;
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (fromFloat)
      result.set(i, tensor.get(i));
    else
      result.setInt(i, tensor.getInt(i));
  }
  return result;
}

/// The run's inputs (--run=DIR or seeded random) and the model's output
/// names, checked against the graph's inputs.
int prepareRunInputs(mlir::func::FuncOp graph, const DriverFlags &flags, RunInputs &prepared) {
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
      llvm::errs() << "<command line>: error: --run needs every input's shape; input '" << name
                   << "' has a dynamic dimension: give it with --input_shape=\"" << name
                   << ":...\" (ATC's syntax)\n";
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
  std::vector<ascendprec::runtime::HostTensor> &inputs = prepared.inputs;
  std::vector<NamedTensor> &expected = prepared.expected;
  std::string error, &inputsFrom = prepared.from;
  if (flags.run->empty()) {
    uint64_t state = 0;
    for (size_t i = 0; i < shapes.size(); ++i)
      inputs.push_back(randomTensor(types[i], shapes[i], state));
    inputsFrom = "random (seed 0; floats uniform in [-1, 1), integers in [0, 10))";
  } else {
    std::optional<RunFolder> folder = readRunFolder(*flags.run, shapes.size(), error);
    if (!folder) {
      llvm::errs() << "<command line>: error: " << error << "\n";
      return UserError;
    }
    for (size_t i = 0; i < shapes.size(); ++i) {
      const ascendprec::runtime::HostTensor &given = folder->inputs[i].tensor;
      if (given.shape() != shapes[i]) {
        llvm::errs() << "<command line>: error: --run=" << *flags.run << ": input_" << i
                     << ".pb has shape " << shapeText(given.shape()) << ", but input '"
                     << inputNames[i] << "' takes " << shapeText(shapes[i]) << "\n";
        return UserError;
      }
      std::optional<ascendprec::runtime::HostTensor> converted =
          asElementType(given, types[i]);
      if (!converted) {
        llvm::errs() << "<command line>: error: --run=" << *flags.run << ": input_" << i
                     << ".pb holds " << ascendprec::runtime::elementTypeName(given.type())
                     << ", but input '" << inputNames[i] << "' takes "
                     << ascendprec::runtime::elementTypeName(types[i]) << "\n";
        return UserError;
      }
      inputs.push_back(*converted);
    }
    expected = std::move(folder->expected);
    // Expected outputs as the model's output dtypes (bf16 test data is
    // stored as uint16 bit patterns).
    for (size_t i = 0; i < expected.size() && i < graph.getNumResults(); ++i) {
      auto type = ascendprec::exec::hostElementType(
          mlir::cast<mlir::ShapedType>(graph.getResultTypes()[i]).getElementType(), false);
      if (type)
        if (auto converted = asElementType(expected[i].tensor, *type))
          expected[i].tensor = *converted;
    }
    inputsFrom = *flags.run;
  }
  std::vector<std::string> &outputNames = prepared.outputNames;
  for (unsigned i = 0; i < graph.getNumResults(); ++i) {
    auto named = graph.getResultAttrOfType<mlir::StringAttr>(i, "ascend.name");
    outputNames.push_back(named ? named.str() : "output_" + std::to_string(i));
  }
  if (!expected.empty() && expected.size() != outputNames.size()) {
    llvm::errs() << "<command line>: error: --run=" << *flags.run << " holds "
                 << expected.size() << " expected output files, the model has "
                 << outputNames.size() << " outputs\n";
    return UserError;
  }
  return Success;
}

/// --run: the plan and its fp32 reference on the host; run/output_<i>.pb
/// and accuracy.json staged, the report given each op's error.
int runOnHost(mlir::ModuleOp kernels, const DriverFlags &flags, const AccuracyRun &run,
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
  if (int status = prepareRunInputs(graph, flags, prepared); status != Success)
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
                   << " cannot be executed (nothing was run or written):\n";
      for (size_t i = 0; i < problems.size() && i < 20; ++i)
        llvm::errs() << "  " << policy::escapeForDisplay(problems[i]) << "\n";
      if (problems.size() > 20)
        llvm::errs() << "  ... and " << problems.size() - 20 << " more\n";
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
  if (!writeText(out.stagedPath("accuracy.json"), accuracyJson(*accuracy, run, inputsFrom))) {
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
std::string accuracySummary(const AccuracyResult &accuracy, const AccuracyRun &run,
                            const DriverFlags &flags) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "Measured on the host CPU with the device's rounding ("
     << (flags.run->empty() ? "random inputs, seed 0" : "inputs from " + *flags.run)
     << "), against the fp32 reference:\n";
  for (const OutputAccuracy &output : accuracy.outputs) {
    os << "  output '" << policy::escapeForDisplay(output.name) << "': rel rmse "
       << ascendprec::report::errorCell(output.vsReference.relRmse) << ", max abs err "
       << ascendprec::report::errorCell(output.vsReference.maxAbsErr)
       << llvm::format(", cosine %.7f", output.vsReference.cosine);
    if (output.vsReference.nonFinite)
      os << ", " << output.vsReference.nonFinite << " non-finite where fp32 is finite";
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
  os << " on " << run.threads << (run.threads == 1 ? " thread" : " threads")
     << "; per-op errors in accuracy.json\n";
  return text;
}

int run(const std::vector<std::string> &args) {
  for (const std::string &arg : args) {
    if (arg == "--help" || arg == "-help" || arg == "-h") {
      std::cout << helpText();
      return Success;
    }
    if (arg == "--list-fusion-passes") {
      std::cout << fusionPassList();
      return Success;
    }
    if (arg == "--version") {
      std::cout << versionText();
      return Success;
    }
  }

  policy::DiagnosticList diags;
  std::optional<policy::ParsedCommandLine> parsed = policy::parseCannArguments(
      args,
      {"output", "quiet", "explain", "keep-io-dtypes", "full-constants", "fusion-respects-pins",
       "run", "run-iterations", "threads", "compare-modes"},
      diags);
  auto failWith = [&](int code) {
    std::cerr << diags.format();
    return code;
  };
  if (!parsed)
    return failWith(UserError);
  std::optional<std::string> model = modelFromArguments(*parsed, diags);
  std::optional<policy::ModelInputOptions> modelIo =
      model ? policy::parseModelInputOptions(parsed->options, diags) : std::nullopt;
  if (!modelIo)
    return failWith(UserError);
  LogFilter log(parsed->options);
  std::optional<DriverFlags> flags = readDriverFlags(*parsed, diags);
  if (!flags)
    return failWith(UserError);
  const std::string *output = &flags->output;
  // Before any work: whether the folder may be written at all.
  std::string folderError;
  std::vector<std::string> inputs = inputPaths(*parsed);
  if (flags->run && !flags->run->empty())
    inputs.push_back(*flags->run);
  std::unique_ptr<OutputFolder> out = OutputFolder::open(*output, inputs, folderError);
  if (!out) {
    std::cerr << "<command line>: error: " << folderError << "\n";
    return UserError;
  }
  bool quiet = flags->quiet, explain = flags->explain;
  bool fullConstants = flags->fullConstants, keepIo = flags->keepIo;
  const std::vector<std::string> &explainOnly = flags->explainOnly;
  Progress progress(!quiet && isatty(STDERR_FILENO));
  const std::string &modelPath = *model;

  progress.begin("resolve options and files");
  std::optional<policy::Policy> resolved = policy::Policy::build(parsed->options, diags);
  progress.end();
  for (const policy::Diagnostic &diag : diags.all())
    if (log.shows(diag.severity))
      std::cerr << diag.format() << "\n";
  if (!resolved)
    return UserError;
  diags = {};

  mlir::DialectRegistry registry;
  ascendprec::registerAllAscendPrecDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  DiagnosticPrinter diagnostics(context, log, progress);

  progress.begin("load " + fs::path(modelPath).filename().string());
  ascendprec::ONNXImportOptions importOptions;
  for (const policy::InputShape &shape : modelIo->shapes)
    importOptions.inputShapes.push_back({shape.name, shape.dims});
  diagnostics.startLoading();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadModel(modelPath, diagnostics.sourceMgr(), context, importOptions);
  std::vector<ascendprec::report::ReportData::Diagnostic> importDiagnostics =
      diagnostics.stopLoading();
  progress.end();
  if (!module || mlir::failed(applyModelIo(*module, *modelIo)))
    return UserError;
  ascendprec::ascend::recordImportDiagnostics(*module, importDiagnostics);
  // The model's own weights, for the fp32 reference of a run (planning may
  // round them to fp16).
  // --compare-modes plans the model again under every mode.
  mlir::OwningOpRef<mlir::ModuleOp> imported;
  if (flags->compareModes)
    imported = module->clone();
  llvm::StringMap<mlir::ElementsAttr> modelConstants;
  if (flags->run)
    module->walk([&](ascendprec::ascend::ConstOp constant) {
      if (auto name = constant->getAttrOfType<mlir::StringAttr>("name"))
        modelConstants[name.getValue()] = constant.getValue();
    });

  if (!out->stage(folderError)) {
    llvm::errs() << "<command line>: error: " << folderError << "\n";
    return UserError;
  }
  std::string optionsFile = out->stagedPath("options.json");
  if (!writeText(optionsFile, effectiveOptionsJson(parsed->options))) {
    llvm::errs() << "error: cannot write " << optionsFile << "\n";
    return UserError;
  }

  auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
  ascendprec::ascend::GraphPrepareOptions prepare;
  prepare.renameDuplicates = true; // models often repeat or omit node names
  ascendprec::ascend::buildGraphPreparePipeline(pm, prepare);
  ascendprec::ascend::PrecisionPipelineOptions precision;
  precision.explain = explain;
  precision.explainOnly = explainOnly;
  precision.keepIoDtypes = keepIo;
  precision.fusionRespectsPins = flags->fusionRespectsPins;
  // The report is written below, from the data the summary table uses too.
  // On the policy built above, whose option warnings are already printed.
  auto policyShared = std::make_shared<const policy::Policy>(std::move(*resolved));
  ascendprec::ascend::buildPrecisionPipeline(pm, precision, policyShared);

  // Verify once after the pipeline rather than after every pass (about a
  // fifth of the planning time on large models); the passes keep the IR
  // valid and the lit tests run prec-opt with verification after each.
  pm.enableVerifier(false);
  progress.begin("plan precision");
  mlir::LogicalResult planned = pm.run(*module);
  if (mlir::failed(planned)) {
    progress.end();
    if (diagnostics.errors() > 0 && diagnostics.errorsWithRule() == diagnostics.errors())
      return UserError;
    llvm::errs() << "prec-compile: internal error: planning failed without a "
                    "rule-based diagnostic; please report this with the model\n";
    return diagnostics.errorsWithRule() ? UserError : InternalError;
  }
  // The planned IR is verified while the summary is read off it (both only
  // read the IR), before planned.mlir's writer swaps the weights' resources
  // out.
  std::future<bool> verified = std::async(std::launch::async, [&] {
    return mlir::succeeded(mlir::verify(*module));
  });
  ascendprec::report::ReportData report = ascendprec::ascend::collectReport(*module);
  if (!verified.get()) {
    llvm::errs() << "prec-compile: internal error: planning produced invalid IR; "
                    "please report this with the model\n";
    return InternalError;
  }
  progress.end();

  // The kernels (issue 13): a copy of the planned graph lowered to akernel,
  // whose estimates the report carries. An op without a lowering is a
  // warning (the report counts it), not a failure.
  progress.begin("lower to kernels");
  // The lowering's warnings (ops without a kernel) go into the report too.
  diagnostics.startLoading();
  mlir::OwningOpRef<mlir::ModuleOp> kernels = lowerToKernels(*module, policyShared, *flags);
  for (ascendprec::report::ReportData::Diagnostic &diag : diagnostics.stopLoading())
    report.diagnostics.push_back(std::move(diag));
  progress.end();
  if (kernels)
    ascendprec::kernel::attachKernelEstimates(*kernels, report);

  std::optional<AccuracyResult> accuracy;
  AccuracyRun accuracyRun;
  std::string modeTable;
  if (flags->run) {
    accuracyRun.threads = flags->threads;
    accuracyRun.iterations = flags->runIterations;
    accuracyRun.modelConstants = std::move(modelConstants);
    progress.begin("run on the host");
    RunInputs runInputs;
    int status =
        runOnHost(kernels.get(), *flags, accuracyRun, report, *out, runInputs, accuracy);
    progress.end();
    if (status != Success)
      return status;
    if (flags->compareModes) {
      progress.begin("compare precision modes");
      ModeComparisonOptions planning;
      planning.keepIoDtypes = keepIo;
      planning.fusionRespectsPins = flags->fusionRespectsPins;
      report.modes = compareModes(*imported, parsed->options, planning, accuracyRun, runInputs);
      progress.end();
      std::string soc = report.socVersion;
      if (!writeText(out->stagedPath("compare.json"),
                     modeComparisonJson(report.modes, soc, runInputs.from))) {
        llvm::errs() << "error: cannot write " << out->stagedPath("compare.json") << "\n";
        return UserError;
      }
      modeTable = modeComparisonTable(report.modes, soc, runInputs.from);
    }
  }

  progress.begin("write outputs");
  // planned.mlir is printed while the report files are formatted: the
  // reports read `report`, not the IR, so the two share nothing (a third of
  // the writing time on large models).
  std::string writeError;
  bool wrote = false;
  std::thread irWriter([&] {
    wrote = writePlannedIR(out->stagedPath("planned.mlir"), *module, fullConstants, writeError);
  });
  mlir::LogicalResult reported = ascendprec::report::writeReportFiles(
      *module, report, ascendprec::report::ReportFiles::besides(out->stagedPath("report.json")));
  irWriter.join();
  if (mlir::failed(reported))
    return UserError;
  if (wrote && kernels)
    wrote = writePlannedIR(out->stagedPath("kernels.mlir"), *kernels, /*fullConstants=*/false,
                           writeError);
  std::vector<std::string> written;
  bool committed = wrote && out->commit(written, folderError);
  progress.end();
  if (!committed) {
    llvm::errs() << "<command line>: error: "
                 << (wrote ? folderError : writeError) << "\n";
    return UserError;
  }
  std::string files;
  for (size_t i = 0; i < written.size(); ++i)
    files += (i ? ", " : " ") + written[i];
  std::string where = policy::escapeForDisplay(*output);
  if (quiet) {
    // Only the diagnostics (printed as they happened) and one line.
    std::cout << ascendprec::report::reportSummaryLine(report);
    if (accuracy) {
      double worst = 0;
      for (const OutputAccuracy &output : accuracy->outputs)
        worst = std::max(worst, output.vsReference.relRmse);
      std::cout << "; measured output error " << ascendprec::report::errorCell(worst)
                << " (rel rmse vs fp32)";
    }
    std::cout << "; outputs in " << where << "\n";
    exitWithoutTeardown(Success);
    return Success;
  }
  std::cout << ascendprec::report::reportSummaryLine(report) << "\n"
            << ascendprec::report::reportTerminalTable(report, terminalWidth());
  if (std::string time = ascendprec::report::reportTimeLine(report); !time.empty())
    std::cout << "\n" << time;
  size_t count = report.diagnostics.size();
  if (count)
    std::cout << "\n"
              << count << (count == 1 ? " diagnostic" : " diagnostics")
              << " (printed above, also in report.txt)\n";
  if (accuracy)
    std::cout << "\n" << accuracySummary(*accuracy, accuracyRun, *flags);
  if (!modeTable.empty())
    std::cout << "\n" << modeTable;
  std::cout << "\nFull table in report.txt. Outputs in " << where << ":" << files << "\n";
  exitWithoutTeardown(Success);
  return Success;
}

} // namespace

int main(int argc, char **argv) {
  // Before MLIR starts its threads, so that they inherit the blocked signals.
  cleanUpOnInterrupt(&OutputFolder::discardActive);
  std::vector<std::string> args(argv + 1, argv + argc);
  return run(args);
}
