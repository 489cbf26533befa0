//===- SessionBinding.cpp - the engine's Session for Python ---------------===//
//
// One _Session per model: the pure-Python layer drives its steps. Long
// steps release the GIL; the observer takes it back to report progress and
// to notice Ctrl-C (PyErr_CheckSignals), which stops the work between
// kernel launches and plans and raises KeyboardInterrupt.
//
//===----------------------------------------------------------------------===//

#include "EngineErrors.h"
#include "Results.h"
#include "Tensors.h"

#include "AscendPrec/Dialect/Ascend/IR/ValueNames.h"
#include "AscendPrec/Policy/AccuracyTarget.h"
#include "AscendPrec/Policy/Options.h"
#include "AscendPrec/Report/Report.h"
#include "AscendPrec/Session/CompareModes.h"
#include "AscendPrec/Session/HostRun.h"
#include "AscendPrec/Session/RunIo.h"
#include "AscendPrec/Session/SearchOutput.h"
#include "AscendPrec/Session/Session.h"

#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace py = pybind11;
using namespace ascendprec;

namespace ascendprec::python {

namespace {

/// Progress to an optional Python callable `progress(event, text)`
/// (event: "begin", "step", "end", "warning"); Ctrl-C noticed at most every
/// 50 ms.
class PythonObserver : public session::Observer {
public:
  explicit PythonObserver(py::object progress) : progress(std::move(progress)) {}

  void begin(const std::string &phase) override { call("begin", phase); }
  void end() override { call("end", ""); }
  void step(const std::string &detail) override { call("step", detail); }
  /// With a progress callable, it gets the warning; without one, it is a
  /// Python warning (ascendprec.PlanWarning), so that no note (a damaged
  /// kernel cache entry) is lost.
  void warning(const std::string &text) override {
    if (!progress.is_none()) {
      call("warning", text);
      return;
    }
    py::gil_scoped_acquire gil;
    try {
      py::object category = py::module_::import("ascendprec._api").attr("PlanWarning");
      py::module_::import("warnings").attr("warn")(text, category, 2);
    } catch (py::error_already_set &error) {
      // Warnings turned into errors (-W error): raised when the step returns.
      if (!failure)
        failure = std::make_unique<py::error_already_set>(std::move(error));
      interrupted = true;
    }
  }

  bool cancelled() override {
    if (interrupted)
      return true;
    auto now = std::chrono::steady_clock::now();
    if (now - lastPoll < std::chrono::milliseconds(50))
      return false;
    lastPoll = now;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      // The KeyboardInterrupt is raised again when the step returns.
      PyErr_Clear();
      interrupted = true;
    }
    return interrupted;
  }
  void reset() { interrupted = false; }

  /// A callback that raised: its exception, kept for the step's return.
  std::unique_ptr<py::error_already_set> failure;

private:
  void call(const char *event, const std::string &text) {
    if (progress.is_none() || failure)
      return;
    py::gil_scoped_acquire gil;
    try {
      progress(event, text);
    } catch (py::error_already_set &error) {
      failure = std::make_unique<py::error_already_set>(std::move(error));
      interrupted = true; // stop the work; the step re-raises the error
    }
  }

  py::object progress;
  std::atomic<bool> interrupted{false};
  std::chrono::steady_clock::time_point lastPoll{};
};

std::vector<std::pair<std::string, std::string>> optionPairs(const py::dict &options) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (auto [key, value] : options) {
    std::string text;
    if (py::isinstance<py::bool_>(value))
      text = value.cast<bool>() ? "true" : "false";
    else
      text = py::str(value).cast<std::string>();
    pairs.emplace_back(py::str(key).cast<std::string>(), text);
  }
  return pairs;
}

class PySession {
public:
  PySession(const py::dict &options, session::PlanSettings settings, py::object progress)
      : observer(std::move(progress)) {
    policy::DiagnosticList diagnostics;
    std::optional<policy::ParsedCommandLine> parsed =
        session::parseNamedOptions(optionPairs(options), diagnostics);
    warnings = toRecords(diagnostics);
    if (!parsed) {
      session::Error error;
      error.reported = true;
      for (const session::Diagnostic &record : warnings)
        if (record.severity == session::Diagnostic::Severity::Error) {
          error.file = record.file;
          error.message = record.message;
          error.rule = record.rule;
          break;
        }
      raise("options", session::Status(error), warnings);
    }
    settings.inputPaths = session::optionInputPaths(*parsed);
    engine = std::make_unique<session::Session>(parsed->options, std::move(settings), &observer);
  }

