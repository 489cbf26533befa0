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
    sizes the lowering chose. The tile loop (`scf.for` from `block_idx`
    by `block_dim`) may carry the unit attribute
    `akernel.independent_tiles`: each of its tiles writes its own part of
    the outputs, so any partition of the tiles among blocks computes the
    same bits (the host gives each block a contiguous run). A kernel with
    `host_tiling` was lowered for the host executor (the lowering's
    `host-blocks`): its tiles are larger than the device's, and its buffers
    are not checked against the SoC's.

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
                       OptionalAttr<DictionaryAttr>:$tiling,
                       UnitAttr:$host_tiling);
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

def Kernel_FixpipeOp : Kernel_Op<"fixpipe", [AttrSizedOperandSegments]> {
  let summary = "The cube's result out of L0C, converted with a named rounding";
  let description = [{
    Reads the accumulator in L0C and writes it to GM, L1 or UB, converting
    its dtype on the way (fp32 to fp16/bf16/fp32, int32 to int32/fp16) with
    `round`, optionally adding a per-column `bias` (in the accumulator's
    dtype, before rounding) and applying ReLU: the one rounding of a cube
    result.

    Into GM, `offsets` (one per GM dimension) place the tile in the
    trailing dimensions; rows and columns past GM's edge (the padding to
    the fractal) are dropped. `transpose` writes tile element [i, j] at
    [j, i] (a convolution's [positions, channels] tile into NCHW). Into a
    local buffer, the tile is copied whole.

    ```mlir
    akernel.fixpipe %acc -> %out[%m, %n] {round = #akernel.round<rint>, relu}
        : memref<64x64xf32, #akernel.space<l0c>> -> memref<100x80xf16, #akernel.space<gm>>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, AnyMemRef:$target,
                       Variadic<Index>:$offsets, Optional<AnyMemRef>:$bias,
                       Kernel_RoundingModeAttr:$round, UnitAttr:$relu,
                       UnitAttr:$transpose);
  let assemblyFormat = [{
    $source `->` $target (`[` $offsets^ `]`)? (`bias` $bias^)? attr-dict `:` type($source)
    `->` type($target) (`,` type($bias)^)?
  }];
  let hasVerifier = 1;
}

def Kernel_LoadOp : Kernel_Op<"load"> {
  let summary = "DMA of a tile from GM into L1 or UB, zero-filled past the edge";
  let description = [{
    Reads the tile of `source` that starts at `offsets` into `target`
    (MTE2). The tile covers `source`'s trailing dimensions (one per
    `target` dimension); the leading ones are fixed at their offset. Tile
    elements past `source`'s edge read 0, which is how a lowering pads an
    edge tile to the fractal.

    * `transpose` (2-D tiles): tile element [i, j] reads source [j, i]
      relative to the offsets, as the ND-to-fractal load transposes a
      right-hand matrix;
    * `broadcast = array<i64: ...>`: `source` is broadcast to that shape
      (its dimensions are equal or 1) and flattened; one offset, into the
      flattened shape: how an elementwise kernel reads a bias or a scale;
    * `img2col = #akernel.img2col<...>`: `source` is an `[..., C, H, W]`
      feature map, read as the convolution's patch matrix; the offsets are
      the leading dimensions', then the first row and column;
    * `transposed_filter`: `source` is a transposed convolution's filter
      seen as `[..., Cin, Cout, kh*kw]`, read as the equivalent
      convolution's [K, N] matrix: tile element [k, n], with
      k = cin * kh*kw + r, reads `[cin, n, kh*kw - 1 - r]` (the window
      flipped); the offsets are the leading dimensions', then the first
      k and n;
    * `grouped_filter = array<i64: E, window>`: `source` is the filter of
      E groups of a grouped convolution packed into one cube group (CANN's
      group enlargement), seen as `[..., E * Cout/G, Cin/G * window]`,
      read as the packed group's block-diagonal [K, N] matrix: tile
      element [k, n], with k = c * window + r, reads
      `[n, (c mod Cin/G) * window + r]` when input channel c and output
      channel n belong to the same group (c / (Cin/G) == n / (Cout/G)),
      else 0; the offsets are the leading dimensions', then the first n
      and k (the source's order, as with `transpose`).

    ```mlir
    akernel.load %a[%m, %k] -> %a_l1 : memref<100x72xf16, #akernel.space<gm>>
        -> memref<112x80xf16, #akernel.space<l1>>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$offsets,
                       Kernel_StaticMemRef:$target, UnitAttr:$transpose,
                       OptionalAttr<DenseI64ArrayAttr>:$broadcast,
                       OptionalAttr<Kernel_Img2ColAttr>:$img2col,
                       UnitAttr:$transposed_filter,
                       OptionalAttr<DenseI64ArrayAttr>:$grouped_filter);
  let assemblyFormat = [{
    $source `[` $offsets `]` `->` $target attr-dict `:` type($source) `->` type($target)
  }];
  let hasVerifier = 1;
}

def Kernel_StoreOp : Kernel_Op<"store"> {
  let summary = "DMA of a tile from UB into GM, cropped at the edge";
  let description = [{
    Writes `source` into `target`'s trailing dimensions at `offsets`
    (MTE3); tile elements past `target`'s edge are dropped. With `atomic`,
    the tile is added into GM instead (the cores of a split reduction add
    their partial results in whatever order they finish, which
    `deterministic=1` rules out, OP-3); the host zeroes such an output
    before the launch. `transpose` writes 2-D tile element [i, j] at
    [j, i] (a fused convolution's [positions, channels] tile into NCHW).

    ```mlir
    akernel.store %y_ub -> %y[%off] : memref<4096xf16, #akernel.space<ub>>
        -> memref<10000xf16, #akernel.space<gm>>
    ```
  }];
  let arguments = (ins Kernel_StaticMemRef:$source, AnyMemRef:$target,
                       Variadic<Index>:$offsets, UnitAttr:$atomic, UnitAttr:$transpose);
  let assemblyFormat = [{
    $source `->` $target `[` $offsets `]` attr-dict `:` type($source) `->` type($target)
  }];
  let hasVerifier = 1;
}

def Kernel_DmaOp : Kernel_Op<"dma", [AttrSizedOperandSegments]> {
  let summary = "A data-movement op done by the DMA engines, GM to GM";
  let description = [{
    Layout and indexing ops that move data without computing on it
    (`transpose`, `concat`, `split`, `slice`, `pad`, `gather`, `tile`,
    `broadcast`, `depth_to_space`, ...; element-indexed `gather_elements`,
    `scatter_elements`, `gather_nd`, `scatter_nd`, `triangle` and the
    running sums of `cumsum`): the MTEs read every input byte and write
    every output byte through UB. Two kinds that also compute a little per
    element moved, each computed on the host in fp32 as its CANN kernel
    does: `roi_align` (bilinear samples) and `nll_loss` (CANN's NLLLoss:
    a product per row, fp32 sums). `params` keeps the graph op's
    attributes (perm, axis, ...). With `bounds_check`, indices are checked
    against the gathered axis (support_out_of_bound_index, IM-7).

    ```mlir
    akernel.dma "transpose" ins(%x) outs(%y) {params = {perm = array<i64: 0, 2, 1>}}
        : (memref<1x8x64xf16, #akernel.space<gm>>) -> (memref<1x64x8xf16, #akernel.space<gm>>)
    ```
  }];
  let arguments = (ins StrAttr:$kind, Variadic<AnyMemRef>:$inputs,
                       Variadic<AnyMemRef>:$outputs,
                       OptionalAttr<DictionaryAttr>:$params, UnitAttr:$bounds_check);
  let assemblyFormat = [{
    $kind `ins` `(` $inputs `)` `outs` `(` $outputs `)` attr-dict `:`
    `(` type($inputs) `)` `->` `(` type($outputs) `)`
  }];
  let hasVerifier = 1;
}

def Kernel_BlockIdxOp : Kernel_Op<"block_idx", [Pure]> {
  let summary = "The index of the core (block) running the kernel";
  let description = [{
    Between 0 and the kernel's `block_dim` - 1. A tile loop starts at it
    and steps by `block_dim`, so the cores share the tiles round-robin.

    ```mlir
    %b = akernel.block_idx : index
    ```
  }];
  let results = (outs Index:$index);
  let assemblyFormat = "attr-dict `:` type($index)";
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
    in fp32. When `init` is true the accumulator is overwritten (the first
    K step), otherwise added to; without `init` it is always added to. M, N and K are multiples of the SoC's fractal
    (16 x 16 for fp16, K in 32s for int8, in 8s for fp32): a lowering pads.

    ```mlir
    akernel.mmad %a, %b, %acc init(%first) : memref<64x32xf16, #akernel.space<l0a>>,
        memref<32x64xf16, #akernel.space<l0b>>, memref<64x64xf32, #akernel.space<l0c>>
    ```
  }];
  let arguments = (ins Kernel_StaticMemRef:$lhs, Kernel_StaticMemRef:$rhs,
                       Kernel_StaticMemRef:$acc, Optional<I1>:$init);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc (`init` `(` $init^ `)`)? attr-dict `:` type($lhs) `,` type($rhs)
    `,` type($acc)
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
    adds a Newton-Raphson step to `reciprocal` and `rsqrt`. `params` holds
    an op's scalar constants (LeakyRelu's alpha, HardSigmoid's alpha and
    beta, ...).

    ```mlir
    akernel.vop "exp" %x -> %y {compute = f32, round = #akernel.round<rint>}
        : memref<256xf16, #akernel.space<ub>> -> memref<256xf16, #akernel.space<ub>>
    ```
  }];
  let arguments = (ins StrAttr:$kind, Variadic<AnyMemRef>:$inputs,
                       AnyMemRef:$output, TypeAttr:$compute,
                       DefaultValuedAttr<Kernel_RoundingModeAttr,
                                         "::ascendprec::kernel::RoundingMode::Rint">:$round,
                       UnitAttr:$newton, OptionalAttr<DenseF64ArrayAttr>:$params);
  let assemblyFormat = [{
    $kind $inputs `->` $output attr-dict `:` type($inputs) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Kernel_ReduceOp : Kernel_Op<"vreduce"> {
  let summary = "A reduction on UB with its accumulation dtype and order";
  let description = [{
    Reduces `axes` of the input with `kind` (`sum`, `max`, `min`, `prod`,
    `mean`), accumulating in `acc`, in `order` (`tree` within a core,
    `sequential`, or `atomic` adds across cores, whose order is not fixed:
    `deterministic=1` rules it out, OP-3).

    `argmax` and `argmin` write the index (i32 or i64) of the largest or
    smallest element along the reduced axes (row-major over them when there
    are several), comparing exactly in `acc`, which is the input's dtype.
    Ties keep the first index and a NaN is the extreme (the first NaN wins,
    as NumPy's argmax), so the result does not depend on `order`.

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

def Kernel_PoolOp : Kernel_Op<"vpool"> {
  let summary = "Max or average pooling of [planes, H, W] or [planes, D, H, W] tiles on UB";
  let description = [{
    Each output element reduces a `kernel` window of its plane (or volume),
    `strides` apart, with `pads` outside the image (never the maximum;
    counted in the average unless `exclusive`). `kernel` and `strides` have
    one entry per spatial axis; `pads` a (begin, end) pair per axis: top,
    bottom, left, right for planes, front, back, top, bottom, left, right
    for volumes (MaxPool3D and AvgPool3D). An average accumulates in `acc`.

    ```mlir
    akernel.vpool "max" %x -> %y {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>,
        pads = array<i64: 0, 0, 0, 0>, acc = f16}
        : memref<8x16x16xf16, #akernel.space<ub>> -> memref<8x8x8xf16, #akernel.space<ub>>
    ```
  }];
  let arguments = (ins StrAttr:$kind, AnyMemRef:$input, AnyMemRef:$output,
                       DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$pads, TypeAttr:$acc, UnitAttr:$exclusive);
  let assemblyFormat = [{
    $kind $input `->` $output attr-dict `:` type($input) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Kernel_InterpOp : Kernel_Op<"vinterp", [AttrSizedOperandSegments]> {
  let summary = "Resizes or grid-samples [planes, H, W] tiles on UB";
  let description = [{
    Each output element of `output` (`[planes, Ho, Wo]`) interpolates its
    plane of `input` (`[planes, H, W]`) with `mode` (`nearest`, `bilinear`,
    or `bicubic`: cubic convolution with a = -0.75), weighing in `acc` and
    rounding once into the output.

    Without `grid` it resizes (ResizeBilinearV2, ResizeBicubic): the scale
    is in / out, or (in - 1) / (out - 1) with `coordinates` =
    `align_corners`; `half_pixel` samples at (o + 0.5) * scale - 0.5,
    `asymmetric` at o * scale; taps past the edge read the edge.

    With `grid` (`[Ho, Wo, 2]`, normalised x, y in [-1, 1], shared by the
    planes of one image: GridSampler2D), each output element samples at its
    grid point (`align_corners`: -1 and 1 are the corner pixels' centres,
    `half_pixel`: their outer edges); taps outside the image follow
    `padding` (`zeros`, `border` or `reflection`); nearest rounds half to
    even.

    A resize of planes too large for UB works on windows of them (as CANN's
    ResizeBilinearV2 walks output rows and W segments): `plane` gives the
    whole plane's sizes `[H, W, Ho, Wo]`, and `at` the window's origins
    `(input row, input column, output row, output column)`. The output
    window's elements are those of the whole resize; their taps must lie in
    the input window, and elements past Ho or Wo are not computed (a tail
    window, cropped by its store).

    ```mlir
    akernel.vinterp "bilinear" %x -> %y {acc = f32, coordinates = "half_pixel",
        padding = "border"} : memref<4x8x8xf16, #akernel.space<ub>> -> memref<4x16x16xf16, #akernel.space<ub>>
    akernel.vinterp "bilinear" %x at(%r, %c, %or, %oc) -> %y {acc = f32,
        coordinates = "half_pixel", padding = "border", plane = array<i64: 1024, 1024, 2048, 2048>}
        : memref<1x34x1024xf16, #akernel.space<ub>> -> memref<1x64x2048xf16, #akernel.space<ub>>
    ```
  }];
  let arguments = (ins StrAttr:$mode, AnyMemRef:$input, Optional<AnyMemRef>:$grid,
                       Variadic<Index>:$origin, AnyMemRef:$output, StrAttr:$coordinates,
                       StrAttr:$padding, TypeAttr:$acc, OptionalAttr<DenseI64ArrayAttr>:$plane);
  let assemblyFormat = [{
    $mode $input (`grid` $grid^)? (`at` `(` $origin^ `)`)? `->` $output attr-dict `:`
    type($input) (`,` type($grid)^)? `->` type($output)
  }];
  let hasVerifier = 1;
}

def Kernel_RecurrentOp : Kernel_Op<"recurrent"> {
  let summary = "A whole LSTM, GRU or simple RNN layer over a sequence, on GM";
  let description = [{
    CANN's DynamicRNN / DynamicGRUV2 / RNN kernel: per step and direction,
    the cube multiplies x_t by W and h by R (exact products, fp32
    accumulation); the biases are added in fp32 and the gate
    pre-activations rounded once to the data dtype; the vector unit computes
    each gate function and each elementwise step in fp32, rounding every
    result to the data dtype (the cell state too). `cell` is `lstm` (gates
    i, o, f, c), `gru` (z, r, h; `linear_before_reset` applies r after the
    recurrent product) or `rnn` (tanh); `direction` is `forward`,
    `reverse` or `bidirectional`. The data dtype is the results'; inputs
    may be narrower (fp16 in, fp32 out), and then the cube reads h rounded
    to the input dtype.

    `buffers`: x `[seq, batch, input]`, w `[dirs, gates*hidden, input]`,
    r `[dirs, gates*hidden, hidden]`, then b `[dirs, 2*gates*hidden]` with
    `has_bias`, init_h `[dirs, batch, hidden]` with `has_init_h`, init_c with
    `has_init_c` (LSTM), seq_length (int32 `[batch]`) with `has_seq_length`
    (batch row n runs its first seq_length[n] steps, the reverse direction
    from its own last one; y is 0 past them), then the results: y `[seq,
    dirs, batch, hidden]`, y_h and (LSTM) y_c `[dirs, batch, hidden]`. Only
    in a `mix` kernel.

    ```mlir
    akernel.recurrent "lstm" (%x, %w, %r, %y, %yh, %yc) {direction = "forward", hidden_size = 8 : i64}
        : memref<5x2x4xf32, #akernel.space<gm>>, ...
    ```
  }];
  let arguments = (ins StrAttr:$cell, Variadic<AnyMemRef>:$buffers, StrAttr:$direction,
                       I64Attr:$hidden_size, UnitAttr:$linear_before_reset, UnitAttr:$has_bias,
                       UnitAttr:$has_seq_length, UnitAttr:$has_init_h, UnitAttr:$has_init_c);
  let assemblyFormat = "$cell `(` $buffers `)` attr-dict `:` type($buffers)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Gates per step: 4 (lstm), 3 (gru), 1 (rnn).
    int64_t getGates() { return getCell() == "lstm" ? 4 : getCell() == "gru" ? 3 : 1; }
    /// 2 when bidirectional, else 1.
    int64_t getDirections() { return getDirection() == "bidirectional" ? 2 : 1; }
    /// The y buffer: the first result, after the optional operands.
    mlir::Value getY() {
      return getBuffers()[3 + (getHasBias() ? 1 : 0) + (getHasSeqLength() ? 1 : 0) +
                          (getHasInitH() ? 1 : 0) + (getHasInitC() ? 1 : 0)];
    }
  }];
}

def Kernel_TopKOp : Kernel_Op<"vtopk"> {
  let summary = "The k largest (or smallest) of each [n] row of a tile, with indices";
  let description = [{
    For every [rows, n, inner] position (row, inner) of `input`, writes the
    k largest elements along n (smallest without `largest`) in order into
    `values` ([rows, k, inner]) and their positions into `indices`: equal
    elements in index order, NaN above every number. Exact: elements are
    compared, not computed.

    ```mlir
    akernel.vtopk %x -> %v, %i {largest} : memref<4x16x1xf16, #akernel.space<ub>>
        -> memref<4x3x1xf16, #akernel.space<ub>>, memref<4x3x1xi64, #akernel.space<ub>>
    ```
  }];
  let arguments = (ins AnyMemRef:$input, AnyMemRef:$values, AnyMemRef:$indices,
                       UnitAttr:$largest);
  let assemblyFormat = [{
    $input `->` $values `,` $indices attr-dict `:` type($input) `->` type($values) `,`
    type($indices)
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

    `model_rounding` marks the conversion of a Cast the model itself has
    (not one planning inserted) to fp16 or bf16: the fp32 reference, which
    otherwise widens every f16/bf16 value to f32, rounds there too, so that
    the reference is the model as exported, computed in fp32 elsewhere.
  }];
  let arguments = (ins AnyMemRef:$input, AnyMemRef:$output,
                       Kernel_RoundingModeAttr:$round, UnitAttr:$model_rounding);
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
    akernel.aicpu_call "Einsum" (%a, %b, %out) {attrs = {equation = "ij,jk->ik"}}
        : memref<4x8xf64, #akernel.space<gm>>, ...
    ```
    Only inside a kernel whose engine is `aicpu`. `attrs` are the op's own
    attributes (what the kernel computes, such as Einsum's `equation`).
  }];
  let arguments = (ins StrAttr:$op_type, Variadic<AnyMemRef>:$buffers,
                       OptionalAttr<DictionaryAttr>:$attrs);
  let assemblyFormat = "$op_type `(` $buffers `)` attr-dict `:` type($buffers)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Host side: the graph as kernel launches
//===----------------------------------------------------------------------===//

def Kernel_LaunchOp : Kernel_Op<"launch",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs a kernel on tensors of the host graph";
  let description = [{
    The lowered graph stays a function on tensors; each lowered op becomes a
    launch of its kernel. The operands bind to the kernel's first GM
    arguments, the results to the rest (same shapes and dtypes). `nodes`
    names the graph nodes this launch computes: ops with the same shapes,
    dtypes and attributes share one kernel, as CANN reuses a compiled
    kernel, so a kernel's own `nodes` name only its first use.

    ```mlir
    %y = akernel.launch @conv1(%x, %w) : (tensor<1x3x8x8xf16>, tensor<16x3x3x3xf16>)
        -> tensor<1x16x8x8xf16>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, Variadic<AnyRankedTensor>:$args,
                       OptionalAttr<StrArrayAttr>:$nodes);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  // `$kernel ( $args ) attr-dict : functional-type($args, $results)`,
  // printed without uniquing an attribute dictionary per launch
  // (AttrDictAssembly.h): a graph has a launch per op.
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    ::mlir::ParseResult LaunchOp::parse(::mlir::OpAsmParser &parser,
                                        ::mlir::OperationState &result) {
      ::mlir::FlatSymbolRefAttr kernel;
      ::llvm::SmallVector<::mlir::OpAsmParser::UnresolvedOperand, 4> args;
      if (parser.parseCustomAttributeWithFallback(
              kernel, parser.getBuilder().getType<::mlir::NoneType>()))
        return ::mlir::failure();
      if (kernel)
        result.getOrAddProperties<LaunchOp::Properties>().kernel = kernel;
      if (parser.parseLParen())
        return ::mlir::failure();
      ::llvm::SMLoc argsLoc = parser.getCurrentLocation();
      ::mlir::FunctionType type;
      if (parser.parseOperandList(args) || parser.parseRParen() ||
          ::ascendprec::assembly::parseAttrDict<LaunchOp>(parser, result) ||
          parser.parseColon() || parser.parseType(type))
        return ::mlir::failure();
      result.addTypes(type.getResults());
      return parser.resolveOperands(args, type.getInputs(), argsLoc, result.operands);
    }
    void LaunchOp::print(::mlir::OpAsmPrinter &printer) {
      printer << ' ';
      printer.printAttributeWithoutType(getKernelAttr());
      printer << '(' << getArgs() << ')';
      ::ascendprec::assembly::printAttrDict(printer, getOperation(), {"kernel"});
      printer << " : ";
      printer.printFunctionalType(getArgs().getTypes(), getResults().getTypes());
    }
  }];
}

def Kernel_ViewOp : Kernel_Op<"view", [Pure]> {
  let summary = "The same data seen with another shape (no kernel, no data movement)";
  let description = [{
    What Reshape, Flatten, Squeeze and Unsqueeze become: the bytes in GM do
    not move, so there is no kernel and no device time.

    ```mlir
    %y = akernel.view %x : tensor<1x8x8x8xf16> -> tensor<1x8x64xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

#endif // ASCENDPREC_DIALECT_KERNEL_IR_KERNELOPS_TD
