//===- AscendInterfaces.h - AscendOpInterface -----------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINTERFACES_H
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINTERFACES_H

#include "AscendPrec/Support/MLIR.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.h"
#include "AscendPrec/Dialect/Ascend/IR/OpTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallVector.h"

namespace ascendprec::ascend::detail {
/// The node name followed by the absorbed names (FU-3).
llvm::SmallVector<llvm::StringRef> getOriginalNames(llvm::StringRef name,
                                                    ArrayAttr absorbed);
/// ML-4 visiting order: non-constant producers first, `ascend.Const` last.
llvm::SmallVector<unsigned> getInputVisitOrder(Operation *op);
/// Rebuilds `op` with new operands and result element types.
Operation *cloneWithElementTypes(Operation *op, OpBuilder &builder,
                                 ValueRange operands, TypeRange resultDTypes);
/// Checks shared by every `ascend` op: node name, precision decision arity.
LogicalResult verifyAscendOp(Operation *op);
} // namespace ascendprec::ascend::detail

namespace ascendprec::ascend {
/// Ops that read only the dimensions of their operands (Shape, Size): they
/// compute nothing in their operands' dtype, so planning reports them in
/// their result's integer dtype and never converts their operands.
template <typename ConcreteType>
class ReadsOnlyDimensions : public mlir::OpTrait::TraitBase<ConcreteType, ReadsOnlyDimensions> {};
} // namespace ascendprec::ascend

#include "AscendPrec/Dialect/Ascend/IR/AscendInterfaces.h.inc"

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDINTERFACES_H
