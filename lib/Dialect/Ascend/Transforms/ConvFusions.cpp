//===- ConvFusions.cpp - ConvBatchnormFusionPass, AABiasaddConvFusion -----===//

#include "FoldedConstants.h"
#include "FusionPatterns.h"

#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// Reads the constant feeding `value` (null value: all zeros of `count`).
std::optional<std::vector<float>> readOrZeros(Value value, size_t count) {
  if (!value)
    return std::vector<float>(count, 0.0f);
  ConstOp constant = constantProducer(value);
  if (!constant)
    return std::nullopt;
  std::optional<std::vector<float>> values = readFloatConstant(constant);
  if (!values || values->size() != count)
    return std::nullopt;
  return values;
}

/// The name a folded constant replacing `old` takes: `old`'s own when the
/// fused op is its only user (it is erased with the match), else a new one.
std::string foldedName(ConstOp old, StringRef fallback, NodeNames &names) {
  if (old && old->hasOneUse())
    return old.getName().str();
  return names.claim(fallback);
}

bool isResource(ConstOp constant) {
  return constant && isa<DenseResourceElementsAttr>(constant.getValue());
}

/// The Conv with `filter` and `bias` in place of its own, typed like `result`.
Operation *rebuildConv(OpBuilder &builder, Conv2DOp conv, Value filter, Value bias,
                       Type resultType) {
  OperationState state(conv.getLoc(), conv->getName());
  state.addOperands({conv.getX(), filter, bias});
  state.addTypes(resultType);
  state.addAttributes(conv->getAttrs());
  return builder.create(state);
}

/// Conv2D (constant filter, constant or no bias) whose only user is an
/// inference BatchNorm with constant statistics: the BatchNorm is folded into
/// the filter and bias, in fp32, before any precision decision.
class ConvBatchnormFusionPass : public FusionPattern {
public:
  StringRef name() const override { return "ConvBatchnormFusionPass"; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    auto conv = dyn_cast<Conv2DOp>(op.getOperation());
    if (!conv)
      return std::nullopt;
    auto bn = dyn_cast_or_null<BatchNormOp>(soleUser(conv.getY()));
    auto filterType = dyn_cast<RankedTensorType>(conv.getFilter().getType());
    if (!bn || !filterType || !filterType.hasStaticShape() ||
        filterType.getElementType() != getElementTypeOrSelf(conv.getY()) ||
        getElementTypeOrSelf(bn.getScale()) != filterType.getElementType())
      return std::nullopt;
    ConstOp filter = constantProducer(conv.getFilter());
    size_t channels = static_cast<size_t>(filterType.getDimSize(0));
    if (!filter || (conv.getBias() && !constantProducer(conv.getBias())))
      return std::nullopt;
    for (Value stat : {bn.getScale(), bn.getOffset(), bn.getMean(), bn.getVariance()})
      if (!constantProducer(stat))
        return std::nullopt;
    FusionMatch match{op, {cast<AscendOpInterface>(bn.getOperation())}, {}};
    match.build = [conv, bn, filter, filterType, channels](OpBuilder &builder,
                                                            NodeNames &names) mutable -> Operation * {
      std::optional<std::vector<float>> weights = readFloatConstant(filter);
      std::optional<std::vector<float>> bias = readOrZeros(conv.getBias(), channels);
      std::optional<std::vector<float>> scale = readOrZeros(bn.getScale(), channels),
                                        offset = readOrZeros(bn.getOffset(), channels),
                                        mean = readOrZeros(bn.getMean(), channels),
                                        variance = readOrZeros(bn.getVariance(), channels);
      if (!weights || !bias || !scale || !offset || !mean || !variance)
        return nullptr; // data not available (an elided resource)
      float epsilon = bn.getEpsilon().convertToFloat();
      size_t perChannel = weights->size() / channels;
      for (size_t c = 0; c < channels; ++c) {
        float factor = (*scale)[c] / std::sqrt((*variance)[c] + epsilon);
        for (size_t i = 0; i < perChannel; ++i)
          (*weights)[c * perChannel + i] *= factor;
        (*bias)[c] = ((*bias)[c] - (*mean)[c]) * factor + (*offset)[c];
      }
      std::string convName = conv.getName().str();
      ConstOp filterConst = createFloatConstant(
          builder, filter.getLoc(), foldedName(filter, convName + "/filter_bn", names),
          filterType, *weights, isResource(filter));
      ConstOp oldBias = constantProducer(conv.getBias());
      auto biasType = RankedTensorType::get({static_cast<int64_t>(channels)},
                                            filterType.getElementType());
      ConstOp biasConst = createFloatConstant(
          builder, oldBias ? oldBias.getLoc() : bn.getLoc(),
          foldedName(oldBias, convName + "/bias_bn", names), biasType, *bias,
          isResource(filter));
      return rebuildConv(builder, conv, filterConst, biasConst, bn.getY().getType());
    };
    return match;
  }
};

