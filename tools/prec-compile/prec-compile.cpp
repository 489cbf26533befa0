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
#include "OptionsJson.h"
#include "SearchOutput.h"
#include "ExitCode.h"
#include "Help.h"
#include "HostRun.h"
#include "ModelLoader.h"
#include "AtcOptions.h"
#include "DiagnosticPrinter.h"
#include "InterruptCleanup.h"
#include "ModelIo.h"
#include "OutputFolder.h"
#include "PlannedIRWriter.h"
#include "Progress.h"
#include "RunIo.h"
#include "TerminalWidth.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Kernel/Analysis/KernelReport.h"
#include "AscendPrec/Execution/KernelCache.h"
#include "AscendPrec/InitAll.h"
#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/JsonOutput.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "AscendPrec/Dialect/Ascend/Transforms/CollectReport.h"
#include "AscendPrec/Report/TextWrap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <new>
#include <iostream>
#include <thread>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
  /// --kernel-cache=DIR|off: where compiled kernels are kept (KernelCache.h).
  std::optional<std::string> kernelCache;
  /// --run-seed=N and --run-range=...: random inputs only.
  uint64_t runSeed = 0;
  std::vector<driver::InputRange> runRanges;
  /// --compare-modes: plan, estimate and run every precision mode.
  bool compareModes = false;
  /// --search-precision=TARGET and --search-budget=N.
  std::optional<policy::AccuracyTarget> searchTarget;
  unsigned searchBudget = 24;
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
  if (const std::string *run = flag("run"); run && *run != "false") {
    if (run->empty()) {
      // `--run=$DIR` with DIR unset: not the same as --run.
      diags.error({"<command line>"}, "--run= names no folder: give --run=DIR, or --run alone "
                                      "for seeded random inputs");
      return std::nullopt;
    }
    flags.run = *run == "true" ? "" : *run;
  }
  flags.compareModes = isSet("compare-modes");
  if (const std::string *target = flag("search-precision")) {
    flags.searchTarget = policy::parseAccuracyTarget(*target == "true" ? "" : *target, diags);
    if (!flags.searchTarget)
      return std::nullopt;
    // The search ends with every built-in mode measured on the same inputs.
    flags.compareModes = true;
  }
  if (const std::string *budget = flag("search-budget")) {
    if (!flags.searchTarget) {
      diags.error({"<command line>"},
                  "--search-budget applies to a precision search: add "
                  "--search-precision=TARGET (e.g. \"cosine>=0.9999\")");
      return std::nullopt;
    }
    std::optional<unsigned> number = positiveFlag("search-budget", *budget, 1000, diags);
    if (!number)
      return std::nullopt;
    flags.searchBudget = *number;
  }
  if (flags.compareModes && !flags.run)
    flags.run = ""; // it measures: seeded random inputs unless --run=DIR
  for (const char *name : {"run-seed", "run-range"}) {
    if (!flag(name))
      continue;
    if (!flags.run || !flags.run->empty()) {
      diags.error({"<command line>"},
                  std::string("--") + name +
                      (flags.run ? " shapes random inputs, and --run=DIR reads them from its "
                                   "files: leave out one of the two"
                                 : " applies to a run: add --run (random inputs)"));
      return std::nullopt;
    }
  }
  if (const std::string *seed = flag("run-seed")) {
    char *end = nullptr;
    errno = 0;
    unsigned long long number = std::strtoull(seed->c_str(), &end, 10);
    if (seed->empty() || *end || (*seed)[0] == '-' || errno == ERANGE) {
      diags.error({"<command line>"}, "--run-seed takes a whole number from 0 to 2^64 - 1, not '" +
                                          policy::escapeForDisplay(*seed) + "'");
      return std::nullopt;
    }
    flags.runSeed = number;
  }
  if (const std::string *ranges = flag("run-range")) {
    std::string error;
    std::optional<std::vector<driver::InputRange>> parsedRanges =
        driver::parseInputRanges(*ranges == "true" ? "" : *ranges, error);
    if (!parsedRanges) {
      diags.error({"<command line>"}, error);
      return std::nullopt;
    }
    flags.runRanges = std::move(*parsedRanges);
  }
  if (const std::string *cache = flag("kernel-cache")) {
    if (cache->empty() || *cache == "true") {
      diags.error({"<command line>"},
                  "--kernel-cache takes a folder or 'off' (default: " +
                      ascendprec::exec::KernelCache::defaultFolder() + ")");
      return std::nullopt;
    }
    // A file there would leave every run uncached without a word.
    if (*cache != "off" && llvm::sys::fs::exists(*cache) &&
        !llvm::sys::fs::is_directory(*cache)) {
      diags.error({"<command line>"}, "--kernel-cache: '" + *cache +
                                          "' is a file, not a folder: give a folder (created "
                                          "when missing) or 'off'");
      return std::nullopt;
    }
    flags.kernelCache = *cache;
  }
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

