//===- KernelCost.h - estimated device time of akernel kernels ------------===//
//
// A cycle model of one AI Core kernel from the SoC's platform facts: cube
// cycles from the fractals multiplied, vector cycles from the bytes the
// vector unit processes and each op's instruction count, data movement
// from the bytes moved and the memory rates, overlapped as double
// buffering allows, plus launch overhead. docs/cost-model.md derives every
// formula and says where each figure comes from.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_KERNEL_ANALYSIS_KERNELCOST_H
#define ASCENDPREC_DIALECT_KERNEL_ANALYSIS_KERNELCOST_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace ascendprec::kernel {

/// Fixed costs the platform config does not give (docs/cost-model.md).
struct CostConstants {
  /// An AI Core kernel's fixed time on the device (its task's duration
  /// beyond the pipes' work: dispatch to its cores and their setup), the
  /// smallest whole task measured on a 910B (docs/cost-model.md, "Launch").
  double aiCoreLaunchUs = 3.5;
  double aiCpuLaunchUs = 20.0;  ///< one AI CPU task (an assumption: no public figure)
  double aiCpuBytesPerCycle = 1.0; ///< AI CPU throughput, at the AI Core clock
  int64_t vectorBytesPerCycle = 256; ///< one vector repeat: 8 blocks of 32 bytes
};

/// The estimate of one kernel on its busiest core.
struct KernelCost {
  std::string name;
  Engine engine = Engine::Vector;
  int64_t blockDim = 1;
  double cubeCycles = 0, vectorCycles = 0, moveCycles = 0;
  double cycles = 0;   ///< after overlap
  double us = 0;       ///< cycles at the clock, plus the launch (CostConstants)
  double launchUs = 0; ///< of which the launch
  std::vector<std::string> nodes;
};

/// Cycles for one of `blocks` cores to read `total` bytes of a GM buffer of
/// `sourceBytes`: its share of the buffer from DDR (`ddrRate` bytes per
/// cycle) the first time, re-reads from L2 (`l2Rate`) when what is read
/// between two reads of the same bytes (`reuseBytes`, the whole buffer
/// unless given) fits the L2 of `l2Bytes`: a matmul's A panel is read again
/// by the next tile of its row, its B panel only a row of tiles later. The
/// rule tiling and the cost model share (docs/cost-model.md).
double gmReadCycles(double total, double sourceBytes, int64_t blocks, int64_t l2Bytes,
                    int64_t ddrRate, int64_t l2Rate, double reuseBytes = -1);

/// Cycles for one of `blocks` cores to read `total` bytes of a cube
/// kernel's B (a GM buffer of `sourceBytes`) when its `rows` rows of output
/// tiles are walked in bands of `band` rows: each B panel comes from DDR
/// once per band (once in all when B fits the L2 of `l2Bytes`), and from L2
/// for the band's other rows. The rule tiling and the cost model share.
double bandedReadCycles(double total, double sourceBytes, int64_t blocks, int64_t l2Bytes,
                        int64_t ddrRate, int64_t l2Rate, double rows, double band);

/// The vector instructions one element-repeat of `kind` takes (1 for add,
/// several for exp or tanh); docs/cost-model.md lists them.
int64_t vectorInstructions(llvm::StringRef kind);

/// The estimate of `kernel` on `target`.
KernelCost estimateKernel(KernelOp kernel, TargetAttr target,
                          const CostConstants &constants = {});

/// Every kernel of `module` that a launch uses, in launch order, with the
/// module's target. Empty without a target.
std::vector<KernelCost> estimateModule(mlir::ModuleOp module,
                                       const CostConstants &constants = {});

/// What a kernel does to the dtypes, in the order it happens: "cube f16 ->
/// f32 accumulate; fixpipe rint to f16" or "vector exp in f32; vcast f32 ->
/// f16 rint" (for --explain).
std::string describeKernelPrecision(KernelOp kernel);

/// Multiply-accumulates per second the cube sustains on `input` (all cube
/// cores, the fractal per cycle, the clock): the model's peak.
double cubePeakMacsPerSecond(TargetAttr target, mlir::Type input);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_DIALECT_KERNEL_ANALYSIS_KERNELCOST_H
