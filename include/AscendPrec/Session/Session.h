//===- Session.h - the AscendPrec engine: one model, planned and measured -===//
//
// A Session is everything prec-compile does, as a library: it takes CANN's
// options (the same option table, config files and ATC names), loads a
// model, plans its precision, lowers the plan to AI Core kernels with an
// estimated device time each, runs the plan on the host with the device's
// roundings against the fp32 reference, compares the precision modes,
// searches for the fastest plan that meets an accuracy target, and writes
// the output folder. The CLI, the C++ API and the Python package are front
// ends over it, so all three give the same plans, outputs and figures.
//
//   session::Session s(options);
//   policy::DiagnosticList warnings;
//   if (Status st = s.resolve(warnings); !st) ...
//   if (Status st = s.loadFile("model.onnx"); !st) ...
//   if (Status st = s.plan(); !st) ...
//   s.report().nodes;                 // per op: dtype, rule, source, est_us
//   if (Status st = s.run(InputSource{}); !st) ...
//   s.accuracy()->outputs;            // rel rmse, cosine vs fp32
//
// The steps go in that order; compareModes and searchPrecision need a run
// (on the same inputs) and PlanSettings::keepImported. A step that fails
// leaves the session for its results so far, and a later step refuses to
// start. Not thread-safe: one session per thread (sessions are independent).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_SESSION_H
#define ASCENDPREC_SESSION_SESSION_H

#include "AscendPrec/Policy/AccuracyTarget.h"
#include "AscendPrec/Policy/CommandLine.h"
#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/ModelInputs.h"
#include "AscendPrec/Policy/Options.h"
#include "AscendPrec/Policy/Policy.h"
#include "AscendPrec/Report/Report.h"
#include "AscendPrec/Session/Accuracy.h"
#include "AscendPrec/Session/Diagnostics.h"
#include "AscendPrec/Session/OutputFolder.h"
#include "AscendPrec/Session/PrecisionSearch.h"
#include "AscendPrec/Session/RunInputs.h"
#include "AscendPrec/Session/Status.h"
#include "AscendPrec/Target/ONNX/ImportONNX.h"

#include "AscendPrec/Execution/GraphRun.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::session {

/// CANN options given by name, as the C++ and Python APIs take them
/// ({"soc_version", "Ascend910B3"}, {"modify_mixlist", "mix.json"}): the
/// same option table, checks and config files as the command line;
/// "session_options" names a session-options file. Errors and warnings go
/// into `diagnostics` (located at "<command line>").
std::optional<policy::ParsedCommandLine>
parseNamedOptions(const std::vector<std::pair<std::string, std::string>> &named,
                  policy::DiagnosticList &diagnostics);

/// Every file and folder `parsed` makes a run read: the session-options
/// file and every path-valued option (an output folder must hold none).
std::vector<std::string> optionInputPaths(const policy::ParsedCommandLine &parsed);

/// What a front end sets beyond CANN's options.
struct PlanSettings {
  /// --explain: every decision as a remark (kept in diagnostics()).
  bool explain = false;
  std::vector<std::string> explainOnly; ///< nodes and OpType::T; empty: all
  bool keepIoDtypes = true;             ///< --keep-io-dtypes
  bool fusionRespectsPins = false;      ///< FU-2's opt-in
  /// --atc-refusals=error: a node ATC's ONNX parser has no plugin for
  /// (E13010) fails the load, as ATC fails; by default it is a warning and
  /// the model is still planned and run (report().atcRefusals lists them).
  bool atcRefusalsAreErrors = false;
  bool fullConstants = false;           ///< planned.mlir with every weight
  /// Keep the imported model for compareModes and searchPrecision (a
  /// copy of the model before planning).
  bool keepImported = false;
  /// Files the session reads besides the model (optionInputPaths): an
  /// output folder of writeFolder() may not hold them.
  std::vector<std::string> inputPaths;
};

/// A run's settings; the inputs come from an InputSource.
struct RunSettings {
  unsigned threads = 1;
  unsigned iterations = 1;
  uint64_t seed = 0;               ///< random inputs
  std::vector<InputRange> ranges;  ///< random inputs
};

