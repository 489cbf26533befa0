//===- MatMulFusions.cpp - MatMulBiasAddFusionPass ------------------------===//

#include "FoldedConstants.h"
#include "FusionPatterns.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// The constant bias `user` adds to a matrix product's [..., M, N] output:
/// a BiasAdd, or an Add of a constant whose last dimension is N and every
/// other dimension 1 ([N], [1, N], [1, 1, N]): it broadcasts along the rows.
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
  auto productType = cast<RankedTensorType>(product.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 1 ||
      type.getRank() > productType.getRank() ||
      type.getDimSize(type.getRank() - 1) != columns ||
      type.getNumElements() != columns || user->getResult(0).getType() != product.getType())
    return {};
  ConstOp constant = constantProducer(bias);
  if (!constant || type.getElementType() != getElementTypeOrSelf(product))
    return {};
  return constant;
}

/// MatMulV2 or BatchMatMulV2 without a bias whose only user adds a constant
/// [N] bias: the bias joins the product (both take it as their third input).
class MatMulBiasAddFusionPass : public FusionPattern {
public:
  StringRef name() const override { return "MatMulBiasAddFusionPass"; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    if (!isa<MatMulV2Op, BatchMatMulV2Op>(op.getOperation()) || op->getNumOperands() != 2)
      return std::nullopt; // a third operand is the bias it already has
    Value product = op->getResult(0);
    auto type = dyn_cast<RankedTensorType>(product.getType());
    if (!type || type.getRank() < 2 || type.isDynamicDim(type.getRank() - 1))
      return std::nullopt;
    Operation *user = soleUser(product);
    int64_t columns = type.getDimSize(type.getRank() - 1);
    ConstOp bias = user ? rowBias(user, product, columns) : ConstOp();
    if (!bias)
      return std::nullopt;
    FusionMatch match{op, {cast<AscendOpInterface>(user)}, {}};
    Operation *matmul = op.getOperation();
    match.build = [matmul, bias, columns](OpBuilder &builder,
                                          NodeNames &names) mutable -> Operation * {
      Value biasValue = bias;
      auto biasType = cast<RankedTensorType>(bias.getType());
      if (biasType.getRank() != 1) {
        // [1, N] -> [N]: the same values under the shape the product takes.
        std::optional<std::vector<float>> values = readFloatConstant(bias);
        if (!values)
          return nullptr;
        std::string name = bias->hasOneUse()
                               ? bias.getName().str()
                               : names.claim(cast<AscendOpInterface>(matmul).getNodeName().str() +
                                             "/bias");
        biasValue = createFloatConstant(
            builder, bias.getLoc(), name,
            RankedTensorType::get({columns}, biasType.getElementType()), *values,
            isa<DenseResourceElementsAttr>(bias.getValue()));
      }
      OperationState state(matmul->getLoc(), matmul->getName());
      state.addOperands({matmul->getOperand(0), matmul->getOperand(1), biasValue});
      state.addTypes(matmul->getResult(0).getType());
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
