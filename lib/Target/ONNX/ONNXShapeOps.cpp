//===- ONNXShapeOps.cpp - reshape, transpose, concat, slice, gather, pad --===//

#include "ONNXImporter.h"

#include "AscendPrec/Dialect/Ascend/IR/ShapeArithmetic.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

LogicalResult finish(NodeConverter &n, Operation *op) {
  if (!op)
    return failure();
  n.results.assign(op->result_begin(), op->result_end());
  return success();
}

NamedAttribute array(NodeConverter &n, const char *name, ArrayRef<int64_t> values) {
  return n.builder.getNamedAttr(name, n.builder.getDenseI64ArrayAttr(values));
}

/// The product of `dims`, dynamic if any is (or if it overflows: no tensor
/// has that many elements, and the verifier then rejects the op).
int64_t product(ArrayRef<int64_t> dims) {
  int64_t result = 1;
  for (int64_t dim : dims)
    if (ShapedType::isDynamic(dim) || llvm::MulOverflow(result, dim, result))
      return ShapedType::kDynamic;
  return result;
}

/// `axes` in [0, rank), or nothing when one is out of range.
std::optional<std::vector<int64_t>> normalizeAxes(std::vector<int64_t> axes, int64_t rank) {
  for (int64_t &axis : axes) {
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return std::nullopt;
  }
  return axes;
}

/// Flatten, Squeeze and Unsqueeze result types, for when ONNX gave none.
RankedTensorType inferRankChange(NodeConverter &n, RankedTensorType x) {
  const std::string &type = n.node.op_type();
  ArrayRef<int64_t> dims = x.getShape();
  if (type == "Flatten") {
    int64_t axis = n.intAttr("axis", 1);
    if (axis < 0)
      axis += x.getRank();
    if (axis < 0 || axis > x.getRank())
      return RankedTensorType();
    return RankedTensorType::get({product(dims.take_front(axis)), product(dims.drop_front(axis))},
                                 x.getElementType());
  }
  std::optional<std::vector<int64_t>> axes =
      n.opset >= 13 ? (n.hasInput(1) ? n.constantInts(1) : std::nullopt) : n.intsAttr("axes");
  SmallVector<int64_t> shape;
  if (type == "Unsqueeze") {
    if (!axes || !(axes = normalizeAxes(*axes, x.getRank() + axes->size())))
      return RankedTensorType();
    std::sort(axes->begin(), axes->end());
    shape.assign(dims.begin(), dims.end());
    for (int64_t axis : *axes)
      shape.insert(shape.begin() + std::min<int64_t>(axis, shape.size()), 1);
    return RankedTensorType::get(shape, x.getElementType());
  }
  // Squeeze without axes drops the dimensions of size 1, which needs them
  // all known.
  if (!axes) {
    if (!x.hasStaticShape())
      return RankedTensorType();
    for (int64_t dim : dims)
      if (dim != 1)
        shape.push_back(dim);
    return RankedTensorType::get(shape, x.getElementType());
  }
  if (!(axes = normalizeAxes(*axes, x.getRank())))
    return RankedTensorType();
  for (auto [i, dim] : llvm::enumerate(dims))
    if (!llvm::is_contained(*axes, static_cast<int64_t>(i)))
      shape.push_back(dim);
  return RankedTensorType::get(shape, x.getElementType());
}

/// Reshape, Flatten, Squeeze, Unsqueeze: to the type shape inference gave,
/// else the one computed here. A Reshape target known only at run time
/// stays an operand of ascend.Reshape.
LogicalResult reshape(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), y = n.outputType(0);
  SmallVector<Value> operands = {n.input(0)};
  if (n.node.op_type() == "Reshape" && n.hasInput(1)) {
    if (x)
      y = refineType(y, reshapeResultType(n.input(0), n.input(1), n.intAttr("allowzero", 0) != 0));
    if (y && !y.hasStaticShape() && !n.constantInput(1))
      operands.push_back(n.input(1));
  } else if (x) {
    y = refineType(y, inferRankChange(n, x));
  }
  return finish(n, buildOp(n, "ascend.Reshape", operands, {y}));
}

