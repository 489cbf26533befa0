//===- KernelMemoryVerifiers.cpp - kernels, buffers, DMA and fixpipe ------===//
//
// What the AI Core's memory system can do: buffers that fit their space
// (double buffering counted), data paths that exist, and the fixpipe's
// conversions out of L0C.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Kernel/IR/KernelOps.h"

#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

StringRef spaceName(MemorySpace space) { return stringifyMemorySpace(space); }

int64_t bytesOf(MemRefType type) {
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

int64_t numElements(Type type) { return cast<ShapedType>(type).getNumElements(); }

/// The number of cores a kernel of `engine` can use on `target`.
int64_t coresFor(Engine engine, TargetAttr target) {
  switch (engine) {
  case Engine::Cube:
  case Engine::Mix:
    return target.getCubeCores();
  case Engine::Vector:
    return target.getVectorCores();
  case Engine::AICPU:
    return target.getAicpuCores();
  }
  return 0;
}

} // namespace

LogicalResult KernelOp::verify() {
  TargetAttr target = targetOf(*this);
  if (!target)
    return emitOpError("needs an #akernel.target on an enclosing op (the SoC's facts from "
                       "its platform config); the lowering sets it on the module");
  int64_t cores = coresFor(getEngine(), target);
  if (getBlockDim() < 1 || getBlockDim() > cores)
    return emitOpError("runs on ")
           << getBlockDim() << " blocks, but the " << target.getSoc().getValue() << " has "
           << cores << " " << stringifyEngine(getEngine())
           << " cores (block_dim is 1 to the core count; aicore_num lowers it, OP-3)";
  for (BlockArgument arg : getBody().getArguments())
    if (memorySpaceOf(arg.getType()) != MemorySpace::GM)
      return emitOpError("argument #")
             << arg.getArgNumber() << " is " << arg.getType()
             << "; a kernel's arguments are buffers in #akernel.space<gm>";

  // Every local buffer, twice with double buffering, must fit its space
  // (a host kernel's tiles are sized for the host, not the SoC).
  if (getHostTiling())
    return success();
  std::map<MemorySpace, int64_t> used;
  getBody().walk([&](AllocOp alloc) {
    if (std::optional<MemorySpace> space = memorySpaceOf(alloc.getType()))
      used[*space] += bytesOf(alloc.getType());
  });
  int64_t copies = getDoubleBuffer() ? 2 : 1;
  for (auto [space, bytes] : used) {
    int64_t capacity = target.capacity(space);
    if (bytes * copies > capacity)
      return emitOpError("needs ")
             << bytes * copies << " bytes of " << spaceName(space) << " ("
             << (copies == 2 ? "double-buffered, " : "") << bytes << " per copy), but the "
             << target.getSoc().getValue() << "'s " << spaceName(space) << " holds "
             << capacity << "; use smaller tiles";
  }
  return success();
}

LogicalResult AllocOp::verify() {
  std::optional<MemorySpace> space = memorySpaceOf(getType());
  if (!space)
    return emitOpError("needs a memref in an #akernel.space (l1, l0a, l0b, l0c or ub)");
  if (*space == MemorySpace::GM)
    return emitOpError("allocates local buffers only; a GM buffer is a kernel argument");
  return success();
}

LogicalResult CopyOp::verify() {
  std::optional<MemorySpace> from = memorySpaceOf(getSource().getType());
  std::optional<MemorySpace> to = memorySpaceOf(getTarget().getType());
  if (!from || !to)
    return emitOpError("copies between memrefs in #akernel.space memory spaces");
  // The AI Core's DMA paths; L0C leaves only through the fixpipe.
  static const std::pair<MemorySpace, MemorySpace> kPaths[] = {
      {MemorySpace::GM, MemorySpace::L1},  {MemorySpace::GM, MemorySpace::UB},
      {MemorySpace::UB, MemorySpace::GM},  {MemorySpace::L1, MemorySpace::L0A},
      {MemorySpace::L1, MemorySpace::L0B}, {MemorySpace::UB, MemorySpace::L1},
      {MemorySpace::L1, MemorySpace::UB},  {MemorySpace::UB, MemorySpace::UB}};
  if (!llvm::is_contained(kPaths, std::make_pair(*from, *to)))
    return emitOpError("has no data path from ")
           << spaceName(*from) << " to " << spaceName(*to)
           << (*from == MemorySpace::L0C ? " (the accumulator leaves L0C through akernel.fixpipe)"
                                         : " (paths: gm->l1, gm->ub, ub->gm, l1->l0a, l1->l0b, "
                                           "ub->l1, l1->ub, ub->ub)");
  Type fromType = getElementTypeOrSelf(getSource().getType());
  Type toType = getElementTypeOrSelf(getTarget().getType());
  if (fromType != toType)
    return emitOpError("does not convert ")
           << fromType << " to " << toType << "; use akernel.vcast or akernel.fixpipe";
  if (numElements(getSource().getType()) != numElements(getTarget().getType()))
    return emitOpError("copies ") << numElements(getSource().getType()) << " elements into "
                                  << numElements(getTarget().getType());
  return success();
}