/// The per-channel bias a BiasAdd or Add adds to a Conv's NCHW output, as
/// the constant feeding it; null when `user` is not such an op.
ConstOp channelBias(Operation *user, Value convOutput, int64_t channels) {
  Value bias;
  if (auto biasAdd = dyn_cast<BiasAddOp>(user)) {
    if (biasAdd.getX() != convOutput || biasAdd.getDataFormat() != DataFormat::NCHW)
      return {};
    bias = biasAdd.getBias();
  } else if (auto add = dyn_cast<AddOp>(user)) {
    bias = add->getOperand(0) == convOutput ? add->getOperand(1) : add->getOperand(0);
    // [C,1,1] or [1,C,1,1] broadcast along the channel; a [C] would
    // broadcast along W and is not a bias.
    auto type = dyn_cast<RankedTensorType>(bias.getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 3 || type.getRank() > 4 ||
        type.getDimSize(type.getRank() - 3) != channels ||
        type.getDimSize(type.getRank() - 1) != 1 || type.getDimSize(type.getRank() - 2) != 1 ||
        (type.getRank() == 4 && type.getDimSize(0) != 1))
      return {};
  } else {
    return {};
  }
  if (user->getResult(0).getType() != convOutput.getType())
    return {};
  ConstOp constant = constantProducer(bias);
  if (!constant || getElementTypeOrSelf(bias) != getElementTypeOrSelf(convOutput))
    return {};
  return constant;
}

/// Conv2D whose only user adds a constant per-channel bias (BiasAdd, or an
/// Add of a [C,1,1] / [1,C,1,1] constant): the bias joins the Conv (summed
/// with the Conv's own constant bias, if it has one).
class AABiasaddConvFusion : public FusionPattern {
public:
  StringRef name() const override { return "AABiasaddConvFusion"; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    auto conv = dyn_cast<Conv2DOp>(op.getOperation());
    auto outputType = conv ? dyn_cast<RankedTensorType>(conv.getY().getType()) : nullptr;
    if (!outputType || outputType.getRank() != 4 || outputType.isDynamicDim(1))
      return std::nullopt;
    Operation *user = soleUser(conv.getY());
    int64_t channels = outputType.getDimSize(1);
    ConstOp added = user ? channelBias(user, conv.getY(), channels) : ConstOp();
    if (!added || (conv.getBias() && !constantProducer(conv.getBias())))
      return std::nullopt;
    FusionMatch match{op, {cast<AscendOpInterface>(user)}, {}};
    match.build = [conv, user, added, channels](OpBuilder &builder,
                                                NodeNames &names) mutable -> Operation * {
      size_t count = static_cast<size_t>(channels);
      std::optional<std::vector<float>> bias = readOrZeros(conv.getBias(), count);
      std::optional<std::vector<float>> extra = readFloatConstant(added);
      if (!bias || !extra || extra->size() != count)
        return nullptr;
      for (size_t c = 0; c < count; ++c)
        (*bias)[c] += (*extra)[c];
      ConstOp oldBias = constantProducer(conv.getBias());
      // The Add's constant names the bias unless the Conv had one already.
      ConstOp named = oldBias ? oldBias : added;
      std::string name = foldedName(named, conv.getName().str() + "/bias", names);
      auto biasType = RankedTensorType::get({channels}, getElementTypeOrSelf(conv.getY()));
      ConstOp biasConst = createFloatConstant(builder, added.getLoc(), name, biasType, *bias,
                                              isResource(added));
      return rebuildConv(builder, conv, conv.getFilter(), biasConst,
                         user->getResult(0).getType());
    };
    return match;
  }
};

} // namespace

std::unique_ptr<FusionPattern> ascendprec::ascend::createConvBatchnormFusionPass() {
  return std::make_unique<ConvBatchnormFusionPass>();
}

std::unique_ptr<FusionPattern> ascendprec::ascend::createAABiasaddConvFusion() {
  return std::make_unique<AABiasaddConvFusion>();
}
