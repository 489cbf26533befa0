//===- KernelAttrs.td - `akernel` enums and attributes -----*- tablegen -*-===//

#ifndef ASCENDPREC_DIALECT_KERNEL_IR_KERNELATTRS_TD
#define ASCENDPREC_DIALECT_KERNEL_IR_KERNELATTRS_TD

include "AscendPrec/Dialect/Kernel/IR/KernelDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"

def Kernel_MemorySpace : I32EnumAttr<"MemorySpace", "AI Core memory space", [
    I32EnumAttrCase<"GM", 0, "gm">,
    I32EnumAttrCase<"L1", 1, "l1">,
    I32EnumAttrCase<"L0A", 2, "l0a">,
    I32EnumAttrCase<"L0B", 3, "l0b">,
    I32EnumAttrCase<"L0C", 4, "l0c">,
    I32EnumAttrCase<"UB", 5, "ub">
  ]> {
  let cppNamespace = "::ascendprec::kernel";
  let genSpecializedAttr = 0;
}
def Kernel_MemorySpaceAttr : EnumAttr<Kernel_Dialect, Kernel_MemorySpace, "space"> {
  let summary = "The memory space of a memref: gm, l1, l0a, l0b, l0c or ub";
  let assemblyFormat = "`<` $value `>`";
}

// How a conversion to a narrower dtype rounds (CANN's Cast round modes).
def Kernel_RoundingMode : I32EnumAttr<"RoundingMode", "rounding of a dtype conversion", [
    I32EnumAttrCase<"Rint", 0, "rint">,
    I32EnumAttrCase<"Round", 1, "round">,
    I32EnumAttrCase<"Floor", 2, "floor">,
    I32EnumAttrCase<"Ceil", 3, "ceil">,
    I32EnumAttrCase<"Trunc", 4, "trunc">,
    I32EnumAttrCase<"Odd", 5, "odd">
  ]> {
  let cppNamespace = "::ascendprec::kernel";
  let genSpecializedAttr = 0;
}
def Kernel_RoundingModeAttr : EnumAttr<Kernel_Dialect, Kernel_RoundingMode, "round"> {
  let summary = "rint (to nearest, ties to even), round (ties away), floor, ceil, trunc, odd";
  let assemblyFormat = "`<` $value `>`";
}

// The units a kernel runs on.
def Kernel_Engine : I32EnumAttr<"Engine", "units a kernel runs on", [
    I32EnumAttrCase<"Cube", 0, "cube">,
    I32EnumAttrCase<"Vector", 1, "vector">,
    I32EnumAttrCase<"Mix", 2, "mix">,
    I32EnumAttrCase<"AICPU", 3, "aicpu">
  ]> {
  let cppNamespace = "::ascendprec::kernel";
  let genSpecializedAttr = 0;
}
def Kernel_EngineAttr : EnumAttr<Kernel_Dialect, Kernel_Engine, "engine"> {
  let summary = "cube, vector, mix (cube and vector, a UB-fusion group) or aicpu";
  let assemblyFormat = "`<` $value `>`";
}

// The order a reduction accumulates in (deterministic=1 fixes it, OP-3).
def Kernel_ReduceOrder : I32EnumAttr<"ReduceOrder", "accumulation order", [
    I32EnumAttrCase<"Tree", 0, "tree">,
    I32EnumAttrCase<"Sequential", 1, "sequential">,
    I32EnumAttrCase<"Atomic", 2, "atomic">
  ]> {
  let cppNamespace = "::ascendprec::kernel";
  let genSpecializedAttr = 0;
}
def Kernel_ReduceOrderAttr : EnumAttr<Kernel_Dialect, Kernel_ReduceOrder, "order"> {
  let summary = "tree (pairwise within a core), sequential, or atomic (cores add into GM "
                "in arrival order: not deterministic)";
  let assemblyFormat = "`<` $value `>`";
}

