//===- ONNXFolding.cpp - shape arithmetic evaluated at import -------------===//
//
// PyTorch and Paddle exports compute shapes at run time: Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape, Range, ConstantOfShape, Expand, Where on
// constants. Once the input shapes are known (static in the model or given
// with --input_shape) all of it is constant. A node whose inputs are all
// known becomes a compile-time value here, exactly as a Constant node does:
// no op is built, and the ops consuming it get constant operands and static
// types (docs/onnx-import.md).
//
// Values are held as int64 or double with their shape; only small tensors
// (shape vectors, scalars, masks) are folded.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

/// Larger results are left to run time.
constexpr int64_t kMaxFoldedElements = 1 << 16;

struct Tensor {
  std::vector<int64_t> shape;
  Type element;
  bool isFloat = false;
  std::vector<int64_t> ints;   ///< integer and bool elements
  std::vector<double> floats;  ///< float elements

  int64_t size() const {
    return std::accumulate(shape.begin(), shape.end(), int64_t(1), std::multiplies<>());
  }
  double at(size_t i) const { return isFloat ? floats[i] : static_cast<double>(ints[i]); }
  int64_t intAt(size_t i) const { return isFloat ? static_cast<int64_t>(floats[i]) : ints[i]; }
};

std::optional<Tensor> fromAttr(DenseElementsAttr attr) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() > kMaxFoldedElements)
    return std::nullopt;
  Tensor t;
  t.shape.assign(type.getShape().begin(), type.getShape().end());
  t.element = type.getElementType();
  if (isa<FloatType>(t.element)) {
    t.isFloat = true;
    for (const APFloat &v : attr.getValues<APFloat>())
      t.floats.push_back(v.convertToDouble());
  } else if (auto intType = dyn_cast<IntegerType>(t.element)) {
    bool isUnsigned = intType.isUnsigned() || intType.getWidth() == 1;
    for (const APInt &v : attr.getValues<APInt>())
      t.ints.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue());
  } else {
    return std::nullopt;
  }
  return t;
}

