//===- SessionTest.cpp - the engine's C++ API -----------------------------===//
//
// The steps in order on the bundled .mlir example, their typed results, and
// the errors of steps out of order, of bad inputs and of a rule (PM-9),
// with file, line and rule.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Session/Session.h"

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"

#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

using namespace ascendprec;
using namespace ascendprec::session;

namespace {

const std::string kExample = std::string(ASCENDPREC_SOURCE_DIR) + "/examples/cnn_transformer.mlir";

policy::SessionOptions optionsOf(std::vector<std::pair<std::string, std::string>> named) {
  policy::DiagnosticList diagnostics;
  std::optional<policy::ParsedCommandLine> parsed = parseNamedOptions(named, diagnostics);
  EXPECT_TRUE(parsed) << diagnostics.format();
  return parsed ? parsed->options : policy::SessionOptions();
}

/// Counts the observer's calls; can ask the session to stop.
struct CountingObserver : Observer {
  std::vector<std::string> phases;
  int ended = 0;
  bool stop = false;
  void begin(const std::string &phase) override { phases.push_back(phase); }
  void end() override { ++ended; }
  bool cancelled() override { return stop; }
};

} // namespace

TEST(AccuracyResult, MedianRunLeavesTheFirstRunOut) {
  // The first run is a warm-up (in lockstep with the reference).
  session::AccuracyResult result;
  result.runMs = {10.0};
  EXPECT_EQ(result.medianRunMs(), 10.0);
  result.runMs = {10.0, 3.0, 2.0, 4.0};
  EXPECT_EQ(result.medianRunMs(), 3.0);
  result.runMs = {10.0, 3.0, 2.0};
  EXPECT_EQ(result.medianRunMs(), 2.5);
}

TEST(Session, PlansRunsAndReportsEveryOp) {
  CountingObserver observer;
  Session session(optionsOf({{"soc_version", "Ascend910B3"},
                             {"precision_mode", "allow_mix_precision"}}),
                  {}, &observer);
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok()) << diagnostics.format();
  ASSERT_TRUE(session.loadFile(kExample).ok());
  ASSERT_TRUE(session.plan().ok());
  const report::ReportData &report = session.report();
  EXPECT_EQ(report.socVersion, "Ascend910B3");
  EXPECT_EQ(report.precisionMode, "allow_mix_precision");
  auto conv = std::find_if(report.nodes.begin(), report.nodes.end(),
                           [](const report::ReportNode &node) { return node.name == "stem.conv"; });
  ASSERT_NE(conv, report.nodes.end());
  EXPECT_EQ(conv->computeDType, "float16");
  EXPECT_EQ(conv->rule, "ML-2");
  ASSERT_TRUE(conv->estUs.has_value());
  EXPECT_GT(report.estDeviceUs(), 0);
  ASSERT_NE(session.kernelModule(), nullptr);

  RunSettings run;
  run.seed = 3;
  ASSERT_TRUE(session.run(InputSource{}, run).ok());
  ASSERT_TRUE(session.accuracy().has_value());
  ASSERT_EQ(session.accuracy()->outputs.size(), 1u);
  // The example's output is close to zero (its rel rmse is large); its
  // absolute error is that of fp16.
  EXPECT_GT(session.accuracy()->outputs[0].vsReference.elements, 0);
  EXPECT_LT(session.accuracy()->outputs[0].vsReference.maxAbsErr, 1e-2);
  EXPECT_NE(session.runInputs().from.find("seed 3"), std::string::npos);
  EXPECT_TRUE(report.measured);
  for (const char *phase : {"resolve options and files", "plan precision", "lower to kernels",
                            "run on the host"})
    EXPECT_NE(std::find(observer.phases.begin(), observer.phases.end(), phase),
              observer.phases.end())
        << phase;
  EXPECT_EQ(observer.ended, static_cast<int>(observer.phases.size()));
}

