//===- RuntimeCalls.cpp - akernel ops as calls of the kernel runtime ------===//
//
// Loads, stores, copies, the fixpipe, mmad, reductions and pooling become
// calls of `ascendprec_rt_*` (lib/Runtime/KernelRuntime.cpp) on unranked
// memrefs, with their addressing parameters as small i64 arrays and dtypes
// as runtime ElementType codes. Descriptors and parameter arrays are
// allocated at the function's entry, never inside a tile loop, so the stack
// does not grow with the tile count.
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"
#include "RuntimeCall.h"

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/KernelRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;
using namespace ascendprec::kernel::codegen;

namespace {

SmallVector<Value> valuesOf(OperandRange range) { return SmallVector<Value>(range); }

LogicalResult lowerLoad(LoadOp load, CodegenContext &context) {
  RuntimeCall call(load, context);
  call.buffer(load.getSource()).buffer(load.getTarget()).array(valuesOf(load.getOffsets()));
  SmallVector<int64_t> params;
  runtime::LoadMode mode = loadAddressing(load, params);
  call.constants(params).i32(bytesOf(load.getSource())).i32(static_cast<int32_t>(mode));
  call.call("ascendprec_rt_load");
  return success();
}

LogicalResult lowerStore(StoreOp store, CodegenContext &context) {
  RuntimeCall call(store, context);
  call.buffer(store.getSource()).buffer(store.getTarget()).array(valuesOf(store.getOffsets()));
  call.i32(context.elementCode(store.getTarget()))
      .i32(store.getAtomic())
      .i32(store.getTranspose())
      .i32(context.overflowCode());
  call.call("ascendprec_rt_store");
  return success();
}

LogicalResult lowerCopy(CopyOp copy, CodegenContext &context) {
  RuntimeCall call(copy, context);
  call.buffer(copy.getSource()).buffer(copy.getTarget()).i32(bytesOf(copy.getSource()));
  call.call("ascendprec_rt_copy");
  return success();
}

LogicalResult lowerFixpipe(FixpipeOp fixpipe, CodegenContext &context) {
  RuntimeCall call(fixpipe, context);
  call.buffer(fixpipe.getSource()).buffer(fixpipe.getTarget());
  call.array(valuesOf(fixpipe.getOffsets()));
  // Without a bias the accumulator stands in (never read).
  call.buffer(fixpipe.getBias() ? fixpipe.getBias() : fixpipe.getSource());
  int32_t flags = (fixpipe.getRelu() ? 1 : 0) | (fixpipe.getTranspose() ? 2 : 0) |
                  (fixpipe.getBias() ? 4 : 0) | (fixpipe.getOffsets().empty() ? 0 : 8);
  call.i32(context.elementCode(fixpipe.getSource()))
      .i32(context.elementCode(fixpipe.getTarget()))
      .i32(static_cast<int32_t>(fixpipe.getRound()))
      .i32(context.overflowCode())
      .i32(flags);
  call.call("ascendprec_rt_fixpipe");
  return success();
}

LogicalResult lowerMmad(MmadOp mmad, CodegenContext &context) {
  RuntimeCall call(mmad, context);
  call.buffer(mmad.getLhs()).buffer(mmad.getRhs()).buffer(mmad.getAcc());
  call.i32(context.elementCode(mmad.getLhs()));
  if (Value init = mmad.getInit())
    call.value(arith::ExtUIOp::create(call.b(), mmad.getLoc(), call.b().getI32Type(), init));
  else
    call.i32(0);
  call.call("ascendprec_rt_mmad");
  return success();
}

int32_t reduceKindCode(StringRef kind) {
  using runtime::ReduceKind;
  ReduceKind code = llvm::StringSwitch<ReduceKind>(kind)
                        .Case("max", ReduceKind::Max)
                        .Case("min", ReduceKind::Min)
                        .Case("prod", ReduceKind::Prod)
                        .Case("mean", ReduceKind::Mean)
                        .Case("argmax", ReduceKind::ArgMax)
                        .Case("argmin", ReduceKind::ArgMin)
                        .Default(ReduceKind::Sum);
  return static_cast<int32_t>(code);
}

LogicalResult lowerReduce(ReduceOp reduce, CodegenContext &context) {
  RuntimeCall call(reduce, context);
  call.buffer(reduce.getInput()).buffer(reduce.getOutput());
  call.constants(reduce.getAxes());
  call.i32(reduceKindCode(reduce.getKind()))
      .i32(context.elementCode(reduce.getInput()))
      .i32(context.elementCode(reduce.getOutput()))
      .i32(elementCodeOf(context.effective(reduce.getAcc())))
      .i32(reduce.getOrder() == ReduceOrder::Tree)
      .i32(context.overflowCode());
  call.call("ascendprec_rt_reduce");
  return success();
}

LogicalResult lowerPool(PoolOp pool, CodegenContext &context) {
  RuntimeCall call(pool, context);
  call.buffer(pool.getInput()).buffer(pool.getOutput());
  SmallVector<int64_t> params(pool.getKernel());
  llvm::append_range(params, pool.getStrides());
  llvm::append_range(params, pool.getPads());
  call.constants(params);
  auto kind = pool.getKind() == "max" ? runtime::PoolKind::Max : runtime::PoolKind::Avg;
  call.i32(static_cast<int32_t>(kind))
      .i32(context.elementCode(pool.getInput()))
      .i32(context.elementCode(pool.getOutput()))
      .i32(elementCodeOf(context.effective(pool.getAcc())))
      .i32(pool.getExclusive())
      .i32(context.overflowCode());
  call.call("ascendprec_rt_pool");
  return success();
}

LogicalResult lowerInterp(InterpOp interp, CodegenContext &context) {
  using runtime::InterpCoordinates;
  using runtime::InterpMode;
  using runtime::InterpPadding;
  RuntimeCall call(interp, context);
  // Without a grid the input stands in for it (not read).
  Value grid = interp.getGrid() ? interp.getGrid() : interp.getInput();
  call.buffer(interp.getInput()).buffer(grid).buffer(interp.getOutput());
  // A window of a larger plane: its sizes, then the origins (runtime values).
  SmallVector<Value> window;
  if (std::optional<ArrayRef<int64_t>> plane = interp.getPlane()) {
    for (int64_t size : *plane)
      window.push_back(arith::ConstantIntOp::create(call.b(), interp.getLoc(),
                                                    call.b().getI64Type(), size));
    llvm::append_range(window, interp.getOrigin());
  }
  call.array(window);
  InterpMode mode = interp.getMode() == "nearest"    ? InterpMode::Nearest
                    : interp.getMode() == "bilinear" ? InterpMode::Bilinear
                                                     : InterpMode::Bicubic;
  InterpCoordinates coordinates = interp.getCoordinates() == "align_corners"
                                      ? InterpCoordinates::AlignCorners
                                  : interp.getCoordinates() == "half_pixel"
                                      ? InterpCoordinates::HalfPixel
                                      : InterpCoordinates::Asymmetric;
  InterpPadding padding = interp.getPadding() == "zeros"    ? InterpPadding::Zeros
                          : interp.getPadding() == "border" ? InterpPadding::Border
                                                            : InterpPadding::Reflection;
  call.i32(static_cast<int32_t>(mode))
      .i32(static_cast<int32_t>(coordinates))
      .i32(static_cast<int32_t>(padding))
      .i32(interp.getGrid() != nullptr)
      .i32(context.elementCode(interp.getInput()))
      .i32(context.elementCode(grid))
      .i32(context.elementCode(interp.getOutput()))
      .i32(elementCodeOf(context.effective(interp.getAcc())))
      .i32(context.overflowCode());
  call.call("ascendprec_rt_interp");
  return success();
}

LogicalResult lowerTopK(TopKOp topk, CodegenContext &context) {
  RuntimeCall call(topk, context);
  call.buffer(topk.getInput()).buffer(topk.getValues()).buffer(topk.getIndices());
  call.i32(static_cast<int32_t>(topk.getLargest() ? runtime::TopKOrder::Largest
                                                  : runtime::TopKOrder::Smallest))
      .i32(context.elementCode(topk.getInput()))
      .i32(context.elementCode(topk.getIndices()));
  call.call("ascendprec_rt_topk");
  return success();
}

LogicalResult lowerRecurrent(RecurrentOp rnn, CodegenContext &context) {
  using runtime::RecurrentCell;
  using runtime::RecurrentDirection;
  RuntimeCall call(rnn, context);
  // Ten slots: x, w, r, b, init_h, init_c, seq_length, y, y_h, y_c; an
  // absent one passes x (not read or written).
  ValueRange buffers = rnn.getBuffers();
  Value x = buffers[0];
  unsigned next = 3;
  auto optional = [&](bool present) { return present ? buffers[next++] : x; };
  SmallVector<Value> slots = {buffers[0], buffers[1], buffers[2]};
  slots.push_back(optional(rnn.getHasBias()));
  slots.push_back(optional(rnn.getHasInitH()));
  slots.push_back(optional(rnn.getHasInitC()));
  slots.push_back(optional(rnn.getHasSeqLength()));
  slots.push_back(buffers[next++]);
  slots.push_back(buffers[next++]);
  slots.push_back(rnn.getCell() == "lstm" ? buffers[next++] : x);
  for (Value slot : slots)
    call.buffer(slot);
  RecurrentCell cell = rnn.getCell() == "lstm"  ? RecurrentCell::Lstm
                       : rnn.getCell() == "gru" ? RecurrentCell::Gru
                                                : RecurrentCell::Rnn;
  RecurrentDirection direction = rnn.getDirection() == "forward" ? RecurrentDirection::Forward
                                 : rnn.getDirection() == "reverse"
                                     ? RecurrentDirection::Reverse
                                     : RecurrentDirection::Bidirectional;
  int32_t flags = (rnn.getHasBias() ? runtime::HasBias : 0) |
                  (rnn.getHasSeqLength() ? runtime::HasSeqLength : 0) |
                  (rnn.getHasInitH() ? runtime::HasInitH : 0) |
                  (rnn.getHasInitC() ? runtime::HasInitC : 0) |
                  (rnn.getLinearBeforeReset() ? runtime::LinearBeforeReset : 0);
  call.i32(static_cast<int32_t>(cell))
      .i32(static_cast<int32_t>(direction))
      .i32(flags)
      .i32(context.elementCode(x))
      .i32(context.elementCode(slots[7]))
      .i32(context.elementCode(slots[6]))
      .i32(context.overflowCode());
  call.call("ascendprec_rt_recurrent");
  return success();
}

} // namespace

