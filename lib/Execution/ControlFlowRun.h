//===- ControlFlowRun.h - If, Loop and Scan on the host ---------*- C++ -*-===//
//
// CANN's graph engine runs control flow on the host side of the device: it
// reads the condition (or trip count) when the op is reached, then launches
// the kernels of the subgraph that runs, as often as it runs. The executor
// does the same: ascend.If / Loop / Scan stay in the kernels module with
// their lowered bodies, and these functions interpret them, handing every
// op inside back to the executor (launches, constants, views, nested
// control flow).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_EXECUTION_CONTROLFLOWRUN_H
#define ASCENDPREC_LIB_EXECUTION_CONTROLFLOWRUN_H

#include "AscendPrec/Runtime/HostTensor.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace ascendprec::exec {

using ValueTensors = llvm::DenseMap<mlir::Value, runtime::HostTensor>;
/// Runs one op of a body (anything but its terminator), binding its results
/// in the value table the callback owns.
using OpRunner = llvm::function_ref<bool(mlir::Operation &, std::string &)>;

/// For each op of `block`, the values `block` defines (arguments, results)
/// that no later op needs once it has run; a use inside an op's regions
/// counts for that op. What the terminator reads is left to the caller.
llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value>>
valuesDyingAt(mlir::Block &block);

/// Whether `op` is control flow this file runs.
bool isControlFlow(mlir::Operation &op);

/// Runs control-flow `op`: its operands and every outer value its bodies
/// read are in `values`; its results are bound there on success. Values a
/// body defines are dropped once it has run. `reference`: f16/bf16 values
/// are held in f32 (the fp32 reference run).
bool runControlFlow(mlir::Operation &op, ValueTensors &values, OpRunner runOp, bool reference,
                    std::string &error);

} // namespace ascendprec::exec

#endif // ASCENDPREC_LIB_EXECUTION_CONTROLFLOWRUN_H
