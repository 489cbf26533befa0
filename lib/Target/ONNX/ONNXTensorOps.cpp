//===- ONNXTensorOps.cpp - tile, range, expand, one-hot, top-k, einsum ----===//
//
// Nodes that fold to constants when their inputs are known (ONNXFolding.cpp)
// and otherwise become the ops of AscendTensorOps.td; and the image ops
// GridSample and LRN, Einsum and Mod.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/MathExtras.h"
#include "ONNXImporter.h"

#include "mlir/Dialect/Traits.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

/// `value` as `element`, through a Cast named "<node><suffix>" if needed.
Value castTo(NodeConverter &n, Value value, Type element, StringRef suffix) {
  auto type = dyn_cast_or_null<RankedTensorType>(value ? value.getType() : Type());
  if (!type)
    return Value();
  if (type.getElementType() == element)
    return value;
  return buildValue(n, "ascend.Cast", {value}, type.clone(element), {}, suffix);
}

/// A 1-D tensor of `rank` dimensions, all unknown.
RankedTensorType dynamicOfRank(int64_t rank, Type element) {
  return RankedTensorType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic), element);
}

LogicalResult tile(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  std::optional<std::vector<int64_t>> repeats = n.constantInts(1);
  if (!x)
    return failure();
  if (!repeats) {
    n.rejection = "repeats known only at run time (--run=DIR plans for the run's values)";
    return failure();
  }
  if (static_cast<int64_t>(repeats->size()) != x.getRank())
    return failure();
  for (int64_t repeat : *repeats)
    if (repeat < 0) {
      n.rejection = "a negative repeat count";
      return failure();
    }
  RankedTensorType y = n.outputType(0);
  if (!y) {
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < x.getRank(); ++d) {
      int64_t size = ShapedType::kDynamic;
      if (!x.isDynamicDim(d) && llvm::MulOverflow(x.getDimSize(d), (*repeats)[d], size)) {
        n.rejection = "a tiled size beyond 64 bits";
        return failure();
      }
      shape.push_back(size);
    }
    y = RankedTensorType::get(shape, x.getElementType());
  }
  return setResult(n, buildValue(n, "ascend.Tile", {n.input(0)}, y,
                              {n.builder.getNamedAttr("multiples",
                                                      n.builder.getDenseI64ArrayAttr(*repeats))}));
}

LogicalResult range(NodeConverter &n) {
  RankedTensorType start = n.inputType(0);
  if (!start)
    return failure();
  RankedTensorType y = n.outputType(0);
  if (!y)
    y = dynamicOfRank(1, start.getElementType());
  return setResult(n, buildValue(n, "ascend.Range", {n.input(0), n.input(1), n.input(2)}, y));
}

/// Expand -> BroadcastTo.
LogicalResult expand(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), shape = n.inputType(1);
  if (!x || !shape || shape.getRank() != 1)
    return failure();
  RankedTensorType y = n.outputType(0);
  if (!y) {
    SmallVector<int64_t> result;
    std::optional<std::vector<int64_t>> dims = n.constantInts(1);
    if (dims && OpTrait::util::getBroadcastedShape(x.getShape(), *dims, result))
      y = RankedTensorType::get(result, x.getElementType());
    else if (!shape.isDynamicDim(0))
      y = dynamicOfRank(std::max(shape.getDimSize(0), x.getRank()), x.getElementType());
  }
  return setResult(n, buildValue(n, "ascend.BroadcastTo", {n.input(0), n.input(1)}, y));
}

/// ConstantOfShape -> Fill with the `value` attribute (float32 0 by default).
LogicalResult constantOfShape(NodeConverter &n) {
  RankedTensorType dims = n.inputType(0);
  if (!dims || dims.getRank() != 1)
    return failure();
  DenseElementsAttr value = scalarValue(n.builder.getF32Type(), 0.0);
  if (const onnx::AttributeProto *attr = n.attr("value"); attr && attr->has_t()) {
    std::string error;
    DenseElementsAttr given = tensorValue(n.builder.getContext(), attr->t(), error);
    if (!given || given.getNumElements() != 1)
      return failure();
    value = given.reshape(RankedTensorType::get({}, given.getElementType()));
  }
  RankedTensorType y = n.outputType(0);
  if (!y && !dims.isDynamicDim(0))
    y = dynamicOfRank(dims.getDimSize(0), value.getElementType());
  return setResult(n, buildValue(n, "ascend.Fill", {n.input(0), n.makeConst(value, "value")}, y));
}

