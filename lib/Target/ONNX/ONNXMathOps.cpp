//===- ONNXMathOps.cpp - elementwise, activation, softmax, norms, reduce --===//

#include "ONNXImporter.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

LogicalResult single(NodeConverter &n, Operation *op) {
  if (!op)
    return failure();
  n.results = {op->getResult(0)};
  return success();
}

/// An elementwise op's result has its input's type. Where ONNX shape
/// inference lost track of a dynamic shape it gives no type, or one that
/// only disagrees in which dimensions are known: a dynamic dimension never
/// turns such an op generic.
LogicalResult unary(NodeConverter &n, StringRef opName,
                    ArrayRef<NamedAttribute> attrs = {}) {
  RankedTensorType type = n.outputType(0), input = n.inputType(0);
  if (input && (!type || (type.getElementType() == input.getElementType() &&
                          succeeded(verifyCompatibleShape(type, input)))))
    type = input;
  return single(n, buildOp(n, opName, {n.input(0)}, {type}, attrs));
}

/// The same for two inputs: their broadcast type, when both are ranked.
LogicalResult binary(NodeConverter &n, StringRef opName) {
  if (n.numInputs() != 2)
    return failure();
  RankedTensorType type = n.outputType(0);
  RankedTensorType a = n.inputType(0), b = n.inputType(1);
  SmallVector<int64_t> shape;
  if (a && b && a.getElementType() == b.getElementType() &&
      OpTrait::util::getBroadcastedShape(a.getShape(), b.getShape(), shape))
    type = refineType(type, RankedTensorType::get(shape, a.getElementType()));
  return single(n, buildOp(n, opName, {n.input(0), n.input(1)}, {type}));
}

/// Pow: a float base with an exponent of another type (ONNX allows an
/// integer exponent) gets the exponent cast to the base's type, which is
/// exact for the integers a float can hold; an integer base with a float
/// exponent computes in the exponent's type.
LogicalResult pow(NodeConverter &n) {
  RankedTensorType base = n.inputType(0), exponent = n.inputType(1);
  if (!base || !exponent)
    return failure();
  Type element = base.getElementType();
  if (exponent.getElementType() == element)
    return binary(n, "ascend.Pow");
  if (!isa<FloatType>(element)) {
    // An integer base with a float exponent: CANN's Pow takes one dtype, so
    // the base is cast to the exponent's float type and the power back to
    // the integer type (toward zero, as ONNX's Cast), which is exact for
    // the integers fp32 holds (below 2^24).
    Type floatType = exponent.getElementType();
    if (!isa<FloatType>(floatType)) {
      n.rejection = "an integer base with an integer exponent of another type";
      return failure();
    }
    RankedTensorType result = n.outputType(0);
    SmallVector<int64_t> shape;
    if (!result && OpTrait::util::getBroadcastedShape(base.getShape(), exponent.getShape(), shape))
      result = RankedTensorType::get(shape, element);
    if (!result)
      return failure();
    Value widened = buildValue(n, "ascend.Cast", {n.input(0)}, base.clone(floatType), {}, "/base");
    Value power = widened ? buildValue(n, "ascend.Pow", {widened, n.input(1)},
                                       result.clone(floatType), {}, "/power")
                          : Value();
    return single(n, power ? buildOp(n, "ascend.Cast", {power}, {result}) : nullptr);
  }
  Value cast = buildValue(n, "ascend.Cast", {n.input(1)}, exponent.clone(element), {}, "/exponent");
  RankedTensorType type = n.outputType(0);
  SmallVector<int64_t> shape;
  if (!type && OpTrait::util::getBroadcastedShape(base.getShape(), exponent.getShape(), shape))
    type = RankedTensorType::get(shape, element);
  return single(n, cast ? buildOp(n, "ascend.Pow", {n.input(0), cast}, {type}) : nullptr);
}

