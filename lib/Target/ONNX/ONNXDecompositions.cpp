//===- ONNXDecompositions.cpp - nodes that become several ascend ops ------===//
//
// ONNX ops or attribute values without an Ascend IR op of their own, written
// with ops that have one, exactly (not approximately): the op that gives the
// node's result carries the node's name, the others `<name>/<role>`, so
// keep_dtype and mixlist entries naming the node still apply.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include <limits>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

NamedAttribute f32Attr(NodeConverter &n, const char *name, float value) {
  return n.builder.getNamedAttr(name, n.builder.getF32FloatAttr(value));
}

Value constant(NodeConverter &n, Type element, double value, const std::string &suffix) {
  return n.makeConst(scalarValue(element, value), suffix);
}

/// `axis` of a rank-`rank` tensor in [0, rank), or nothing.
std::optional<int64_t> normalizedAxis(int64_t axis, int64_t rank) {
  if (axis < 0)
    axis += rank;
  return axis >= 0 && axis < rank ? std::optional(axis) : std::nullopt;
}

/// ArgMax / ArgMin with select_last_index = 1: the first extreme of the
/// axis reversed, counted from the end, (size - 1) - arg(reverse(x)); in
/// int32 (the AI Core's index type), then cast to ONNX's int64.
LogicalResult argLast(NodeConverter &n, StringRef opName) {
  RankedTensorType x = n.inputType(0), y = n.outputType(0);
  if (!x || !y)
    return failure();
  std::optional<int64_t> axis = normalizedAxis(n.intAttr("axis", 0), x.getRank());
  if (!axis)
    return failure();
  int64_t size = x.getDimSize(*axis);
  if (ShapedType::isDynamic(size)) {
    n.rejection = "select_last_index=1 on an axis of unknown size";
    return failure();
  }
  int64_t rank = x.getRank();
  SmallVector<int64_t> begin(rank, 0), end(rank, std::numeric_limits<int64_t>::max()),
      strides(rank, 1);
  begin[*axis] = -1;
  end[*axis] = std::numeric_limits<int64_t>::min();
  strides[*axis] = -1;
  Builder &b = n.builder;
  Value reversed = buildValue(n, "ascend.StridedSlice", {n.input(0)}, x,
                              {b.getNamedAttr("begin", b.getDenseI64ArrayAttr(begin)),
                               b.getNamedAttr("end", b.getDenseI64ArrayAttr(end)),
                               b.getNamedAttr("strides", b.getDenseI64ArrayAttr(strides))},
                              "/reverse");
  RankedTensorType index = y.clone(b.getI32Type());
  Value arg = buildValue(n, opName, {reversed}, index,
                         {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
                          b.getNamedAttr("keep_dims", b.getBoolAttr(n.intAttr("keepdims", 1)))},
                         "/first_of_reversed");
  Value fromEnd = buildValue(n, "ascend.Sub", {constant(n, b.getI32Type(), size - 1, "last"), arg},
                             index, {}, "/last_index");
  return setResult(n, buildValue(n, "ascend.Cast", {fromEnd}, y));
}

/// Selu with its own constants: gamma * Elu(x, alpha).
LogicalResult selu(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  Value elu = buildValue(n, "ascend.Elu", {n.input(0)}, x,
                         {f32Attr(n, "alpha", n.floatAttr("alpha", 1.67326319f))}, "/elu");
  Value gamma = constant(n, x.getElementType(), n.floatAttr("gamma", 1.05070102f), "gamma");
  return setResult(n, buildValue(n, "ascend.Mul", {elu, gamma}, x));
}

/// Xor on bools: (a or b) and not (a and b). CANN's ONNX parser computes it
/// as Cast(int32) -> BitwiseXor -> Cast(bool); on bools both give the same
/// values, and the logical ops need no casts.
LogicalResult logicalXor(NodeConverter &n) {
  RankedTensorType y = n.outputType(0);
  if (!y || !y.getElementType().isInteger(1))
    return failure();
  Value either = buildValue(n, "ascend.LogicalOr", {n.input(0), n.input(1)}, y, {}, "/or");
  Value both = buildValue(n, "ascend.LogicalAnd", {n.input(0), n.input(1)}, y, {}, "/and");
  Value notBoth = buildValue(n, "ascend.LogicalNot", {both}, y, {}, "/not_and");
  return setResult(n, buildValue(n, "ascend.LogicalAnd", {either, notBoth}, y));
}

