//===- MatMulFusions.cpp - MatMulBiasAddFusionPass ------------------------===//

#include "FoldedConstants.h"
#include "FusionPatterns.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// The constant [N] bias `user` adds to a MatMul's [M, N] output: a BiasAdd,
/// or an Add of a [N] or [1, N] constant (both broadcast along the rows).
ConstOp rowBias(Operation *user, Value product, int64_t columns) {
  Value bias;
  if (auto biasAdd = dyn_cast<BiasAddOp>(user)) {
    if (biasAdd.getX() != product)
      return {};
    bias = biasAdd.getBias();
  } else if (auto add = dyn_cast<AddOp>(user)) {
    bias = add->getOperand(0) == product ? add->getOperand(1) : add->getOperand(0);
  } else {
    return {};
  }
  auto type = dyn_cast<RankedTensorType>(bias.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 1 || type.getRank() > 2 ||
      type.getDimSize(type.getRank() - 1) != columns ||
      (type.getRank() == 2 && type.getDimSize(0) != 1) ||
      user->getResult(0).getType() != product.getType())
    return {};
  ConstOp constant = constantProducer(bias);
  if (!constant || type.getElementType() != getElementTypeOrSelf(product))
    return {};
  return constant;
}

/// MatMulV2 without a bias whose only user adds a constant [N] bias: the
/// bias joins the MatMul (CANN's MatMulV2 takes it as its third input).
class MatMulBiasAddFusionPass : public FusionPattern {
public:
  StringRef name() const override { return "MatMulBiasAddFusionPass"; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    auto matmul = dyn_cast<MatMulV2Op>(op.getOperation());
    auto type = matmul ? dyn_cast<RankedTensorType>(matmul.getY().getType()) : nullptr;
    if (!type || matmul.getBias() || type.getRank() != 2 || type.isDynamicDim(1))
      return std::nullopt;
    Operation *user = soleUser(matmul.getY());
    int64_t columns = type.getDimSize(1);
    ConstOp bias = user ? rowBias(user, matmul.getY(), columns) : ConstOp();
    if (!bias)
      return std::nullopt;
    FusionMatch match{op, {cast<AscendOpInterface>(user)}, {}};
    match.build = [matmul, bias, columns](OpBuilder &builder, NodeNames &names) mutable -> Operation * {
      Value biasValue = bias;
      auto biasType = cast<RankedTensorType>(bias.getType());
      if (biasType.getRank() != 1) {
        // [1, N] -> [N]: the same values under the shape MatMulV2 takes.
        std::optional<std::vector<float>> values = readFloatConstant(bias);
        if (!values)
          return nullptr;
        std::string name = bias->hasOneUse() ? bias.getName().str()
                                             : names.claim(matmul.getName().str() + "/bias");
        biasValue = createFloatConstant(
            builder, bias.getLoc(), name,
            RankedTensorType::get({columns}, biasType.getElementType()), *values,
            isa<DenseResourceElementsAttr>(bias.getValue()));
      }
      OperationState state(matmul.getLoc(), matmul->getName());
      state.addOperands({matmul.getX1(), matmul.getX2(), biasValue});
      state.addTypes(matmul.getY().getType());
      state.addAttributes(matmul->getAttrs());
      return builder.create(state);
    };
    return match;
  }
};

} // namespace

std::unique_ptr<FusionPattern> ascendprec::ascend::createMatMulBiasAddFusionPass() {
  return std::make_unique<MatMulBiasAddFusionPass>();
}
