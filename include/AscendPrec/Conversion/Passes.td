//===- Passes.td - AscendPrec conversion passes ------------*- tablegen -*-===//

#ifndef ASCENDPREC_CONVERSION_PASSES_TD
#define ASCENDPREC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTosaToAscend : Pass<"convert-tosa-to-ascend", "::mlir::ModuleOp"> {
  let summary = "Converts upstream tosa ops to the ascend dialect";
  let description = [{
    Lets other MLIR compilers hand their graphs to AscendPrec. Elementwise
    ops, clamp, cast, const, reshape, transpose, concat, reduce_sum /
    reduce_max (keep dims), matmul (batched), and conv2d / max_pool2d /
    avg_pool2d (NHWC, wrapped in Transposes to the dialect's NCHW, with OHWI
    weights transposed to OIHW) map onto ascend ops. Quantized forms (non-zero
    zero points, a non-zero mul shift) and every other tosa op are errors:
    planning must see the whole graph. Node names come from NameLoc
    locations, else `<tosa op>_<n>`. The mapping table is in
    docs/tosa-import.md.
  }];
  let dependentDialects = ["::ascendprec::ascend::AscendDialect"];
}

#endif // ASCENDPREC_CONVERSION_PASSES_TD