/// Broadcast shape of ranked `types`, if they broadcast.
std::optional<SmallVector<int64_t>> broadcastShape(ArrayRef<RankedTensorType> types) {
  SmallVector<int64_t> shape;
  for (RankedTensorType type : types) {
    if (!type)
      return std::nullopt;
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(shape, type.getShape(), next))
      return std::nullopt;
    shape = next;
  }
  return shape;
}

/// Equal, Less, ...: a bool result of the inputs' broadcast shape.
LogicalResult compare(NodeConverter &n, StringRef opName) {
  if (n.numInputs() != 2)
    return failure();
  RankedTensorType type = n.outputType(0);
  if (!type)
    if (auto shape = broadcastShape({n.inputType(0), n.inputType(1)}))
      type = RankedTensorType::get(*shape, n.builder.getI1Type());
  return single(n, buildOp(n, opName, {n.input(0), n.input(1)}, {type}));
}

/// Where -> Select.
LogicalResult select(NodeConverter &n) {
  if (n.numInputs() != 3)
    return failure();
  RankedTensorType type = n.outputType(0);
  if (!type && n.inputType(1))
    if (auto shape = broadcastShape({n.inputType(0), n.inputType(1), n.inputType(2)}))
      type = RankedTensorType::get(*shape, n.inputType(1).getElementType());
  return single(n, buildOp(n, "ascend.Select", {n.input(0), n.input(1), n.input(2)}, {type}));
}

/// Softmax / LogSoftmax: before opset 13 they flatten from `axis`, which
/// matches ascend's per-axis form only when `axis` is the last dimension.
LogicalResult softmax(NodeConverter &n, StringRef opName) {
  RankedTensorType type = n.inputType(0);
  if (!type)
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = n.intAttr("axis", n.opset >= 13 ? -1 : 1);
  if (axis < 0)
    axis += rank;
  if (n.opset < 13 && axis != rank - 1)
    return failure();
  return unary(n, opName,
               {n.builder.getNamedAttr("axes", n.builder.getDenseI64ArrayAttr({axis}))});
}

LogicalResult clip(NodeConverter &n) {
  RankedTensorType type = n.inputType(0);
  if (!type)
    return failure();
  Type element = type.getElementType();
  auto bound = [&](unsigned input, const char *attrName, double fallback,
                   const char *suffix) -> Value {
    if (n.opset >= 11 && n.hasInput(input))
      return n.input(input);
    double value = n.opset < 11 ? n.floatAttr(attrName, fallback) : fallback;
    return n.makeConst(scalarValue(element, value), suffix);
  };
  // A missing bound is the element type's own limit (an int8 Clip clamps
  // to [-128, 127], not to int32's range, which wraps in int8).
  double lowest = -std::numeric_limits<float>::max();
  double highest = std::numeric_limits<float>::max();
  if (auto integer = dyn_cast<IntegerType>(element)) {
    unsigned width = integer.getWidth();
    bool isUnsigned = integer.isUnsigned() || width == 1;
    // The largest double below 2^63 / 2^64 for 64-bit types.
    double top = width >= 64 ? std::nextafter(std::ldexp(1.0, isUnsigned ? 64 : 63), 0.0)
                             : std::ldexp(1.0, isUnsigned ? width : width - 1) - 1;
    lowest = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
    highest = top;
  }
  Value lo = bound(1, "min", lowest, "min");
  Value hi = bound(2, "max", highest, "max");
  return single(n, buildOp(n, "ascend.ClipByValue", {n.input(0), lo, hi},
                           {n.outputType(0)}));
}

/// `x` reduced over `axes` (all when empty), the reduced dimensions kept
/// as 1 or dropped; null when an axis is out of range.
RankedTensorType reducedType(RankedTensorType x, ArrayRef<int64_t> axes, bool keep) {
  if (!x)
    return RankedTensorType();
  SmallVector<bool> reduced(x.getRank(), axes.empty());
  for (int64_t axis : axes) {
    if (axis < 0)
      axis += x.getRank();
    if (axis < 0 || axis >= x.getRank())
      return RankedTensorType();
    reduced[axis] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < x.getRank(); ++d)
    if (!reduced[d])
      shape.push_back(x.getDimSize(d));
    else if (keep)
      shape.push_back(1);
  return x.clone(shape);
}

