//===- TilePartition.cpp - a block's tiles as one contiguous run ----------===//
//
// On the device a kernel's blocks run at once, block b taking tiles b,
// b + block_dim, ...: tiles next to each other in the tile order run side
// by side on neighbouring cores and share their operands in L2. On the
// host a few blocks run at a time, each on one thread, and a block's
// strided tiles share nothing: a matmul's tile t + block_dim has other
// rows of A and other columns of B than tile t. Where the tiles are
// independent (a cube kernel's tile loop, which the lowering marks), block
// b takes the run [b * chunk, (b + 1) * chunk) instead, chunk =
// ceil(tiles / block_dim): consecutive tiles share A's rows or B's
// columns, which then stay in the host's L2. The blocks compute the same
// tiles in all, each the same way, so every output bit is the same.
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace ascendprec::kernel;

void ascendprec::kernel::codegen::partitionTileLoops(func::FuncOp function, int64_t blockDim) {
  // Atomic stores add tiles' results in the order the tiles run (the
  // blocks of a split reduction): their order stays the device's.
  bool addsIntoOutputs = false;
  function.walk([&](StoreOp store) { addsIntoOutputs |= store.getAtomic(); });
  SmallVector<scf::ForOp> loops;
  function.walk([&](scf::ForOp loop) {
    if (loop->hasAttr(kIndependentTilesAttr))
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    loop->removeAttr(kIndependentTilesAttr);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (addsIntoOutputs || blockDim <= 1 || !step || *step != blockDim ||
        !loop.getLowerBound().getDefiningOp<BlockIdxOp>())
      continue;
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value block = loop.getLowerBound(), tiles = loop.getUpperBound();
    Value chunk = arith::CeilDivUIOp::create(
        b, loc, tiles, arith::ConstantIndexOp::create(b, loc, blockDim));
    Value begin = arith::MulIOp::create(b, loc, block, chunk);
    Value end = arith::MinUIOp::create(b, loc, tiles, arith::AddIOp::create(b, loc, begin, chunk));
    loop.setLowerBound(begin);
    loop.setUpperBound(end);
    loop.setStep(arith::ConstantIndexOp::create(b, loc, 1));
  }
}