/// Told of a session's long work and of what it would print. Every method
/// has a default that does nothing.
class Observer {
public:
  virtual ~Observer();
  /// A phase begins ("plan precision", "run on the host") and ends.
  virtual void begin(const std::string &phase);
  virtual void end();
  /// A step inside a long phase ("force_fp16", "run 3 of 24").
  virtual void step(const std::string &detail);
  /// Each MLIR diagnostic as it is emitted (also kept in diagnostics()).
  virtual void diagnostic(mlir::Diagnostic &diag);
  /// A warning about the run itself (no file, no node).
  virtual void warning(const std::string &text);
  /// Polled between phases, kernel launches, modes and search plans: true
  /// stops the work, and the step returns an Interrupted error. (Planning
  /// and lowering one model are not interrupted part-way.)
  virtual bool cancelled();
};

class Session {
public:
  /// `options`: CANN's options as parsed (policy::parseCannArguments, a
  /// session-options file, or set one by one).
  explicit Session(policy::SessionOptions options, PlanSettings settings = {},
                   Observer *observer = nullptr);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// Reads the options' files and builds the policy; the model-I/O options
  /// (--input_shape, --input_fp16_nodes, ...) are checked too. Warnings and
  /// errors go into `diagnostics`.
  Status resolve(policy::DiagnosticList &diagnostics);

  /// Loads an .onnx or .mlir (ascend dialect) file. `runFolder`: a --run
  /// folder whose small integer inputs decide shapes (planned for them).
  Status loadFile(const std::string &path, const std::string &runFolder = {});
  /// Loads an ONNX model from memory; `name` stands for its file in
  /// messages.
  Status loadBytes(const std::string &bytes, const std::string &name);
  /// Takes a module in the ascend dialect, built in context().
  Status loadModule(mlir::OwningOpRef<mlir::ModuleOp> module);

  /// Plans the precision, lowers the plan to kernels and estimates them.
  /// With `out` (staged), planned.mlir and, unless `runFollows`,
  /// kernels.mlir are written into it meanwhile.
  Status plan(OutputFolder *out = nullptr, bool runFollows = false);

  /// Runs the plan and its fp32 reference on the host. With `out` (staged),
  /// run/output_<i>.pb and accuracy.json are staged.
  Status run(const InputSource &source, const RunSettings &settings = {},
             OutputFolder *out = nullptr);

  /// One sample of a dataset (the Python package's evaluate()): only the
  /// plan's outputs, or only the fp32 reference's, on `source`'s given
  /// arrays, checked as run() checks them. The runner of each kind is
  /// prepared once and kept, so a dataset pays for the JIT once and a plan
  /// run costs no reference run (the reference is cached per sample
  /// elsewhere). `outputs` holds one tensor per model output, in the order
  /// of `outputNames`. After plan(); does not change accuracy().
  enum class SampleRun { Plan, Reference };
  Status runSample(const InputSource &source, SampleRun kind, unsigned threads,
                   std::vector<runtime::HostTensor> &outputs,
                   std::vector<std::string> &outputNames);

  /// Plans, estimates and runs every precision mode on the run's inputs.
  /// With `out`, compare.json is staged.
  Status compareModes(OutputFolder *out = nullptr);

  /// The fastest plan that meets `target` (after compareModes). With
  /// `out`, the search's CANN files are staged in search/. On failure,
  /// searchOutcome() still says how far the search got.
  Status searchPrecision(const policy::AccuracyTarget &target, unsigned budget = 24,
                         OutputFolder *out = nullptr);

  /// Writes the rest of the outputs (planned.mlir, kernels.mlir, the
  /// report files, options.json) into `out` (opened and staged) and
  /// commits it; `written` lists the files. The planned module's weights
  /// are given up to the writer: call it last.
  Status write(OutputFolder &out, std::vector<std::string> &written);
  /// write() into `folder`, opened and staged with the CLI's data-safety
  /// rules (OutputFolder.h): nothing there is overwritten or deleted that
  /// AscendPrec did not write, nothing is left on failure.
  Status writeFolder(const std::string &folder, std::vector<std::string> &written);