  /// Resolves the options; the warnings as records.
  py::list resolve() {
    policy::DiagnosticList diagnostics;
    session::Status status;
    {
      py::gil_scoped_release release;
      status = engine->resolve(diagnostics);
    }
    for (session::Diagnostic &record : toRecords(diagnostics))
      warnings.push_back(std::move(record));
    check("options", status, warnings);
    py::list list;
    for (const session::Diagnostic &record : warnings)
      list.append(toDict(record));
    return list;
  }

  void loadFile(const std::string &path, const std::string &runFolder) {
    step("load", [&] { return engine->loadFile(path, runFolder); });
  }
  void loadBytes(const py::bytes &bytes, const std::string &name) {
    std::string data = bytes;
    step("load", [&] { return engine->loadBytes(data, name); });
  }
  void plan() {
    step("plan", [&] { return engine->plan(); });
  }

  void run(const py::object &inputs, const std::string &runFolder, unsigned threads,
           unsigned iterations, uint64_t seed, const std::string &ranges) {
    session::InputSource source;
    source.folder = runFolder;
    source.arraysGiven = !inputs.is_none();
    if (!inputs.is_none())
      for (auto [name, value] : inputs.cast<py::dict>()) {
        std::string text = py::str(name).cast<std::string>();
        source.given.push_back({text, toHostTensor(value, text)});
      }
    session::RunSettings settings;
    if (threads == 0 || iterations == 0)
      throw py::value_error("threads and iterations are whole numbers from 1");
    settings.threads = threads;
    settings.iterations = iterations;
    settings.seed = seed;
    if (!ranges.empty()) {
      std::string error;
      std::optional<std::vector<session::InputRange>> parsed =
          session::parseInputRanges(ranges, error);
      if (!parsed)
        raise("run", session::Status::user("", error));
      settings.ranges = std::move(*parsed);
    }
    step("run", [&] { return engine->run(source, settings); });
  }

  /// One dataset sample through the plan ("plan") or the fp32 reference
  /// ("reference") alone: the outputs by name.
  py::dict runSample(const py::dict &inputs, const std::string &kind, unsigned threads) {
    session::InputSource source;
    source.arraysGiven = true;
    for (auto [name, value] : inputs) {
      std::string text = py::str(name).cast<std::string>();
      source.given.push_back({text, toHostTensor(value, text)});
    }
    if (kind != "plan" && kind != "reference")
      throw py::value_error("kind is 'plan' or 'reference'");
    if (threads == 0)
      throw py::value_error("threads is a whole number from 1");
    session::Session::SampleRun which = kind == "plan" ? session::Session::SampleRun::Plan
                                                       : session::Session::SampleRun::Reference;
    std::vector<runtime::HostTensor> tensors;
    std::vector<std::string> names;
    step("run", [&] { return engine->runSample(source, which, threads, tensors, names); });
    py::dict dict;
    for (size_t i = 0; i < tensors.size(); ++i)
      dict[py::str(i < names.size() ? names[i] : "output_" + std::to_string(i))] =
          toNumpy(tensors[i]);
    return dict;
  }

  void compareModes() {
    step("compare", [&] { return engine->compareModes(); });
  }

  void searchPrecision(const std::string &target, unsigned budget) {
    policy::DiagnosticList diagnostics;
    std::optional<policy::AccuracyTarget> parsed =
        policy::parseAccuracyTarget(target, diagnostics);
    if (!parsed) {
      std::vector<session::Diagnostic> records = toRecords(diagnostics);
      std::string message = records.empty() ? "the target does not parse" : records[0].message;
      raise("search", session::Status::user("", message), records);
    }
    if (budget == 0 || budget > 1000)
      throw py::value_error("budget is a whole number from 1 to 1000");
    step("search", [&] { return engine->searchPrecision(*parsed, budget); });
  }

  py::list write(const std::string &folder) {
    std::vector<std::string> written;
    step("write", [&] { return engine->writeFolder(folder, written); });
    return py::cast(written);
  }

