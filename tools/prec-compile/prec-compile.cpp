//===- prec-compile.cpp - the user-facing AscendPrec driver ---------------===//
//
// prec-compile MODEL --soc_version=... [CANN options] --output=DIR
//
// Takes CANN's own option names and config files, plans the model's precision
// (prepare, plan, materialize, clean up), and writes the planned IR, the
// report, a picture and a lockfile, all or nothing.
//
//===----------------------------------------------------------------------===//

#include "AtcOptions.h"
#include "DatasetHandoff.h"
#include "DiagnosticPrinter.h"
#include "ExitCode.h"
#include "Help.h"
#include "InterruptCleanup.h"
#include "Progress.h"
#include "TerminalWidth.h"

#include "AscendPrec/Session/CompareModes.h"
#include "AscendPrec/Session/HostRun.h"
#include "AscendPrec/Session/ProcessMemory.h"
#include "AscendPrec/Session/SearchOutput.h"
#include "AscendPrec/Session/Session.h"

#include "AscendPrec/Execution/KernelCache.h"
#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Report/TextWrap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace ascendprec;
using namespace ascendprec::driver;
using namespace ascendprec::session;
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


/// prec-compile's own flags (not CANN options).
struct DriverFlags {
  std::string output;
  bool quiet = false, explain = false, fullConstants = false, keepIo = true;
  bool fusionRespectsPins = false; ///< FU-2's opt-in
  /// --atc-refusals=error: a node ATC's ONNX parser has no plugin for
  /// (E13010) is a user error (exit 1, nothing written); warn (the
  /// default): a warning, and the model is still planned and run.
  bool atcRefusalsAreErrors = false;

  /// --explain=NODE,OpType::T: those only; empty with --explain: every op.
  std::vector<std::string> explainOnly;

