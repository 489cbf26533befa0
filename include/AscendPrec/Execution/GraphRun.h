//===- GraphRun.h - running a lowered plan on the host --------------------===//
//
// Steps the host graph of a kernels module (the function of launches and
// views prec-convert-ascend-to-kernel leaves) one launch at a time: compute
// kernels run JIT-compiled, their blocks shared by a thread pool; DMA
// kernels run in the host data-movement library. Values are freed after
// their last use.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_EXECUTION_GRAPHRUN_H
#define ASCENDPREC_EXECUTION_GRAPHRUN_H

#include "AscendPrec/Execution/KernelJit.h"
#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/HostTensor.h"
#include "llvm/ADT/StringMap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ascendprec::exec {

struct GraphRunOptions {
  unsigned threads = 1;
  NumericsOptions numerics;
  /// Constants to use instead of the graph's, by node name when shapes
  /// match: the fp32 reference takes the model's own weights, not those the
  /// plan rounded to fp16.
  llvm::StringMap<mlir::ElementsAttr> constantOverrides;
};

/// What one launch produced, for per-op accuracy.
struct LaunchOutputs {
  /// The launch; null for a control-flow op (If/Loop/Scan), which counts as
  /// one step with the op's results as its outputs.
  mutable kernel::LaunchOp launch;
  mlir::Operation *op = nullptr; ///< the launch or control-flow op
  std::vector<std::string> nodes; ///< graph nodes it computes (fused ones too)
  std::vector<runtime::HostTensor> outputs;
  double hostMs = 0;
};

class GraphRunner;

/// One run in progress: the graph's ops executed one at a time, so that two
/// runs of one graph (the plan and its fp32 reference) can go in lockstep.
class GraphExecution {
public:
  ~GraphExecution();
  /// Executes the next op. Returns false with `error` set on failure; after
  /// the return op, finished() is true and outputs() holds the results.
  bool step(std::string &error);
  bool finished() const { return done; }
  /// The launch the last step ran, if it was one.
  const LaunchOutputs *lastLaunch() const { return launched ? &last : nullptr; }
  /// Keep, for each control-flow step, the launches it ran inside (their
  /// outputs stay alive until the next step): per-op errors inside If,
  /// Loop and Scan bodies.
  void recordInnerLaunches(bool record);
  /// The launches the last step ran inside control flow, in order (a Loop
  /// body's once per iteration); empty unless recorded.
  const std::vector<LaunchOutputs> &innerLaunches() const;
  const std::vector<runtime::HostTensor> &outputs() const { return results; }
  /// After a failed step: the run took an If branch holding an op the host
  /// cannot execute (the error names it), a limit of the plan rather than
  /// a failure of the executor.
  bool reachedUnrunnableOp() const { return unrunnable; }

private:
  friend class GraphRunner;
  GraphExecution() = default;
  struct State;
  std::unique_ptr<State> state;
  bool done = false, launched = false, unrunnable = false;
  LaunchOutputs last;
  std::vector<runtime::HostTensor> results;
};

/// The host element type a tensor of `type` is held in (f16/bf16 as f32
/// under `reference`); nullopt for types the executor does not hold.
std::optional<runtime::ElementType> hostElementType(mlir::Type type, bool reference);

/// A constant's value as a tensor of its own (a graph input's default,
/// `ascend.default`); nullopt with `why` set when it has no data.
std::optional<runtime::HostTensor> tensorOfConstant(mlir::ElementsAttr value, std::string &why);

class GraphRunner {
public:
  /// Finds the graph function and compiles the kernels. Ops that cannot
  /// run (no kernel, an AI CPU kernel, a DMA kind the host lacks, elided
  /// weights) are listed in `problems` (then null is returned); other
  /// failures set `error`.
  static std::unique_ptr<GraphRunner> prepare(mlir::ModuleOp kernels,
                                              const GraphRunOptions &options,
                                              std::vector<std::string> &problems,
                                              std::string &error);
  ~GraphRunner();

  mlir::func::FuncOp graph() const { return function; }
  /// The JIT compilation's wall time, 0 when the kernels came from the
  /// in-process cache.
  double compileMs() const { return jitMs; }

  /// Starts a run on `inputs` (one per graph argument, of the argument's
  /// shape; element types are converted as a host feeds the model); null
  /// with `error` set when the inputs do not fit.
  std::unique_ptr<GraphExecution> start(const std::vector<runtime::HostTensor> &inputs,
                                        std::string &error);
  /// A whole run.
  bool run(const std::vector<runtime::HostTensor> &inputs,
           std::vector<runtime::HostTensor> &outputs, std::string &error);

private:
  friend class GraphExecution;
  GraphRunner() = default;
  struct Impl;
  std::unique_ptr<Impl> impl;
  mlir::func::FuncOp function;
  std::shared_ptr<KernelJit> jit;
  double jitMs = 0;
};

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_GRAPHRUN_H