/// The planned module's kernels: `copy`, a copy of the planned module,
/// lowered by prec-convert-ascend-to-kernel with allow-unlowered; null
/// (after an internal-error message) if the lowering fails.
mlir::OwningOpRef<mlir::ModuleOp>
lowerToKernels(mlir::OwningOpRef<mlir::ModuleOp> copy,
               std::shared_ptr<const policy::Policy> policy, const DriverFlags &flags) {
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(copy->getContext());
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

int run(const std::vector<std::string> &args) {
  for (const std::string &arg : args) {
    if (arg == "--help" || arg == "-help" || arg == "-h") {
      // The descriptions wrap under their column (34).
      std::cout << ascendprec::report::wrapText(helpText(), terminalWidth(), 32);
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
       "run", "run-iterations", "run-seed", "run-range", "threads", "compare-modes",
       "search-precision", "search-budget", "kernel-cache"},
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
  if (flags->kernelCache)
    ascendprec::exec::KernelCache::configure(*flags->kernelCache);
  const std::string *output = &flags->output;
  // Before any work: whether the folder may be written at all.
  std::string folderError;
  std::vector<std::string> inputs = inputPaths(*parsed), inputFolders;
  if (flags->run && !flags->run->empty()) {
    inputs.push_back(*flags->run);
    inputFolders.push_back(*flags->run);
  }
  std::unique_ptr<OutputFolder> out =
      OutputFolder::open(*output, inputs, inputFolders, folderError);
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
  DiagnosticPrinter diagnostics(context, log, progress, diagnosticWidth(), explain);

  progress.begin("load " + fs::path(modelPath).filename().string());
  ascendprec::ONNXImportOptions importOptions;
  for (const policy::InputShape &shape : modelIo->shapes)
    importOptions.inputShapes.push_back({shape.name, shape.dims});
  // graph_run_mode=1: training losses stay whole, as CANN's NLLLoss.
  importOptions.trainingGraph = resolved->graphRunMode == 1;
  // --run=DIR: inputs that decide shapes are planned for the run's values.
  if (flags->run && !flags->run->empty())
    importOptions.runInputValues = driver::readShapeDecidingInputs(*flags->run);
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
    diagnostics.printExplanations(terminalWidth());
    if (diagnostics.errors() > 0 && diagnostics.errorsWithRule() == diagnostics.errors())
      return UserError;
    llvm::errs() << "prec-compile: internal error: planning failed without a "
                    "rule-based diagnostic; please report this with the model\n";
    return diagnostics.errorsWithRule() ? UserError : InternalError;
  }
  // The planned IR is verified, copied for the lowering below and read for
  // the summary at once (all three only read it), before planned.mlir's
  // writer swaps the weights' resources out.
  std::future<bool> verified = std::async(std::launch::async, [&] {
    return mlir::succeeded(mlir::verify(*module));
  });
  std::future<mlir::OwningOpRef<mlir::ModuleOp>> copied = std::async(
      std::launch::async, [&]() -> mlir::OwningOpRef<mlir::ModuleOp> { return module->clone(); });
  ascendprec::report::ReportData report = ascendprec::ascend::collectReport(*module);
  mlir::OwningOpRef<mlir::ModuleOp> toLower = copied.get();
  if (!verified.get()) {
    llvm::errs() << "prec-compile: internal error: planning produced invalid IR; "
                    "please report this with the model\n";
    return InternalError;
  }
  progress.end();

  // The kernels (issue 13): a copy of the planned graph lowered to akernel,
  // whose estimates the report carries. An op without a lowering is a
  // warning (the report counts it), not a failure.
  //
  // planned.mlir is printed on a thread of its own from here on, while the
  // kernels are lowered (and run): it reads only the planned module, the
  // lowering works on the copy taken above (the writer swaps the planned
  // module's weights for stand-ins). The future's destructor waits for the
  // writer on every return below.
  std::string writeError;
  std::future<bool> plannedWritten = std::async(std::launch::async, [&] {
    return writePlannedIR(out->stagedPath("planned.mlir"), *module, fullConstants, writeError);
  });
  progress.begin("lower to kernels");
  // The lowering's warnings (ops without a kernel) go into the report too.
  diagnostics.startLoading();
  mlir::OwningOpRef<mlir::ModuleOp> kernels =
      lowerToKernels(std::move(toLower), policyShared, *flags);
  for (ascendprec::report::ReportData::Diagnostic &diag : diagnostics.stopLoading())
    report.diagnostics.push_back(std::move(diag));
  progress.end();
  diagnostics.printExplanations(terminalWidth());
  // kernels.mlir is printed on a thread of its own while the estimates are
  // read off the kernels (both only read them) and, further down, while
  // the report files are formatted. With --run it waits for the run: the
  // JIT adds dialects to the context, which must not change while a module
  // is printed from it.
  std::string kernelsError;
  std::future<bool> kernelsWritten;
  auto startWritingKernels = [&] {
    kernelsWritten = std::async(std::launch::async, [&] {
      return !kernels || writePlannedIR(out->stagedPath("kernels.mlir"), *kernels,
                                        /*fullConstants=*/false, kernelsError);
    });
  };
  if (!flags->run)
    startWritingKernels();
  if (kernels)
    ascendprec::kernel::attachKernelEstimates(*kernels, report);

  std::optional<AccuracyResult> accuracy;
  AccuracyRun accuracyRun;
  std::string modeTable, searchText;
  if (flags->run) {
    accuracyRun.threads = flags->threads;
    accuracyRun.iterations = flags->runIterations;
    accuracyRun.modelConstants = std::move(modelConstants);
    accuracyRun.seed = flags->runSeed;
    accuracyRun.ranges = flags->runRanges;
    // The JIT adds dialects and translations to the context, which must
    // not change while planned.mlir is printed from it.
    plannedWritten.wait();
#if defined(__GLIBC__)
    // A run allocates and frees a tensor per launch, of a few hundred KiB
    // to many MiB. glibc would move its mmap threshold up past each large
    // block freed, after which such blocks come from the heap and stay
    // there: each further iteration, the reference run and the modes of
    // --compare-modes then add to the peak (MobileNet's block: 177 -> 147
    // MB, BERT's: 240 -> 197 MB at 5 iterations, same speed). Not earlier:
    // planning a 200k-node graph is 5% slower with a fixed threshold.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    progress.begin("run on the host");
    RunInputs runInputs;
    int status =
        runOnHost(kernels.get(), *flags->run, accuracyRun, report, *out, runInputs, accuracy);
    progress.end();
    if (status != Success)
      return status;
    if (flags->compareModes) {
      progress.begin("compare precision modes");
      ModeComparisonOptions planning;
      planning.keepIoDtypes = keepIo;
      planning.fusionRespectsPins = flags->fusionRespectsPins;
      if (flags->searchTarget) {
        std::string problem = checkTargetOutputs(*flags->searchTarget, runInputs.outputNames);
        if (!problem.empty()) {
          progress.end();
          llvm::errs() << "<command line>: error: " << problem << "\n";
          return UserError;
        }
      }
      std::vector<std::vector<OutputAccuracy>> modeOutputs;
      report.modes = compareModes(*imported, parsed->options, planning, accuracyRun, runInputs,
                                  &modeOutputs,
                                  [&](const std::string &step) { progress.step(step); });
      progress.end();
      if (flags->searchTarget) {
        progress.begin("search precision");
        SearchSettings settings;
        settings.target = *flags->searchTarget;
        settings.budget = flags->searchBudget;
        settings.planning = planning;
        settings.onStep = [&](const std::string &step) { progress.step(step); };
        SearchOutcome outcome = searchPrecision(*imported, parsed->options, settings, accuracyRun,
                                                runInputs, report.modes, modeOutputs);
        progress.end();
        searchText = searchSummary(outcome, settings, report.modes, modeOutputs, runInputs.from,
                                   terminalWidth());
        if (outcome.kind != SearchOutcome::Kind::Found &&
            outcome.kind != SearchOutcome::Kind::BuiltInMode) {
          std::cout << ascendprec::report::wrapText(
              modeComparisonTable(report.modes, report.socVersion, runInputs.from) + "\n" +
                  searchText,
              terminalWidth());
          llvm::errs() << "prec-compile: error: --search-precision: " << outcome.message
                       << "; nothing was written\n";
          return UserError;
        }
        std::string problem = writeAndCheckSearchFiles(
            out->stagedPath(OutputFolder::kSearchFolder), outcome, parsed->options, settings,
            *imported,
            searchJson(outcome, settings, report.modes, modeOutputs, report.socVersion,
                       runInputs.from));
        if (!problem.empty()) {
          llvm::errs() << "prec-compile: " << problem << "\n";
          return problem.rfind("internal error", 0) == 0 ? InternalError : UserError;
        }
        report.search = searchReport(outcome, settings, report.modes, modeOutputs);
      }
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
  // The report files are formatted (from `report`, not the IR) while
  // kernels.mlir and planned.mlir may still be printing: on large models
  // these three are most of the writing time.
  if (!kernelsWritten.valid())
    startWritingKernels();
  mlir::LogicalResult reported = ascendprec::report::writeReportFiles(
      *module, report, ascendprec::report::ReportFiles::besides(out->stagedPath("report.json")));
  bool wrote = plannedWritten.get();
  if (!kernelsWritten.get() && wrote) {
    wrote = false;
    writeError = kernelsError;
  }
  if (mlir::failed(reported))
    return UserError;
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
    if (report.search)
      std::cout << "; search for " << report.search->target << ": "
                << policy::escapeForDisplay(report.search->result) << ", est. "
                << std::string(llvm::formatv("{0:F1}", report.search->estDeviceUs)) << " us, "
                << report.search->values;
    std::cout << "; outputs in " << where << "\n";
    exitWithoutTeardown(Success);
    return Success;
  }
  // Prose is wrapped to the terminal; the tables are fitted to it.
  const unsigned width = terminalWidth();
  std::string text = ascendprec::report::reportSummaryLine(report) + "\n" +
                     ascendprec::report::reportTerminalTable(report, width);
  if (std::string time = ascendprec::report::reportTimeLine(report); !time.empty())
    text += "\n" + time;
  if (size_t count = report.diagnostics.size())
    text += "\n" + std::to_string(count) + (count == 1 ? " diagnostic" : " diagnostics") +
            " (printed above, also in report.txt)\n";
  if (accuracy)
    text += "\n" + accuracySummary(*accuracy, accuracyRun, *flags->run);
  if (!modeTable.empty())
    text += "\n" + modeTable;
  if (!searchText.empty())
    text += "\n" + searchText + "Files in " + where +
            "/search: options.json reproduces the plan found (prec-compile MODEL "
            "--session_options=" +
            where + "/search/options.json --output=NEW_FOLDER); the other outputs in " + where +
            " describe the plan of the options given (" + report.precisionMode + ")\n";
  text += "\nFull table in report.txt. Outputs in " + where + ":" + files + "\n";
  std::cout << ascendprec::report::wrapText(text, width);
  exitWithoutTeardown(Success);
  return Success;
}

} // namespace

/// An allocation that failed (a model or inputs larger than the machine's
/// memory) ends the run as a user error with nothing left behind, from
/// whichever thread it happened on, rather than aborting.
[[noreturn]] void outOfMemory() {
  static const char message[] =
      "prec-compile: error: out of memory: an allocation failed (the model, its inputs or "
      "its intermediate values need more memory than this machine has); nothing was "
      "written\n";
  (void)!::write(STDERR_FILENO, message, sizeof(message) - 1);
  OutputFolder::discardActive();
  std::_Exit(UserError);
}

int main(int argc, char **argv) {
#if defined(__GLIBC__)
  // glibc keeps freed small blocks in "fast bins" and sweeps them all into
  // its free lists whenever a large block is asked for. A big model makes
  // millions of small blocks (protobuf, MLIR, libonnx's inference), so the
  // sweeps cost more than the fast bins save (a tenth of a 200k-node run,
  // bench/README.md); the per-thread cache still serves small blocks.
  mallopt(M_MXFAST, 0);
  // A run frees each value after its last use and allocates the next
  // kernel's: blocks of 128 KiB and more would each be a fresh mmap, paid
  // for in page faults on every kernel (a 256 KiB activation chain ran 3x
  // slower, at random, as glibc's threshold moved). Up to 256 MiB they come
  // from the heap and are reused; freed memory is kept up to 512 MiB.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
  // Before MLIR starts its threads, so that they inherit the blocked signals.
  cleanUpOnInterrupt(&OutputFolder::discardActive);
  std::set_new_handler(&outOfMemory);
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { outOfMemory(); }, nullptr);
  std::vector<std::string> args(argv + 1, argv + argc);
  return run(args);
}
