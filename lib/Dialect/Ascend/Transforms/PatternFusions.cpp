//===- PatternFusions.cpp - LayerNorm, Gelu, HardSwish, Softmax -----------===//
//
// The decomposed forms PyTorch and Paddle export, fused back into the one op
// CANN has a kernel for. The fused op takes the node name of the op whose
// output it produces (the pattern's last op) and absorbs the others.
//
//===----------------------------------------------------------------------===//

#include "FoldedConstants.h"
#include "FusionPatterns.h"

#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

namespace {

/// The single value of a constant whose elements are all equal (a scalar,
/// a splat, or a one-element tensor), if `value` is one.
std::optional<float> scalarConstant(Value value) {
  ConstOp constant = constantProducer(value);
  if (!constant)
    return std::nullopt;
  std::optional<std::vector<float>> values = readFloatConstant(constant);
  if (!values || values->empty() ||
      llvm::any_of(*values, [&](float v) { return v != values->front(); }))
    return std::nullopt;
  return values->front();
}

bool isConstant(Value value, float expected, float tolerance = 1e-4f) {
  std::optional<float> actual = scalarConstant(value);
  return actual && std::fabs(*actual - expected) <= tolerance;
}

/// For a two-operand op one of whose operands is `known`: the other one.
Value otherOperand(Operation *op, Value known) {
  if (op->getNumOperands() != 2)
    return {};
  if (op->getOperand(0) == known)
    return op->getOperand(1);
  return op->getOperand(1) == known ? op->getOperand(0) : Value();
}

template <typename OpT>
OpT soleUserOf(Value value) {
  return dyn_cast_or_null<OpT>(soleUser(value));
}

/// Whether a reduction covers exactly the last axis of its input and keeps it.
template <typename ReduceT>
bool reducesLastAxis(ReduceT reduce) {
  auto type = dyn_cast<RankedTensorType>(reduce.getX().getType());
  ArrayRef<int64_t> axes = reduce.getAxes();
  return type && reduce.getKeepDims() && axes.size() == 1 &&
         (axes[0] == -1 || axes[0] == type.getRank() - 1);
}

AscendOpInterface asAscend(Operation *op) { return cast<AscendOpInterface>(op); }

/// A new op of type `OpT` named like `anchor`, typed like `root`'s result.
OperationState stateLike(Operation *anchor, StringRef opName) {
  OperationState state(anchor->getLoc(), opName);
  state.addAttribute("name", anchor->getAttr("name"));
  if (Attribute mode = anchor->getAttr("impl_mode"))
    state.addAttribute("impl_mode", mode);
  return state;
}

/// A match whose result is `last`'s: the fused op takes its name.
FusionMatch endingAt(Operation *last, StringRef fusedOpType) {
  FusionMatch match;
  match.anchor = asAscend(last);
  match.root = last;
  match.fusedOpType = fusedOpType;
  return match;
}

/// The build step of a fusion into one unary op `opName` on `x`.
std::function<Operation *(OpBuilder &, NodeNames &)> buildUnary(Operation *last,
                                                                StringRef opName, Value x) {
  return [=](OpBuilder &builder, NodeNames &) -> Operation * {
    OperationState state = stateLike(last, opName);
    state.addOperands(x);
    state.addTypes(x.getType());
    return builder.create(state);
  };
}

/// The decomposed LayerNorm (opset < 17 torch.onnx.export, Paddle):
///   mean = ReduceMean(x, -1); d = x - mean; var = ReduceMean(d ^ 2, -1)
///   y = d / Sqrt(var + eps) * gamma + beta
class LayerNormFusion : public FusionPattern {
public:
  StringRef name() const override { return kLayerNormFusion; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    // Anchored at the first ReduceMean; the last Add names the result.
    auto mean = dyn_cast<ReduceMeanOp>(op.getOperation());
    if (!mean || !reducesLastAxis(mean))
      return std::nullopt;
    Value x = mean.getX();
    auto sub = soleUserOf<SubOp>(mean.getY());
    if (!sub || sub->getOperand(0) != x || sub->getOperand(1) != mean.getY())
      return std::nullopt;
    Value centered = sub->getResult(0);
    PowOp pow;
    RealDivOp div;
    for (Operation *user : centered.getUsers()) {
      if (auto p = dyn_cast<PowOp>(user); p && p->getOperand(0) == centered)
        pow = p;
      else if (auto d = dyn_cast<RealDivOp>(user); d && d->getOperand(0) == centered)
        div = d;
      else
        return std::nullopt;
    }
    if (!pow || !div || !isConstant(pow->getOperand(1), 2.0f))
      return std::nullopt;
    auto variance = soleUserOf<ReduceMeanOp>(pow->getResult(0));
    if (!variance || !reducesLastAxis(variance))
      return std::nullopt;
    auto addEps = soleUserOf<AddOp>(variance.getY());
    std::optional<float> epsilon =
        addEps ? scalarConstant(otherOperand(addEps, variance.getY())) : std::nullopt;
    auto sqrt = addEps ? soleUserOf<SqrtOp>(addEps->getResult(0)) : SqrtOp();
    if (!epsilon || !sqrt || div->getOperand(1) != sqrt->getResult(0))
      return std::nullopt;
    auto scale = soleUserOf<MulOp>(div->getResult(0));
    auto shift = scale ? soleUserOf<AddOp>(scale->getResult(0)) : AddOp();
    if (!shift)
      return std::nullopt;
    Value gamma = otherOperand(scale, div->getResult(0));
    Value beta = otherOperand(shift, scale->getResult(0));
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t depth = xType.getDimSize(xType.getRank() - 1);
    auto isParam = [&](Value v) {
      auto type = v ? dyn_cast<RankedTensorType>(v.getType()) : nullptr;
      return type && constantProducer(v) && type.hasStaticShape() &&
             type.getNumElements() == depth && type.getDimSize(type.getRank() - 1) == depth &&
             type.getElementType() == xType.getElementType();
    };
    if (ShapedType::isDynamic(depth) || !isParam(gamma) || !isParam(beta) ||
        shift->getResult(0).getType() != x.getType())
      return std::nullopt;

    FusionMatch match = endingAt(shift, "LayerNorm");
    match.absorbed = {asAscend(mean), asAscend(sub), asAscend(pow), asAscend(variance),
                      asAscend(addEps), asAscend(sqrt), asAscend(div), asAscend(scale)};
    Operation *anchor = shift;
    Type meanType = mean.getY().getType(), varianceType = variance.getY().getType();
    float eps = *epsilon;
    match.build = [=](OpBuilder &builder, NodeNames &names) -> Operation * {
      auto paramType = RankedTensorType::get({depth}, xType.getElementType());
      auto asVector = [&](Value param, StringRef suffix) -> Value {
        if (cast<RankedTensorType>(param.getType()).getRank() == 1)
          return param;
        ConstOp constant = constantProducer(param);
        std::optional<std::vector<float>> values = readFloatConstant(constant);
        if (!values)
          return {};
        std::string name = constant->hasOneUse()
                               ? constant.getName().str()
                               : names.claim(asAscend(anchor).getNodeName().str() + suffix.str());
        return createFloatConstant(builder, constant.getLoc(), name, paramType, *values,
                                   isa<DenseResourceElementsAttr>(constant.getValue()));
      };
      Value gammaVector = asVector(gamma, "/gamma"), betaVector = asVector(beta, "/beta");
      if (!gammaVector || !betaVector)
        return nullptr;
      OperationState state = stateLike(anchor, LayerNormOp::getOperationName());
      state.addOperands({x, gammaVector, betaVector});
      state.addTypes({x.getType(), meanType, varianceType});
      int64_t axis = xType.getRank() - 1;
      state.addAttribute("begin_norm_axis", builder.getI64IntegerAttr(axis));
      state.addAttribute("begin_params_axis", builder.getI64IntegerAttr(axis));
      state.addAttribute("epsilon", builder.getF32FloatAttr(eps));
      return builder.create(state);
    };
    return match;
  }
};

/// GELU in its exact (erf) form, as torch exports nn.GELU():
///   y = x * (Erf(x / sqrt(2)) + 1) * 0.5   (or x * 0.5 * (...), x * 0.7071...)
class GeluFusion : public FusionPattern {
public:
  StringRef name() const override { return kGeluFusion; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    auto erf = dyn_cast<ErfOp>(op.getOperation());
    if (!erf)
      return std::nullopt;
    // x / sqrt(2) or x * (1 / sqrt(2))
    Operation *scaleIn = erf.getX().getDefiningOp();
    Value x;
    if (auto div = dyn_cast_or_null<RealDivOp>(scaleIn);
        div && isConstant(div->getOperand(1), std::sqrt(2.0f), 1e-3f))
      x = div->getOperand(0);
    else if (auto mul = dyn_cast_or_null<MulOp>(scaleIn)) {
      for (unsigned i = 0; i < 2 && !x; ++i)
        if (isConstant(mul->getOperand(1 - i), 1.0f / std::sqrt(2.0f), 1e-3f))
          x = mul->getOperand(i);
    }
    if (!x || !scaleIn->hasOneUse())
      return std::nullopt;
    auto plusOne = soleUserOf<AddOp>(erf.getY());
    if (!plusOne || !isConstant(otherOperand(plusOne, erf.getY()), 1.0f))
      return std::nullopt;
    // Two Muls remain: by x and by 0.5, in either order.
    auto first = soleUserOf<MulOp>(plusOne->getResult(0));
    if (!first)
      return std::nullopt;
    Value firstOther = otherOperand(first, plusOne->getResult(0));
    MulOp halfMul;
    Operation *last = first;
    if (firstOther == x) {
      halfMul = soleUserOf<MulOp>(first->getResult(0));
      if (!halfMul || !isConstant(otherOperand(halfMul, first->getResult(0)), 0.5f))
        return std::nullopt;
      last = halfMul;
    } else {
      halfMul = firstOther.getDefiningOp<MulOp>(); // (x * 0.5) * (erf + 1)
      if (!halfMul || !halfMul->hasOneUse() || otherOperand(halfMul, x) == Value() ||
          !isConstant(otherOperand(halfMul, x), 0.5f))
        return std::nullopt;
    }
    if (last->getResult(0).getType() != x.getType())
      return std::nullopt;
    FusionMatch match = endingAt(last, "Gelu");
    for (Operation *part : {scaleIn, erf.getOperation(), plusOne.getOperation(),
                            first.getOperation(), halfMul.getOperation()})
      if (part != last)
        match.absorbed.push_back(asAscend(part));
    match.build = buildUnary(last, GeluOp::getOperationName(), x);
    return match;
  }
};

/// x * HardSigmoid(x) with HardSigmoid's alpha = 1/6, beta = 0.5 (how
/// MobileNetV3 exports hard-swish without the HardSwish op).
class HardSwishFusion : public FusionPattern {
public:
  StringRef name() const override { return kHardSwishFusion; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    auto gate = dyn_cast<HardSigmoidOp>(op.getOperation());
    if (!gate || std::fabs(gate.getAlpha().convertToFloat() - 1.0f / 6) > 1e-4f ||
        std::fabs(gate.getBeta().convertToFloat() - 0.5f) > 1e-6f)
      return std::nullopt;
    Value x = gate.getX();
    auto mul = soleUserOf<MulOp>(gate.getY());
    if (!mul || otherOperand(mul, gate.getY()) != x || mul->getResult(0).getType() != x.getType())
      return std::nullopt;
    FusionMatch match = endingAt(mul, "HardSwish");
    match.absorbed = {asAscend(gate)};
    match.build = buildUnary(mul, HardSwishOp::getOperationName(), x);
    return match;
  }
};

/// Exp(x) / ReduceSum(Exp(x), axis, keep_dims), optionally on x - ReduceMax(x)
/// over the same axis (the stable form; softmax(x - max) = softmax(x)).
class SoftmaxFusion : public FusionPattern {
public:
  StringRef name() const override { return kSoftmaxFusion; }

