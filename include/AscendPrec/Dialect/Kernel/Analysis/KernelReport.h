//===- KernelReport.h - kernel estimates into the precision report --------===//

#ifndef ASCENDPREC_DIALECT_KERNEL_ANALYSIS_KERNELREPORT_H
#define ASCENDPREC_DIALECT_KERNEL_ANALYSIS_KERNELREPORT_H

#include "AscendPrec/Report/Report.h"
#include "mlir/IR/BuiltinOps.h"

namespace ascendprec::kernel {

/// Fills `report`'s kernel estimates from the lowered `module`: every node
/// gets its kernel and estimated time (a view 0 without a kernel, an op
/// left unlowered neither), and the report lists the kernels.
void attachKernelEstimates(mlir::ModuleOp module, report::ReportData &report);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_DIALECT_KERNEL_ANALYSIS_KERNELREPORT_H
