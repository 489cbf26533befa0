//===- Session.cpp - load, plan, lower and write ---------------------------===//
//
// The run, the mode comparison and the search are in SessionRun.cpp.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Session/Session.h"

#include "AscendPrec/Execution/KernelCache.h"

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Dialect/Ascend/Transforms/CollectReport.h"
#include "AscendPrec/Dialect/Ascend/Transforms/PlanWithPolicy.h"
#include "AscendPrec/Dialect/Kernel/Analysis/KernelReport.h"
#include "AscendPrec/InitAll.h"
#include "AscendPrec/Session/ModelIo.h"
#include "AscendPrec/Session/ModelLoader.h"
#include "AscendPrec/Session/OptionsJson.h"
#include "AscendPrec/Session/PlannedIRWriter.h"
#include "AscendPrec/Session/RunIo.h"
#include "AscendPrec/Policy/Diagnostics.h"
#include "AscendPrec/Policy/OnnxParserPlugins.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <filesystem>
#include <fstream>

using namespace ascendprec;
using namespace ascendprec::session;

Observer::~Observer() = default;
void Observer::begin(const std::string &) {}
void Observer::end() {}
void Observer::step(const std::string &) {}
void Observer::diagnostic(mlir::Diagnostic &) {}
void Observer::warning(const std::string &) {}
bool Observer::cancelled() { return false; }

Session::Session(policy::SessionOptions options, PlanSettings settings, Observer *observer)
    : sessionOptions(std::move(options)), settings(std::move(settings)),
      observer(observer ? observer : &silent) {
  mlir::DialectRegistry registry;
  registerAllAscendPrecDialects(registry);
  // No MLIR thread pool: a pool's threads do not survive fork(), and a
  // child planning with the parent's context would wait for them forever
  // (docs/execution.md, "fork"). The heavy work has threads of its own:
  // kernels compile on fresh threads and run on the runner's BlockPool.
  mlirContext = std::make_unique<mlir::MLIRContext>(registry,
                                                    mlir::MLIRContext::Threading::DISABLED);
  mlirContext->loadAllAvailableDialects();
}

Session::~Session() {
  // The writers read the modules: they finish before the modules go.
  if (plannedWritten.valid())
    plannedWritten.wait();
  if (kernelsWritten.valid())
    kernelsWritten.wait();
}

void Session::begin(const std::string &phase) { observer->begin(phase); }
void Session::end() { observer->end(); }

std::unique_ptr<DiagnosticCollector> Session::collectDiagnostics(bool keepRemarks) {
  return std::make_unique<DiagnosticCollector>(
      *mlirContext, [this](mlir::Diagnostic &diag) { observer->diagnostic(diag); }, keepRemarks);
}

void Session::keep(const DiagnosticCollector &collector) {
  collected.insert(collected.end(), collector.records().begin(), collector.records().end());
}

Status Session::expect(bool ready, const char *step, const char *first) const {
  if (ready)
    return {};
  return Status::user("", std::string(step) + " needs " + first + " first");
}

void Session::forwardKernelCacheNotes() {
  for (const std::string &note : exec::KernelCache::takeNotes())
    observer->warning(note);
}

Status Session::unlessCancelled(Status status) {
  return observer->cancelled() ? Status::interrupted() : std::move(status);
}

Status Session::resolve(policy::DiagnosticList &diagnostics) {
  begin("resolve options and files");
  modelIo = policy::parseModelInputOptions(sessionOptions, diagnostics);
  std::optional<policy::Policy> built;
  if (modelIo)
    built = policy::Policy::build(sessionOptions, diagnostics);
  end();
  if (!built) {
    Error error;
    error.reported = true; // in `diagnostics`
    for (const policy::Diagnostic &diag : diagnostics.all())
      if (diag.severity == policy::Severity::Error) {
        error.file = diag.loc.file;
        error.line = diag.loc.line;
        error.column = diag.loc.column;
        error.rule = diag.rule;
        error.message = diag.message;
        break;
      }
    if (error.message.empty())
      error.message = "the options do not resolve";
    return error;
  }
  resolvedPolicy = std::make_shared<const policy::Policy>(std::move(*built));
  return {};
}