  std::optional<FusionMatch> match(AscendOpInterface op) const override {
    auto exp = dyn_cast<ExpOp>(op.getOperation());
    if (!exp)
      return std::nullopt;
    ReduceSumOp sum;
    RealDivOp div;
    for (Operation *user : exp.getY().getUsers()) {
      if (auto s = dyn_cast<ReduceSumOp>(user))
        sum = s;
      else if (auto d = dyn_cast<RealDivOp>(user); d && d->getOperand(0) == exp.getY())
        div = d;
      else
        return std::nullopt;
    }
    if (!sum || !div || !sum.getKeepDims() || sum.getAxes().size() != 1 ||
        !sum->hasOneUse() || div->getOperand(1) != sum.getY())
      return std::nullopt;
    auto type = cast<RankedTensorType>(exp.getX().getType());
    int64_t axis = sum.getAxes()[0] < 0 ? sum.getAxes()[0] + type.getRank() : sum.getAxes()[0];
    Value x = exp.getX();
    FusionMatch match = endingAt(div, "SoftmaxV2");
    // The stable form: x - ReduceMax(x) over the same axis.
    if (auto sub = x.getDefiningOp<SubOp>(); sub && sub->hasOneUse())
      if (auto max = sub->getOperand(1).getDefiningOp<ReduceMaxOp>();
          max && max->hasOneUse() && max.getX() == sub->getOperand(0) && max.getKeepDims() &&
          max.getAxes().size() == 1 &&
          (max.getAxes()[0] < 0 ? max.getAxes()[0] + type.getRank() : max.getAxes()[0]) == axis) {
        match.absorbed = {asAscend(max), asAscend(sub)};
        x = sub->getOperand(0);
      }
    match.absorbed.append({asAscend(exp), asAscend(sum)});
    if (div->getResult(0).getType() != x.getType())
      return std::nullopt;
    Operation *last = div;
    match.build = [=](OpBuilder &builder, NodeNames &) -> Operation * {
      OperationState state = stateLike(last, SoftmaxV2Op::getOperationName());
      state.addOperands(x);
      state.addTypes(x.getType());
      state.addAttribute("axes", builder.getDenseI64ArrayAttr({axis}));
      return builder.create(state);
    };
    return match;
  }
};

} // namespace

std::unique_ptr<FusionPattern> ascendprec::ascend::createLayerNormFusion() {
  return std::make_unique<LayerNormFusion>();
}
std::unique_ptr<FusionPattern> ascendprec::ascend::createGeluFusion() {
  return std::make_unique<GeluFusion>();
}
std::unique_ptr<FusionPattern> ascendprec::ascend::createHardSwishFusion() {
  return std::make_unique<HardSwishFusion>();
}
std::unique_ptr<FusionPattern> ascendprec::ascend::createSoftmaxFusion() {
  return std::make_unique<SoftmaxFusion>();
}