runtime::LoadMode codegen::loadAddressing(LoadOp load, SmallVectorImpl<int64_t> &params) {
  if (load.getTranspose())
    return runtime::LoadMode::Transpose;
  if (auto shape = load.getBroadcast()) {
    params.assign(shape->begin(), shape->end());
    return runtime::LoadMode::Broadcast;
  }
  if (auto img2col = load.getImg2col()) {
    llvm::append_range(params, img2col->getKernel());
    llvm::append_range(params, img2col->getStrides());
    llvm::append_range(params, img2col->getPads());
    llvm::append_range(params, img2col->getDilations());
    llvm::append_range(params, img2col->getOut());
    params.push_back(img2col->getC0());
    if (img2col->getInputDilations().empty())
      params.append(img2col->getKernel().size(), 1);
    else
      llvm::append_range(params, img2col->getInputDilations());
    return runtime::LoadMode::Img2Col;
  }
  if (load.getTransposedFilter())
    return runtime::LoadMode::TransposedFilter;
  if (auto grouped = load.getGroupedFilter()) {
    params.assign(grouped->begin(), grouped->end());
    return runtime::LoadMode::GroupedFilter;
  }
  return runtime::LoadMode::Plain;
}

LogicalResult codegen::lowerToRuntimeCall(Operation *op, CodegenContext &context) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](LoadOp load) { return lowerLoad(load, context); })
      .Case([&](StoreOp store) { return lowerStore(store, context); })
      .Case([&](CopyOp copy) { return lowerCopy(copy, context); })
      .Case([&](FixpipeOp fixpipe) { return lowerFixpipe(fixpipe, context); })
      .Case([&](MmadOp mmad) { return lowerMmad(mmad, context); })
      .Case([&](ReduceOp reduce) { return lowerReduce(reduce, context); })
      .Case([&](PoolOp pool) { return lowerPool(pool, context); })
      .Case([&](InterpOp interp) { return lowerInterp(interp, context); })
      .Case([&](RecurrentOp rnn) { return lowerRecurrent(rnn, context); })
      .Case([&](TopKOp topk) { return lowerTopK(topk, context); })
      .Default([](Operation *) { return failure(); });
}