LogicalResult topK(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  Value k = n.opset < 10
                ? n.makeConst(DenseElementsAttr::get(
                                  RankedTensorType::get({1}, n.builder.getI64Type()),
                                  ArrayRef<int64_t>{n.intAttr("k", 1)}),
                              "k")
                : n.input(1);
  int64_t axis = n.intAttr("axis", -1);
  RankedTensorType values = n.outputType(0), indices = n.outputType(1);
  if (!values || !indices) {
    std::optional<std::vector<int64_t>> kValue =
        n.opset < 10 ? std::optional(std::vector<int64_t>{n.intAttr("k", 1)}) : n.constantInts(1);
    int64_t dim = axis < 0 ? axis + x.getRank() : axis;
    if (dim < 0 || dim >= x.getRank())
      return failure();
    SmallVector<int64_t> shape(x.getShape());
    shape[dim] = kValue && kValue->size() == 1 ? (*kValue)[0] : ShapedType::kDynamic;
    values = RankedTensorType::get(shape, x.getElementType());
    indices = RankedTensorType::get(shape, n.builder.getI64Type());
  }
  Operation *op = buildOp(
      n, "ascend.TopKV2", {n.input(0), k}, {values, indices},
      {n.builder.getNamedAttr("dim", n.builder.getI64IntegerAttr(axis)),
       n.builder.getNamedAttr("largest", n.builder.getBoolAttr(n.intAttr("largest", 1))),
       n.builder.getNamedAttr("sorted", n.builder.getBoolAttr(n.intAttr("sorted", 1)))});
  if (!op)
    return failure();
  n.results.assign(op->result_begin(), op->result_end());
  return success();
}

/// OneHot: non-integer indices and depth are cast to int64 (as ONNX says);
/// `values` ([off, on]) is split into two scalars.
LogicalResult oneHot(NodeConverter &n) {
  RankedTensorType indices = n.inputType(0), valuesType = n.inputType(2);
  if (!indices || !valuesType)
    return failure();
  Type i64 = n.builder.getI64Type();
  auto asIndex = [&](unsigned input, StringRef suffix) {
    Value value = n.input(input);
    RankedTensorType type = n.inputType(input);
    return type && (type.getElementType().isInteger(32) || type.getElementType().isInteger(64))
               ? value
               : castTo(n, value, i64, suffix);
  };
  Value index = asIndex(0, "/indices"), depth = asIndex(1, "/depth");
  Value off, on;
  Type element = valuesType.getElementType();
  if (std::optional<DenseElementsAttr> values = n.constantInput(2)) {
    if (values->getNumElements() != 2)
      return failure();
    auto scalarType = RankedTensorType::get({}, element);
    SmallVector<Attribute> both(values->getValues<Attribute>());
    off = n.makeConst(DenseElementsAttr::get(scalarType, both[0]), "off_value");
    on = n.makeConst(DenseElementsAttr::get(scalarType, both[1]), "on_value");
  } else {
    auto pick = [&](int64_t at, StringRef suffix) {
      return buildValue(n, "ascend.StridedSlice", {n.input(2)}, RankedTensorType::get({1}, element),
                        {n.builder.getNamedAttr("begin", n.builder.getDenseI64ArrayAttr({at})),
                         n.builder.getNamedAttr("end", n.builder.getDenseI64ArrayAttr({at + 1})),
                         n.builder.getNamedAttr("strides", n.builder.getDenseI64ArrayAttr({1}))},
                        suffix);
    };
    off = pick(0, "/off_value");
    on = pick(1, "/on_value");
  }
  int64_t axis = n.intAttr("axis", -1);
  RankedTensorType y = n.outputType(0);
  if (!y) {
    int64_t rank = indices.getRank() + 1, at = axis < 0 ? axis + rank : axis;
    if (at < 0 || at >= rank)
      return failure();
    SmallVector<int64_t> shape(indices.getShape());
    std::optional<std::vector<int64_t>> depthValue = n.constantInts(1);
    shape.insert(shape.begin() + at,
                 depthValue && depthValue->size() == 1 ? (*depthValue)[0] : ShapedType::kDynamic);
    y = RankedTensorType::get(shape, element);
  }
  return setResult(n, buildValue(n, "ascend.OneHot", {index, depth, on, off}, y,
                              {n.builder.getNamedAttr("axis", n.builder.getI64IntegerAttr(axis))}));
}

/// The equation with spaces removed and, when it has none, the implicit
/// output: `...` then the letters used once, in alphabetical order.
std::optional<std::string> explicitEquation(std::string equation) {
  llvm::erase_if(equation, [](char c) { return c == ' '; });
  if (equation.find("->") != std::string::npos)
    return equation;
  std::map<char, int> uses;
  for (char c : equation)
    if (llvm::isAlpha(c))
      ++uses[c];
  std::string output = equation.find("...") != std::string::npos ? "..." : "";
  for (auto [letter, count] : uses)
    if (count == 1)
      output += letter;
  return equation + "->" + output;
}

LogicalResult einsum(NodeConverter &n) {
  std::optional<std::string> equation = explicitEquation(n.stringAttr("equation", ""));
  RankedTensorType y = n.outputType(0);
  if (!equation || !y)
    return failure();
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < n.numInputs(); ++i)
    inputs.push_back(n.input(i));
  return setResult(n, buildValue(n, "ascend.Einsum", inputs, y,
                              {n.builder.getNamedAttr("equation",
                                                      n.builder.getStringAttr(*equation))}));
}

