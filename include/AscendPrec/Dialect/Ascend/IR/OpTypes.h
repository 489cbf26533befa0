//===- OpTypes.h - facts about Ascend IR op type names --------------------===//
//
// Plain functions on op type strings, shared by dedicated ops and the generic
// op (whose op type is only known at run time).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_OPTYPES_H
#define ASCENDPREC_DIALECT_ASCEND_IR_OPTYPES_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace ascendprec::ascend {

/// Cube (matrix unit) for the MatMul, Conv, GEMM and Deconvolution families,
/// vector for everything else (vocabulary of precision-semantics.md).
ComputeUnit classifyOpType(llvm::StringRef opType);

/// True when `opType` is spelled by a dedicated `ascend` op
/// (`Conv2D` -> `ascend.Conv2D`), so `ascend.generic` must not use it.
bool hasDedicatedOp(MLIRContext *context, llvm::StringRef opType);

/// The vector unit's instruction family of an elementwise op type (`Add`
/// -> `add`, `ClipByValue` -> `clip`), if the op type is elementwise: the
/// kernel lowering's table, and what UB fusion counts as elementwise.
std::optional<llvm::StringRef> elementwiseKindOfOpType(llvm::StringRef opType);

/// True for a plausible Ascend IR op type: starts with a letter, then
/// letters, digits or `_`.
bool isWellFormedOpType(llvm::StringRef opType);

} // namespace ascendprec::ascend

#endif // ASCENDPREC_DIALECT_ASCEND_IR_OPTYPES_H