DenseElementsAttr toAttr(const Tensor &t) {
  auto type = RankedTensorType::get(t.shape, t.element);
  if (t.isFloat) {
    auto floatType = cast<FloatType>(t.element);
    SmallVector<APFloat> values;
    for (double v : t.floats) {
      APFloat value(v);
      bool losesInfo;
      value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
      values.push_back(value);
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned width = t.element.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (int64_t v : t.ints)
    values.emplace_back(width, static_cast<uint64_t>(v), /*isSigned=*/true);
  return DenseElementsAttr::get(type, values);
}

Tensor ints(Type element, std::vector<int64_t> shape, std::vector<int64_t> values) {
  Tensor t;
  t.shape = std::move(shape);
  t.element = element;
  t.ints = std::move(values);
  return t;
}

/// NumPy broadcasting of two shapes; nothing when they do not broadcast.
std::optional<std::vector<int64_t>> broadcast(const std::vector<int64_t> &a,
                                              const std::vector<int64_t> &b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

/// The flat index in `t` of element `index` of a broadcast result of `shape`.
size_t sourceIndex(const Tensor &t, const std::vector<int64_t> &shape, int64_t index) {
  size_t flat = 0, stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    int64_t coord = index % shape[i];
    index /= shape[i];
    size_t j = i + t.shape.size();
    if (j < shape.size())
      continue; // a leading broadcast dimension
    j -= shape.size();
    if (t.shape[j] != 1)
      flat += static_cast<size_t>(coord) * stride;
    stride *= static_cast<size_t>(t.shape[j]);
  }
  return flat;
}

/// Elementwise `op` over broadcast inputs, producing `element` values.
template <typename Op>
std::optional<Tensor> elementwise(const std::vector<Tensor> &in, Type element, Op op) {
  // Integers go through double: only those it holds exactly.
  for (const Tensor &t : in)
    for (int64_t v : t.ints)
      if (v > (int64_t(1) << 53) || v < -(int64_t(1) << 53))
        return std::nullopt;
  std::vector<int64_t> shape = in[0].shape;
  for (size_t i = 1; i < in.size(); ++i)
    if (auto b = broadcast(shape, in[i].shape))
      shape = *b;
    else
      return std::nullopt;
  Tensor out;
  out.shape = shape;
  out.element = element;
  out.isFloat = isa<FloatType>(element);
  if (out.size() > kMaxFoldedElements)
    return std::nullopt;
  for (int64_t i = 0; i < out.size(); ++i) {
    std::vector<double> args;
    for (const Tensor &t : in)
      args.push_back(t.at(sourceIndex(t, shape, i)));
    double value = op(args);
    if (out.isFloat)
      out.floats.push_back(value);
    else
      out.ints.push_back(static_cast<int64_t>(value));
  }
  return out;
}

/// Normalizes a possibly negative axis for rank `rank`.
std::optional<int64_t> axisFor(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

/// The element at `coords` of a row-major tensor of `shape`.
size_t flatIndex(const std::vector<int64_t> &shape, const std::vector<int64_t> &coords) {
  size_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * static_cast<size_t>(shape[d]) + static_cast<size_t>(coords[d]);
  return flat;
}

/// Copies element `from` of `source` to the end of `target`.
void appendElement(Tensor &target, const Tensor &source, size_t from) {
  if (source.isFloat)
    target.floats.push_back(source.floats[from]);
  else
    target.ints.push_back(source.ints[from]);
}

/// ONNX Slice on any rank (TorchScript's F.pad builds its pads with a
/// reversed Slice of a 2-D tensor): starts/ends/axes/steps from inputs
/// (opset 10+) or attributes.
std::optional<Tensor> sliceOf(NodeConverter &n) {
  std::optional<DenseElementsAttr> dataAttr = n.constantInput(0);
  std::optional<Tensor> data = dataAttr ? fromAttr(*dataAttr) : std::nullopt;
  if (!data)
    return std::nullopt;
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (n.opset >= 10) {
    starts = n.constantInts(1);
    ends = n.constantInts(2);
    if (n.hasInput(3) && !(axes = n.constantInts(3)))
      return std::nullopt;
    if (n.hasInput(4) && !(steps = n.constantInts(4)))
      return std::nullopt;
  } else {
    starts = n.intsAttr("starts");
    ends = n.intsAttr("ends");
    axes = n.intsAttr("axes");
  }
  if (!starts || !ends || starts->size() != ends->size())
    return std::nullopt;
  int64_t rank = static_cast<int64_t>(data->shape.size());
  std::vector<int64_t> begin(rank, 0), step(rank, 1), count = data->shape;
  for (size_t i = 0; i < starts->size(); ++i) {
    std::optional<int64_t> axis = axisFor(axes ? axes->at(i) : static_cast<int64_t>(i), rank);
    int64_t stride = steps && i < steps->size() ? (*steps)[i] : 1;
    if (!axis || stride == 0 || (axes && axes->size() != starts->size()))
      return std::nullopt;
    int64_t length = data->shape[*axis];
    auto clampIndex = [&](int64_t v, int64_t low, int64_t high) {
      if (v < 0)
        v += length;
      return std::clamp(v, low, high);
    };
    int64_t first = stride > 0 ? clampIndex((*starts)[i], 0, length)
                               : clampIndex((*starts)[i], -1, length - 1);
    int64_t last = stride > 0 ? clampIndex((*ends)[i], 0, length)
                              : clampIndex((*ends)[i], -1, length - 1);
    int64_t span = stride > 0 ? last - first : first - last;
    int64_t magnitude = stride > 0 ? stride : -stride;
    begin[*axis] = first;
    step[*axis] = stride;
    count[*axis] = span <= 0 ? 0 : (span + magnitude - 1) / magnitude;
  }
  Tensor out;
  out.shape = count;
  out.element = data->element;
  out.isFloat = data->isFloat;
  if (out.size() > kMaxFoldedElements)
    return std::nullopt;
  std::vector<int64_t> coords(rank);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t rest = i;
    for (int64_t d = rank - 1; d >= 0; --d) {
      coords[d] = begin[d] + (rest % count[d]) * step[d];
      rest /= count[d];
    }
    appendElement(out, *data, flatIndex(data->shape, coords));
  }
  return out;
}

/// ONNX Transpose (no `perm`: the dimensions reversed).
std::optional<Tensor> transposed(const Tensor &in, std::optional<std::vector<int64_t>> perm) {
  size_t rank = in.shape.size();
  if (!perm) {
    perm.emplace(rank);
    for (size_t d = 0; d < rank; ++d)
      (*perm)[d] = static_cast<int64_t>(rank - 1 - d);
  }
  if (perm->size() != rank)
    return std::nullopt;
  std::vector<bool> seen(rank, false);
  for (int64_t p : *perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[p])
      return std::nullopt;
    seen[p] = true;
  }
  Tensor out;
  out.element = in.element;
  out.isFloat = in.isFloat;
  for (int64_t p : *perm)
    out.shape.push_back(in.shape[p]);
  std::vector<int64_t> coords(rank), source(rank);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t rest = i;
    for (size_t d = rank; d-- > 0;) {
      coords[d] = rest % out.shape[d];
      rest /= out.shape[d];
    }
    for (size_t d = 0; d < rank; ++d)
      source[(*perm)[d]] = coords[d];
    appendElement(out, in, flatIndex(in.shape, source));
  }
  return out;
}