  /// --run[=DIR]: run the plan on the host (DIR empty: random inputs).
  std::optional<std::string> run;
  unsigned runIterations = 1, threads = 1;
  /// --kernel-cache=DIR|off: where compiled kernels are kept (KernelCache.h).
  std::optional<std::string> kernelCache;
  /// --run-seed=N and --run-range=...: random inputs only.
  uint64_t runSeed = 0;
  std::vector<session::InputRange> runRanges;
  /// --compare-modes: plan, estimate and run every precision mode.
  bool compareModes = false;
  /// --search-precision=TARGET and --search-budget=N.
  std::optional<policy::AccuracyTarget> searchTarget;
  unsigned searchBudget = 24;
  /// --data=PATH: the plan judged on a dataset, by the Python package
  /// (DatasetHandoff.h), which reads the dataset flags itself.
  bool dataset = false;
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

/// --atc-refusals=warn|error (`value`, null when not given) into `flags`;
/// false, with the error, for another value.
bool readAtcRefusals(const std::string *value, DriverFlags &flags,
                     policy::DiagnosticList &diags) {
  if (!value)
    return true;
  if (*value != "warn" && *value != "error") {
    diags.error({"<command line>"}, "--atc-refusals takes warn or error, not '" +
                                        policy::escapeForDisplay(*value) + "'");
    return false;
  }
  flags.atcRefusalsAreErrors = *value == "error";
  return true;
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
  if (!readAtcRefusals(flag("atc-refusals"), flags, diags))
    return std::nullopt;
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
  if (const std::string *data = flag("data")) {
    if (data->empty() || *data == "true") {
      diags.error({"<command line>"}, "--data names the dataset: --data=PATH (a folder of "
                                      "samples or a .npy/.npz file; docs/reference/datasets.md)");
      return std::nullopt;
    }
    for (const char *name : {"run", "run-seed", "run-range", "run-iterations"})
      if (flag(name)) {
        diags.error({"<command line>"},
                    std::string("--data runs every sample of the dataset and --") + name +
                        " one input set: leave out one of the two");
        return std::nullopt;
      }
    // The dataset run reads its target (dataset metrics such as
    // top1_agreement>=0.995) and the rest of its flags itself.
    flags.dataset = true;
    return flags;
  }
  for (const std::string &name : datasetFlags())
    if (flag(name)) {
      diags.error({"<command line>"},
                  "--" + name + " applies to a dataset run: add --data=PATH");
      return std::nullopt;
    }
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
    if (!flags.run) {
      flags.run = ""; // shaping random inputs asks for a run of them
      continue;
    }
    if (!flags.run->empty()) {
      diags.error({"<command line>"},
                  std::string("--") + name +
                      " shapes random inputs, and --run=DIR reads them from its files: "
                      "leave out one of the two");
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
    std::optional<std::vector<session::InputRange>> parsedRanges =
        session::parseInputRanges(*ranges == "true" ? "" : *ranges, error);
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
    if (std::optional<std::string> why = exec::KernelCache::whyNotAFolder(*cache)) {
      diags.error({"<command line>"}, "--kernel-cache: " + *why +
                                          ": give a folder (created when missing) or 'off'");
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

/// Shows the session's progress and diagnostics on the terminal.
class TerminalObserver : public session::Observer {
public:
  explicit TerminalObserver(Progress &progress) : progress(progress) {}
  void attach(DiagnosticPrinter &diagnostics) { printer = &diagnostics; }

  void begin(const std::string &phase) override { progress.begin(phase); }
  void end() override { progress.end(); }
  void step(const std::string &detail) override { progress.step(detail); }
  void diagnostic(mlir::Diagnostic &diag) override {
    if (printer)
      printer->print(diag);
  }
  void warning(const std::string &text) override {
    progress.breakLine();
    llvm::errs() << "prec-compile: warning: " << text << "\n";
  }

private:
  Progress &progress;
  DiagnosticPrinter *printer = nullptr;
};

/// Prints a failed step's error (unless its diagnostics already said it)
/// and gives the exit code.
int failed(const session::Status &status) {
  const session::Error &error = status.error();
  if (!error.reported)
    llvm::errs() << error.format();
  return error.kind == session::Error::Kind::Internal ? InternalError : UserError;
}

/// --run, --compare-modes and --search-precision, staged in `out`.
int measure(session::Session &session, const DriverFlags &flags, OutputFolder &out) {
  session::InputSource source;
  source.folder = *flags.run;
  session::RunSettings settings;
  settings.threads = flags.threads;
  settings.iterations = flags.runIterations;
  settings.seed = flags.runSeed;
  settings.ranges = flags.runRanges;
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
  if (session::Status ran = session.run(source, settings, &out); !ran)
    return failed(ran);
  if (!flags.compareModes)
    return Success;
  // A target naming an output the model lacks fails before any work.
  if (flags.searchTarget) {
    std::string problem =
        checkTargetOutputs(*flags.searchTarget, session.runInputs().outputNames);
    if (!problem.empty()) {
      llvm::errs() << "<command line>: error: " << problem << "\n";
      return UserError;
    }
  }
  if (session::Status compared = session.compareModes(&out); !compared)
    return failed(compared);
  if (!flags.searchTarget)
    return Success;
  session::Status searched =
      session.searchPrecision(*flags.searchTarget, flags.searchBudget, &out);
  const std::optional<session::SearchOutcome> &outcome = session.searchOutcome();
  if (!searched && outcome && outcome->kind != session::SearchOutcome::Kind::Found &&
      outcome->kind != session::SearchOutcome::Kind::BuiltInMode) {
    // How far the search got, before the error.
    const report::ReportData &report = session.report();
    const std::string &from = session.runInputs().from;
    std::cout << report::wrapText(
        modeComparisonTable(report.modes, report.socVersion, from) + "\n" +
            searchSummary(*outcome, session.searchSettings(), report.modes,
                          session.modeOutputs(), from, terminalWidth()),
        terminalWidth());
  }
  return searched ? Success : failed(searched);
}

/// The one line --quiet prints.
std::string quietSummary(const session::Session &session, const std::string &where) {
  const report::ReportData &report = session.report();
  std::string text = report::reportSummaryLine(report);
  if (std::string refused = policy::atcRefusalSummary(report.atcRefusals); !refused.empty())
    text += "; " + refused;
  if (const std::optional<AccuracyResult> &accuracy = session.accuracy()) {
    double worst = 0;
    for (const OutputAccuracy &output : accuracy->outputs)
      worst = std::max(worst, output.vsReference.relRmse);
    text += "; measured output error " + report::errorCell(worst) + " (rel rmse vs fp32)";
  }
  if (report.search)
    text += "; search for " + report.search->target + ": " +
            policy::escapeForDisplay(report.search->result) + ", est. " +
            llvm::formatv("{0:F1}", report.search->estDeviceUs).str() + " us, " +
            report.search->values;
  return text + "; outputs in " + where + "\n";
}

/// What a finished run prints: the summary, the table, the measurements,
/// where the files are.
std::string fullSummary(const session::Session &session, const DriverFlags &flags,
                        const std::string &where, const std::vector<std::string> &written,
                        unsigned width) {
  const report::ReportData &report = session.report();
  std::string text = report::reportSummaryLine(report) + "\n";
  // ATC would not convert the model (E13010; the warnings above say why):
  // under the summary line, as in report.txt.
  if (std::string refused = policy::atcRefusalSummary(report.atcRefusals); !refused.empty())
    text += refused + "\n";
  text += report::reportTerminalTable(report, width);
  if (std::string time = report::reportTimeLine(report); !time.empty())
    text += "\n" + time;
  if (size_t count = report.diagnostics.size())
    text += "\n" + std::to_string(count) + (count == 1 ? " diagnostic" : " diagnostics") +
            " (printed above, also in report.txt)\n";
  if (const std::optional<AccuracyResult> &accuracy = session.accuracy())
    text += "\n" + accuracySummary(*accuracy, session.accuracyRun(), *flags.run);
  const std::string &from = session.runInputs().from;
  if (flags.compareModes)
    text += "\n" + modeComparisonTable(report.modes, report.socVersion, from);
  if (const std::optional<session::SearchOutcome> &outcome = session.searchOutcome())
    text += "\n" +
            searchSummary(*outcome, session.searchSettings(), report.modes,
                          session.modeOutputs(), from, width) +
            "Files in " + where +
            "/search: options.json reproduces the plan found (prec-compile MODEL "
            "--session_options=" +
            where + "/search/options.json --output=NEW_FOLDER); the other outputs in " + where +
            " describe the plan of the options given (" + report.precisionMode + ")\n";
  std::string files;
  for (size_t i = 0; i < written.size(); ++i)
    files += (i ? ", " : " ") + written[i];
  return text + "\nFull table in report.txt. Outputs in " + where + ":" + files + "\n";
}

/// --help, --list-fusion-passes and --version, if asked for.
std::optional<int> informationRequest(const std::vector<std::string> &args) {
  for (const std::string &arg : args) {
    if (arg == "--help" || arg == "-help" || arg == "-h") {
      // The descriptions wrap under their column (34).
      std::cout << report::wrapText(helpText(), terminalWidth(), 32);
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
  return std::nullopt;
}

/// Replaces this process with the dataset run; returns only when that
/// cannot start.
int handOff(const std::vector<std::string> &args) {
  std::string error;
  std::cout.flush();
  handOffToDatasetRun(args, error);
  std::cerr << "<command line>: error: " << error << "\n";
  return UserError;
}

int run(const std::vector<std::string> &args) {
  if (std::optional<int> answered = informationRequest(args))
    return *answered;
  policy::DiagnosticList diags;
  std::vector<std::string> toolFlags = {
      "output", "quiet", "explain", "keep-io-dtypes", "full-constants", "fusion-respects-pins",
      "run", "run-iterations", "run-seed", "run-range", "threads", "compare-modes",
      "search-precision", "search-budget", "kernel-cache", "atc-refusals"};
  toolFlags.insert(toolFlags.end(), datasetFlags().begin(), datasetFlags().end());
  std::optional<policy::ParsedCommandLine> parsed =
      policy::parseCannArguments(args, toolFlags, diags);
  auto failWith = [&](int code) {
    std::cerr << diags.format();
    return code;
  };
  if (!parsed)
    return failWith(UserError);
  // The model and the model-I/O options are checked before the flags (the
  // session checks the latter again when it resolves the options).
  std::optional<std::string> model = modelFromArguments(*parsed, diags);
  if (!model || !policy::parseModelInputOptions(parsed->options, diags))
    return failWith(UserError);
  LogFilter log(parsed->options);
  std::optional<DriverFlags> flags = readDriverFlags(*parsed, diags);
  if (!flags)
    return failWith(UserError);
  if (flags->dataset)
    return handOff(args);
  if (flags->kernelCache)
    exec::KernelCache::configure(*flags->kernelCache);
  // Before any work: whether the folder may be written at all.
  std::string folderError;
  std::vector<std::string> inputs = parsed->positional, inputFolders;
  for (std::string &path : optionInputPaths(*parsed))
    inputs.push_back(std::move(path));
  if (flags->run && !flags->run->empty()) {
    inputs.push_back(*flags->run);
    inputFolders.push_back(*flags->run);
  }
  std::unique_ptr<OutputFolder> out =
      OutputFolder::open(flags->output, inputs, inputFolders, folderError);
  if (!out) {
    std::cerr << "<command line>: error: " << folderError << "\n";
    return UserError;
  }
  Progress progress(!flags->quiet && isatty(STDERR_FILENO));
  TerminalObserver observer(progress);
  session::PlanSettings settings;
  settings.explain = flags->explain;
  settings.explainOnly = flags->explainOnly;
  settings.keepIoDtypes = flags->keepIo;
  settings.fusionRespectsPins = flags->fusionRespectsPins;
  settings.atcRefusalsAreErrors = flags->atcRefusalsAreErrors;
  settings.fullConstants = flags->fullConstants;
  settings.keepImported = flags->compareModes;
  session::Session session(parsed->options, settings, &observer);
  DiagnosticPrinter diagnostics(session.context(), session.sourceMgr(), log, progress,
                                diagnosticWidth(), flags->explain);
  observer.attach(diagnostics);

  session::Status resolved = session.resolve(diags);
  for (const policy::Diagnostic &diag : diags.all())
    if (log.shows(diag.severity))
      std::cerr << diag.format() << "\n";
  if (!resolved)
    return UserError;

  session::Status loaded = session.loadFile(*model, flags->run ? *flags->run : "");
  if (!loaded)
    return failed(loaded);
  if (!out->stage(folderError)) {
    llvm::errs() << "<command line>: error: " << folderError << "\n";
    return UserError;
  }
  session::Status planned = session.plan(out.get(), /*runFollows=*/flags->run.has_value());
  diagnostics.printExplanations(terminalWidth());
  if (!planned)
    return failed(planned);
  if (flags->run)
    if (int status = measure(session, *flags, *out); status != Success)
      return status;

  progress.begin("write outputs");
  std::vector<std::string> written;
  session::Status wrote = session.write(*out, written);
  progress.end();
  if (!wrote)
    return failed(wrote);
  std::string where = policy::escapeForDisplay(flags->output);
  if (flags->quiet)
    std::cout << quietSummary(session, where); // the diagnostics were printed as they came
  else // prose is wrapped to the terminal; the tables are fitted to it
    std::cout << report::wrapText(
        fullSummary(session, *flags, where, written, terminalWidth()), terminalWidth());
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
  // The pages libLLVM and libMLIR touched while loading, which the run
  // does not need: most of the tool's resident memory otherwise.
  session::releaseCompilerLibraryPages();
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
  // No exception ends the run in an abort: one that escapes (a file system
  // error the code did not foresee) is reported, the staging removed.
  try {
    return run(args);
  } catch (const std::exception &exception) {
    OutputFolder::discardActive();
    llvm::errs() << "prec-compile: internal error: " << exception.what()
                 << " (nothing was written; please report it with the command line)\n";
    return InternalError;
  }
}
