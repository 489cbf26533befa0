//===- LoweringTables.h - which kernel each ascend op becomes -------------===//

#ifndef ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_LOWERINGTABLES_H
#define ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_LOWERINGTABLES_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/APFloat.h"

#include <optional>
#include <string>
#include <vector>

namespace ascendprec::kernel {

/// An elementwise op as a vector op kind with its scalar constants.
struct ElementwiseKind {
  std::string kind;
  SmallVector<double> params;
};

/// An f32 attribute as the double a person wrote (1e-3, not
/// 0.0010000000474974513): the shortest decimal that reads back as the float.
double paramValue(const llvm::APFloat &value);

/// The `akernel.vop` kind of an elementwise ascend op, if it is one.
std::optional<ElementwiseKind> elementwiseKindOf(Operation *op);

/// Vector kinds that take several instructions per element (the ones a
/// high_precision impl mode computes in fp32, IM-7).
bool isCostlyVectorKind(StringRef kind);

/// Op types lowered to a view (no kernel): Reshape and its kin.
bool isViewOpType(StringRef opType);

/// The `akernel.dma` kind of a data-movement op type.
std::optional<StringRef> dmaKindOf(StringRef opType);

/// The row-kernel kind of a Reduce* / Arg* op type: a `akernel.vreduce`
/// kind (sum, mean, max, min, prod, argmax, argmin) or a composition around
/// a sum (l1, l2, sum_square, log_sum, log_sum_exp; ReductionLowering.cpp).
std::optional<StringRef> reductionKindOf(StringRef opType);

/// The graph node names a kernel computes: the op's name and every name
/// fused into it (FU-3).
std::vector<std::string> nodesOf(Operation *op);
/// The same names as an array of the op's own string attributes (no
/// string is hashed again: a launch per op of a 200k-op graph).
ArrayAttr nodesAttrOf(Operation *op);

} // namespace ascendprec::kernel

#endif // ASCENDPREC_LIB_CONVERSION_ASCENDTOKERNEL_LOWERINGTABLES_H