/// The first `count` inputs, when all are known at compile time.
std::optional<std::vector<Tensor>> constantInputs(NodeConverter &n, unsigned count) {
  std::vector<Tensor> in;
  for (unsigned i = 0; i < count; ++i) {
    std::optional<DenseElementsAttr> attr = n.hasInput(i) ? n.constantInput(i) : std::nullopt;
    std::optional<Tensor> t = attr ? fromAttr(*attr) : std::nullopt;
    if (!t)
      return std::nullopt;
    in.push_back(std::move(*t));
  }
  return in;
}

/// A folded value as an attribute; nothing when too large to fold.
std::optional<DenseElementsAttr> folded(std::optional<Tensor> t) {
  if (!t || t->size() > kMaxFoldedElements)
    return std::nullopt;
  return toAttr(*t);
}

/// Shape and Size: known from the input's static shape.
std::optional<Tensor> foldShapeOf(NodeConverter &n, bool size, Type i64) {
  RankedTensorType x = n.inputType(0);
  if (!x || !x.hasStaticShape())
    return std::nullopt;
  std::vector<int64_t> dims(x.getShape().begin(), x.getShape().end());
  if (size)
    return ints(i64, {}, {x.getNumElements()});
  int64_t rank = static_cast<int64_t>(dims.size());
  int64_t start = std::clamp<int64_t>(n.intAttr("start", 0) < 0 ? n.intAttr("start", 0) + rank
                                                                : n.intAttr("start", 0),
                                      0, rank);
  int64_t end = n.intAttr("end", rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, start, rank);
  std::vector<int64_t> slice(dims.begin() + start, dims.begin() + end);
  return ints(i64, {static_cast<int64_t>(slice.size())}, slice);
}

/// Ones on diagonal k of a matrix shaped like the input: known from the
/// shape alone. (CANN's parser builds it from Shape, Split, Fill and
/// MatrixDiagV2; the values are the same.)
std::optional<Tensor> foldEyeLike(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x || !x.hasStaticShape() || x.getRank() != 2)
    return std::nullopt;
  Type element = n.attr("dtype")
                     ? elementType(n.builder.getContext(), static_cast<int32_t>(n.intAttr("dtype", 0)))
                     : x.getElementType();
  if (!element)
    return std::nullopt;
  Tensor out;
  out.shape = {x.getDimSize(0), x.getDimSize(1)};
  out.element = element;
  out.isFloat = isa<FloatType>(element);
  if (out.size() > kMaxFoldedElements)
    return std::nullopt;
  int64_t k = n.intAttr("k", 0);
  for (int64_t r = 0; r < out.shape[0]; ++r)
    for (int64_t c = 0; c < out.shape[1]; ++c) {
      int64_t one = c - r == k ? 1 : 0;
      if (out.isFloat)
        out.floats.push_back(static_cast<double>(one));
      else
        out.ints.push_back(one);
    }
  return out;
}

std::optional<Tensor> foldConstantOfShape(NodeConverter &n, const Tensor &shape, Type f32) {
  Tensor out;
  for (int64_t d : shape.ints)
    if (d < 0)
      return std::nullopt;
  out.shape = shape.ints;
  const onnx::AttributeProto *value = n.attr("value");
  std::string error;
  DenseElementsAttr fill =
      value && value->has_t() ? tensorValue(n.builder.getContext(), value->t(), error)
                              : DenseElementsAttr();
  std::optional<Tensor> scalar = fill ? fromAttr(fill) : std::nullopt;
  out.element = scalar ? scalar->element : f32;
  out.isFloat = isa<FloatType>(out.element);
  if (out.size() > kMaxFoldedElements)
    return std::nullopt;
  if (out.isFloat)
    out.floats.assign(out.size(), scalar ? scalar->floats.at(0) : 0.0);
  else
    out.ints.assign(out.size(), scalar ? scalar->ints.at(0) : 0);
  return out;
}