LogicalResult transpose(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  std::vector<int64_t> perm;
  if (auto given = n.intsAttr("perm"))
    perm = *given;
  else
    for (int64_t i = x.getRank() - 1; i >= 0; --i)
      perm.push_back(i);
  RankedTensorType y = n.outputType(0);
  if (static_cast<int64_t>(perm.size()) == x.getRank()) {
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(p >= 0 && p < x.getRank() ? x.getDimSize(p) : ShapedType::kDynamic);
    y = refineType(y, x.clone(shape));
  }
  return finish(n, buildOp(n, "ascend.Transpose", {n.input(0)}, {y}, {array(n, "perm", perm)}));
}

/// Concat's result: the inputs' dimensions, summed along `axis`.
RankedTensorType inferConcat(NodeConverter &n) {
  RankedTensorType first = n.inputType(0);
  if (!first)
    return RankedTensorType();
  int64_t rank = first.getRank(), axis = n.intAttr("axis", 0);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return RankedTensorType();
  SmallVector<int64_t> shape(first.getShape());
  for (unsigned i = 1; i < n.numInputs(); ++i) {
    RankedTensorType next = n.inputType(i);
    if (!next || next.getRank() != rank)
      return RankedTensorType();
    for (int64_t d = 0; d < rank; ++d) {
      int64_t dim = next.getDimSize(d);
      if (d == axis)
        shape[d] = ShapedType::isDynamic(shape[d]) || ShapedType::isDynamic(dim)
                       ? ShapedType::kDynamic
                       : shape[d] + dim;
      else if (ShapedType::isDynamic(shape[d]))
        shape[d] = dim;
    }
  }
  return first.clone(shape);
}

LogicalResult concat(NodeConverter &n) {
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < n.numInputs(); ++i)
    inputs.push_back(n.input(i));
  RankedTensorType y = refineType(n.outputType(0), inferConcat(n));
  return finish(n, buildOp(n, "ascend.ConcatV2", inputs, {y},
                           {n.builder.getNamedAttr("concat_dim",
                                                   n.builder.getI64IntegerAttr(n.intAttr("axis", 0)))}));
}

LogicalResult split(NodeConverter &n) {
  SmallVector<Type> outputs;
  for (int i = 0; i < n.node.output_size(); ++i)
    outputs.push_back(n.outputType(i));
  return finish(n, buildOp(n, "ascend.Split", {n.input(0)}, outputs,
                           {n.builder.getNamedAttr("axis",
                                                   n.builder.getI64IntegerAttr(n.intAttr("axis", 0)))}));
}

LogicalResult slice(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (n.opset >= 10) {
    starts = n.constantInts(1);
    ends = n.constantInts(2);
    axes = n.hasInput(3) ? n.constantInts(3) : std::nullopt;
    steps = n.hasInput(4) ? n.constantInts(4) : std::nullopt;
    if (!starts || !ends || (n.hasInput(3) && !axes) || (n.hasInput(4) && !steps)) {
      n.rejection = "starts, ends, axes or steps known only at run time (--run=DIR plans for the "
                    "run's values)";
      return failure();
    }
  } else {
    starts = n.intsAttr("starts");
    ends = n.intsAttr("ends");
    axes = n.intsAttr("axes");
  }
  if (!starts || !ends || starts->size() != ends->size())
    return failure();
  int64_t rank = x.getRank();
  std::vector<int64_t> begin(rank, 0), end(rank, std::numeric_limits<int64_t>::max()),
      strides(rank, 1);
  for (size_t i = 0; i < starts->size(); ++i) {
    int64_t axis = axes ? (*axes)[i] : static_cast<int64_t>(i);
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return failure();
    begin[axis] = (*starts)[i];
    end[axis] = (*ends)[i];
    strides[axis] = steps ? (*steps)[i] : 1;
  }
  SmallVector<int64_t> sliced;
  for (int64_t d = 0; d < rank; ++d)
    sliced.push_back(x.isDynamicDim(d) || strides[d] == 0 ? ShapedType::kDynamic
                                       : ascend::stridedSliceLength(x.getDimSize(d), begin[d], end[d], strides[d]));
  RankedTensorType y = refineType(n.outputType(0), x.clone(sliced));
  return finish(n, buildOp(n, "ascend.StridedSlice", {n.input(0)}, {y},
                           {array(n, "begin", begin), array(n, "end", end),
                            array(n, "strides", strides)}));
}

