//===- RuntimeCall.h - building a call of the kernel runtime --------------===//
//
// A call of `ascendprec_rt_*` is built operand by operand: buffers as
// unranked memrefs (cast right after their definition), i64 arrays
// allocated at the function's entry (never inside a tile loop, so the stack
// does not grow with the tile count) and filled where the call is.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_CONVERSION_KERNELTOSTANDARD_RUNTIMECALL_H
#define ASCENDPREC_LIB_CONVERSION_KERNELTOSTANDARD_RUNTIMECALL_H

#include "Codegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <algorithm>

namespace ascendprec::kernel::codegen {

/// Operands in the order the runtime function takes them; `call` declares
/// the function (once per signature) and calls it before `op`.
class RuntimeCall {
public:
  RuntimeCall(mlir::Operation *op, CodegenContext &context)
      : op(op), context(context), builder(op), loc(op->getLoc()) {
    entry = &op->getParentOfType<mlir::func::FuncOp>().front();
  }

  /// The buffer as an unranked memref, cast right after its definition.
  RuntimeCall &buffer(mlir::Value buffer) {
    mlir::OpBuilder b(op->getContext());
    if (auto argument = mlir::dyn_cast<mlir::BlockArgument>(buffer))
      b.setInsertionPointToStart(argument.getOwner());
    else
      b.setInsertionPointAfter(buffer.getDefiningOp());
    auto type = mlir::cast<mlir::MemRefType>(buffer.getType());
    mlir::Value unranked = mlir::memref::CastOp::create(
        b, loc, mlir::UnrankedMemRefType::get(type.getElementType(), mlir::Attribute()), buffer);
    operands.push_back(unranked);
    return *this;
  }

  /// An i64 array: allocated at the entry, filled here.
  RuntimeCall &array(mlir::ArrayRef<mlir::Value> values) {
    mlir::OpBuilder atEntry(op->getContext());
    atEntry.setInsertionPointToStart(entry);
    auto type = mlir::MemRefType::get({static_cast<int64_t>(values.size())}, builder.getI64Type());
    mlir::Value storage = mlir::memref::AllocaOp::create(atEntry, loc, type);
    // The cast (a descriptor on the stack) right after it, at the entry too.
    atEntry.setInsertionPointAfterValue(storage);
    for (auto [i, value] : llvm::enumerate(values)) {
      mlir::Value element = value;
      if (element.getType().isIndex())
        element = mlir::arith::IndexCastOp::create(builder, loc, builder.getI64Type(), element);
      mlir::Value position = mlir::arith::ConstantIndexOp::create(builder, loc, static_cast<int64_t>(i));
      mlir::memref::StoreOp::create(builder, loc, element, storage, position);
    }
    operands.push_back(mlir::memref::CastOp::create(
        atEntry, loc, mlir::UnrankedMemRefType::get(builder.getI64Type(), mlir::Attribute()), storage));
    return *this;
  }

  RuntimeCall &constants(mlir::ArrayRef<int64_t> values) {
    mlir::SmallVector<mlir::Value> constants;
    for (int64_t value : values)
      constants.push_back(mlir::arith::ConstantIntOp::create(builder, loc, builder.getI64Type(), value));
    return array(constants);
  }

  RuntimeCall &i32(int64_t value) {
    operands.push_back(mlir::arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), value));
    return *this;
  }

  RuntimeCall &value(mlir::Value v) {
    operands.push_back(v);
    return *this;
  }

  mlir::OpBuilder &b() { return builder; }

  void call(mlir::StringRef symbol) {
    mlir::SmallVector<mlir::Type> types;
    for (mlir::Value operand : operands)
      types.push_back(operand.getType());
    mlir::func::FuncOp callee = context.runtimeFunction(symbol, types, {});
    mlir::func::CallOp::create(builder, loc, callee, operands);
  }

private:
  mlir::Operation *op;
  CodegenContext &context;
  mlir::OpBuilder builder;
  mlir::Location loc;
  mlir::Block *entry;
  mlir::SmallVector<mlir::Value> operands;
};

/// The element size in bytes of a buffer (1 for i1).
inline int32_t bytesOf(mlir::Value buffer) {
  mlir::Type element = mlir::getElementTypeOrSelf(buffer.getType());
  return std::max<int32_t>(1, static_cast<int32_t>((element.getIntOrFloatBitWidth() + 7) / 8));
}

} // namespace ascendprec::kernel::codegen

#endif // ASCENDPREC_LIB_CONVERSION_KERNELTOSTANDARD_RUNTIMECALL_H