std::optional<Tensor> foldRange(const std::vector<Tensor> &in) {
  if (in[0].size() != 1 || in[1].size() != 1 || in[2].size() != 1)
    return std::nullopt;
  double start = in[0].at(0), limit = in[1].at(0), delta = in[2].at(0);
  if (delta == 0)
    return std::nullopt;
  int64_t count = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  if (count > kMaxFoldedElements)
    return std::nullopt;
  Tensor out;
  out.shape = {count};
  out.element = in[0].element;
  out.isFloat = in[0].isFloat;
  for (int64_t i = 0; i < count; ++i)
    if (out.isFloat)
      out.floats.push_back(start + static_cast<double>(i) * delta);
    else
      out.ints.push_back(in[0].ints[0] + i * in[2].ints[0]);
  return out;
}

std::optional<Tensor> foldCast(NodeConverter &n, const Tensor &input) {
  Type to = elementType(n.builder.getContext(), static_cast<int32_t>(n.intAttr("to", 0)));
  if (!to)
    return std::nullopt;
  Tensor out = input;
  out.element = to;
  out.isFloat = isa<FloatType>(to);
  if (out.isFloat && !input.isFloat)
    out.floats.assign(input.ints.begin(), input.ints.end());
  if (!out.isFloat && input.isFloat) {
    for (double v : input.floats)
      if (!std::isfinite(v))
        return std::nullopt;
    out.ints.clear();
    for (double v : input.floats)
      out.ints.push_back(static_cast<int64_t>(v)); // toward zero
  }
  if (to.isInteger(1))
    for (int64_t &v : out.ints)
      v = v != 0;
  return out;
}

/// Concat of shape vectors.
std::optional<Tensor> foldConcat(NodeConverter &n) {
  std::vector<Tensor> parts;
  for (unsigned i = 0; i < n.numInputs(); ++i) {
    std::optional<DenseElementsAttr> attr = n.constantInput(i);
    std::optional<Tensor> t = attr ? fromAttr(*attr) : std::nullopt;
    if (!t || t->shape.size() != 1)
      return std::nullopt; // shape vectors only
    parts.push_back(*t);
  }
  if (parts.empty())
    return std::nullopt;
  Tensor out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].element != out.element)
      return std::nullopt;
    out.ints.insert(out.ints.end(), parts[i].ints.begin(), parts[i].ints.end());
    out.floats.insert(out.floats.end(), parts[i].floats.begin(), parts[i].floats.end());
  }
  out.shape = {static_cast<int64_t>(out.isFloat ? out.floats.size() : out.ints.size())};
  return out;
}

/// Gather from a shape vector.
std::optional<Tensor> foldGather(const std::vector<Tensor> &in) {
  if (in[0].shape.size() != 1)
    return std::nullopt;
  Tensor out;
  out.shape = in[1].shape;
  out.element = in[0].element;
  out.isFloat = in[0].isFloat;
  int64_t length = in[0].shape[0];
  for (int64_t index : in[1].ints) {
    std::optional<int64_t> at = axisFor(index, length);
    if (!at)
      return std::nullopt;
    if (out.isFloat)
      out.floats.push_back(in[0].floats[*at]);
    else
      out.ints.push_back(in[0].ints[*at]);
  }
  return out;
}

std::optional<Tensor> foldExpand(const std::vector<Tensor> &in) {
  // The target shape as a tensor of zeros; broadcasting does the rest.
  Tensor target = ints(in[1].element, in[1].ints, {});
  for (int64_t d : target.shape)
    if (d < 0)
      return std::nullopt;
  if (target.size() > kMaxFoldedElements)
    return std::nullopt;
  target.ints.assign(static_cast<size_t>(target.size()), 0);
  return elementwise({in[0], target}, in[0].element,
                     [](const std::vector<double> &v) { return v[0]; });
}

