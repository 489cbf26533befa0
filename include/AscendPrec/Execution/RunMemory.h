//===- RunMemory.h - how much memory a run of a plan needs ------*- C++ -*-===//
//
// Before a run allocates anything, its peak is estimated from the plan: the
// graph's values are freed after their last use (GraphRun), so the peak is
// the largest sum of the values alive at once, for the plan and, running in
// lockstep, its fp32 reference (every 16-bit value held in f32 there), plus
// the inputs and the constants. prec-compile refuses a run that would not
// fit the memory available rather than being killed half-way.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_EXECUTION_RUNMEMORY_H
#define ASCENDPREC_EXECUTION_RUNMEMORY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ascendprec::exec {

struct RunMemoryEstimate {
  /// The estimated peak in bytes, saturated at UINT64_MAX.
  uint64_t peakBytes = 0;
  /// The largest single value and what it is ("input 'x'", "the output of
  /// node 'conv1'"), with its shape and element type.
  uint64_t largestBytes = 0;
  std::string largestValue;
};

/// The peak of running `graph` (a kernels module's graph function) once,
/// with the fp32 reference alongside when `withReference`.
RunMemoryEstimate estimateRunMemory(mlir::func::FuncOp graph, bool withReference);

/// The memory this machine can give a process without swapping (Linux:
/// MemAvailable of /proc/meminfo), or nothing when it cannot be read.
std::optional<uint64_t> availableMemoryBytes();

/// "4.00 TB", "512 MB", ...
std::string formatBytes(uint64_t bytes);

} // namespace ascendprec::exec

#endif // ASCENDPREC_EXECUTION_RUNMEMORY_H