LogicalResult reduce(NodeConverter &n, StringRef opName) {
  // Axes moved from an attribute to an input: ReduceSum at opset 13, the
  // others at 18.
  bool axesInput = n.node.op_type() == "ReduceSum" ? n.opset >= 13 : n.opset >= 18;
  std::optional<std::vector<int64_t>> axes =
      axesInput ? (n.hasInput(1) ? n.constantInts(1) : std::vector<int64_t>())
                : n.intsAttr("axes").value_or(std::vector<int64_t>());
  if (!axes) {
    n.rejection = "axes known only at run time (--run=DIR plans for the run's values)";
    return failure();
  }
  if (axes->empty() && n.intAttr("noop_with_empty_axes", 0)) {
    n.results = {n.input(0)};
    return success(n.results.front() != nullptr);
  }
  bool keep = n.intAttr("keepdims", 1) != 0;
  RankedTensorType y = refineType(n.outputType(0), reducedType(n.inputType(0), *axes, keep));
  return single(n, buildOp(n, opName, {n.input(0)}, {y},
                           {n.builder.getNamedAttr("axes", n.builder.getDenseI64ArrayAttr(*axes)),
                            n.builder.getNamedAttr("keep_dims", n.builder.getBoolAttr(keep))}));
}

/// ArgMax / ArgMin: one axis, an int64 result (ONNX's).
LogicalResult argReduce(NodeConverter &n, StringRef opName) {
  if (n.intAttr("select_last_index", 0) != 0)
    return failure(); // ONNXDecompositions.cpp
  RankedTensorType y = n.outputType(0);
  if (RankedTensorType reduced =
          reducedType(n.inputType(0), {n.intAttr("axis", 0)}, n.intAttr("keepdims", 1) != 0))
    y = refineType(y, reduced.clone(n.builder.getI64Type()));
  return single(n, buildOp(n, opName, {n.input(0)}, {y},
                           {n.builder.getNamedAttr("axis", n.builder.getI64IntegerAttr(
                                                               n.intAttr("axis", 0))),
                            n.builder.getNamedAttr("keep_dims", n.builder.getBoolAttr(
                                                                    n.intAttr("keepdims", 1)))}));
}

/// A one-input Sum/Max/Min is its input.
LogicalResult forward(NodeConverter &n) {
  n.results = {n.input(0)};
  return success(n.results.front() != nullptr);
}

/// Sum/Max/Min of three or more inputs: a left-to-right chain of the binary
/// op; the last op carries the node's name, the others `<name>/<i>`.
LogicalResult variadic(NodeConverter &n, StringRef opName) {
  Value acc = n.input(0);
  for (unsigned i = 1; i < n.numInputs(); ++i) {
    RankedTensorType a = dyn_cast_or_null<RankedTensorType>(acc ? acc.getType() : Type());
    RankedTensorType b = n.inputType(i);
    std::optional<SmallVector<int64_t>> shape = broadcastShape({a, b});
    if (!shape || a.getElementType() != b.getElementType())
      return failure();
    bool last = i + 1 == n.numInputs();
    RankedTensorType type = last && n.outputType(0)
                                ? n.outputType(0)
                                : RankedTensorType::get(*shape, a.getElementType());
    Operation *op = buildOp(n, opName, {acc, n.input(i)}, {type}, {},
                            last ? "" : "/" + std::to_string(i));
    if (!op)
      return failure();
    acc = op->getResult(0);
  }
  n.results = {acc};
  return success();
}