/// Offsets place a tile into the trailing dimensions of a GM buffer: one per
/// GM dimension, and a tile of no higher rank.
static LogicalResult verifyTileOffsets(Operation *op, Type gm, Type tile, size_t offsets) {
  auto gmType = cast<ShapedType>(gm);
  auto tileType = cast<ShapedType>(tile);
  if (offsets != static_cast<size_t>(gmType.getRank()))
    return op->emitOpError("takes one offset per GM dimension: ")
           << gmType.getRank() << ", not " << offsets;
  if (tileType.getRank() > gmType.getRank())
    return op->emitOpError("moves a rank-")
           << tileType.getRank() << " tile within a rank-" << gmType.getRank()
           << " GM buffer (the tile covers GM's trailing dimensions)";
  return success();
}

LogicalResult FixpipeOp::verify() {
  if (memorySpaceOf(getSource().getType()) != MemorySpace::L0C)
    return emitOpError("reads the accumulator: its source is in #akernel.space<l0c>");
  std::optional<MemorySpace> to = memorySpaceOf(getTarget().getType());
  if (!to || (*to != MemorySpace::GM && *to != MemorySpace::L1 && *to != MemorySpace::UB))
    return emitOpError("writes to gm, l1 or ub");
  auto sourceType = cast<ShapedType>(getSource().getType());
  if (*to == MemorySpace::GM) {
    if (failed(verifyTileOffsets(*this, getTarget().getType(), sourceType, getOffsets().size())))
      return failure();
  } else {
    if (!getOffsets().empty() || getTranspose())
      return emitOpError("copies the whole tile into a local buffer: offsets and transpose "
                         "are for GM targets");
    if (numElements(sourceType) != numElements(getTarget().getType()))
      return emitOpError("writes ") << numElements(sourceType) << " elements into "
                                    << numElements(getTarget().getType());
  }
  if (getTranspose() && sourceType.getRank() != 2)
    return emitOpError("transposes 2-D tiles only");
  Type acc = getElementTypeOrSelf(sourceType);
  Type out = getElementTypeOrSelf(getTarget().getType());
  bool converts = (acc.isF32() && (out.isF16() || out.isBF16() || out.isF32())) ||
                  (acc.isInteger(32) && (out.isInteger(32) || out.isF16()));
  if (!converts)
    return emitOpError("cannot convert the accumulator's ")
           << acc << " to " << out << " (f32 -> f16, bf16 or f32; i32 -> i32 or f16)";
  if (Value bias = getBias()) {
    auto biasType = cast<ShapedType>(bias.getType());
    if (biasType.getElementType() != acc)
      return emitOpError("adds a bias in the accumulator's dtype ")
             << acc << ", not " << biasType.getElementType();
    if (biasType.getRank() != 1 || biasType.getDimSize(0) != sourceType.getShape().back())
      return emitOpError("takes one bias per output column: a 1-D memref of ")
             << sourceType.getShape().back() << " elements";
  }
  return success();
}

