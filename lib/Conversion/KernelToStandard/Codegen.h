//===- Codegen.h - shared state of prec-convert-kernel-to-std -------------===//

#ifndef ASCENDPREC_LIB_CONVERSION_KERNELTOSTANDARD_CODEGEN_H
#define ASCENDPREC_LIB_CONVERSION_KERNELTOSTANDARD_CODEGEN_H

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"
#include "AscendPrec/Runtime/KernelRuntime.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace ascendprec::kernel::codegen {

/// What every op's lowering needs: the run's numerics options, the element
/// types buffers had before the type conversion (signedness, and f16/bf16
/// under `reference`), and the runtime declarations made so far.
struct CodegenContext {
  mlir::ModuleOp module;
  bool reference = false;
  bool saturate = false;
  llvm::DenseMap<mlir::Value, mlir::Type> originalElement;

  /// The element type a buffer held in the kernel (before widening).
  mlir::Type originalElementOf(mlir::Value buffer) const;
  /// The element type the generated code computes with for `type`: f16 and
  /// bf16 become f32 under `reference`.
  mlir::Type effective(mlir::Type type) const;
  /// The runtime's ElementType code for a buffer's element type, keeping
  /// unsigned types apart.
  int32_t elementCode(mlir::Value buffer) const;
  int32_t overflowCode() const { return saturate ? 1 : 0; }

  /// `symbol__<types>` declared once at module level, bound to `symbol`
  /// when the JIT resolves it.
  mlir::func::FuncOp runtimeFunction(mlir::StringRef symbol, mlir::TypeRange arguments,
                                     mlir::TypeRange results);
};

/// The runtime's ElementType code for `type` (signless integers are signed).
int32_t elementCodeOf(mlir::Type type, bool isUnsigned = false);

/// The runtime's addressing mode of a load, and its parameters (img2col
/// geometry, broadcast shape) appended to `params`.
runtime::LoadMode loadAddressing(LoadOp load, llvm::SmallVectorImpl<int64_t> &params);

/// Turns each cube kernel K loop of `function` (load A, load B, copy both
/// to L0, mmad) into one call of the runtime's fused loop; other loops are
/// left as they are (CubeLoopCall.cpp).
void lowerCubeLoops(mlir::func::FuncOp function, CodegenContext &context);

/// Gives each block of `function` (of `blockDim` blocks) a contiguous run
/// of the tiles of each loop marked kIndependentTilesAttr instead of every
/// blockDim-th tile, unless the kernel adds into its outputs
/// (TilePartition.cpp).
void partitionTileLoops(mlir::func::FuncOp function, int64_t blockDim);

/// On the host, computes straight on GM where a loop of `function` only
/// loads whole 1-D tiles, computes elementwise and stores whole 1-D tiles;
/// the loop's last, partial tile keeps its copies (TileCopyElision.cpp).
void elideTileCopies(mlir::func::FuncOp function, CodegenContext &context);

/// Lowers a load, store, copy, fixpipe, mmad, vreduce or vpool to a runtime
/// call; fails for any other op.
mlir::LogicalResult lowerToRuntimeCall(mlir::Operation *op, CodegenContext &context);
/// Generates a vop or vcast inline.
mlir::LogicalResult lowerVectorOp(VectorOp op, CodegenContext &context);
/// fp32 exp and tanh of an f32 value, as DoubleExp.h's double-precision
/// steps inline, rounded once to f32 (DoubleExpCodegen.cpp).
mlir::Value emitExpFloat(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::Value emitTanhFloat(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::LogicalResult lowerCastOp(CastOp op, CodegenContext &context);

/// Where a kernel's local buffers (UB, L1, L0) lie in its scratch region:
/// the byte offset of each `alloc` with a static shape, and the region's
/// size (LocalBuffers.cpp).
struct LocalBufferLayout {
  llvm::DenseMap<mlir::Operation *, int64_t> offsets;
  int64_t totalBytes = 0;
};
LocalBufferLayout layOutLocalBuffers(mlir::Operation *kernel);
/// `alloc` as a view of `scratch` (memref<N x i8>) at its offset; null when
/// the layout left it out (it stays a heap allocation).
mlir::Value localBuffer(mlir::OpBuilder &builder, AllocOp alloc,
                        const LocalBufferLayout &layout, mlir::Value scratch);

} // namespace ascendprec::kernel::codegen

#endif // ASCENDPREC_LIB_CONVERSION_KERNELTOSTANDARD_CODEGEN_H
