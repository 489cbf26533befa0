//===- SessionRun.cpp - run, compare the modes, search --------------------===//

#include "AscendPrec/Session/Session.h"

#include "llvm/ADT/ScopeExit.h"

#include "AscendPrec/Session/CompareModes.h"
#include "AscendPrec/Session/HostKernels.h"
#include "AscendPrec/Session/HostRun.h"
#include "AscendPrec/Session/SearchOutput.h"

#include <cstring>
#include <fstream>

using namespace ascendprec;
using namespace ascendprec::session;

Status Session::notWritten() const {
  if (!isWritten)
    return {};
  return Status::user("", "the outputs were written: write() comes last (planned.mlir took the "
                          "plan's weights); plan the model again to measure more");
}

mlir::ModuleOp Session::kernelsToRun() {
  // Lowered for the host by the first run, for its threads (a later run
  // with other threads keeps them: the same bits, other tile counts). The
  // copy of the plan is taken by plan(runFollows), or here when no
  // planned.mlir was written from the plan (its writer swaps the weights
  // out): the C++ and Python APIs plan without an output folder.
  if (!plannedForHost && !hostKernels && !plannedWritten.valid() && planned)
    plannedForHost = planned->clone();
  if (plannedForHost) {
    std::string why;
    if (lowerForHost(*plannedForHost, resolvedPolicy, hostBlocksFor(runSettings.threads), why))
      hostKernels = std::move(plannedForHost);
    else
      observer->warning("internal error while lowering the plan for the host (please report "
                        "it with the model): " + why + "; the run uses the device's tiles");
    plannedForHost = nullptr;
  }
  return hostKernels ? *hostKernels : *kernels;
}

Status Session::run(const InputSource &source, const RunSettings &run, OutputFolder *out) {
  llvm::scope_exit notes([this] { forwardKernelCacheNotes(); });
  if (Status open = notWritten(); !open)
    return open;
  if (Status ready = expect(isPlanned, "a run", "plan()"); !ready)
    return ready;
  // What was measured on earlier inputs no longer holds.
  modesCompared = false;
  modeResults.clear();
  reportData.modes.clear();
  outcome.reset();
  reportData.search.reset();
  runSettings.threads = run.threads;
  runSettings.iterations = run.iterations;
  runSettings.seed = run.seed;
  runSettings.ranges = run.ranges;
  runSettings.modelConstants = modelConstants;
  runSettings.cancelled = [this] { return observer->cancelled(); };
  // The JIT adds dialects and translations to the context, which must not
  // change while planned.mlir is printed from it.
  if (plannedWritten.valid())
    plannedWritten.wait();
  begin("run on the host");
  Status status = [&]() -> Status {
    if (!kernels)
      return ErrorText("", Error::Kind::Internal)
             << "a run needs the plan's kernels, and lowering failed (see the warning above)";
    mlir::ModuleOp toRun = kernelsToRun();
    mlir::func::FuncOp graph = graphOf(toRun);
    if (!graph)
      return Status::internal("the kernels have no graph function");
    inputs = {};
    if (Status prepared = prepareRunInputs(graph, source, runSettings, inputs); !prepared)
      return prepared;
    if (Status ran = runOnHost(toRun, runSettings, inputs, accuracyResult); !ran)
      return ran;
    if (out)
      if (Status staged = stageRunFiles(*accuracyResult, runSettings, inputs, *out); !staged)
        return staged;
    recordAccuracy(*accuracyResult, reportData);
    return {};
  }();
  end();
  status = unlessCancelled(std::move(status));
  if (!status)
    accuracyResult.reset();
  else
    runStagedInto = out;
  return status;
}

Status Session::compareModes(OutputFolder *out) {
  llvm::scope_exit notes([this] { forwardKernelCacheNotes(); });
  if (Status open = notWritten(); !open)
    return open;
  if (Status ready = expect(accuracyResult.has_value(), "comparing the modes", "a run"); !ready)
    return ready;
  if (Status ready = expect(static_cast<bool>(imported), "comparing the modes",
                            "PlanSettings::keepImported set before plan()");
      !ready)
    return ready;
  begin("compare precision modes");
  ModeComparisonOptions planning;
  planning.keepIoDtypes = settings.keepIoDtypes;
  planning.fusionRespectsPins = settings.fusionRespectsPins;
  modeResults.clear();
  reportData.modes = session::compareModes(*imported, sessionOptions, planning, runSettings,
                                           inputs, &modeResults,
                                           [this](const std::string &step) { observer->step(step); });
  end();
  if (observer->cancelled())
    return Status::interrupted();
  modesCompared = true;
  if (out) {
    std::string path = out->stagedPath("compare.json");
    std::string error;
    if (!writeTextFile(path, modeComparisonJson(reportData.modes, reportData.socVersion, inputs.from),
                       error))
      return Status::user("", error);
    compareStagedInto = out;
  }
  return {};
}

Status Session::searchPrecision(const policy::AccuracyTarget &target, unsigned budget,
                                OutputFolder *out) {
  llvm::scope_exit notes([this] { forwardKernelCacheNotes(); });
  if (Status open = notWritten(); !open)
    return open;
  if (Status ready = expect(modesCompared, "a precision search", "compareModes()"); !ready)
    return ready;
  if (std::string problem = checkTargetOutputs(target, inputs.outputNames); !problem.empty())
    return Status::user("<command line>", problem);
  begin("search precision");
  search = {};
  search.target = target;
  search.budget = budget;
  search.planning.keepIoDtypes = settings.keepIoDtypes;
  search.planning.fusionRespectsPins = settings.fusionRespectsPins;
  search.onStep = [this](const std::string &step) { observer->step(step); };
  outcome = session::searchPrecision(*imported, sessionOptions, search, runSettings, inputs,
                                     reportData.modes, modeResults);
  end();
  if (observer->cancelled())
    return Status::interrupted();
  if (outcome->kind != SearchOutcome::Kind::Found &&
      outcome->kind != SearchOutcome::Kind::BuiltInMode)
    return Status::user("", "--search-precision: " + outcome->message + "; nothing was written");
  reportData.search = searchReport(*outcome, search, reportData.modes, modeResults);
  if (out)
    return stageSearchFiles(*out);
  return {};
}

Status Session::stageSearchFiles(OutputFolder &out) {
  std::string problem = writeAndCheckSearchFiles(
      out.stagedPath(OutputFolder::kSearchFolder), *outcome, sessionOptions, search, *imported,
      searchJson(*outcome, search, reportData.modes, modeResults, reportData.socVersion,
                 inputs.from));
  if (problem.rfind("internal error: ", 0) == 0)
    return Status::internal(problem.substr(std::strlen("internal error: ")));
  if (!problem.empty())
    return Status::user("", problem);
  searchStagedInto = &out;
  return {};
}

Status Session::stageMeasurements(OutputFolder &out) {
  if (accuracyResult && runStagedInto != &out)
    if (Status staged = stageRunFiles(*accuracyResult, runSettings, inputs, out); !staged)
      return staged;
  if (modesCompared && compareStagedInto != &out) {
    std::string path = out.stagedPath("compare.json");
    std::string error;
    if (!writeTextFile(path, modeComparisonJson(reportData.modes, reportData.socVersion, inputs.from),
                       error))
      return Status::user("", error);
  }
  if (outcome && reportData.search && searchStagedInto != &out)
    return stageSearchFiles(out);
  return {};
}
