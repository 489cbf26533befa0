//===- TileCopyElision.cpp - vector compute straight on GM tiles ----------===//
//
// A vector kernel copies each tile GM -> UB, computes UB -> UB and copies the
// result UB -> GM, as the device's MTE2/MTE3 must. On the host both copies
// are pure overhead: they tripled the memory traffic of an elementwise
// kernel and took over a quarter of a chain of them (issue 34). Where a loop
// body only loads whole 1-D tiles, computes elementwise and stores whole 1-D
// tiles, the host code computes on views of GM instead. A tile that reaches
// past the edge of its GM buffer (the last one, read with zeros past the
// edge) keeps the copies, so the two paths compute the same values: the
// copies move bits unchanged, and elementwise compute reads element i of
// each input to write element i of the output wherever it lives.
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace ascendprec::kernel;
using namespace ascendprec::kernel::codegen;

namespace {

/// A 1-D memref with unit stride.
bool isContiguous1D(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() != 1)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(memref.getStridesAndOffset(strides, offset)) && strides[0] == 1;
}

/// A load that only copies a 1-D tile out of a 1-D GM buffer.
bool isPlainTileLoad(LoadOp load) {
  return !load.getTranspose() && !load.getBroadcast() && !load.getImg2col() &&
         !load.getTransposedFilter() && !load.getGroupedFilter() &&
         load.getOffsets().size() == 1 && isContiguous1D(load.getSource().getType()) &&
         isContiguous1D(load.getTarget().getType());
}

/// A store that only copies a 1-D tile into a 1-D GM buffer.
bool isPlainTileStore(StoreOp store) {
  return !store.getAtomic() && !store.getTranspose() && store.getOffsets().size() == 1 &&
         isContiguous1D(store.getSource().getType()) &&
         isContiguous1D(store.getTarget().getType());
}

/// The GM side of one elided copy: which buffer, where its tile starts.
struct GmTile {
  Value gm;
  Value offset;
  int64_t size = 0;
};

