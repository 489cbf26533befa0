//===- TosaToAscend.h - tosa -> ascend patterns ---------------------------===//

#ifndef ASCENDPREC_CONVERSION_TOSATOASCEND_TOSATOASCEND_H
#define ASCENDPREC_CONVERSION_TOSATOASCEND_TOSATOASCEND_H

#include "AscendPrec/Support/MLIR.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace ascendprec {

/// Gives converted ops unique node names: the tosa op's NameLoc name when it
/// has one and it is free, else "<tosa op>_<n>".
class TosaNodeNamer {
public:
  std::string nameFor(Operation *op, StringRef suffix = "");

private:
  llvm::StringMap<unsigned> counters;
  llvm::StringMap<bool> used;
};

/// Elementwise ops, clamp, cast.
void populateTosaElementwiseToAscendPatterns(RewritePatternSet &patterns,
                                             TosaNodeNamer &namer);
/// const, reshape, transpose, concat, reductions.
void populateTosaTensorToAscendPatterns(RewritePatternSet &patterns,
                                        TosaNodeNamer &namer);
/// matmul, conv2d, pooling.
void populateTosaNNToAscendPatterns(RewritePatternSet &patterns,
                                    TosaNodeNamer &namer);
/// Every tosa op is illegal but tosa.const_shape (shape operands), ascend is
/// legal.
void configureTosaToAscendTarget(ConversionTarget &target);

namespace tosa_to_ascend {
/// Creates an ascend op by name with a node name and attributes.
Operation *createAscendOp(ConversionPatternRewriter &rewriter, Location loc,
                          StringRef opName, ValueRange operands, TypeRange types,
                          const std::string &nodeName,
                          ArrayRef<NamedAttribute> attrs = {});
/// True when `value` is a constant whose every element is zero.
bool isZeroConstant(Value value);

/// Base of the tosa -> ascend patterns: keeps the pass's node namer and
/// replaces a tosa op by one ascend op.
template <typename TosaOp>
struct TosaToAscendPattern : OpConversionPattern<TosaOp> {
  TosaToAscendPattern(MLIRContext *context, TosaNodeNamer &namer)
      : OpConversionPattern<TosaOp>(context), namer(namer) {}

  /// Replaces `op` by the ascend op `opName` with op's result types and a
  /// fresh node name.
  void replaceWithAscendOp(ConversionPatternRewriter &rewriter, TosaOp op,
                           StringRef opName, ValueRange operands,
                           ArrayRef<NamedAttribute> attrs = {}) const {
    Operation *converted =
        createAscendOp(rewriter, op.getLoc(), opName, operands,
                       op->getResultTypes(), namer.nameFor(op), attrs);
    rewriter.replaceOp(op, converted->getResults());
  }

  TosaNodeNamer &namer;
};
} // namespace tosa_to_ascend

} // namespace ascendprec

#endif // ASCENDPREC_CONVERSION_TOSATOASCEND_TOSATOASCEND_H