/// Mean: the sum of the inputs (a chain of Add), times 1/count.
LogicalResult mean(NodeConverter &n) {
  RankedTensorType first = n.inputType(0);
  if (!first || !isa<FloatType>(first.getElementType()))
    return failure();
  Value sum = n.input(0);
  for (unsigned i = 1; i < n.numInputs(); ++i) {
    RankedTensorType a = cast<RankedTensorType>(sum.getType()), b = n.inputType(i);
    std::optional<SmallVector<int64_t>> shape = broadcastShape({a, b});
    if (!shape || a.getElementType() != b.getElementType())
      return failure();
    Operation *add = buildOp(n, "ascend.Add", {sum, n.input(i)},
                             {RankedTensorType::get(*shape, a.getElementType())}, {},
                             "/sum" + std::to_string(i));
    if (!add)
      return failure();
    sum = add->getResult(0);
  }
  Value scale = n.makeConst(scalarValue(first.getElementType(), 1.0 / n.numInputs()), "scale");
  return single(n, buildOp(n, "ascend.Mul", {sum, scale}, {sum.getType()}));
}

/// The shape of x with dimensions from `first` on set to 1 (mean/variance).
RankedTensorType statisticType(RankedTensorType x, int64_t first) {
  SmallVector<int64_t> shape(x.getShape());
  for (int64_t i = first; i < x.getRank(); ++i)
    shape[i] = 1;
  return RankedTensorType::get(shape, x.getElementType());
}

bool usesExtraOutputs(NodeConverter &n) {
  for (int i = 1; i < n.node.output_size(); ++i)
    if (!n.node.output(i).empty())
      return true;
  return false;
}

LogicalResult layerNorm(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  // Mean and InvStdDev are in stash_type (float32 by default); Ascend IR's
  // statistics are in x's dtype, which is the same only for float32 x.
  if (usesExtraOutputs(n) && !x.getElementType().isF32()) {
    n.rejection = "Mean/InvStdDev outputs of a non-float32 input";
    return failure();
  }
  int64_t axis = n.intAttr("axis", -1);
  if (axis < 0)
    axis += x.getRank();
  Value beta = n.input(2);
  if (!beta) {
    RankedTensorType gamma = n.inputType(1);
    if (!gamma || !gamma.hasStaticShape())
      return failure();
    beta = n.makeConst(DenseElementsAttr::get(gamma, n.builder.getZeroAttr(gamma.getElementType())),
                       "beta");
  }
  RankedTensorType stat = statisticType(x, axis);
  Operation *op = buildOp(
      n, "ascend.LayerNorm", {n.input(0), n.input(1), beta}, {x, stat, stat},
      {n.builder.getNamedAttr("begin_norm_axis", n.builder.getI64IntegerAttr(axis)),
       n.builder.getNamedAttr("begin_params_axis", n.builder.getI64IntegerAttr(axis)),
       n.builder.getNamedAttr("epsilon", n.builder.getF32FloatAttr(n.floatAttr("epsilon", 1e-5f)))});
  if (!op)
    return failure();
  n.results = {op->getResult(0), op->getResult(1)};
  // ONNX's third output is 1 / sqrt(variance + epsilon); Ascend IR's is the
  // variance, so the inverse standard deviation is computed from it when
  // the model reads it.
  if (n.node.output_size() > 2 && !n.node.output(2).empty()) {
    Value eps = n.makeConst(scalarValue(x.getElementType(), n.floatAttr("epsilon", 1e-5f)), "epsilon");
    Operation *shifted = buildOp(n, "ascend.Add", {op->getResult(2), eps}, {stat}, {},
                                 "/variance_eps");
    Operation *inverse =
        shifted ? buildOp(n, "ascend.Rsqrt", {shifted->getResult(0)}, {stat}, {}, "/inv_std_dev")
                : nullptr;
    if (!inverse)
      return failure();
    n.results.push_back(inverse->getResult(0));
  }
  return success();
}

LogicalResult batchNorm(NodeConverter &n) {
  if (usesExtraOutputs(n) || n.intAttr("training_mode", 0))
    return failure();
  return single(n, buildOp(n, "ascend.BatchNorm",
                           {n.input(0), n.input(1), n.input(2), n.input(3), n.input(4)},
                           {n.outputType(0)},
                           {n.builder.getNamedAttr("epsilon", n.builder.getF32FloatAttr(
                                                                  n.floatAttr("epsilon", 1e-5f)))}));
}

