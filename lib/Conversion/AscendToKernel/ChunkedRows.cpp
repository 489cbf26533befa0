//===- ChunkedRows.cpp - walking a row too long for UB in chunks ----------===//
//
// A row that does not fit UB is loaded chunk by chunk. A load past GM's
// edge reads zeros, which would enter a maximum, a minimum or a product, so
// the last, shorter chunk gets buffers of its own size instead of running
// past the row's end.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "RowKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

void ascendprec::kernel::forEachChunk(
    KernelBuilder &kb, int64_t total, int64_t chunk,
    function_ref<void(Value offset, int64_t size, Value first)> body) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  int64_t whole = total / chunk, tail = total % chunk;
  if (whole > 0) {
    Value offset = kb.openLoop(whole * chunk, chunk);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, offset, kb.index(0));
    body(offset, chunk, first);
    kb.closeLoop();
  }
  if (tail > 0)
    body(kb.index(whole * chunk), tail,
         arith::ConstantIntOp::create(b, loc, b.getI1Type(), whole == 0 ? 1 : 0));
}

void ascendprec::kernel::accumulateChunk(OpBuilder &b, Location loc, Value first,
                                         StringRef combine, Value part, Value total, Type acc) {
  auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  vectorOp(b, loc, "copy", ValueRange{part}, total, acc);
  b.setInsertionPointToStart(ifOp.elseBlock());
  vectorOp(b, loc, combine, ValueRange{total, part}, total, acc);
}

int64_t ascendprec::kernel::chunkThatFits(int64_t total, int64_t bytesPerElement,
                                          int64_t fixedBytes, int64_t ub) {
  // The whole chunk's buffers and the tail's (at most as large) share UB.
  int64_t room = ub - fixedBytes;
  if (room <= 0 || bytesPerElement <= 0)
    return 0;
  int64_t chunk = std::min(total, room / bytesPerElement);
  if (chunk < 1)
    return 0;
  if (total % chunk != 0)
    chunk = std::min(chunk, room / (2 * bytesPerElement));
  return chunk;
}
