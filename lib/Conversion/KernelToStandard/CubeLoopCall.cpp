//===- CubeLoopCall.cpp - a cube kernel's K loop as one runtime call ------===//
//
// The lowering builds every cube kernel's multiply-accumulate the same way
// (lib/Conversion/AscendToKernel/CubeKernel.cpp):
//
//   scf.for %k = %lb to %ub step %kt {
//     %first = arith.cmpi eq, %k, %c0
//     akernel.load %a[..., %k, ...] -> %aL1      (plain, transposed, img2col)
//     akernel.load %b[..., %k, ...] -> %bL1      (plain, transposed, filter)
//     akernel.copy %aL1, %aL0
//     akernel.copy %bL1, %bL0
//     akernel.mmad %aL0, %bL0, %acc init(%first)
//   }
//
// Such a loop becomes one call of ascendprec_rt_cube_loop (lib/Runtime/
// CubeLoop.cpp), which leaves %acc with the same bits but skips the copies
// to L0 and reuses tiles of B the kernel never writes. Anything else (other
// ops in the loop, a buffer used after it, an offset computed in it) is
// left to the op-by-op lowering.
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"
#include "RuntimeCall.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;
using namespace ascendprec::kernel::codegen;

namespace {

/// The matched loop's parts.
struct CubeLoop {
  scf::ForOp loop;
  LoadOp loadA, loadB;
  MmadOp mmad;
  bool initAtZero = false;
};

/// True when `buffer` is a local buffer used by nothing but `ops`.
bool usedOnlyBy(Value buffer, ArrayRef<Operation *> ops) {
  if (!buffer.getDefiningOp<AllocOp>())
    return false;
  return llvm::all_of(buffer.getUsers(),
                      [&](Operation *user) { return llvm::is_contained(ops, user); });
}

/// The slot of `load`'s offsets that is the loop's induction variable (-1:
/// none), or nothing when an offset is computed inside the loop or the
/// variable fills more than one slot.
std::optional<int32_t> kSlotOf(LoadOp load, scf::ForOp loop) {
  int32_t slot = -1;
  for (auto [i, offset] : llvm::enumerate(load.getOffsets())) {
    if (offset == loop.getInductionVar()) {
      if (slot >= 0)
        return std::nullopt;
      slot = static_cast<int32_t>(i);
    } else if (loop.getRegion().isAncestor(offset.getParentRegion())) {
      return std::nullopt;
    }
  }
  return slot;
}

/// Whether `init` is `k == 0` for the loop's variable k.
bool isFirstStep(Value init, scf::ForOp loop) {
  auto compare = init.getDefiningOp<arith::CmpIOp>();
  if (!compare || compare.getPredicate() != arith::CmpIPredicate::eq)
    return false;
  Value k = loop.getInductionVar();
  Value other = compare.getLhs() == k ? compare.getRhs()
                : compare.getRhs() == k ? compare.getLhs()
                                        : Value();
  return other && matchPattern(other, m_Zero());
}

std::optional<CubeLoop> matchCubeLoop(scf::ForOp loop) {
  if (loop.getNumResults() != 0)
    return std::nullopt;
  SmallVector<Operation *> kernelOps;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getDialect() && isa<KernelDialect>(op.getDialect()))
      kernelOps.push_back(&op);
    else if (!isa<arith::ConstantOp, arith::CmpIOp>(op))
      return std::nullopt;
  }
  if (kernelOps.size() != 5)
    return std::nullopt;
  auto loadA = dyn_cast<LoadOp>(kernelOps[0]), loadB = dyn_cast<LoadOp>(kernelOps[1]);
  auto copyA = dyn_cast<CopyOp>(kernelOps[2]), copyB = dyn_cast<CopyOp>(kernelOps[3]);
  auto mmad = dyn_cast<MmadOp>(kernelOps[4]);
  if (!loadA || !loadB || !copyA || !copyB || !mmad)
    return std::nullopt;
  if (copyA.getSource() != loadA.getTarget() || copyA.getTarget() != mmad.getLhs() ||
      copyB.getSource() != loadB.getTarget() || copyB.getTarget() != mmad.getRhs())
    return std::nullopt;
  if (!usedOnlyBy(loadA.getTarget(), {loadA, copyA}) ||
      !usedOnlyBy(loadB.getTarget(), {loadB, copyB}) || !usedOnlyBy(mmad.getLhs(), {copyA, mmad}) ||
      !usedOnlyBy(mmad.getRhs(), {copyB, mmad}))
    return std::nullopt;
  // The copies move tiles as they are (a copy may also reshape: then the
  // mmad's shapes are not the loads').
  if (loadA.getTarget().getType() != mmad.getLhs().getType() ||
      loadB.getTarget().getType() != mmad.getRhs().getType())
    return std::nullopt;
  // The runtime's loads take static row-major tiles.
  for (Value tile : {loadA.getTarget(), loadB.getTarget()}) {
    auto type = cast<MemRefType>(tile.getType());
    if (type.getRank() != 2 || !type.hasStaticShape() || !type.getLayout().isIdentity())
      return std::nullopt;
  }
  if (loadA.getBroadcast() || loadB.getBroadcast() || !kSlotOf(loadA, loop) ||
      !kSlotOf(loadB, loop))
    return std::nullopt;
  CubeLoop match{loop, loadA, loadB, mmad};
  if (Value init = mmad.getInit()) {
    if (!isFirstStep(init, loop))
      return std::nullopt;
    // The comparison serves nothing else (it goes with the loop).
    if (!init.hasOneUse())
      return std::nullopt;
    match.initAtZero = true;
  }
  return match;
}

