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

    With `host-blocks=N` the kernels are for the host executor (`--run`),
    not the device: each cube kernel keeps the device's K tiling (so every
    sum adds the same products in the same order, with the same bits) and
    grows its M tile so that about N tiles remain (hostCubeTiling), marked
    `host_tiling` (its buffers may exceed the SoC's). The executor pays a
    round of runtime calls per tile whatever its size, and the device's
    tiles are sized for 20-odd cores, not 2 threads.
  }];
  let options = [
    Option<"allowUnlowered", "allow-unlowered", "bool", /*default=*/"false",
           "Keep ops that cannot be lowered (a warning each) instead of failing">,
    Option<"hostBlocks", "host-blocks", "int64_t", /*default=*/"0",
           "Lower for the host executor: cube kernels keep the device's K tiling "
           "and grow their M tiles to leave about this many tiles (0: device kernels)">
  ];
  let dependentDialects = ["::ascendprec::kernel::KernelDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}


def ConvertKernelToStandard : Pass<"prec-convert-kernel-to-std", "::mlir::ModuleOp"> {
  let summary = "Generates host code for akernel compute kernels";
  let description = [{
    Turns every cube, vector and mix kernel into a `func.func` of the same
    name taking its GM buffers, a scratch region (`memref<N x i8>`) and the
    block index (`akernel.block_dim`, `akernel.engine` and
    `akernel.scratch_bytes`, the region's N, are kept as attributes); the
    module then holds only these functions (DMA and AI CPU kernels and the
    host graph are run by the executor, docs/execution.md). Memory spaces
    are dropped; local buffers (UB, L1, L0) become `memref.view`s of the
    scratch region at fixed 64-byte-aligned offsets, which the executor
    allocates once per thread instead of once per block. Vector compute
    (`vop`, `vcast`) is generated inline in `arith`/`math`, computing in the
    op's dtype and rounding wherever the device rounds: a 16-bit compute
    dtype computes each step in f32 and rounds the step's result to it
    (exact for + - * / and sqrt, docs/numerics.md); fp32 exp and tanh are
    inline double-precision code (`llvm.intr.fma` steps, DoubleExp.h) that
    LLVM vectorizes, other transcendentals call libm. Loads, stores, copies,
    the fixpipe, `mmad`, reductions and pooling call the kernel runtime
    (`ascendprec_rt_*`, lib/Runtime/KernelRuntime.cpp) with unranked
    memrefs. `overflow` picks the SoC's overflow behaviour (`soc`: Atlas
    training/inference products saturate, 910B-class follow IEEE);
    `reference` widens every f16/bf16 buffer and compute dtype to f32, the
    fp32 reference run of the same kernels.
  }];
  let options = [
    Option<"overflow", "overflow", "std::string", /*default=*/"\"soc\"",
           "Overflow behaviour: soc, ieee or saturation">,
    Option<"reference", "reference", "bool", /*default=*/"false",
           "Widen f16/bf16 to f32 (the fp32 reference)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::LLVM::LLVMDialect"];
}

#endif // ASCENDPREC_CONVERSION_PASSES_TD