  // Results (valid once the step that makes them succeeded).
  const policy::SessionOptions &options() const { return sessionOptions; }
  const policy::Policy &policy() const { return *resolvedPolicy; }
  const report::ReportData &report() const { return reportData; }
  const std::optional<AccuracyResult> &accuracy() const { return accuracyResult; }
  const AccuracyRun &accuracyRun() const { return runSettings; }
  const RunInputs &runInputs() const { return inputs; }
  const std::vector<std::vector<OutputAccuracy>> &modeOutputs() const { return modeResults; }
  const std::optional<SearchOutcome> &searchOutcome() const { return outcome; }
  const SearchSettings &searchSettings() const { return search; }
  /// Every diagnostic of load, plan and lowering (remarks with explain).
  const std::vector<Diagnostic> &diagnostics() const { return collected; }
  mlir::ModuleOp plannedModule() { return planned ? *planned : nullptr; }
  mlir::ModuleOp kernelModule() { return kernels ? *kernels : nullptr; }
  /// The kernels runs execute, lowered for the host by the first run
  /// (HostKernels.h); null before it, or when the plan's weights were
  /// written out first (plan() into a folder without runFollows), where
  /// runs execute kernelModule()'s.
  mlir::ModuleOp hostKernelModule() { return hostKernels ? *hostKernels : nullptr; }
  mlir::MLIRContext &context() { return *mlirContext; }
  /// The source manager text models are parsed with (for carets).
  llvm::SourceMgr &sourceMgr() { return sources; }

private:
  /// --input_shape, graph_run_mode and --atc-refusals as the ONNX importer
  /// takes them.
  ONNXImportOptions onnxImportOptions() const;
  /// An internal error when a table built into the library (CANN's ONNX
  /// parser plugins) does not parse.
  Status checkBuiltInTables() const;
  Status loaded(mlir::OwningOpRef<mlir::ModuleOp> module, class DiagnosticCollector &collector);
  /// The kernels a run executes: the host's (HostKernels.h) when a copy of
  /// the plan was kept for them, else the device's.
  mlir::ModuleOp kernelsToRun();
  Status lower();
  /// Stages the search's CANN files (search/) in `out`, checked by planning
  /// them again.
  Status stageSearchFiles(OutputFolder &out);
  /// Stages what run, compareModes and searchPrecision measured in `out`,
  /// unless they already staged it there.
  Status stageMeasurements(OutputFolder &out);
  /// Refuses a step whose predecessor has not succeeded.
  Status expect(bool ready, const char *step, const char *first) const;
  /// An error once write() ran: the measuring steps come before it.
  Status notWritten() const;
  /// `status`, or Interrupted when the observer asked to stop.
  Status unlessCancelled(Status status);
  /// Forwards the kernel cache's notes (an entry ignored as damaged, a
  /// folder not used) to the observer as warnings: once a step that may
  /// load or store kernels is done.
  void forwardKernelCacheNotes();
  void begin(const std::string &phase);
  void end();
  void keep(const DiagnosticCollector &collector);
  /// A collector of this session's diagnostics for one step, each passed
  /// on to the observer.
  std::unique_ptr<DiagnosticCollector> collectDiagnostics(bool keepRemarks);
  /// An error when write() already ran: it comes once.
  Status writtenOnce() const;

  policy::SessionOptions sessionOptions;
  PlanSettings settings;
  Observer *observer;
  Observer silent;
  std::unique_ptr<mlir::MLIRContext> mlirContext;
  llvm::SourceMgr sources;
  std::string modelPath; ///< the file loadFile read
  std::optional<policy::ModelInputOptions> modelIo;
  std::shared_ptr<const policy::Policy> resolvedPolicy;
  mlir::OwningOpRef<mlir::ModuleOp> planned, imported, kernels;
  /// A copy of the plan for runs (taken by plan(runFollows), else by the
  /// first run), and its kernels lowered for the host executor by that run
  /// (HostKernels.h).
  mlir::OwningOpRef<mlir::ModuleOp> plannedForHost, hostKernels;
  bool isPlanned = false;
  llvm::StringMap<mlir::ElementsAttr> modelConstants;
  std::vector<report::ReportData::Diagnostic> loadDiagnostics;
  /// What the ONNX import's pre-check found (ATC's refusals), for the
  /// report; unchecked for an .mlir model.
  ONNXImportStats importStats;
  std::vector<Diagnostic> collected;
  report::ReportData reportData;
  AccuracyRun runSettings;
  RunInputs inputs;
  std::optional<AccuracyResult> accuracyResult;
  std::vector<std::vector<OutputAccuracy>> modeResults;
  bool modesCompared = false;
  SearchSettings search;
  std::optional<SearchOutcome> outcome;
  /// planned.mlir and kernels.mlir, printed while other work goes on.
  std::future<bool> plannedWritten, kernelsWritten;
  std::string plannedError, kernelsError;
  OutputFolder *writingInto = nullptr;
  OutputFolder *runStagedInto = nullptr, *compareStagedInto = nullptr,
               *searchStagedInto = nullptr;
  bool isWritten = false;
  /// runSample's runners, by kind and thread count.
  std::map<std::pair<int, unsigned>, std::unique_ptr<exec::GraphRunner>> sampleRunners;
};

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_SESSION_H