  // Results.
  py::list ops() const {
    requireIdle();
    return opsOf(engine->report());
  }
  py::dict summary() const {
    requireIdle();
    return summaryOf(engine->report());
  }
  py::list atcRefusals() const {
    requireIdle();
    return atcRefusalsOf(engine->report());
  }
  std::string reportJson() const {
    requireIdle();
    std::string text;
    llvm::raw_string_ostream os(text);
    report::writeReportJson(engine->report(), os);
    return text;
  }
  std::string table(unsigned width) const {
    requireIdle();
    return report::reportTerminalTable(engine->report(), width);
  }
  py::object accuracy() const {
    requireIdle();
    return engine->accuracy() ? py::object(accuracyOf(*engine->accuracy())) : py::none();
  }
  /// The plan's outputs, or (`reference`) the fp32 reference's.
  py::dict outputs(bool reference) const {
    requireIdle();
    py::dict dict;
    if (const std::optional<session::AccuracyResult> &accuracy = engine->accuracy()) {
      const std::vector<runtime::HostTensor> &tensors =
          reference ? accuracy->referenceOutputs : accuracy->planOutputs;
      for (size_t i = 0; i < tensors.size(); ++i)
        dict[py::str(engine->runInputs().outputNames[i])] = toNumpy(tensors[i]);
    }
    return dict;
  }
  std::string inputsFrom() const {
    requireIdle();
    return engine->runInputs().from;
  }
  /// The graph's inputs as a run takes them: (name, shape with -1 for a
  /// dynamic dim, "float" or "int").
  py::list modelInputs() {
    requireIdle();
    py::list list;
    mlir::ModuleOp kernels = engine->kernelModule();
    mlir::func::FuncOp graph = kernels ? session::graphOf(kernels) : nullptr;
    if (!graph)
      return list;
    for (mlir::BlockArgument argument : graph.getArguments()) {
      unsigned index = argument.getArgNumber();
      auto named = graph.getArgAttrOfType<mlir::StringAttr>(index, "ascend.name");
      auto shaped = mlir::cast<mlir::ShapedType>(argument.getType());
      py::list shape;
      for (int64_t dim : shaped.getShape())
        shape.append(mlir::ShapedType::isDynamic(dim) ? -1 : dim);
      // An input with a default (an ONNX initializer of its name) may be
      // left out of a sample.
      bool hasDefault = static_cast<bool>(
          graph.getArgAttrOfType<mlir::ElementsAttr>(index, ascend::kArgDefaultAttr));
      list.append(py::make_tuple(named ? named.str() : "input " + std::to_string(index), shape,
                                 shaped.getElementType().isIntOrIndex() ? "int" : "float",
                                 hasDefault));
    }
    return list;
  }
  py::list modes() const {
    requireIdle();
    return modesOf(engine->report().modes, engine->modeOutputs());
  }
  py::object search() const {
    requireIdle();
    return engine->searchOutcome() ? py::object(searchOf(*engine->searchOutcome())) : py::none();
  }
  /// The search's CANN files by name (options.json, keep_dtype.cfg, ...).
  py::dict searchFiles() const {
    requireIdle();
    py::dict files;
    if (const std::optional<session::SearchOutcome> &outcome = engine->searchOutcome())
      if (outcome->kind == session::SearchOutcome::Kind::Found ||
          outcome->kind == session::SearchOutcome::Kind::BuiltInMode)
        for (const auto &[name, text] :
             session::searchFiles(*outcome, engine->options(), engine->searchSettings()))
          files[py::str(name)] = text;
    return files;
  }
  std::string accuracyText() const {
    requireIdle();
    const std::string &from = engine->runInputs().from;
    return engine->accuracy()
               ? session::accuracySummary(*engine->accuracy(), engine->accuracyRun(),
                                          from.rfind("random", 0) == 0 ? "" : from)
               : std::string();
  }
  std::string modesText() const {
    requireIdle();
    const report::ReportData &report = engine->report();
    return session::modeComparisonTable(report.modes, report.socVersion,
                                        engine->runInputs().from);
  }
  std::string searchText(unsigned width) const {
    requireIdle();
    const std::optional<session::SearchOutcome> &outcome = engine->searchOutcome();
    if (!outcome)
      return "";
    const report::ReportData &report = engine->report();
    return session::searchSummary(*outcome, engine->searchSettings(), report.modes,
                                  engine->modeOutputs(), engine->runInputs().from, width);
  }
  py::list diagnostics() const {
    requireIdle();
    py::list list;
    for (const session::Diagnostic &record : warnings)
      list.append(toDict(record));
    for (const session::Diagnostic &record : engine->diagnostics())
      list.append(toDict(record));
    return list;
  }

private:
  /// Results are read between steps, not while another thread runs one.
  void requireIdle() const {
    std::unique_lock<std::mutex> lock(busy, std::try_to_lock);
    if (!lock.owns_lock())
      throw std::runtime_error("this plan is busy in another thread: read its results when "
                               "the step is done");
  }

  /// Runs one engine step without the GIL; its failure raises.
  /// One step at a time: a second thread using the same plan meanwhile
  /// gets an error rather than a half-changed session.
  template <typename Work> void step(const char *name, Work work) {
    std::unique_lock<std::mutex> lock(busy, std::try_to_lock);
    if (!lock.owns_lock())
      throw std::runtime_error("this plan is busy in another thread: a plan runs one step at "
                               "a time");
    observer.reset();
    session::Status status;
    {
      py::gil_scoped_release release;
      status = work();
    }
    if (observer.failure) {
      std::unique_ptr<py::error_already_set> failure = std::move(observer.failure);
      throw std::move(*failure);
    }
    if (!status) {
      std::vector<session::Diagnostic> records = warnings;
      records.insert(records.end(), engine->diagnostics().begin(), engine->diagnostics().end());
      raise(name, status, std::move(records));
    }
  }

