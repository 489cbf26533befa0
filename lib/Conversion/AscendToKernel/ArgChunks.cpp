//===- ArgChunks.cpp - ArgMaxV2 / ArgMin over rows too long for UB --------===//
//
// A row of 100,000 classes does not fit UB. Each chunk finds its extreme
// and its index (`vreduce "argmax"`: first index on ties, the first NaN
// wins), the index moves by the chunk's offset, and the chunk's pair
// replaces the row's so far when it is strictly better or a NaN the row
// has not met yet: the first extreme of the row wins, as over a whole
// row. The chunks are unrolled (their offsets are constants of `adds`),
// up to kMaxArgChunks of them.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "RowKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

constexpr int64_t kMaxArgChunks = 64;

/// Per element of a chunk: the input; per column: the chunk's and the
/// row's value and index, and three masks.
int64_t argChunk(std::array<int64_t, 3> view, Type data, Type index, const LoweringContext &context) {
  int64_t inner = std::max<int64_t>(view[2], 1);
  int64_t fixed = inner * (4 * elementBytes(data) + 4 * elementBytes(index) + 3);
  // (The reduction kernel is double-buffered: half of UB per copy.)
  return chunkThatFits(view[1], elementBytes(data) * inner, fixed, context.facts.ub / 2);
}

} // namespace

bool ascendprec::kernel::canChunkArgReduction(std::array<int64_t, 3> view, Type data, Type index,
                                              const LoweringContext &context) {
  int64_t chunk = argChunk(view, data, index, context);
  return chunk > 0 && ceilDiv(view[1], chunk) <= kMaxArgChunks;
}

void ascendprec::kernel::buildChunkedArgReduction(KernelBuilder &kb, const LoweringContext &context,
                                                  Value x, Value y, std::array<int64_t, 3> view,
                                                  StringRef kind) {
  OpBuilder &b = kb.builder();
  Location loc = kb.loc();
  Type data = getElementTypeOrSelf(x.getType()), index = getElementTypeOrSelf(y.getType());
  Type mask = b.getI1Type();
  int64_t inner = view[2], chunk = argChunk(view, data, index, context);
  kb.setTiling({{"rows", 1}, {"chunk", chunk}, {"tiles", view[0]}});
  auto column = [&](Type element) { return kb.alloc({1, 1, inner}, element, MemorySpace::UB); };
  Value value = column(data), position = column(index), best = column(data),
        bestPosition = column(index);
  Value better = column(mask), fresh = column(mask), seen = column(mask);
  StringRef extreme = kind == "argmax" ? "max" : "min";
  StringRef beats = kind == "argmax" ? "cmp_gt" : "cmp_lt";
  Value row = kb.openTileLoop(view[0], std::min(view[0], context.vectorCores));
  Value in = Value(), tailIn = Value();
  for (int64_t offset = 0; offset < view[1]; offset += chunk) {
    int64_t size = std::min(chunk, view[1] - offset);
    Value &buffer = size == chunk ? in : tailIn;
    if (!buffer)
      buffer = kb.alloc({1, size, inner}, data, MemorySpace::UB);
    loadTile(b, loc, x, ValueRange{row, kb.index(offset), kb.index(0)}, buffer);
    auto axis = b.getDenseI64ArrayAttr({1});
    bool first = offset == 0;
    ReduceOp::create(b, loc, extreme, buffer, first ? best : value, axis, data, ReduceOrder::Tree);
    ReduceOp::create(b, loc, kind, buffer, first ? bestPosition : position, axis, data,
                     ReduceOrder::Tree);
    if (first)
      continue;
    vectorOp(b, loc, "adds", ValueRange{position}, position, index)
        .setParams(ArrayRef<double>{static_cast<double>(offset)});
    // better = !isnan(best) && (isnan(value) || value beats best)
    vectorOp(b, loc, beats, ValueRange{value, best}, better, data);
    vectorOp(b, loc, "is_nan", ValueRange{value}, fresh, data);
    vectorOp(b, loc, "or", ValueRange{better, fresh}, better, mask);
    vectorOp(b, loc, "is_nan", ValueRange{best}, seen, data);
    vectorOp(b, loc, "not", ValueRange{seen}, seen, mask);
    vectorOp(b, loc, "and", ValueRange{better, seen}, better, mask);
    vectorOp(b, loc, "select", ValueRange{better, value, best}, best, data);
    vectorOp(b, loc, "select", ValueRange{better, position, bestPosition}, bestPosition, index);
  }
  storeTile(b, loc, bestPosition, y, ValueRange{row, kb.index(0), kb.index(0)});
  kb.closeLoop();
}