TEST(Session, GivenInputsAreCheckedByName) {
  Session session(optionsOf({{"soc_version", "Ascend910"}}));
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok());
  ASSERT_TRUE(session.loadFile(kExample).ok());
  ASSERT_TRUE(session.plan().ok());
  mlir::func::FuncOp graph = graphOf(session.kernelModule());
  ASSERT_TRUE(graph);
  auto shaped = mlir::cast<mlir::ShapedType>(graph.getArgument(0).getType());
  std::vector<int64_t> shape(shaped.getShape().begin(), shaped.getShape().end());
  auto name = graph.getArgAttrOfType<mlir::StringAttr>(0, "ascend.name");
  std::string input = name ? name.str() : "input 0";

  InputSource wrongName;
  wrongName.arraysGiven = true;
  wrongName.given.push_back({input + "_", runtime::HostTensor(runtime::ElementType::F32, shape)});
  Status status = session.run(wrongName);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("which the model does not have"), std::string::npos);

  InputSource missing;
  missing.arraysGiven = true;
  status = session.run(missing);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("is not given"), std::string::npos);

  InputSource wrongShape;
  wrongShape.arraysGiven = true;
  wrongShape.given.push_back({input, runtime::HostTensor(runtime::ElementType::F32, {1})});
  status = session.run(wrongShape);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("has shape [1]"), std::string::npos);

  InputSource given;
  given.arraysGiven = true;
  given.given.push_back({input, runtime::HostTensor(runtime::ElementType::F32, shape)});
  EXPECT_TRUE(session.run(given).ok());
  EXPECT_EQ(session.runInputs().from, "given arrays");
}

TEST(Session, StepsOutOfOrderAreRefused) {
  Session session(optionsOf({{"soc_version", "Ascend910"}}));
  Status status = session.loadFile(kExample);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "loading a model needs resolve() first");
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok());
  EXPECT_FALSE(session.plan().ok());
  EXPECT_FALSE(session.run(InputSource{}).ok());
  ASSERT_TRUE(session.loadFile(kExample).ok());
  ASSERT_TRUE(session.plan().ok());
  EXPECT_FALSE(session.plan().ok()); // once
  ASSERT_TRUE(session.run(InputSource{}).ok());
  status = session.compareModes();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("keepImported"), std::string::npos);
}

TEST(Session, RuleErrorsCarryFileLineAndRule) {
  Session session(optionsOf({{"soc_version", "Ascend910"},
                             {"precision_mode", "must_keep_origin_dtype"}}));
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok());
  ASSERT_TRUE(session.loadFile(kExample).ok());
  Status status = session.plan();
  ASSERT_FALSE(status.ok());
  const Error &error = status.error();
  EXPECT_EQ(error.kind, Error::Kind::User);
  EXPECT_EQ(error.rule, "PM-9");
  EXPECT_EQ(error.file, kExample);
  EXPECT_GT(error.line, 0u);
  EXPECT_TRUE(error.reported);
  EXPECT_TRUE(std::any_of(session.diagnostics().begin(), session.diagnostics().end(),
                          [](const session::Diagnostic &d) { return d.rule == "PM-9"; }));
}

TEST(Session, OptionErrorsComeFromResolve) {
  Session session(optionsOf({{"soc_version", "Ascend910"},
                             {"keep_dtype", "/nonexistent/keep.cfg"}}));
  policy::DiagnosticList diagnostics;
  Status status = session.resolve(diagnostics);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().rule, "KD-1");
  EXPECT_TRUE(status.error().reported);
  EXPECT_GT(diagnostics.errorCount(), 0u);
}

TEST(Session, ModulesFromAnotherContextAreRefused) {
  Session session(optionsOf({{"soc_version", "Ascend910"}}));
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok());
  mlir::MLIRContext other;
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&other));
  Status status = session.loadModule(std::move(module));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("another MLIRContext"), std::string::npos);
  // A module built in the session's context plans.
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceFile<mlir::ModuleOp>(kExample, &session.context());
  ASSERT_TRUE(parsed);
  ASSERT_TRUE(session.loadModule(std::move(parsed)).ok());
  EXPECT_TRUE(session.plan().ok());
}