ONNXImportOptions Session::onnxImportOptions() const {
  ONNXImportOptions importOptions;
  for (const policy::InputShape &shape : modelIo->shapes)
    importOptions.inputShapes.push_back({shape.name, shape.dims});
  // graph_run_mode=1: training losses stay whole, as CANN's NLLLoss.
  importOptions.trainingGraph = resolvedPolicy->graphRunMode == 1;
  importOptions.atcRefusalsAreErrors = settings.atcRefusalsAreErrors;
  return importOptions;
}

Status Session::checkBuiltInTables() const {
  // Built into the library: a table that does not parse is the tool's fault.
  std::string tableError;
  if (!policy::OnnxParserPlugins::builtin(tableError))
    return Status::internal("the built-in table of CANN's ONNX parser plugins does not parse: " +
                            tableError);
  return {};
}

Status Session::loadFile(const std::string &path, const std::string &runFolder) {
  if (Status ready = expect(resolvedPolicy != nullptr, "loading a model", "resolve()"); !ready)
    return ready;
  if (Status tables = checkBuiltInTables(); !tables)
    return tables;
  modelPath = path;
  std::unique_ptr<DiagnosticCollector> collector = collectDiagnostics(settings.explain);
  ONNXImportOptions importOptions = onnxImportOptions();
  // --run=DIR: inputs that decide shapes are planned for the run's values.
  if (!runFolder.empty())
    importOptions.runInputValues = readShapeDecidingInputs(runFolder);
  collector->startLoading();
  begin("load " + std::filesystem::path(path).filename().string());
  importStats = ONNXImportStats();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadModel(path, sources, *mlirContext, importOptions, &importStats);
  end();
  return unlessCancelled(loaded(std::move(module), *collector));
}

Status Session::loadBytes(const std::string &bytes, const std::string &name) {
  if (Status ready = expect(resolvedPolicy != nullptr, "loading a model", "resolve()"); !ready)
    return ready;
  if (Status tables = checkBuiltInTables(); !tables)
    return tables;
  std::unique_ptr<DiagnosticCollector> collector = collectDiagnostics(settings.explain);
  ONNXImportOptions importOptions = onnxImportOptions();
  collector->startLoading();
  begin("load " + name);
  importStats = ONNXImportStats();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importONNX(bytes, name, mlirContext.get(), &importStats, importOptions);
  end();
  return unlessCancelled(loaded(std::move(module), *collector));
}

Status Session::loadModule(mlir::OwningOpRef<mlir::ModuleOp> module) {
  if (Status ready = expect(resolvedPolicy != nullptr, "loading a model", "resolve()"); !ready)
    return ready;
  if (!module)
    return Status::user("", "no module given");
  if (module->getContext() != mlirContext.get())
    return Status::user("", "the module was built in another MLIRContext: build it in the "
                            "session's context()");
  importStats = ONNXImportStats(); // not an ONNX import: ATC's refusals unchecked
  std::unique_ptr<DiagnosticCollector> collector = collectDiagnostics(settings.explain);
  collector->startLoading();
  if (mlir::failed(mlir::verify(*module)))
    module = nullptr;
  return loaded(std::move(module), *collector);
}

Status Session::loaded(mlir::OwningOpRef<mlir::ModuleOp> module, DiagnosticCollector &collector) {
  if (module && mlir::failed(applyModelIo(*module, *modelIo)))
    module = nullptr;
  loadDiagnostics = collector.stopLoading();
  keep(collector);
  if (!module)
    return collector.firstError("the model does not load");
  // The model's own weights, for the fp32 reference of a run (planning may
  // round them to fp16).
  module->walk([&](ascend::ConstOp constant) {
    if (auto name = constant->getAttrOfType<mlir::StringAttr>("name"))
      modelConstants[name.getValue()] = constant.getValue();
  });
  planned = std::move(module);
  return {};
}