LogicalResult LoadOp::verify() {
  if (memorySpaceOf(getSource().getType()) != MemorySpace::GM)
    return emitOpError("reads from GM: its source is in #akernel.space<gm>");
  std::optional<MemorySpace> to = memorySpaceOf(getTarget().getType());
  if (to != MemorySpace::L1 && to != MemorySpace::UB)
    return emitOpError("loads into l1 or ub (the cube's L0A/L0B fill from L1 by akernel.copy)");
  auto source = cast<ShapedType>(getSource().getType());
  auto target = cast<ShapedType>(getTarget().getType());
  if (source.getElementType() != target.getElementType())
    return emitOpError("does not convert ")
           << source.getElementType() << " to " << target.getElementType()
           << "; use akernel.vcast on UB";
  int modes = (getTranspose() ? 1 : 0) + (getBroadcast() ? 1 : 0) + (getImg2col() ? 1 : 0) +
              (getTransposedFilter() ? 1 : 0) + (getGroupedFilter() ? 1 : 0);
  if (modes > 1)
    return emitOpError(
        "takes one of transpose, broadcast, img2col, transposed_filter and grouped_filter");
  size_t offsets = getOffsets().size();
  if (std::optional<ArrayRef<int64_t>> shape = getBroadcast()) {
    if (offsets != 1)
      return emitOpError("with broadcast takes one offset, into the broadcast shape");
    if (shape->size() != static_cast<size_t>(source.getRank()))
      return emitOpError("broadcasts a rank-")
             << source.getRank() << " source to a rank-" << shape->size() << " shape";
    for (auto [dim, size] : llvm::zip_equal(source.getShape(), *shape))
      if (!ShapedType::isDynamic(dim) && dim != 1 && dim != size)
        return emitOpError("cannot broadcast dimension of ") << dim << " to " << size;
    return success();
  }
  if (Img2ColAttr img2col = getImg2colAttr()) {
    // One more dimension than spatial axes: the channels.
    int64_t mapRank = static_cast<int64_t>(img2col.getKernel().size()) + 1;
    if (source.getRank() < mapRank || target.getRank() != 2)
      return emitOpError("with img2col reads an [..., C, ")
             << (mapRank == 4 ? "D, " : "") << "H, W] feature map into a 2-D tile";
    int64_t expected = source.getRank() - mapRank + 2;
    if (offsets != static_cast<size_t>(expected))
      return emitOpError("with img2col takes ")
             << expected << " offsets (leading dimensions, first row, first column)";
    return success();
  }
  if (getTransposedFilter()) {
    if (source.getRank() < 3 || target.getRank() != 2)
      return emitOpError("with transposed_filter reads a [..., Cin, Cout, kh*kw] filter into a "
                         "2-D tile");
    if (offsets != static_cast<size_t>(source.getRank() - 1))
      return emitOpError("with transposed_filter takes ")
             << source.getRank() - 1 << " offsets (leading dimensions, first k, first n)";
    return success();
  }
  if (std::optional<ArrayRef<int64_t>> grouped = getGroupedFilter()) {
    if (grouped->size() != 2 || (*grouped)[0] < 1 || (*grouped)[1] < 1)
      return emitOpError("with grouped_filter takes [groups packed, window size], both >= 1");
    if (source.getRank() < 2 || target.getRank() != 2)
      return emitOpError("with grouped_filter reads an [..., E * Cout/G, Cin/G * window] filter "
                         "into a 2-D tile");
    int64_t rows = source.getDimSize(source.getRank() - 2);
    int64_t columns = source.getDimSize(source.getRank() - 1);
    if ((!ShapedType::isDynamic(rows) && rows % (*grouped)[0] != 0) ||
        (!ShapedType::isDynamic(columns) && columns % (*grouped)[1] != 0))
      return emitOpError("with grouped_filter = [")
             << (*grouped)[0] << ", " << (*grouped)[1] << "] needs the source's last two "
             << "dimensions to be multiples of them (E * Cout/G and Cin/G * window)";
    return verifyTileOffsets(*this, source, target, offsets);
  }
  if (getTranspose() && target.getRank() != 2)
    return emitOpError("transposes 2-D tiles only");
  return verifyTileOffsets(*this, source, target, offsets);
}

LogicalResult StoreOp::verify() {
  if (memorySpaceOf(getSource().getType()) != MemorySpace::UB)
    return emitOpError("writes a UB tile: its source is in #akernel.space<ub>");
  if (memorySpaceOf(getTarget().getType()) != MemorySpace::GM)
    return emitOpError("writes to GM: its target is in #akernel.space<gm>");
  if (getElementTypeOrSelf(getSource().getType()) != getElementTypeOrSelf(getTarget().getType()))
    return emitOpError("does not convert ")
           << getElementTypeOrSelf(getSource().getType()) << " to "
           << getElementTypeOrSelf(getTarget().getType()) << "; use akernel.vcast on UB";
  if (getTranspose() && cast<ShapedType>(getSource().getType()).getRank() != 2)
    return emitOpError("transposes 2-D tiles only");
  return verifyTileOffsets(*this, getTarget().getType(), getSource().getType(),
                           getOffsets().size());
}

LogicalResult DmaOp::verify() {
  static const char *const kKinds[] = {
      "transpose", "concat", "split", "slice", "pad", "gather", "scatter", "tile",
      "broadcast", "depth_to_space", "space_to_depth", "reverse", "one_hot", "copy",
      "resize", "arange", "fill", "gather_elements", "scatter_elements", "gather_nd",
      "scatter_nd", "triangle", "cumsum", "roi_align", "nll_loss"};
  if (!llvm::is_contained(kKinds, getKind()))
    return emitOpError("has an unknown kind '") << getKind() << "'";
  if (getOutputs().empty())
    return emitOpError("writes at least one output");
  SmallVector<Value> buffers(getInputs());
  llvm::append_range(buffers, getOutputs());
  for (Value buffer : buffers)
    if (memorySpaceOf(buffer.getType()) != MemorySpace::GM)
      return emitOpError("moves data GM to GM; ") << buffer.getType() << " is not in gm";
  if (getBoundsCheck() && getKind() != "gather" && getKind() != "scatter")
    return emitOpError("checks index bounds for gather and scatter only");
  return success();
}

LogicalResult BlockIdxOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("is only meaningful inside an akernel.kernel");
  return success();
}
