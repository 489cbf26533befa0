//===- RunInputs.h - what a run feeds the model, checked against it ------===//
//
// A run's inputs come from one of three places: a folder in the ONNX
// backend-test layout (--run=DIR: input_<i>.pb, and output_<i>.pb when the
// expected outputs are known), tensors given by name (the C++ and Python
// APIs), or seeded random values (--run alone). Each is checked against the
// lowered graph before anything runs: every input's shape fixed, each
// given tensor's shape and dtype, index inputs within the range their
// consumer accepts (InputConstraints.h), and the run's estimated peak
// memory against what the machine has.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_RUNINPUTS_H
#define ASCENDPREC_SESSION_RUNINPUTS_H

#include "AscendPrec/Session/Accuracy.h"
#include "AscendPrec/Session/RunIo.h"
#include "AscendPrec/Session/Status.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace ascendprec::session {

/// What a run feeds the model, shared by every mode.
struct RunInputs {
  std::vector<runtime::HostTensor> inputs;
  std::vector<NamedTensor> expected;
  std::vector<std::string> outputNames;
  std::string from; ///< "random (...)", the --run folder, or "given arrays"
};

/// Where the inputs come from: `folder` when set, else `given` (by input
/// name) when `arraysGiven`, else seeded random values
/// (AccuracyRun::seed and ranges).
struct InputSource {
  std::string folder;
  std::vector<NamedTensor> given;
  bool arraysGiven = false;
  bool random() const { return folder.empty() && !arraysGiven; }
};

/// The graph function of a kernels module (its one public function), or
/// null.
mlir::func::FuncOp graphOf(mlir::ModuleOp kernels);

/// Reads or draws the inputs of `graph` into `prepared`, with the model's
/// output names; a user error (naming the input, the file and what the
/// model takes) when they do not fit, or when the run would not fit in
/// memory.
Status prepareRunInputs(mlir::func::FuncOp graph, const InputSource &source,
                        const AccuracyRun &run, RunInputs &prepared);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_RUNINPUTS_H
