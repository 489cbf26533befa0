//===- LocalBuffers.cpp - a kernel's local buffers in one scratch region --===//
//
// A kernel's UB, L1 and L0 buffers are its own for the length of one block.
// On the device they are fixed on-chip memories; on the host they were a
// malloc and a free per buffer per block, and for small vector kernels of
// 40 blocks the allocator took more time than the arithmetic (a quarter of
// a chain of 18K-element elementwise kernels, issue 34). Each buffer is now
// a view at a fixed offset of one byte region the executor passes as the
// argument after the GM buffers and keeps per thread
// (exec::CompiledKernel::runBlock).
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ascendprec::kernel;
using namespace ascendprec::kernel::codegen;

namespace {

/// Offsets are cache-line aligned: every element type is aligned, and two
/// buffers never share a line.
constexpr int64_t kAlignment = 64;

/// Bytes of a buffer of `type`, or nullopt when it cannot be a fixed slice
/// of the region (a dynamic shape, a strided layout, an unusual element).
std::optional<int64_t> fixedBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  Type element = type.getElementType();
  int64_t bits = 0;
  if (element.isIntOrFloat())
    bits = element.getIntOrFloatBitWidth();
  else if (element.isIndex())
    bits = 64;
  else
    return std::nullopt;
  return type.getNumElements() * static_cast<int64_t>(llvm::divideCeil(bits, 8));
}

} // namespace

LocalBufferLayout codegen::layOutLocalBuffers(Operation *kernel) {
  LocalBufferLayout layout;
  kernel->walk([&](AllocOp alloc) {
    std::optional<int64_t> bytes = fixedBytes(cast<MemRefType>(alloc.getType()));
    if (!bytes || alloc->use_empty())
      return;
    layout.offsets[alloc.getOperation()] = layout.totalBytes;
    layout.totalBytes += static_cast<int64_t>(llvm::alignTo(*bytes, kAlignment));
  });
  return layout;
}

Value codegen::localBuffer(OpBuilder &builder, AllocOp alloc, const LocalBufferLayout &layout,
                           Value scratch) {
  auto found = layout.offsets.find(alloc.getOperation());
  if (found == layout.offsets.end())
    return nullptr;
  Value offset = arith::ConstantIndexOp::create(builder, alloc.getLoc(), found->second);
  return memref::ViewOp::create(builder, alloc.getLoc(), cast<MemRefType>(alloc.getType()),
                                scratch, offset, ValueRange());
}
