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

def ConvertAscendToKernel : Pass<"prec-convert-ascend-to-kernel", "::mlir::ModuleOp"> {
  let summary = "Lowers a planned ascend graph to akernel kernels";
  let description = [{
    Every planned op becomes a kernel in the AI Core's memory spaces and
    units (docs/lowering.md): MatMulV2, BatchMatMulV2 and Conv2D (img2col,
    the small-channel path of OP-3) on the cube with fp32 accumulation and
    one fixpipe rounding; elementwise ops, Casts, reductions, Softmax and
    LayerNorm on the vector unit, computing in the dtype the impl mode
    decides (IM-7), reductions in a fixed order under `deterministic=1`
    (OP-3); data movement as DMA kernels or views; AI CPU ops as AI CPU
    kernels; a UB-fusion group as one kernel. Tiles come from the SoC's
    buffer sizes, blocks from its core counts (after `aicore_num`), set on
    the module as `#akernel.target` from the platform config (OP-4).

    The graph function stays on tensors, each op replaced by an
    `akernel.launch` of its kernel. The policy is the one planning recorded
    on the module (`ascend.policy`). An op without a lowering (a generic op,
    a dynamic shape) is an error naming it and why, or with
    `allow-unlowered` a warning, the op kept as it is.
  }];
  let options = [
    Option<"allowUnlowered", "allow-unlowered", "bool", /*default=*/"false",
           "Keep ops that cannot be lowered (a warning each) instead of failing">
  ];
  let dependentDialects = ["::ascendprec::kernel::KernelDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // ASCENDPREC_CONVERSION_PASSES_TD