/// Celu: alpha * Elu(x / alpha, 1).
LogicalResult celu(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  float alpha = n.floatAttr("alpha", 1.0f);
  if (!x || alpha == 0.0f)
    return failure();
  Type element = x.getElementType();
  Value scaled = buildValue(n, "ascend.Mul", {n.input(0), constant(n, element, 1.0 / alpha, "inv_alpha")},
                            x, {}, "/scaled");
  Value elu = buildValue(n, "ascend.Elu", {scaled}, x, {f32Attr(n, "alpha", 1.0f)}, "/elu");
  return setResult(n, buildValue(n, "ascend.Mul", {elu, constant(n, element, alpha, "alpha")}, x));
}

/// IsInf of one sign: IsInf(x) and x > 0 (or x < 0).
LogicalResult isInfOneSign(NodeConverter &n) {
  bool negative = n.intAttr("detect_negative", 1) != 0;
  bool positive = n.intAttr("detect_positive", 1) != 0;
  RankedTensorType x = n.inputType(0);
  if (!x || negative == positive)
    return failure();
  RankedTensorType flags = x.clone(n.builder.getI1Type());
  Value inf = buildValue(n, "ascend.IsInf", {n.input(0)}, flags, {}, "/is_inf");
  Value zero = constant(n, x.getElementType(), 0.0, "zero");
  Value sign = buildValue(n, positive ? "ascend.Greater" : "ascend.Less", {n.input(0), zero}, flags,
                          {}, positive ? "/positive" : "/negative");
  return setResult(n, buildValue(n, "ascend.LogicalAnd", {inf, sign}, flags));
}

/// Shrink: x < -lambd ? x + bias : (x > lambd ? x - bias : 0).
LogicalResult shrink(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x || !isa<FloatType>(x.getElementType()))
    return failure();
  Type element = x.getElementType();
  float lambd = n.floatAttr("lambd", 0.5f), bias = n.floatAttr("bias", 0.0f);
  RankedTensorType flags = x.clone(n.builder.getI1Type());
  Value below = buildValue(n, "ascend.Less", {n.input(0), constant(n, element, -lambd, "neg_lambd")},
                           flags, {}, "/below");
  Value above = buildValue(n, "ascend.Greater", {n.input(0), constant(n, element, lambd, "lambd")},
                           flags, {}, "/above");
  Value biasValue = constant(n, element, bias, "bias");
  Value plus = buildValue(n, "ascend.Add", {n.input(0), biasValue}, x, {}, "/plus_bias");
  Value minus = buildValue(n, "ascend.Sub", {n.input(0), biasValue}, x, {}, "/minus_bias");
  Value upper = buildValue(n, "ascend.Select", {above, minus, constant(n, element, 0.0, "zero")}, x,
                           {}, "/upper");
  return setResult(n, buildValue(n, "ascend.Select", {below, plus, upper}, x));
}

/// The mean and (biased) variance of input 0 over `axes`, with the reduced
/// dimensions kept as 1, and the input minus its mean; the variance is taken
/// around the mean rather than as E[x^2] - E[x]^2, which loses digits.
struct Moments {
  Value mean, centered, variance;
  RankedTensorType stat;
};
Moments moments(NodeConverter &n, RankedTensorType x, ArrayRef<int64_t> axes,
                const std::string &meanRole, const std::string &varianceRole) {
  SmallVector<int64_t> statShape(x.getShape());
  for (int64_t axis : axes)
    statShape[axis] = 1;
  Moments m;
  m.stat = RankedTensorType::get(statShape, x.getElementType());
  Builder &b = n.builder;
  SmallVector<NamedAttribute> reduce = {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(axes)),
                                        b.getNamedAttr("keep_dims", b.getBoolAttr(true))};
  m.mean = buildValue(n, "ascend.ReduceMean", {n.input(0)}, m.stat, reduce, "/" + meanRole);
  m.centered = buildValue(n, "ascend.Sub", {n.input(0), m.mean}, x, {}, "/centered");
  Value square = buildValue(n, "ascend.Mul", {m.centered, m.centered}, x, {}, "/square");
  m.variance = buildValue(n, "ascend.ReduceMean", {square}, m.stat, reduce, "/" + varianceRole);
  return m;
}

