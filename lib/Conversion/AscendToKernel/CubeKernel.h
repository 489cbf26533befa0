//===- CubeKernel.h - the tiled multiply-accumulate loop of a cube kernel -===//
//
// Every cube kernel has the same skeleton: output tiles shared by the cube
// cores, a K loop loading an A tile and a B tile into L1 and L0A/L0B and
// accumulating into L0C in fp32 (int32 for int8), then an epilogue taking
// the accumulator out (a fixpipe into GM, or into UB for a fused group).
// The op-specific parts (how A and B are read, where C goes) are callbacks.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_CUBEKERNEL_H
#define ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_CUBEKERNEL_H

#include "KernelBuilder.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include <functional>

namespace ascendprec::kernel {

/// Where one output tile is: the outer indices (batch, or image and group)
/// and the first row and column.
struct TilePosition {
  SmallVector<Value> outer;
  Value m, n;
};

struct CubeKernelSpec {
  CubeTiling tiling;
  SmallVector<int64_t> outerSizes; ///< product = tiles / (m tiles * n tiles)
  Type inputType;                  ///< the cube's input dtype
  /// Loads the A tile [mTile, kTile] at (pos, k) into `l1`.
  std::function<void(OpBuilder &, const TilePosition &, Value k, Value l1)> loadA;
  /// Loads the B tile [kTile, nTile] at (pos, k) into `l1`.
  std::function<void(OpBuilder &, const TilePosition &, Value k, Value l1)> loadB;
  /// Takes the accumulator [mTile, nTile] out.
  std::function<void(OpBuilder &, const TilePosition &, Value acc)> epilogue;
};

/// The accumulator dtype of the cube for `input` (f32, or i32 for int8).
Type cubeAccumulatorType(Type input);

/// The tiling of `problem` on the lowering's SoC (chooseCubeTiling), its M
/// tiles grown for the host executor when the lowering is for it
/// (LoweringContext::hostBlocks, hostCubeTiling).
CubeTiling cubeTilingFor(const CubeProblem &problem, const LoweringContext &context);

/// Builds the skeleton into `kb` and records the tiling on the kernel.
void buildCubeKernel(KernelBuilder &kb, const CubeKernelSpec &spec);

/// Loads a per-column bias [nTile] of GM `bias` (viewed [outer..., N]) at
/// (outer, n) into UB in the accumulator's dtype, for the fixpipe.
Value loadBiasForFixpipe(KernelBuilder &kb, OpBuilder &b, Value bias, ValueRange outer, Value n,
                         int64_t nTile, Type accType);

/// A convolution's shape as a cube problem.
struct ConvShape {
  /// groups, channels and outChannels are per cube group, which packs
  /// `enlarge` of the op's groups (CANN's group enlargement).
  int64_t images = 1, groups = 1, channels = 1, outChannels = 1, enlarge = 1;
  SmallVector<int64_t> window; ///< [kh, kw], or [kd, kh, kw] in 3-D
  SmallVector<int64_t> out;    ///< [Ho, Wo], or [Do, Ho, Wo]
  int64_t c0 = 16;
  bool smallChannel = false;
  CubeProblem problem;
};
/// Of a Conv2D, Conv3D or their transposed forms (Conv2DBackpropInput,
/// Conv3DBackpropInput).
ConvShape convShape(Operation *op, const LoweringContext &context);

/// The GM views a convolution kernel reads and writes.
struct ConvViews {
  // Per cube group, each packing E of the op's G groups:
  Value x;    ///< [N, G/E, E*C/G, H, W] (3-D: [N, G/E, E*C/G, D, H, W])
  Value w;    ///< [G/E, E*Cout/G, C/G*window]; transposed (E = 1): [G, C/G, Cout/G, window]
  Value bias; ///< [G/E, E*Cout/G], or null
  Value y;    ///< [N, G/E, E*Cout/G, output positions]
};
ConvViews buildConvViews(KernelBuilder &kb, Operation *op, const LoweringContext &context);
/// The skeleton's tiling and loads for a convolution (the epilogue is the
/// caller's).
CubeKernelSpec convSpec(KernelBuilder &kb, Operation *op, const ConvViews &views,
                        const LoweringContext &context, int64_t epilogueBytes = 0);

/// A cube op's skeleton with where its output and bias go.
struct PreparedCube {
  CubeKernelSpec spec;
  Value output;                 ///< GM view the tile goes to
  Value bias;                   ///< GM view of the bias, or null
  bool transposeOutput = false; ///< a convolution's [positions, channels] tile into NCHW
  std::function<SmallVector<Value>(const TilePosition &)> outputOffsets;
  std::function<SmallVector<Value>(const TilePosition &)> biasOuter;
  /// FU-4: the bias is added after the conversion out of L0C, in the
  /// output's dtype (biasAddedAfterConversion), not by the fixpipe.
  bool biasAfterConversion = false;
};

/// FU-4: whether `op` adds its bias after L0C is converted, in the output
/// dtype: a float Conv2D with a bias and an fp16/bf16 result on a SoC with
/// no FixPipe (Ascend910, Ascend310P), where TBE's conv2d converts L0C into
/// UB and then adds the bias there (conv_compute.py,
/// `_handle_fp16_bias_add`). MatMul biases and the 910B family's are added
/// in fp32 before the conversion.
bool biasAddedAfterConversion(Operation *op, const LoweringContext &context);

/// Adds the bias of `cube` at `pos` to `tile` (UB, [mTile, nTile], the
/// converted result) in the tile's dtype, when biasAfterConversion.
void addBiasAfterConversion(KernelBuilder &kb, OpBuilder &b, const PreparedCube &cube,
                            const TilePosition &pos, Value tile);

/// The skeleton of MatMulV2, BatchMatMulV2 or Conv2D `op`, whose operands
/// are `kb`'s first arguments (the epilogue is the caller's).
PreparedCube prepareCube(KernelBuilder &kb, Operation *op, const LoweringContext &context,
                         int64_t epilogueBytes = 0);

/// The bias tile for the fixpipe at `pos`, if the op has a bias.
Value fixpipeBias(KernelBuilder &kb, OpBuilder &b, const PreparedCube &cube,
                  const TilePosition &pos);

/// Why a cube op cannot be lowered, if it cannot.
std::optional<std::string> whyCubeNotLowerable(Operation *op, const LoweringContext &context);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_CUBEKERNEL_H
