//===- KernelOps.td - `akernel` ops by hardware unit -------*- tablegen -*-===//

#ifndef ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_TD
#define ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_TD

include "AscendPrec/Dialect/Kernel/IR/KernelAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Kernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kernel_Dialect, mnemonic, traits>;

def Kernel_StaticMemRef : Type<And<[AnyMemRef.predicate, HasStaticShapePred]>,
                               "statically shaped memref", "::mlir::MemRefType">;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def Kernel_KernelOp : Kernel_Op<"kernel", [Symbol, SingleBlock, NoTerminator,
                                           IsolatedFromAbove]> {
  let summary = "One device kernel: its buffers, data movement and compute";
  let description = [{
    A kernel runs on `block_dim` cores of its engine. The entry block's
    arguments are its GM buffers (inputs, then outputs). `nodes` names the
    graph nodes the kernel computes (a UB-fusion group has several), so a
    kernel can be traced back to the model. With `double_buffer`, every
    local buffer is allocated twice (one tile loads while the other
    computes), which the buffer check counts. `tiling` records the tile
    sizes the lowering chose.

    ```mlir
    akernel.kernel @conv1 attributes {block_dim = 32 : i64,
        engine = #akernel.engine<cube>, nodes = ["conv1"], double_buffer} {
    ^bb0(%x: memref<1x16x8x8xf16, #akernel.space<gm>>, ...):
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Kernel_EngineAttr:$engine,
                       I64Attr:$block_dim, StrArrayAttr:$nodes,
                       UnitAttr:$double_buffer,
                       OptionalAttr<DictionaryAttr>:$tiling);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Kernel_AllocOp : Kernel_Op<"alloc"> {
  let summary = "A local buffer in L1, L0A, L0B, L0C or UB";
  let description = [{
    ```mlir
    %a = akernel.alloc : memref<64x64xf16, #akernel.space<l0a>>
    ```
    The enclosing kernel checks that its buffers fit each memory space.
  }];
  let results = (outs Kernel_StaticMemRef:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Kernel_CopyOp : Kernel_Op<"copy"> {
  let summary = "DMA between memory spaces (no dtype conversion)";
  let description = [{
    Moves a tile along one of the AI Core's data paths: GM to L1 or UB, L1
    to L0A or L0B, UB to GM or L1, L1 to UB. The element type does not
    change (conversions are `akernel.vcast` or `akernel.fixpipe`); the
    element counts match (a copy may reshape, as the fractal layout does).

    ```mlir
    akernel.copy %w, %w_l1 : memref<64x64xf16, #akernel.space<gm>>,
                             memref<64x64xf16, #akernel.space<l1>>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, AnyMemRef:$target);
  let assemblyFormat = "$source `,` $target attr-dict `:` type($source) `,` type($target)";
  let hasVerifier = 1;
}

def Kernel_FixpipeOp : Kernel_Op<"fixpipe"> {
  let summary = "The cube's result out of L0C, converted with a named rounding";
  let description = [{
    Reads the accumulator in L0C and writes it to GM, L1 or UB, converting
    its dtype on the way (fp32 to fp16/bf16/fp32, int32 to int32/fp16) with
    `round`, optionally adding a per-column `bias` (in the accumulator's
    dtype, before rounding) and applying ReLU: the one rounding of a cube
    result.

    ```mlir
    akernel.fixpipe %acc, %out {round = #akernel.round<rint>, relu}
        : memref<64x64xf32, #akernel.space<l0c>>, memref<64x64xf16, #akernel.space<gm>>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, AnyMemRef:$target,
                       Optional<AnyMemRef>:$bias,
                       Kernel_RoundingModeAttr:$round, UnitAttr:$relu);
  let assemblyFormat = [{
    $source `,` $target (`bias` $bias^)? attr-dict `:` type($source) `,` type($target)
    (`,` type($bias)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cube
//===----------------------------------------------------------------------===//

def Kernel_MmadOp : Kernel_Op<"mmad"> {
  let summary = "Cube matrix multiply-accumulate: L0A x L0B into L0C";
  let description = [{
    `acc[M,N] (+)= a[M,K] * b[K,N]` on the cube unit. fp16 and bf16 inputs
    accumulate in fp32, int8 in int32, fp32 (where the SoC's cube takes it)
    in fp32. With `init` the accumulator is overwritten (the first K step),
    otherwise added to. M, N and K are multiples of the SoC's fractal
    (16 x 16 for fp16, K in 32s for int8, in 8s for fp32): a lowering pads.

    ```mlir
    akernel.mmad %a, %b, %acc {init} : memref<64x32xf16, #akernel.space<l0a>>,
        memref<32x64xf16, #akernel.space<l0b>>, memref<64x64xf32, #akernel.space<l0c>>
    ```
  }];
  let arguments = (ins Kernel_StaticMemRef:$lhs, Kernel_StaticMemRef:$rhs,
                       Kernel_StaticMemRef:$acc, UnitAttr:$init);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vector
//===----------------------------------------------------------------------===//

def Kernel_VectorOp : Kernel_Op<"vop"> {
  let summary = "An elementwise vector op on UB, computing in an explicit dtype";
  let description = [{
    `kind` names the computation (`add`, `mul`, `relu`, `exp`, `rsqrt`,
    ...; docs/kernel-dialect.md lists them with their arity). `compute` is
    the dtype the unit computes in: inputs of another dtype are converted
    on the way in and the result on the way out (with `round`), as a
    high-precision implementation of an fp16 op computes in fp32. `newton`
    adds a Newton-Raphson step to `reciprocal` and `rsqrt`.

    ```mlir
    akernel.vop "exp" %x -> %y {compute = f32, round = #akernel.round<rint>}
        : memref<256xf16, #akernel.space<ub>> -> memref<256xf16, #akernel.space<ub>>
    ```
  }];
  let arguments = (ins StrAttr:$kind, Variadic<AnyMemRef>:$inputs,
                       AnyMemRef:$output, TypeAttr:$compute,
                       DefaultValuedAttr<Kernel_RoundingModeAttr,
                                         "::ascendprec::kernel::RoundingMode::Rint">:$round,
                       UnitAttr:$newton);
  let assemblyFormat = [{
    $kind $inputs `->` $output attr-dict `:` type($inputs) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Kernel_ReduceOp : Kernel_Op<"vreduce"> {
  let summary = "A reduction on UB with its accumulation dtype and order";
  let description = [{
    Reduces `axes` of the input with `kind` (`sum`, `max`, `min`, `prod`),
    accumulating in `acc`, in `order` (`tree` within a core, `sequential`,
    or `atomic` adds across cores, whose order is not fixed: `deterministic=1`
    rules it out, OP-3).

    ```mlir
    akernel.vreduce "sum" %x -> %y {axes = [1], acc = f32, order = #akernel.order<tree>}
        : memref<16x256xf16, #akernel.space<ub>> -> memref<16x1xf16, #akernel.space<ub>>
    ```
  }];
  let arguments = (ins StrAttr:$kind, AnyMemRef:$input, AnyMemRef:$output,
                       DenseI64ArrayAttr:$axes, TypeAttr:$acc,
                       Kernel_ReduceOrderAttr:$order);
  let assemblyFormat = [{
    $kind $input `->` $output attr-dict `:` type($input) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Kernel_CastOp : Kernel_Op<"vcast"> {
  let summary = "A dtype conversion on UB with a rounding mode";
  let description = [{
    ```mlir
    akernel.vcast %x -> %y {round = #akernel.round<rint>}
        : memref<256xf32, #akernel.space<ub>> -> memref<256xf16, #akernel.space<ub>>
    ```
  }];
  let arguments = (ins AnyMemRef:$input, AnyMemRef:$output,
                       Kernel_RoundingModeAttr:$round);
  let assemblyFormat = "$input `->` $output attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AI CPU
//===----------------------------------------------------------------------===//

def Kernel_AICPUCallOp : Kernel_Op<"aicpu_call"> {
  let summary = "An op computed by an AI CPU kernel on GM buffers";
  let description = [{
    ```mlir
    akernel.aicpu_call "NonMaxSuppression" (%boxes, %scores, %out)
        : memref<1x100x4xf32, #akernel.space<gm>>, ...
    ```
    Only inside a kernel whose engine is `aicpu`.
  }];
  let arguments = (ins StrAttr:$op_type, Variadic<AnyMemRef>:$buffers);
  let assemblyFormat = "$op_type `(` $buffers `)` attr-dict `:` type($buffers)";
  let hasVerifier = 1;
}

#endif // ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_TD