/// True when the GM buffer behind `source` is only ever loaded from in the
/// kernel: no store, fixpipe or other op writes it (through any view).
bool isReadOnly(Value source) {
  while (auto view = source.getDefiningOp<ViewLikeOpInterface>())
    source = view.getViewSource();
  if (!isa<BlockArgument>(source))
    return false;
  SmallVector<Value> worklist = {source};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value) {
          worklist.push_back(view->getResult(0));
          continue;
        }
      }
      auto load = dyn_cast<LoadOp>(user);
      if (!load || load.getSource() != value)
        return false;
    }
  }
  return true;
}

void lowerCubeLoop(CubeLoop match, CodegenContext &context) {
  scf::ForOp loop = match.loop;
  RuntimeCall call(loop, context);
  auto addLoad = [&](LoadOp load) {
    SmallVector<Value> offsets(load.getOffsets());
    // The variable's slot starts at the lower bound; the runtime steps it.
    for (Value &offset : offsets)
      if (offset == loop.getInductionVar())
        offset = loop.getLowerBound();
    SmallVector<int64_t> params;
    runtime::LoadMode mode = loadAddressing(load, params);
    call.buffer(load.getSource()).array(offsets).constants(params);
    return mode;
  };
  runtime::LoadMode modeA = addLoad(match.loadA);
  runtime::LoadMode modeB = addLoad(match.loadB);
  call.buffer(match.loadA.getTarget()).buffer(match.loadB.getTarget()).buffer(match.mmad.getAcc());
  for (Value bound : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    call.value(arith::IndexCastOp::create(call.b(), loop.getLoc(), call.b().getI64Type(), bound));
  bool readOnlyB = isReadOnly(match.loadB.getSource());
  call.i32(static_cast<int32_t>(modeA))
      .i32(*kSlotOf(match.loadA, loop))
      .i32(static_cast<int32_t>(modeB))
      .i32(*kSlotOf(match.loadB, loop))
      .i32(context.elementCode(match.mmad.getLhs()))
      .i32(bytesOf(match.loadA.getSource()))
      .i32(match.initAtZero)
      .i32(readOnlyB);
  call.call("ascendprec_rt_cube_loop");
}

} // namespace

void codegen::lowerCubeLoops(func::FuncOp function, CodegenContext &context) {
  SmallVector<CubeLoop> matches;
  function.walk([&](scf::ForOp loop) {
    if (std::optional<CubeLoop> match = matchCubeLoop(loop))
      matches.push_back(*match);
  });
  if (matches.empty())
    return;
  // Tiles of B kept by the runtime live for one block run.
  RuntimeCall begin(&function.front().front(), context);
  begin.call("ascendprec_rt_block_begin");
  for (CubeLoop &match : matches) {
    lowerCubeLoop(match, context);
    Value lhs = match.mmad.getLhs(), rhs = match.mmad.getRhs();
    match.loop.erase();
    // The L0 tiles are no longer used; the L1 tiles are the runtime's
    // scratch for the loads it does not reorganise.
    for (Value buffer : {lhs, rhs})
      if (buffer.use_empty())
        buffer.getDefiningOp()->erase();
  }
}