LogicalResult gather(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), indices = n.inputType(1), y = n.outputType(0);
  int64_t axis = n.intAttr("axis", 0);
  if (x && indices) {
    if (axis < 0)
      axis += x.getRank();
    if (axis >= 0 && axis < x.getRank()) {
      SmallVector<int64_t> shape(x.getShape().take_front(axis));
      shape.append(indices.getShape().begin(), indices.getShape().end());
      shape.append(x.getShape().begin() + axis + 1, x.getShape().end());
      y = refineType(y, x.clone(shape));
    }
  }
  return finish(n, buildOp(n, "ascend.GatherV2", {n.input(0), n.input(1)}, {y},
                           {n.builder.getNamedAttr("axis",
                                                   n.builder.getI64IntegerAttr(n.intAttr("axis", 0)))}));
}

LogicalResult pad(NodeConverter &n) {
  std::optional<std::vector<int64_t>> pads =
      n.opset >= 11 ? n.constantInts(1) : n.intsAttr("pads");
  if (!pads) {
    n.rejection = "pads known only at run time (--run=DIR plans for the run's values)";
    return failure();
  }
  if (pads->size() % 2)
    return failure();
  float value = n.floatAttr("value", 0.0f);
  // A pad value known only at run time is PadV3's constant_values operand.
  SmallVector<Value> operands = {n.input(0)};
  if (n.opset >= 11 && n.hasInput(2)) {
    std::optional<DenseElementsAttr> constant = n.constantInput(2);
    if (constant && isa<FloatType>(constant->getElementType()) &&
        constant->getNumElements() == 1)
      value = (*constant->getValues<APFloat>().begin()).convertToDouble();
    else
      operands.push_back(n.input(2));
  }
  // ONNX: [b0, b1, ..., e0, e1, ...]; ascend: [b0, e0, b1, e1, ...].
  size_t rank = pads->size() / 2;
  std::vector<int64_t> pairs;
  for (size_t d = 0; d < rank; ++d) {
    pairs.push_back((*pads)[d]);
    pairs.push_back((*pads)[rank + d]);
  }
  std::string modeName = n.stringAttr("mode", "constant");
  std::optional<ascend::PadMode> mode = ascend::symbolizePadMode(modeName);
  if (!mode) {
    n.rejection = "mode '" + modeName + "' (CANN's Pad has constant, reflect and edge)";
    return failure();
  }
  return finish(n, buildOp(n, "ascend.Pad", operands, {n.outputType(0)},
                           {array(n, "paddings", pairs),
                            n.builder.getNamedAttr(
                                "mode", ascend::PadModeAttr::get(n.builder.getContext(), *mode)),
                            n.builder.getNamedAttr("constant_value", n.builder.getF32FloatAttr(value))}));
}