LogicalResult gridSample(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x || x.getRank() != 4) {
    n.rejection = "volumetric (5-D) sampling; ascend.GridSampler2D takes NCHW input";
    return failure();
  }
  // Opset 20 renamed the modes after the interpolation, not the sampler.
  std::string mode = n.stringAttr("mode", "bilinear");
  if (mode == "linear")
    mode = "bilinear";
  else if (mode == "cubic")
    mode = "bicubic";
  std::string paddingName = n.stringAttr("padding_mode", "zeros");
  std::optional<ascend::Interpolation> interpolation = ascend::symbolizeInterpolation(mode);
  std::optional<ascend::SamplePadding> padding = ascend::symbolizeSamplePadding(paddingName);
  if (!interpolation || !padding) {
    n.rejection = !interpolation ? "mode '" + mode + "'" : "padding_mode '" + paddingName + "'";
    return failure();
  }
  Builder &b = n.builder;
  MLIRContext *context = b.getContext();
  return setResult(n, buildValue(n, "ascend.GridSampler2D", {n.input(0), n.input(1)}, n.outputType(0),
                              {b.getNamedAttr("interpolation_mode",
                                              ascend::InterpolationAttr::get(context, *interpolation)),
                               b.getNamedAttr("padding_mode",
                                              ascend::SamplePaddingAttr::get(context, *padding)),
                               b.getNamedAttr("align_corners",
                                              b.getBoolAttr(n.intAttr("align_corners", 0)))}));
}

/// LRN: ONNX's window of `size` channels is CANN's 2 * depth_radius + 1, and
/// ONNX divides alpha by the size; an even size has no centred window.
LogicalResult lrn(NodeConverter &n) {
  int64_t size = n.intAttr("size", 0);
  if (size < 1 || size % 2 == 0) {
    n.rejection = "an even size (CANN's LRN window is centred: 2 * depth_radius + 1)";
    return failure();
  }
  Builder &b = n.builder;
  RankedTensorType x = n.inputType(0);
  return setResult(n, buildValue(n, "ascend.LRN", {n.input(0)}, x,
                              {b.getNamedAttr("depth_radius", b.getI64IntegerAttr((size - 1) / 2)),
                               b.getNamedAttr("bias", b.getF32FloatAttr(n.floatAttr("bias", 1.0f))),
                               b.getNamedAttr("alpha", b.getF32FloatAttr(
                                                           n.floatAttr("alpha", 1e-4f) / size)),
                               b.getNamedAttr("beta", b.getF32FloatAttr(n.floatAttr("beta", 0.75f)))}));
}

/// Mod: fmod = 1 truncates (Mod), integer fmod = 0 floors (FloorMod).
LogicalResult mod(NodeConverter &n) {
  RankedTensorType a = n.inputType(0), b = n.inputType(1);
  if (!a || !b)
    return failure();
  bool fmod = n.intAttr("fmod", 0) != 0;
  if (!fmod && isa<FloatType>(a.getElementType()))
    return failure(); // ONNX requires fmod = 1 for floats
  RankedTensorType y = n.outputType(0);
  SmallVector<int64_t> shape;
  if (!y && OpTrait::util::getBroadcastedShape(a.getShape(), b.getShape(), shape))
    y = RankedTensorType::get(shape, a.getElementType());
  return setResult(n, buildValue(n, fmod ? "ascend.Mod" : "ascend.FloorMod",
                              {n.input(0), n.input(1)}, y));
}

} // namespace

LogicalResult ascendprec::onnximport::convertTensorOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (type == "Tile")
    return tile(n);
  if (type == "Range")
    return range(n);
  if (type == "Expand")
    return expand(n);
  if (type == "ConstantOfShape")
    return constantOfShape(n);
  if (type == "TopK")
    return topK(n);
  if (type == "Size") {
    RankedTensorType x = n.inputType(0);
    return x ? setResult(n, buildValue(n, "ascend.Size", {n.input(0)},
                                    RankedTensorType::get({}, n.builder.getI64Type())))
             : failure();
  }
  if (type == "OneHot")
    return oneHot(n);
  if (type == "Einsum")
    return einsum(n);
  if (type == "GridSample")
    return gridSample(n);
  if (type == "LRN")
    return lrn(n);
  if (type == "Mod")
    return mod(n);
  if (type == "ReverseSequence") {
    // CANN's AI CPU ReverseSequence: time_axis -> seq_dim, batch_axis -> batch_dim.
    RankedTensorType x = n.inputType(0);
    return x ? setResult(n, buildValue(
                               n, "ascend.ReverseSequence", {n.input(0), n.input(1)}, x,
                               {n.builder.getNamedAttr("seq_dim", n.builder.getI64IntegerAttr(
                                                                      n.intAttr("time_axis", 0))),
                                n.builder.getNamedAttr("batch_dim", n.builder.getI64IntegerAttr(
                                                                        n.intAttr("batch_axis", 1)))}))
             : failure();
  }
  if (type == "Det") {
    // CANN's AI CPU MatrixDeterminant.
    RankedTensorType x = n.inputType(0);
    if (!x || x.getRank() < 2)
      return failure();
    return setResult(n, buildValue(n, "ascend.MatrixDeterminant", {n.input(0)},
                                   x.clone(x.getShape().drop_back(2))));
  }
  return failure();
}