Status Session::plan(OutputFolder *out, bool runFollows) {
  if (Status ready = expect(planned && !isPlanned, "planning", "a model loaded"); !ready)
    return ready;
  ascend::recordImportDiagnostics(*planned, loadDiagnostics);
  if (settings.keepImported)
    imported = planned->clone();
  std::unique_ptr<DiagnosticCollector> collector = collectDiagnostics(settings.explain);
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(mlirContext.get());
  ascend::GraphPrepareOptions prepare;
  prepare.renameDuplicates = true; // models often repeat or omit node names
  ascend::buildGraphPreparePipeline(pm, prepare);
  ascend::PrecisionPipelineOptions precision;
  precision.explain = settings.explain;
  precision.explainOnly = settings.explainOnly;
  precision.keepIoDtypes = settings.keepIoDtypes;
  precision.fusionRespectsPins = settings.fusionRespectsPins;
  ascend::buildPrecisionPipeline(pm, precision, resolvedPolicy);
  // Verify once after the pipeline rather than after every pass (about a
  // fifth of the planning time on large models); the passes keep the IR
  // valid and the lit tests run prec-opt with verification after each.
  pm.enableVerifier(false);
  begin("plan precision");
  if (mlir::failed(pm.run(*planned))) {
    end();
    keep(*collector);
    if (collector->errors() > 0 && collector->errorsWithRule() == collector->errors())
      return collector->firstError("planning failed");
    Error error;
    error.kind = collector->errorsWithRule() ? Error::Kind::User : Error::Kind::Internal;
    error.message = "planning failed without a rule-based diagnostic; please report this "
                    "with the model";
    return error;
  }
  // The planned IR is verified, copied for the lowering below and read for
  // the summary at once (all three only read it), before planned.mlir's
  // writer swaps the weights' resources out.
  std::future<bool> verified =
      std::async(std::launch::async, [&] { return mlir::succeeded(mlir::verify(*planned)); });
  std::future<mlir::OwningOpRef<mlir::ModuleOp>> copied = std::async(
      std::launch::async, [&]() -> mlir::OwningOpRef<mlir::ModuleOp> { return planned->clone(); });
  reportData = ascend::collectReport(*planned);
  // ATC's refusals come from the import, not the IR (an ONNX model only).
  reportData.atcChecked = importStats.atcChecked;
  reportData.atcRefusals = importStats.atcRefusals;
  // Runs lower their own copy (HostKernels.h), taken before planned.mlir's
  // writer swaps the weights out.
  if (runFollows)
    plannedForHost = planned->clone();
  kernels = copied.get();
  bool valid = verified.get();
  end();
  keep(*collector);
  if (!valid)
    return Status::internal("planning produced invalid IR; please report this with the model");
  isPlanned = true;
  if (observer->cancelled()) {
    kernels = nullptr; // not lowered: a later run refuses
    return Status::interrupted();
  }

  // planned.mlir is printed on a thread of its own from here on, while the
  // kernels are lowered (and run): it reads only the planned module, the
  // lowering works on the copy taken above.
  if (out) {
    writingInto = out;
    plannedWritten = std::async(std::launch::async, [this, out] {
      return writePlannedIR(out->stagedPath("planned.mlir"), *planned, settings.fullConstants,
                            plannedError);
    });
  }
  Status lowered = lower();
  // kernels.mlir is printed while the estimates are read off the kernels
  // (both only read them). With a run it waits for the run: the JIT adds
  // dialects to the context, which must not change while a module is
  // printed from it.
  if (out && !runFollows && kernels)
    kernelsWritten = std::async(std::launch::async, [this, out] {
      return writePlannedIR(out->stagedPath("kernels.mlir"), *kernels,
                            /*fullConstants=*/false, kernelsError);
    });
  if (kernels)
    kernel::attachKernelEstimates(*kernels, reportData);
  return unlessCancelled(std::move(lowered));
}

Status Session::lower() {
  // The kernels (issue 13): a copy of the planned graph lowered to akernel,
  // whose estimates the report carries. An op without a lowering is a
  // warning (the report counts it), not a failure.
  std::unique_ptr<DiagnosticCollector> collector = collectDiagnostics(settings.explain);
  begin("lower to kernels");
  collector->startLoading();
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(mlirContext.get());
  pm.addPass(createConvertAscendToKernel(resolvedPolicy, /*allowUnlowered=*/true,
                                         settings.explain, settings.explainOnly));
  pm.enableVerifier(false);
  bool failed = mlir::failed(pm.run(*kernels)) || mlir::failed(mlir::verify(*kernels));
  // The lowering's warnings (ops without a kernel) go into the report too.
  for (report::ReportData::Diagnostic &diag : collector->stopLoading())
    reportData.diagnostics.push_back(std::move(diag));
  end();
  keep(*collector);
  if (failed) {
    // The precision plan stands on its own: it is still written, without
    // kernels.mlir and without estimates.
    kernels = nullptr;
    observer->warning("internal error while lowering the plan to kernels (please report it "
                      "with the model); the precision plan and reports are written without "
                      "kernels.mlir and without time estimates");
  }
  return {};
}