LogicalResult instanceNorm(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  RankedTensorType stat = statisticType(x, 2);
  return single(n, buildOp(n, "ascend.InstanceNorm", {n.input(0), n.input(1), n.input(2)},
                           {x, stat, stat},
                           {n.builder.getNamedAttr("epsilon", n.builder.getF32FloatAttr(
                                                                  n.floatAttr("epsilon", 1e-5f)))}));
}

/// CastLike: a Cast to the dtype of the second input.
LogicalResult castLike(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), like = n.inputType(1);
  if (!x || !like)
    return failure();
  return single(n, buildOp(n, "ascend.Cast", {n.input(0)}, {x.clone(like.getElementType())}));
}

LogicalResult convertCast(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  Type to = elementType(n.builder.getContext(), n.intAttr("to", 0));
  if (!x || !to)
    return failure();
  return single(n, buildOp(n, "ascend.Cast", {n.input(0)}, {x.clone(to)}));
}

} // namespace

namespace {

// ONNX op types with a one-to-one ascend op, by kind.
const std::map<std::string, const char *> binaries = {
    {"Add", "ascend.Add"}, {"Sub", "ascend.Sub"}, {"Mul", "ascend.Mul"},
    {"Div", "ascend.RealDiv"}, {"Max", "ascend.Maximum"},
    {"Min", "ascend.Minimum"}, {"PRelu", "ascend.PRelu"},
    {"And", "ascend.LogicalAnd"}, {"Or", "ascend.LogicalOr"}};
const std::map<std::string, const char *> comparisons = {
    {"Equal", "ascend.Equal"}, {"Less", "ascend.Less"}, {"Greater", "ascend.Greater"},
    {"LessOrEqual", "ascend.LessEqual"}, {"GreaterOrEqual", "ascend.GreaterEqual"}};
const std::map<std::string, const char *> unaries = {
    {"Neg", "ascend.Neg"}, {"Abs", "ascend.Abs"}, {"Sqrt", "ascend.Sqrt"},
    {"Exp", "ascend.Exp"}, {"Log", "ascend.Log"}, {"Erf", "ascend.Erf"},
    {"Relu", "ascend.Relu"}, {"Sigmoid", "ascend.Sigmoid"}, {"Tanh", "ascend.Tanh"},
    {"Reciprocal", "ascend.Reciprocal"}, {"Ceil", "ascend.Ceil"}, {"Floor", "ascend.Floor"},
    {"Round", "ascend.Round"}, {"Sign", "ascend.Sign"}, {"Sin", "ascend.Sin"},
    {"Cos", "ascend.Cos"}, {"Softplus", "ascend.Softplus"},
    {"Softsign", "ascend.Softsign"}, {"Not", "ascend.LogicalNot"},
    {"Tan", "ascend.Tan"}, {"Asin", "ascend.Asin"}, {"Acos", "ascend.Acos"},
    {"Atan", "ascend.Atan"}, {"Sinh", "ascend.Sinh"}, {"Cosh", "ascend.Cosh"},
    {"Asinh", "ascend.Asinh"}, {"Acosh", "ascend.Acosh"}, {"Atanh", "ascend.Atanh"},
    {"HardSwish", "ascend.HardSwish"}};
const std::map<std::string, const char *> reductions = {
    {"ReduceSum", "ascend.ReduceSum"}, {"ReduceMean", "ascend.ReduceMean"},
    {"ReduceMax", "ascend.ReduceMax"}, {"ReduceMin", "ascend.ReduceMin"},
    {"ReduceProd", "ascend.ReduceProd"}, {"ReduceL1", "ascend.ReduceL1"},
    {"ReduceL2", "ascend.ReduceL2"}, {"ReduceLogSum", "ascend.ReduceLogSum"},
    {"ReduceLogSumExp", "ascend.ReduceLogSumExp"},
    {"ReduceSumSquare", "ascend.ReduceSumSquare"}};

} // namespace