TEST(Session, AnObserverCanStopTheWork) {
  CountingObserver observer;
  Session session(optionsOf({{"soc_version", "Ascend910"}}), {}, &observer);
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok());
  ASSERT_TRUE(session.loadFile(kExample).ok());
  ASSERT_TRUE(session.plan().ok());
  observer.stop = true;
  Status status = session.run(InputSource{});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().kind, Error::Kind::Interrupted);
  EXPECT_FALSE(session.accuracy().has_value());
}

TEST(Session, WritesTheOutputFolderOnce) {
  Session session(optionsOf({{"soc_version", "Ascend910"}}));
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok());
  ASSERT_TRUE(session.loadFile(kExample).ok());
  ASSERT_TRUE(session.plan().ok());
  std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("ascendprec-session-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::vector<std::string> written;
  ASSERT_TRUE(session.writeFolder(folder.string(), written).ok());
  EXPECT_NE(std::find(written.begin(), written.end(), "report.json"), written.end());
  EXPECT_TRUE(std::filesystem::exists(folder / "planned.mlir"));
  Status again = session.writeFolder((folder / "again").string(), written);
  ASSERT_FALSE(again.ok());
  EXPECT_FALSE(std::filesystem::exists(folder / "again"));
  std::filesystem::remove_all(folder);
}

TEST(Session, RunsKernelsTiledForTheHostWithTheDevicesBits) {
  // A run lowers a copy of the plan for the host executor: the device's K
  // tiling, fewer and larger M tiles. Its outputs are those of the
  // device's kernels (kernelModule(), run on the same inputs) bit for bit.
  Session session(optionsOf({{"soc_version", "Ascend910B3"},
                             {"precision_mode", "allow_mix_precision"}}));
  policy::DiagnosticList diagnostics;
  ASSERT_TRUE(session.resolve(diagnostics).ok()) << diagnostics.format();
  ASSERT_TRUE(session.loadFile(kExample).ok());
  ASSERT_TRUE(session.plan().ok()); // as the APIs plan: no output folder
  EXPECT_EQ(session.hostKernelModule(), nullptr);
  RunSettings run;
  run.seed = 5;
  run.threads = 2;
  ASSERT_TRUE(session.run(InputSource{}, run).ok());
  ASSERT_NE(session.hostKernelModule(), nullptr);
  int hostTiled = 0, deviceTiled = 0;
  session.hostKernelModule().walk(
      [&](kernel::KernelOp kernel) { hostTiled += kernel.getHostTiling() ? 1 : 0; });
  session.kernelModule().walk(
      [&](kernel::KernelOp kernel) { deviceTiled += kernel.getHostTiling() ? 1 : 0; });
  EXPECT_GT(hostTiled, 0); // the example's 16- and 24-tile kernels
  EXPECT_EQ(deviceTiled, 0);

  AccuracyRun onDevice;
  onDevice.threads = 2;
  std::vector<std::string> problems;
  std::string error;
  const RunInputs &inputs = session.runInputs();
  std::optional<AccuracyResult> device = measureAccuracy(
      session.kernelModule(), onDevice, inputs.inputs, {}, inputs.outputNames, problems, error);
  ASSERT_TRUE(device.has_value()) << error;
  const AccuracyResult &host = *session.accuracy();
  ASSERT_EQ(device->planOutputs.size(), host.planOutputs.size());
  for (size_t i = 0; i < host.planOutputs.size(); ++i) {
    const runtime::HostTensor &a = device->planOutputs[i], &b = host.planOutputs[i];
    ASSERT_EQ(a.byteSize(), b.byteSize()) << "output " << i;
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.byteSize()), 0) << "output " << i;
  }
}
