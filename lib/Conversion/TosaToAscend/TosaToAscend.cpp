//===- TosaToAscend.cpp - convert-tosa-to-ascend --------------------------===//

#include "AscendPrec/Conversion/TosaToAscend/TosaToAscend.h"
#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

namespace ascendprec {
#define GEN_PASS_DEF_CONVERTTOSATOASCEND
#include "AscendPrec/Conversion/Passes.h.inc"
} // namespace ascendprec

using namespace mlir;
using namespace ascendprec;

std::string TosaNodeNamer::nameFor(Operation *op, StringRef suffix) {
  if (auto nameLoc = dyn_cast<NameLoc>(op->getLoc())) {
    std::string name = (nameLoc.getName().getValue() + suffix).str();
    if (!used.count(name)) {
      used[name] = true;
      return name;
    }
  }
  StringRef base = op->getName().stripDialect();
  while (true) {
    std::string name =
        (base + "_" + Twine(counters[base]++) + suffix).str();
    if (!used.count(name)) {
      used[name] = true;
      return name;
    }
  }
}

Operation *tosa_to_ascend::createAscendOp(ConversionPatternRewriter &rewriter,
                                          Location loc, StringRef opName,
                                          ValueRange operands, TypeRange types,
                                          const std::string &nodeName,
                                          ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttribute("name", rewriter.getStringAttr(nodeName));
  state.addAttributes(attrs);
  return rewriter.create(state);
}

bool tosa_to_ascend::isZeroConstant(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (isa<FloatType>(attr.getElementType()))
    return llvm::all_of(attr.getValues<APFloat>(),
                        [](const APFloat &v) { return v.isZero(); });
  return llvm::all_of(attr.getValues<APInt>(),
                      [](const APInt &v) { return v.isZero(); });
}

void ascendprec::configureTosaToAscendTarget(ConversionTarget &target) {
  target.addLegalDialect<ascend::AscendDialect, func::FuncDialect>();
  target.addIllegalDialect<tosa::TosaDialect>();
  target.addLegalOp<tosa::ConstShapeOp>();
}

namespace {
struct ConvertTosaToAscendPass
    : ascendprec::impl::ConvertTosaToAscendBase<ConvertTosaToAscendPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TosaNodeNamer namer;
    RewritePatternSet patterns(&getContext());
    populateTosaElementwiseToAscendPatterns(patterns, namer);
    populateTosaTensorToAscendPatterns(patterns, namer);
    populateTosaNNToAscendPatterns(patterns, namer);
    ConversionTarget target(getContext());
    configureTosaToAscendTarget(target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // Shape operands (and zero points) no longer used are dropped.
    SmallVector<Operation *> dead;
    module.walk([&](Operation *op) {
      if (isa<tosa::ConstShapeOp, tosa::ConstOp, ascend::ConstOp>(op) && op->use_empty())
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
  }
};
} // namespace