  mutable std::mutex busy;
  PythonObserver observer;
  std::vector<session::Diagnostic> warnings; ///< the options' (not MLIR's)
  std::unique_ptr<session::Session> engine;
};

} // namespace

void bindSession(py::module_ &module) {
  // What an option's value is: "path" and "directory" name files, the
  // others are text; "" for a name the option table lacks.
  module.def("_option_kind", [](const std::string &name) -> std::string {
    const policy::OptionSpec *spec = policy::findOptionSpec(name);
    if (!spec)
      return "";
    switch (spec->type) {
    case policy::OptionType::Path:
      return "path";
    case policy::OptionType::Directory:
      return "directory";
    default:
      return "value";
    }
  });
  // An accuracy target checked before any work.
  module.def("_check_target", [](const std::string &target) {
    policy::DiagnosticList diagnostics;
    if (!policy::parseAccuracyTarget(target, diagnostics)) {
      std::vector<session::Diagnostic> records = toRecords(diagnostics);
      std::string message = records.empty() ? "the target does not parse" : records[0].message;
      raise("search", session::Status::user("", message), records);
    }
  });
  // One ONNX TensorProto file (a test_data_set_* folder's input_<i>.pb):
  // (its name, the array); an OSError-like RunError naming the file.
  module.def("_read_tensor", [](const std::string &path) {
    std::string error;
    std::optional<session::NamedTensor> tensor = session::readTensorFile(path, error);
    if (!tensor)
      raise("run", session::Status::user(path, error));
    return py::make_tuple(tensor->name, toNumpy(tensor->tensor));
  });
  py::class_<PySession>(module, "_Session")
      .def(py::init([](const py::dict &options, bool explain,
                       std::vector<std::string> explainOnly, bool keepIoDtypes,
                       bool fusionRespectsPins, bool fullConstants, bool keepImported,
                       py::object progress, bool atcRefusalsAreErrors) {
             session::PlanSettings settings;
             settings.explain = explain;
             settings.explainOnly = std::move(explainOnly);
             settings.keepIoDtypes = keepIoDtypes;
             settings.fusionRespectsPins = fusionRespectsPins;
             settings.fullConstants = fullConstants;
             settings.keepImported = keepImported;
             settings.atcRefusalsAreErrors = atcRefusalsAreErrors;
             return std::make_unique<PySession>(options, std::move(settings),
                                                std::move(progress));
           }),
           py::arg("options"), py::arg("explain") = false,
           py::arg("explain_only") = std::vector<std::string>{},
           py::arg("keep_io_dtypes") = true, py::arg("fusion_respects_pins") = false,
           py::arg("full_constants") = false, py::arg("keep_imported") = false,
           py::arg("progress") = py::none(), py::arg("atc_refusals_error") = false)
      .def("resolve", &PySession::resolve)
      .def("load_file", &PySession::loadFile, py::arg("path"), py::arg("run_folder") = "")
      .def("load_bytes", &PySession::loadBytes, py::arg("data"), py::arg("name"))
      .def("plan", &PySession::plan)
      .def("run", &PySession::run, py::arg("inputs") = py::none(), py::arg("run_folder") = "",
           py::arg("threads") = 1, py::arg("iterations") = 1, py::arg("seed") = 0,
           py::arg("ranges") = "")
      .def("run_sample", &PySession::runSample, py::arg("inputs"), py::arg("kind"),
           py::arg("threads") = 1)
      .def("compare_modes", &PySession::compareModes)
      .def("search_precision", &PySession::searchPrecision, py::arg("target"),
           py::arg("budget") = 24)
      .def("write", &PySession::write, py::arg("folder"))
      .def("ops", &PySession::ops)
      .def("summary", &PySession::summary)
      .def("atc_refusals", &PySession::atcRefusals)
      .def("report_json", &PySession::reportJson)
      .def("table", &PySession::table, py::arg("width") = 100)
      .def("accuracy", &PySession::accuracy)
      .def("outputs", &PySession::outputs, py::arg("reference") = false)
      .def("inputs_from", &PySession::inputsFrom)
      .def("model_inputs", &PySession::modelInputs)
      .def("modes", &PySession::modes)
      .def("search", &PySession::search)
      .def("search_files", &PySession::searchFiles)
      .def("accuracy_text", &PySession::accuracyText)
      .def("modes_text", &PySession::modesText)
      .def("search_text", &PySession::searchText, py::arg("width") = 100)
      .def("diagnostics", &PySession::diagnostics);
}

} // namespace ascendprec::python