/// MeanVarianceNormalization: (x - mean) / (sqrt(mean((x - mean)^2)) + 1e-9)
/// over `axes` (ONNX's function body, with the variance taken around the
/// mean rather than as E[x^2] - E[x]^2, which loses digits).
LogicalResult meanVarianceNorm(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x || !isa<FloatType>(x.getElementType()))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t axis : n.intsAttr("axes").value_or(std::vector<int64_t>{0, 2, 3})) {
    std::optional<int64_t> at = normalizedAxis(axis, x.getRank());
    if (!at)
      return failure();
    axes.push_back(*at);
  }
  Moments m = moments(n, x, axes, "mean", "variance");
  Value deviation = buildValue(n, "ascend.Sqrt", {m.variance}, m.stat, {}, "/std");
  Value safe = buildValue(n, "ascend.Add", {deviation, constant(n, x.getElementType(), 1e-9, "epsilon")},
                          m.stat, {}, "/std_eps");
  return setResult(n, buildValue(n, "ascend.RealDiv", {m.centered, safe}, x));
}

/// Hardmax: OneHot(ArgMax(x, axis), size of axis) in x's dtype (ArgMax picks
/// the first maximum, as Hardmax does).
LogicalResult hardmax(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  int64_t rank = x.getRank();
  std::optional<int64_t> axis = normalizedAxis(n.intAttr("axis", n.opset >= 13 ? -1 : 1), rank);
  if (!axis)
    return failure();
  // Before opset 13 Hardmax flattens from `axis`: the same only on the last.
  if (n.opset < 13 && *axis != rank - 1) {
    n.rejection = "the opset<13 form that flattens from an axis other than the last";
    return failure();
  }
  int64_t size = x.getDimSize(*axis);
  if (ShapedType::isDynamic(size)) {
    n.rejection = "an axis of unknown size";
    return failure();
  }
  Builder &b = n.builder;
  SmallVector<int64_t> shape(x.getShape());
  shape.erase(shape.begin() + *axis);
  Value arg = buildValue(n, "ascend.ArgMaxV2", {n.input(0)},
                         RankedTensorType::get(shape, b.getI32Type()),
                         {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
                          b.getNamedAttr("keep_dims", b.getBoolAttr(false))},
                         "/argmax");
  Type element = x.getElementType();
  return setResult(n, buildValue(n, "ascend.OneHot",
                              {arg, constant(n, b.getI32Type(), size, "depth"),
                               constant(n, element, 1.0, "on_value"),
                               constant(n, element, 0.0, "off_value")},
                              x, {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis))}));
}

/// Inference-mode Dropout with its mask output: the input, and a mask that
/// is true everywhere.
LogicalResult dropoutWithMask(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x || !x.hasStaticShape())
    return failure();
  if (n.hasInput(2)) {
    std::optional<DenseElementsAttr> training = n.constantInput(2);
    if (!training || !training->isSplat() || training->getSplatValue<bool>()) {
      n.rejection = "training_mode not known to be false";
      return failure();
    }
  }
  Value mask = n.makeConst(DenseElementsAttr::get(x.clone(n.builder.getI1Type()), true), "mask");
  n.results = {n.input(0), mask};
  return success(n.results.front() != nullptr);
}

/// PRelu before opset 7 applied a 1-D slope per channel (dimension 1):
/// reshaped to [C, 1, ...] it broadcasts the same way.
LogicalResult legacyPRelu(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), slope = n.inputType(1);
  if (n.opset >= 7 || !x || !slope || x.getRank() < 3 || slope.getRank() != 1 ||
      slope.getDimSize(0) != x.getDimSize(1))
    return failure();
  SmallVector<int64_t> shape(x.getRank() - 1, 1);
  shape[0] = slope.getDimSize(0);
  Value perChannel = buildValue(n, "ascend.Reshape", {n.input(1)},
                                RankedTensorType::get(shape, slope.getElementType()), {}, "/slope");
  return setResult(n, buildValue(n, "ascend.PRelu", {n.input(0), perChannel}, x));
}