std::optional<Tensor> foldLogic(const std::string &type, const std::vector<Tensor> &in, Type i1) {
  return elementwise(in, i1, [&](const std::vector<double> &v) -> double {
    if (type == "Equal")
      return v[0] == v[1];
    if (type == "Less")
      return v[0] < v[1];
    if (type == "Greater")
      return v[0] > v[1];
    if (type == "Not")
      return v[0] == 0;
    if (type == "And")
      return v[0] != 0 && v[1] != 0;
    return v[0] != 0 || v[1] != 0;
  });
}

/// Integer shape arithmetic only; float math is the model's computation.
std::optional<Tensor> foldIntegerArithmetic(const std::string &type,
                                            const std::vector<Tensor> &in) {
  if (in[0].isFloat || in[0].element != in[1].element)
    return std::nullopt;
  if (type == "Div")
    for (int64_t v : in[1].ints)
      if (v == 0)
        return std::nullopt;
  return elementwise(in, in[0].element, [&](const std::vector<double> &v) -> double {
    int64_t x = static_cast<int64_t>(v[0]), y = static_cast<int64_t>(v[1]);
    if (type == "Add")
      return static_cast<double>(x + y);
    if (type == "Sub")
      return static_cast<double>(x - y);
    if (type == "Mul")
      return static_cast<double>(x * y);
    return static_cast<double>(x / y);
  });
}

/// Ops whose values are known from the input's shape alone, or need none.
std::optional<DenseElementsAttr> foldFromShape(NodeConverter &n, const std::string &type) {
  if (type == "Shape" || type == "Size")
    return folded(foldShapeOf(n, type == "Size", Builder(n.builder.getContext()).getI64Type()));
  if (type == "EyeLike")
    return folded(foldEyeLike(n));
  if (type == "Concat")
    return folded(foldConcat(n));
  if (type == "Slice")
    return folded(sliceOf(n));
  return std::nullopt;
}

} // namespace

std::optional<DenseElementsAttr> ascendprec::onnximport::foldShapeComputation(
    NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (type == "Shape" || type == "Size" || type == "EyeLike" || type == "Concat" ||
      type == "Slice")
    return foldFromShape(n, type);
  // The other ops need their inputs known at compile time.
  Builder b(n.builder.getContext());
  auto inputs = [&](unsigned count) { return constantInputs(n, count); };
  std::optional<std::vector<Tensor>> in;
  if (type == "ConstantOfShape")
    return (in = inputs(1)) ? folded(foldConstantOfShape(n, (*in)[0], b.getF32Type()))
                            : std::nullopt;
  if (type == "Range")
    return (in = inputs(3)) ? folded(foldRange(*in)) : std::nullopt;
  if (type == "Cast")
    return (in = inputs(1)) ? folded(foldCast(n, (*in)[0])) : std::nullopt;
  if (type == "Unsqueeze" || type == "Squeeze" || type == "Reshape" || type == "Flatten" ||
      type == "Identity") {
    // The values do not change; shape inference gave the result's shape.
    RankedTensorType outType = n.outputType(0);
    if (!(in = inputs(1)) || !outType || !outType.hasStaticShape() ||
        outType.getNumElements() != (*in)[0].size())
      return std::nullopt;
    (*in)[0].shape.assign(outType.getShape().begin(), outType.getShape().end());
    return folded((*in)[0]);
  }
  if (type == "Gather")
    return (in = inputs(2)) ? folded(foldGather(*in)) : std::nullopt;
  if (type == "Transpose")
    return (in = inputs(1)) ? folded(transposed((*in)[0], n.intsAttr("perm"))) : std::nullopt;
  if (type == "Expand")
    return (in = inputs(2)) ? folded(foldExpand(*in)) : std::nullopt;
  if (type == "Equal" || type == "Less" || type == "Greater" || type == "Not" ||
      type == "And" || type == "Or")
    return (in = inputs(type == "Not" ? 1 : 2)) ? folded(foldLogic(type, *in, b.getI1Type()))
                                                : std::nullopt;
  if (type == "Where") {
    if (!(in = inputs(3)) || (*in)[1].element != (*in)[2].element)
      return std::nullopt;
    return folded(elementwise(*in, (*in)[1].element, [](const std::vector<double> &v) {
      return v[0] != 0 ? v[1] : v[2];
    }));
  }
  if (type == "Add" || type == "Sub" || type == "Mul" || type == "Div")
    return (in = inputs(2)) ? folded(foldIntegerArithmetic(type, *in)) : std::nullopt;
  return std::nullopt;
}
