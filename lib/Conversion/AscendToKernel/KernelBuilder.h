//===- KernelBuilder.h - building one akernel.kernel ----------------------===//
//
// The steps every lowering repeats: a kernel symbol next to the graph
// function with GM arguments for the op's tensors, local buffers, index
// constants and the tile loop the cores share round-robin.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_KERNELBUILDER_H
#define ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_KERNELBUILDER_H

#include "AscendPrec/Conversion/AscendToKernel/AscendToKernel.h"
#include "mlir/IR/Builders.h"

namespace ascendprec::kernel {

/// GM memref for a tensor type.
MemRefType gmTypeOf(Type tensorType);
/// A local buffer type in `space`.
MemRefType localType(ArrayRef<int64_t> shape, Type elementType, MemorySpace space);
/// Bytes of one element (at least 1).
int64_t elementBytes(Type type);

/// A tile load / store / vector op with the optional attributes unset.
LoadOp loadTile(OpBuilder &b, Location loc, Value source, ValueRange offsets, Value target);
StoreOp storeTile(OpBuilder &b, Location loc, Value source, Value target, ValueRange offsets);
VectorOp vectorOp(OpBuilder &b, Location loc, StringRef kind, ValueRange inputs, Value output,
                  Type compute);
/// `value` converted into `target`'s dtype, rounding to nearest even (a copy
/// when they agree).
void convertInto(OpBuilder &b, Location loc, Value value, Value target);

/// Builds the body of an elementwise vector kernel: the output split into
/// UB tiles over the vector cores, each input's tile loaded (a one-element
/// input as a scalar tile, a smaller one broadcast; a 1-D one along
/// `channelAxis` when given), `emit` computing the output tile from the
/// input tiles, the tile stored. `scratchBytesPerElement` is UB `emit`
/// allocates per element beyond the inputs and output.
void buildElementwiseBody(class KernelBuilder &kb, LoweringContext &context, ValueRange inputs,
                          ShapedType outType, Type compute, std::optional<int64_t> channelAxis,
                          function_ref<void(OpBuilder &, ValueRange, Value)> emit,
                          int64_t scratchBytesPerElement = 0);

/// What decides an op's kernel: the op, its operand and result types and
/// its attributes, without its name, plan provenance or fusion bookkeeping.
std::string kernelSignature(Operation *op, TypeRange operandTypes);

/// An attribute that records where an op came from or what planning
/// decided (its name, fusion marks, the decision), not what it computes.
bool isBookkeepingAttr(NamedAttribute attr);

/// Launches the kernel already built for an op of `op`'s signature, if any,
/// and replaces `op` with it (CANN compiles a kernel once per signature).
bool launchCachedKernel(RewriterBase &rewriter, LoweringContext &context, Operation *op,
                        ValueRange operands);

class KernelBuilder {
public:
  /// A kernel named after `anchor`'s node, placed before the function that
  /// holds `anchor`, taking `inputs` then `outputs` (tensor types) in GM.
  KernelBuilder(RewriterBase &rewriter, LoweringContext &context, Operation *anchor,
                Engine engine, TypeRange inputs, TypeRange outputs,
                ArrayRef<std::string> nodes);

  KernelOp kernel() const { return kernelOp; }
  OpBuilder &builder() { return body; }
  Location loc() const { return location; }
  Value arg(unsigned index) const;
  /// The GM argument of the first output.
  Value output(unsigned index = 0) const { return arg(numInputs + index); }

  Value alloc(ArrayRef<int64_t> shape, Type elementType, MemorySpace space);
  Value index(int64_t value);
  /// A GM argument seen with `shape` (same element count, no data movement).
  Value reshapeGM(Value gm, ArrayRef<int64_t> shape);

  /// Opens `for t = block_idx to tiles step blockDim`, sets the kernel's
  /// block_dim and leaves the builder inside; returns t.
  Value openTileLoop(int64_t tiles, int64_t blockDim);
  /// Opens `for i = 0 to bound step step` inside the current point.
  Value openLoop(int64_t bound, int64_t step);
  /// Back to where the last loop was opened (after it).
  void closeLoop();

  void setTiling(ArrayRef<std::pair<StringRef, int64_t>> entries);
  void setDoubleBuffer() { kernelOp.setDoubleBuffer(true); }
  /// Marks a kernel whose tiles were grown for the host (hostCubeTiling).
  void setHostTiling() { kernelOp.setHostTiling(true); }
  /// Double-buffered steps of `tiling.tile` `unit`s (rows, planes, ...).
  void setStepTiling(StringRef unit, const VectorTiling &tiling, bool doubleBuffer = true) {
    if (doubleBuffer)
      setDoubleBuffer();
    setTiling({{unit, tiling.tile}, {"tiles", tiling.tiles}});
  }

  /// The launch replacing `op`'s results.
  void replaceWithLaunch(RewriterBase &rewriter, Operation *op, ValueRange operands);
  /// A launch producing `results` (tensor types) from `operands`, at the
  /// rewriter's insertion point; `signature`, when given, lets later ops of
  /// the same signature launch this kernel.
  LaunchOp createLaunch(RewriterBase &rewriter, Location loc, ValueRange operands,
                        TypeRange results, StringRef signature = {});

private:
  Value openLoopFrom(Value lower, int64_t bound, int64_t step);

  LoweringContext &context;
  KernelOp kernelOp;
  OpBuilder body;
  Location location;
  unsigned numInputs;
  SmallVector<OpBuilder::InsertPoint> loopExits;
};

} // namespace ascendprec::kernel

#endif // ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_KERNELBUILDER_H