/// Training-mode BatchNormalization: normalizes with the batch's own mean
/// and (biased) variance over every axis but the channel, and, when asked
/// for, the running statistics input * momentum + batch * (1 - momentum).
LogicalResult trainingBatchNorm(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), scale = n.inputType(1);
  if (!n.intAttr("training_mode", 0) || !x || !scale || x.getRank() < 2 ||
      scale.getRank() != 1 || !isa<FloatType>(x.getElementType()))
    return failure();
  Type element = x.getElementType();
  SmallVector<int64_t> axes = {0};
  SmallVector<int64_t> channelShape(x.getRank() - 1, 1);
  for (int64_t axis = 2; axis < x.getRank(); ++axis)
    axes.push_back(axis);
  channelShape[0] = x.getDimSize(1);
  RankedTensorType perChannel = RankedTensorType::get(channelShape, element);
  RankedTensorType vector = RankedTensorType::get({x.getDimSize(1)}, element);
  Moments m = moments(n, x, axes, "batch_mean", "batch_variance");
  RankedTensorType stat = m.stat;
  Value mean = m.mean, centered = m.centered, variance = m.variance;
  Value shifted = buildValue(
      n, "ascend.Add", {variance, constant(n, element, n.floatAttr("epsilon", 1e-5f), "epsilon")},
      stat, {}, "/variance_eps");
  Value deviation = buildValue(n, "ascend.Sqrt", {shifted}, stat, {}, "/std");
  Value normalized = buildValue(n, "ascend.RealDiv", {centered, deviation}, x, {}, "/normalized");
  Value gamma = buildValue(n, "ascend.Reshape", {n.input(1)}, perChannel, {}, "/scale_per_channel");
  Value beta = buildValue(n, "ascend.Reshape", {n.input(2)}, perChannel, {}, "/bias_per_channel");
  Value scaled = buildValue(n, "ascend.Mul", {normalized, gamma}, x, {}, "/scaled");
  Value y = buildValue(n, "ascend.Add", {scaled, beta}, x);
  if (!y)
    return failure();
  n.results = {y};
  float momentumValue = n.floatAttr("momentum", 0.9f);
  Value momentum = constant(n, element, momentumValue, "momentum");
  Value complement = constant(n, element, 1.0 - momentumValue, "one_minus_momentum");
  auto running = [&](unsigned input, Value batch, const std::string &role) {
    Value flat = buildValue(n, "ascend.Reshape", {batch}, vector, {}, "/" + role + "_batch");
    Value old = buildValue(n, "ascend.Mul", {n.input(input), momentum}, vector, {},
                           "/" + role + "_kept");
    Value fresh = buildValue(n, "ascend.Mul", {flat, complement}, vector, {}, "/" + role + "_new");
    return buildValue(n, "ascend.Add", {old, fresh}, vector, {}, "/" + role);
  };
  for (unsigned i = 1; i < 3 && static_cast<int>(i) < n.node.output_size(); ++i) {
    if (n.node.output(i).empty()) {
      n.results.push_back(Value());
      continue;
    }
    Value value = running(i + 2, i == 1 ? mean : variance, i == 1 ? "running_mean" : "running_var");
    if (!value)
      return failure();
    n.results.push_back(value);
  }
  return success();
}

} // namespace

LogicalResult ascendprec::onnximport::convertDecomposedOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if ((type == "ArgMax" || type == "ArgMin") && n.intAttr("select_last_index", 0))
    return argLast(n, type == "ArgMax" ? "ascend.ArgMaxV2" : "ascend.ArgMin");
  if (type == "Selu")
    return selu(n);
  if (type == "Celu")
    return celu(n);
  if (type == "Xor")
    return logicalXor(n);
  if (type == "IsInf")
    return isInfOneSign(n);
  if (type == "Shrink")
    return shrink(n);
  if (type == "MeanVarianceNormalization")
    return meanVarianceNorm(n);
  if (type == "Hardmax")
    return hardmax(n);
  if (type == "Dropout")
    return dropoutWithMask(n);
  if (type == "PRelu")
    return legacyPRelu(n);
  if (type == "BatchNormalization")
    return trainingBatchNorm(n);
  return failure();
}