def Kernel_TargetAttr : AttrDef<Kernel_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The SoC's AI Core facts, from its platform-config .ini";
  let description = [{
    Set on the module by the lowering from the SoC's platform config
    (OP-4): buffer sizes in bytes (and the chip's L2 cache), core counts, the cube's M/N/K fractal,
    the clock in MHz, memory rates in bytes per cycle and the input dtypes
    the cube multiplies (from the library's MatMulV2 kernel rows). The
    rates of each data path (GM writes, L1 to L0A and L0B, UB to GM) are
    the .ini's `ddr_write_rate`, `l1_to_l0_a_rate`, `l1_to_l0_b_rate` and
    `ub_to_ddr_rate`; 0 (left out) means the file had none.

    ```mlir
    module attributes {akernel.target = #akernel.target<soc = "Ascend910",
        cube_cores = 32, vector_cores = 32, aicpu_cores = 14,
        cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000,
        l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432,
        ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} { ... }
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$soc,
    "int64_t":$cube_cores, "int64_t":$vector_cores, "int64_t":$aicpu_cores,
    "int64_t":$cube_m, "int64_t":$cube_n, "int64_t":$cube_k,
    "int64_t":$freq_mhz,
    "int64_t":$l1, "int64_t":$l0a, "int64_t":$l0b, "int64_t":$l0c, "int64_t":$ub,
    "int64_t":$l2,
    "int64_t":$ddr_rate, "int64_t":$l2_rate,
    "::mlir::ArrayAttr":$cube_inputs,
    DefaultValuedParameter<"int64_t", "0">:$ddr_write_rate,
    DefaultValuedParameter<"int64_t", "0">:$l1_l0a_rate,
    DefaultValuedParameter<"int64_t", "0">:$l1_l0b_rate,
    DefaultValuedParameter<"int64_t", "0">:$ub_ddr_rate
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// Capacity in bytes of `space`; 0 for GM (not bounded here).
    int64_t capacity(::ascendprec::kernel::MemorySpace space) const;
    /// Whether the cube multiplies inputs of element type `type`.
    bool cubeTakes(::mlir::Type type) const;
  }];
}

def Kernel_Img2ColAttr : AttrDef<Kernel_Dialect, "Img2Col"> {
  let mnemonic = "img2col";
  let summary = "How a convolution's input is read as a patch matrix";
  let description = [{
    On an `akernel.load`, reads a tile of the patch matrix of an NCHW
    feature map instead of the map itself, as the AI Core's load3d does:
    row `m` is output position (`m / out[1]`, `m % out[1]`), column `k` is
    input channel `k / (kernel[0] * kernel[1])` at kernel offset
    (`(k / kernel[1]) % kernel[0]`, `k % kernel[1]`). Positions outside
    the image (`pads` = top, bottom, left, right, as Conv2D's), rows past the output and
    columns past the channels read 0. `c0` is the channel granule the
    patch columns are padded to (16, or 4 on the small-channel path for
    C <= 4 with `enable_small_channel=1`, OP-3): K is
    `round_up(C, c0) * kernel[0] * kernel[1]` rounded to the fractal. With
    `input_dilations` (a transposed convolution), the map is first spread
    out: pixel (h, w) of the spread map is the input's (h / d0, w / d1) when
    both divide, else 0.

    A 3-D convolution's map is [..., C, D, H, W]: every list has a third
    (leading) spatial entry, `pads` is front, back, top, bottom, left,
    right, a row is output position (d, h, w) and a column's kernel offset
    is (kd, kh, kw), in the same row-major order.

    ```mlir
    #akernel.img2col<kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1],
                     dilations = [1, 1], out = [16, 16], c0 = 16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$kernel,
                        ArrayRefParameter<"int64_t">:$strides,
                        ArrayRefParameter<"int64_t">:$pads,
                        ArrayRefParameter<"int64_t">:$dilations,
                        ArrayRefParameter<"int64_t">:$out,
                        "int64_t":$c0,
                        OptionalArrayRefParameter<"int64_t">:$input_dilations);
  let assemblyFormat = [{
    `<` `kernel` `=` `[` $kernel `]` `,` `strides` `=` `[` $strides `]` `,`
    `pads` `=` `[` $pads `]` `,` `dilations` `=` `[` $dilations `]` `,`
    `out` `=` `[` $out `]` `,` `c0` `=` $c0
    (`,` `input_dilations` `=` `[` $input_dilations^ `]`)? `>`
  }];
  let genVerifyDecl = 1;
}

#endif // ASCENDPREC_DIALECT_KERNEL_IR_KERNELATTRS_TD