Status Session::write(OutputFolder &out, std::vector<std::string> &written) {
  if (Status ready = expect(isPlanned, "writing the outputs", "plan()"); !ready)
    return ready;
  if (Status once = writtenOnce(); !once)
    return once;
  isWritten = true;
  if (Status staged = stageMeasurements(out); !staged)
    return staged;
  std::string optionsError;
  if (!writeTextFile(out.stagedPath("options.json"), effectiveOptionsJson(sessionOptions),
                     optionsError))
    return Status::user("", optionsError);
  // The report files are formatted (from the report, not the IR) while
  // kernels.mlir and planned.mlir may still be printing: on large models
  // these three are most of the writing time.
  if (!plannedWritten.valid() || writingInto != &out)
    plannedWritten = std::async(std::launch::async, [this, &out] {
      return writePlannedIR(out.stagedPath("planned.mlir"), *planned, settings.fullConstants,
                            plannedError);
    });
  if (kernels && (!kernelsWritten.valid() || writingInto != &out))
    kernelsWritten = std::async(std::launch::async, [this, &out] {
      return writePlannedIR(out.stagedPath("kernels.mlir"), *kernels,
                            /*fullConstants=*/false, kernelsError);
    });
  std::unique_ptr<DiagnosticCollector> collector = collectDiagnostics(/*keepRemarks=*/false);
  mlir::LogicalResult reported = report::writeReportFiles(
      *planned, reportData, report::ReportFiles::besides(out.stagedPath("report.json")));
  keep(*collector);
  bool wrote = plannedWritten.get();
  std::string writeError = plannedError;
  if (kernelsWritten.valid() && !kernelsWritten.get() && wrote) {
    wrote = false;
    writeError = kernelsError;
  }
  if (mlir::failed(reported))
    return collector->firstError("cannot write the report files");
  std::string folderError;
  if (!wrote)
    return Status::user("<command line>", writeError);
  if (!out.commit(written, folderError))
    return Status::user("<command line>", folderError);
  return {};
}

Status Session::writtenOnce() const {
  // planned.mlir's writer gives up the planned module's weights.
  if (isWritten)
    return Status::user("", "the outputs were already written: write() comes once, last");
  return {};
}

Status Session::writeFolder(const std::string &folder, std::vector<std::string> &written) {
  if (Status ready = expect(isPlanned, "writing the outputs", "plan()"); !ready)
    return ready;
  if (Status once = writtenOnce(); !once)
    return once;
  std::vector<std::string> inputs = settings.inputPaths;
  if (!modelPath.empty())
    inputs.push_back(modelPath);
  std::string error;
  std::unique_ptr<OutputFolder> out = OutputFolder::open(folder, inputs, {}, error);
  if (!out)
    return Status::user("", error);
  if (!out->stage(error))
    return Status::user("", error);
  begin("write outputs");
  Status status = write(*out, written);
  end();
  return status;
}

std::optional<policy::ParsedCommandLine>
session::parseNamedOptions(const std::vector<std::pair<std::string, std::string>> &named,
                           policy::DiagnosticList &diagnostics) {
  std::vector<std::string> args;
  for (const auto &[name, value] : named) {
    if (name.empty() || name[0] == '-') {
      diagnostics.error({"<command line>"}, "option names are CANN's, without dashes: '" +
                                                policy::escapeForDisplay(name) + "'");
      return std::nullopt;
    }
    args.push_back("--" + name + "=" + value);
  }
  return policy::parseCannArguments(args, {}, diagnostics);
}

std::vector<std::string> session::optionInputPaths(const policy::ParsedCommandLine &parsed) {
  std::vector<std::string> inputs;
  if (!parsed.sessionOptionsFile.empty())
    inputs.push_back(parsed.sessionOptionsFile);
  for (const auto &[name, value] : parsed.options.all()) {
    const policy::OptionSpec *spec = policy::findOptionSpec(name);
    if (spec && (spec->type == policy::OptionType::Path ||
                 spec->type == policy::OptionType::Directory))
      inputs.push_back(value.text);
  }
  return inputs;
}
