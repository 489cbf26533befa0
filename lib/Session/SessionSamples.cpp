//===- SessionSamples.cpp - one sample of a dataset, plan or reference ----===//
//
// A dataset evaluation runs every sample through several plans and
// compares each with one fp32 reference per sample, computed once and
// cached (python/ascendprec/_evaluate.py). run() runs the plan and the
// reference in lockstep for per-op errors; runSample() runs one side
// alone, on runners prepared once per session, so the n-th sample pays
// neither the JIT nor a second copy of the reference.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Session/Session.h"

#include "llvm/ADT/ScopeExit.h"

using namespace ascendprec;
using namespace ascendprec::session;

Status Session::runSample(const InputSource &source, SampleRun kind, unsigned threads,
                          std::vector<runtime::HostTensor> &outputs,
                          std::vector<std::string> &outputNames) {
  llvm::scope_exit notes([this] { forwardKernelCacheNotes(); });
  if (Status open = notWritten(); !open)
    return open;
  if (Status ready = expect(isPlanned, "a sample run", "plan()"); !ready)
    return ready;
  if (!kernels)
    return ErrorText("", Error::Kind::Internal)
           << "a run needs the plan's kernels, and lowering failed (see the warning above)";
  if (threads == 0)
    threads = 1;
  // The host lowering picks its tiles for the first run's threads; later
  // runs keep them (the same bits, other tile counts).
  if (!hostKernels)
    runSettings.threads = threads;
  runSettings.modelConstants = modelConstants;
  if (plannedWritten.valid())
    plannedWritten.wait();
  mlir::ModuleOp toRun = kernelsToRun();
  mlir::func::FuncOp graph = graphOf(toRun);
  if (!graph)
    return Status::internal("the kernels have no graph function");

  RunInputs prepared;
  AccuracyRun checks = runSettings;
  if (Status ok = prepareRunInputs(graph, source, checks, prepared); !ok)
    return ok;

  std::unique_ptr<exec::GraphRunner> &runner =
      sampleRunners[{static_cast<int>(kind), threads}];
  if (!runner) {
    exec::GraphRunOptions options;
    options.threads = threads;
    options.numerics.overflow = runSettings.overflow;
    if (kind == SampleRun::Reference) {
      options.numerics.reference = true;
      options.constantOverrides = modelConstants;
    }
    std::vector<std::string> problems;
    std::string error;
    runner = exec::GraphRunner::prepare(toRun, options, problems, error);
    if (!runner) {
      if (!problems.empty()) {
        Status status = ErrorText("") << "the plan cannot run on the host: " << problems.size()
                                      << (problems.size() == 1 ? " op" : " ops")
                                      << " cannot be executed";
        status.error().details = problems;
        return status;
      }
      return Status::internal("cannot prepare the run: " + error);
    }
  }
  std::string error;
  outputs.clear();
  if (!runner->run(prepared.inputs, outputs, error)) {
    // An index out of range, a shape the model rejects at run time: the
    // sample's fault, not the engine's.
    return Status::user("", error);
  }
  outputNames = prepared.outputNames;
  return {};
}
