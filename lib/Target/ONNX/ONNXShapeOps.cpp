//===- ONNXShapeOps.cpp - reshape, transpose, concat, slice, gather, pad --===//

#include "ONNXImporter.h"

#include <limits>

using namespace mlir;
using namespace mlir::ascendprec::onnximport;

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

/// Reshape, Flatten, Squeeze, Unsqueeze: the result type shape inference
/// computed says it all.
LogicalResult reshape(NodeConverter &n) {
  return finish(n, buildOp(n, "ascend.Reshape", {n.input(0)}, {n.outputType(0)}));
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
  return finish(n, buildOp(n, "ascend.Transpose", {n.input(0)}, {n.outputType(0)},
                           {array(n, "perm", perm)}));
}

LogicalResult concat(NodeConverter &n) {
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < n.numInputs(); ++i)
    inputs.push_back(n.input(i));
  return finish(n, buildOp(n, "ascend.ConcatV2", inputs, {n.outputType(0)},
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
      n.rejection = "starts, ends, axes or steps known only at run time";
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
  return finish(n, buildOp(n, "ascend.StridedSlice", {n.input(0)}, {n.outputType(0)},
                           {array(n, "begin", begin), array(n, "end", end),
                            array(n, "strides", strides)}));
}

LogicalResult gather(NodeConverter &n) {
  return finish(n, buildOp(n, "ascend.GatherV2", {n.input(0), n.input(1)}, {n.outputType(0)},
                           {n.builder.getNamedAttr("axis",
                                                   n.builder.getI64IntegerAttr(n.intAttr("axis", 0)))}));
}

LogicalResult pad(NodeConverter &n) {
  std::optional<std::vector<int64_t>> pads =
      n.opset >= 11 ? n.constantInts(1) : n.intsAttr("pads");
  if (!pads) {
    n.rejection = "pads known only at run time";
    return failure();
  }
  if (pads->size() % 2)
    return failure();
  float value = n.floatAttr("value", 0.0f);
  if (n.opset >= 11 && n.hasInput(2)) {
    std::optional<DenseElementsAttr> constant = n.constantInput(2);
    if (!constant || !isa<FloatType>(constant->getElementType()) ||
        constant->getNumElements() != 1)
      return failure();
    value = (*constant->getValues<APFloat>().begin()).convertToDouble();
  }
  // ONNX: [b0, b1, ..., e0, e1, ...]; ascend: [b0, e0, b1, e1, ...].
  size_t rank = pads->size() / 2;
  std::vector<int64_t> pairs;
  for (size_t d = 0; d < rank; ++d) {
    pairs.push_back((*pads)[d]);
    pairs.push_back((*pads)[rank + d]);
  }
  return finish(n, buildOp(n, "ascend.Pad", {n.input(0)}, {n.outputType(0)},
                           {array(n, "paddings", pairs),
                            n.builder.getNamedAttr("mode", n.builder.getStringAttr(
                                                               n.stringAttr("mode", "constant"))),
                            n.builder.getNamedAttr("constant_value", n.builder.getF32FloatAttr(value))}));
}

/// Resize / Upsample on the H and W of an NCHW tensor.
LogicalResult resize(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), y = n.outputType(0);
  if (!x || !y || x.getRank() != 4 || !y.hasStaticShape() ||
      x.getDimSize(0) != y.getDimSize(0) || x.getDimSize(1) != y.getDimSize(1))
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
  return finish(n, buildOp(n, opName, {n.input(0)}, {y},
                           {array(n, "size", {y.getDimSize(2), y.getDimSize(3)}),
                            n.builder.getNamedAttr("align_corners", n.builder.getBoolAttr(alignCorners)),
                            n.builder.getNamedAttr("half_pixel_centers", n.builder.getBoolAttr(halfPixel))}));
}

} // namespace

LogicalResult mlir::ascendprec::onnximport::convertShapeOp(NodeConverter &n) {
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
  if (type == "DepthToSpace" || type == "SpaceToDepth")
    return finish(n, buildOp(n, "ascend." + type, {n.input(0)}, {n.outputType(0)},
                             {n.builder.getNamedAttr("block_size", n.builder.getI64IntegerAttr(
                                                                       n.intAttr("blocksize", 0))),
                              n.builder.getNamedAttr("mode", n.builder.getStringAttr(
                                                                 n.stringAttr("mode", "DCR")))}));
  return failure();
}