/// The kernel argument `buffer` is a view of.
Value rootOf(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

/// How the body of `loop` uses one local buffer.
struct BufferUse {
  SmallVector<Operation *> writers; ///< loads into it, vops and vcasts writing it
  SmallVector<Operation *> readers; ///< vops, vcasts and stores reading it
  Operation *first = nullptr;       ///< its first use in the body
};

/// The buffers written by `op` (its output or target) and read by it.
void accessesOf(Operation *op, SmallVectorImpl<Value> &written, SmallVectorImpl<Value> &read) {
  if (auto load = dyn_cast<LoadOp>(op)) {
    written.push_back(load.getTarget());
  } else if (auto store = dyn_cast<StoreOp>(op)) {
    read.push_back(store.getSource());
  } else if (auto vop = dyn_cast<VectorOp>(op)) {
    llvm::append_range(read, vop.getInputs());
    written.push_back(vop.getOutput());
  } else if (auto cast = dyn_cast<CastOp>(op)) {
    read.push_back(cast.getInput());
    written.push_back(cast.getOutput());
  }
}

/// Elides what it can in one loop; returns without a change when the body
/// holds anything but pure index arithmetic, loads, stores, vops and vcasts,
/// or when no buffer qualifies.
void elideInLoop(scf::ForOp loop, CodegenContext &context) {
  Block *body = loop.getBody();
  SmallVector<Operation *> effects;
  llvm::MapVector<Value, BufferUse> uses;
  for (Operation &op : body->without_terminator()) {
    if (isa<LoadOp, StoreOp, VectorOp, CastOp>(op)) {
      effects.push_back(&op);
      SmallVector<Value> written, read;
      accessesOf(&op, written, read);
      for (Value buffer : written) {
        BufferUse &use = uses[buffer];
        use.writers.push_back(&op);
        use.first = use.first ? use.first : &op;
      }
      for (Value buffer : read) {
        BufferUse &use = uses[buffer];
        use.readers.push_back(&op);
        use.first = use.first ? use.first : &op;
      }
      continue;
    }
    if (op.getDialect() == nullptr || op.getDialect()->getNamespace() != "arith" ||
        op.getNumRegions() != 0)
      return;
  }

  // Input tiles: written only by one plain load, its first use. Output
  // tiles: first written by a vop or vcast, never loaded into, and read by
  // exactly one plain store, its last use. Either way the buffer must not be
  // used outside this body (its contents after the loop would differ).
  llvm::MapVector<Value, GmTile> views;
  SmallVector<Operation *> elided;
  for (auto &[buffer, use] : uses) {
    if (!buffer.getDefiningOp<AllocOp>() ||
        llvm::any_of(buffer.getUsers(), [&](Operation *user) { return user->getBlock() != body; }))
      continue;
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape() || type.getRank() != 1)
      continue;
    if (use.writers.size() == 1 && isa<LoadOp>(use.writers[0])) {
      auto load = cast<LoadOp>(use.writers[0]);
      if (use.first == load && isPlainTileLoad(load)) {
        views[buffer] = {load.getSource(), load.getOffsets()[0], type.getDimSize(0)};
        elided.push_back(load);
      }
      continue;
    }
    bool computed = llvm::all_of(use.writers, [](Operation *op) { return isa<VectorOp, CastOp>(op); });
    auto stores = llvm::make_filter_range(use.readers, [](Operation *op) { return isa<StoreOp>(op); });
    if (!computed || use.writers.empty() || use.first != use.writers[0] ||
        std::distance(stores.begin(), stores.end()) != 1)
      continue;
    auto store = cast<StoreOp>(*stores.begin());
    bool last = llvm::all_of(use.readers, [&](Operation *op) { return !store->isBeforeInBlock(op); }) &&
                llvm::all_of(use.writers, [&](Operation *op) { return op->isBeforeInBlock(store); });
    if (last && isPlainTileStore(store)) {
      views[buffer] = {store.getTarget(), store.getOffsets()[0], type.getDimSize(0)};
      elided.push_back(store);
    }
  }
  if (views.empty())
    return;
  // A kernel that stores into a GM buffer it also reads would read its own
  // results on GM: leave it as it is.
  for (Operation *op : effects)
    if (auto store = dyn_cast<StoreOp>(op))
      for (Operation *other : effects)
        if (auto load = dyn_cast<LoadOp>(other))
          if (rootOf(load.getSource()) == rootOf(store.getTarget()))
            return;

  // if (every elided tile lies inside its GM buffer) { on GM } else { as before }
  Location loc = loop.getLoc();
  OpBuilder b = OpBuilder::atBlockTerminator(body);
  Value inside;
  for (auto &[buffer, tile] : views) {
    Value size = arith::ConstantIndexOp::create(b, loc, tile.size);
    Value end = arith::AddIOp::create(b, loc, tile.offset, size);
    Value extent = memref::DimOp::create(b, loc, tile.gm, 0);
    Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, extent);
    inside = inside ? Value(arith::AndIOp::create(b, loc, inside, fits)) : fits;
  }
  auto branch = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
  Block *onGm = branch.thenBlock();
  Block *copied = branch.elseBlock();
  for (Operation *op : effects)
    op->moveBefore(copied->getTerminator());

  OpBuilder then = OpBuilder::atBlockBegin(onGm);
  IRMapping mapping;
  for (auto &[buffer, tile] : views) {
    Value view = memref::SubViewOp::create(then, loc, tile.gm, ArrayRef<OpFoldResult>{tile.offset},
                                           ArrayRef<OpFoldResult>{then.getIndexAttr(tile.size)},
                                           ArrayRef<OpFoldResult>{then.getIndexAttr(1)});
    context.originalElement[view] = context.originalElementOf(tile.gm);
    mapping.map(buffer, view);
  }
  for (Operation *op : effects) {
    if (llvm::is_contained(elided, op))
      continue;
    then.clone(*op, mapping);
  }
}

} // namespace

void codegen::elideTileCopies(func::FuncOp function, CodegenContext &context) {
  SmallVector<scf::ForOp> loops;
  function.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    elideInLoop(loop, context);
}