/// Resize / Upsample on the H and W of an NCHW tensor.
LogicalResult resize(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), y = n.outputType(0);
  if (!x || x.getRank() != 4)
    return failure();
  // A spatial size known only at run time is resized by constant scales
  // (Resize's third input, Upsample's second or its attribute).
  std::optional<std::vector<float>> scales;
  if (!y || !y.hasStaticShape()) {
    unsigned scalesInput = n.node.op_type() == "Upsample" ? 1 : 2;
    std::optional<DenseElementsAttr> given = n.constantInput(scalesInput);
    if (given && given->getNumElements() == 4 && isa<FloatType>(given->getElementType())) {
      scales.emplace();
      for (const APFloat &v : given->getValues<APFloat>())
        scales->push_back(v.convertToFloat());
    }
    if (!scales || (*scales)[0] != 1.0f || (*scales)[1] != 1.0f) {
      n.rejection = "an output size known only at run time without constant H/W scales";
      return failure();
    }
    SmallVector<int64_t> shape(x.getShape());
    for (int d = 2; d < 4; ++d)
      shape[d] = x.isDynamicDim(d) ? ShapedType::kDynamic
                                   : static_cast<int64_t>(std::floor(shape[d] * (*scales)[d]));
    y = refineType(y, x.clone(shape));
  }
  if (x.getDimSize(0) != y.getDimSize(0) || x.getDimSize(1) != y.getDimSize(1))
    return failure();
  std::string mode = n.stringAttr("mode", "nearest");
  std::string coordinates = n.stringAttr("coordinate_transformation_mode",
                                         n.node.op_type() == "Upsample" ? "asymmetric"
                                                                        : "half_pixel");
  const char *opName = mode == "nearest"                      ? "ascend.ResizeNearestNeighborV2"
                       : (mode == "linear" || mode == "bilinear") ? "ascend.ResizeBilinearV2"
                       : mode == "cubic"                          ? "ascend.ResizeBicubic"
                                                                  : nullptr;
  if (!opName)
    return failure();
  // ResizeBicubic is the cubic convolution with a = -0.75 over the whole
  // neighbourhood (ONNX's defaults).
  if (mode == "cubic" && (n.floatAttr("cubic_coeff_a", -0.75f) != -0.75f ||
                          n.intAttr("exclude_outside", 0) != 0)) {
    n.rejection = "cubic_coeff_a other than -0.75 or exclude_outside=1";
    return failure();
  }
  bool alignCorners = coordinates == "align_corners";
  bool halfPixel = coordinates == "half_pixel" || coordinates == "pytorch_half_pixel";
  if (!alignCorners && !halfPixel && coordinates != "asymmetric") {
    n.rejection = "coordinate_transformation_mode " + coordinates;
    return failure();
  }
  NamedAttribute target =
      scales ? n.builder.getNamedAttr("scales", n.builder.getDenseF32ArrayAttr(
                                                    {(*scales)[2], (*scales)[3]}))
             : array(n, "size", {y.getDimSize(2), y.getDimSize(3)});
  return finish(n, buildOp(n, opName, {n.input(0)}, {y},
                           {target,
                            n.builder.getNamedAttr("align_corners", n.builder.getBoolAttr(alignCorners)),
                            n.builder.getNamedAttr("half_pixel_centers", n.builder.getBoolAttr(halfPixel))}));
}

} // namespace

LogicalResult ascendprec::onnximport::convertShapeOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (type == "Reshape" || type == "Flatten" || type == "Squeeze" || type == "Unsqueeze")
    return reshape(n);
  if (type == "Transpose")
    return transpose(n);
  if (type == "Concat")
    return concat(n);
  if (type == "Split")
    return split(n);
  if (type == "Slice")
    return slice(n);
  if (type == "Gather")
    return gather(n);
  if (type == "Pad")
    return pad(n);
  if (type == "Resize" || type == "Upsample")
    return resize(n);
  if (type == "Shape") {
    // Opset 15's start/end slice the shape: not expressed by ascend.Shape.
    RankedTensorType x = n.inputType(0);
    if (!x || n.attr("start") || n.attr("end"))
      return failure();
    return finish(n, buildOp(n, "ascend.Shape", {n.input(0)},
                             {RankedTensorType::get({x.getRank()}, n.builder.getI64Type())}));
  }
  if (type == "DepthToSpace" || type == "SpaceToDepth") {
    std::string orderName = n.stringAttr("mode", "DCR");
    std::optional<ascend::BlockOrder> order = ascend::symbolizeBlockOrder(orderName);
    if (!order) {
      n.rejection = "mode '" + orderName + "'";
      return failure();
    }
    return finish(n, buildOp(n, "ascend." + type, {n.input(0)}, {n.outputType(0)},
                             {n.builder.getNamedAttr("block_size", n.builder.getI64IntegerAttr(
                                                                       n.intAttr("blocksize", 0))),
                              n.builder.getNamedAttr("mode", ascend::BlockOrderAttr::get(
                                                                 n.builder.getContext(), *order))}));
  }
  return failure();
}
