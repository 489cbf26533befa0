//===- KernelDialect.td - The `akernel` AI Core kernel dialect -*- tablegen -*-===//
//
// Kernel-level IR: buffers in the AI Core's memory spaces and ops by the
// hardware unit that runs them, so that every precision decision shows as
// a dtype on a unit (docs/kernel-dialect.md).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_KERNEL_IR_KERNELDIALECT_TD
#define ASCENDPREC_DIALECT_KERNEL_IR_KERNELDIALECT_TD

include "mlir/IR/OpBase.td"

def Kernel_Dialect : Dialect {
  let name = "akernel";
  let cppNamespace = "::ascendprec::kernel";
  let summary = "Ascend AI Core kernels: memory spaces, cube, vector, DMA and fixpipe ops";
  let description = [{
    The `akernel` dialect is what a planned `ascend` graph lowers to: one
    `akernel.kernel` per device kernel, holding the data movement and the
    compute of one op (or one UB-fusion group) on the units of an AI Core.

    * Buffers are memrefs whose memory space is an `#akernel.space<...>`:
      `gm` (global memory), `l1`, `l0a` and `l0b` (the cube's inputs), `l0c`
      (the cube's accumulator) and `ub` (the vector unit's buffer).
    * Ops are split by the unit that runs them: DMA (`akernel.copy`), cube
      (`akernel.mmad`), the fixpipe out of L0C (`akernel.fixpipe`, which
      converts the accumulator's dtype with a named rounding mode), vector
      (`akernel.vop`, `akernel.vreduce`, `akernel.vcast`, each naming the
      dtype it computes in) and the AI CPU (`akernel.aicpu_call`).
    * The SoC's facts (buffer sizes, core counts, cube fractal, clock, memory
      rates, the cube's input dtypes) are an `#akernel.target<...>` on the
      module, taken from the platform-config .ini; verifiers check tiles,
      fractal alignment, cube dtypes and block counts against it.
  }];
  let useDefaultAttributePrinterParser = 1;
}

#endif // ASCENDPREC_DIALECT_KERNEL_IR_KERNELDIALECT_TD