LogicalResult ascendprec::onnximport::convertMathOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if ((type == "Max" || type == "Min") && n.numInputs() == 1)
    return forward(n);
  if (auto it = binaries.find(type); it != binaries.end())
    return n.numInputs() > 2 ? variadic(n, it->second) : binary(n, it->second);
  if (type == "Sum")
    return n.numInputs() == 1 ? forward(n) : variadic(n, "ascend.Add");
  if (type == "Pow")
    return pow(n);
  if (type == "BitShift") {
    // CANN's parser: RightShift for "RIGHT", LeftShift for "LEFT".
    std::string direction = n.stringAttr("direction", "");
    if (direction != "LEFT" && direction != "RIGHT") {
      n.rejection = "direction '" + direction + "'";
      return failure();
    }
    return binary(n, direction == "LEFT" ? "ascend.LeftShift" : "ascend.RightShift");
  }
  if (type == "Mean")
    return mean(n);
  if (auto it = reductions.find(type); it != reductions.end())
    return reduce(n, it->second);
  if (type == "ArgMax")
    return argReduce(n, "ascend.ArgMaxV2");
  if (type == "ArgMin")
    return argReduce(n, "ascend.ArgMin");
  if (type == "Selu") {
    // CANN's Selu has ONNX's default constants built in; other constants
    // are decomposed (ONNXDecompositions.cpp).
    if (std::abs(n.floatAttr("alpha", 1.67326319f) - 1.67326319f) > 1e-6f ||
        std::abs(n.floatAttr("gamma", 1.05070102f) - 1.05070102f) > 1e-6f)
      return failure();
    return unary(n, "ascend.Selu");
  }
  if (type == "ThresholdedRelu")
    return unary(n, "ascend.ThresholdedRelu",
                 {n.builder.getNamedAttr("alpha",
                                         n.builder.getF32FloatAttr(n.floatAttr("alpha", 1.0f)))});
  if (auto it = unaries.find(type); it != unaries.end())
    return unary(n, it->second);
  if (auto it = comparisons.find(type); it != comparisons.end())
    return compare(n, it->second);
  if (type == "Where")
    return select(n);
  if (type == "Elu")
    return unary(n, "ascend.Elu",
                 {n.builder.getNamedAttr("alpha",
                                         n.builder.getF32FloatAttr(n.floatAttr("alpha", 1.0f)))});
  if (type == "LeakyRelu")
    return unary(n, "ascend.LeakyRelu",
                 {n.builder.getNamedAttr("negative_slope",
                                         n.builder.getF32FloatAttr(n.floatAttr("alpha", 0.01f)))});
  if (type == "HardSigmoid")
    return unary(n, "ascend.HardSigmoid",
                 {n.builder.getNamedAttr("alpha", n.builder.getF32FloatAttr(n.floatAttr("alpha", 0.2f))),
                  n.builder.getNamedAttr("beta", n.builder.getF32FloatAttr(n.floatAttr("beta", 0.5f)))});
  if (type == "Softmax")
    return softmax(n, "ascend.SoftmaxV2");
  if (type == "LogSoftmax")
    return softmax(n, "ascend.LogSoftmaxV2");
  if (type == "Clip")
    return clip(n);
  if (type == "LayerNormalization")
    return layerNorm(n);
  if (type == "BatchNormalization")
    return batchNorm(n);
  if (type == "InstanceNormalization")
    return instanceNorm(n);
  if (type == "Cast")
    return convertCast(n);
  if (type == "CastLike")
    return castLike(n);
  if (type == "IsNaN" || type == "IsInf") {
    // CANN's IsInf finds both signs.
    if (type == "IsInf" &&
        (n.intAttr("detect_negative", 1) != 1 || n.intAttr("detect_positive", 1) != 1))
      return failure(); // one sign: ONNXDecompositions.cpp
    RankedTensorType x = n.inputType(0);
    if (!x)
      return failure();
    return single(n, buildOp(n, type == "IsNaN" ? "ascend.IsNan" : "ascend.IsInf",
                             {n.input(0)}, {x.clone(n.builder.getI1Type())}));
  }
  return failure();
}
