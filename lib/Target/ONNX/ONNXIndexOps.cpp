//===- ONNXIndexOps.cpp - element-indexed ONNX ops ------------------------===//
//
// GatherElements, ScatterElements (and opset 9's Scatter), GatherND,
// ScatterND, Trilu and CumSum become the ops of AscendIndexOps.td, under
// CANN's op types (docs/onnx-import.md). Trilu's k and CumSum's axis may be
// known only at run time: the kernels read them then.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include <limits>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

NamedAttribute intAttr(NodeConverter &n, StringRef name, int64_t value) {
  return n.builder.getNamedAttr(name, n.builder.getI64IntegerAttr(value));
}

/// `reduction` as ONNX spells it (none, add, mul, max, min), or a rejection.
std::optional<NamedAttribute> reductionAttr(NodeConverter &n) {
  std::string reduction = n.stringAttr("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" &&
      reduction != "min") {
    n.rejection = "reduction '" + reduction + "'";
    return std::nullopt;
  }
  return n.builder.getNamedAttr("reduction", n.builder.getStringAttr(reduction));
}

LogicalResult gatherElements(NodeConverter &n) {
  return setResult(n, buildValue(n, "ascend.GatherElements", {n.input(0), n.input(1)},
                                 n.outputType(0), {intAttr(n, "dim", n.intAttr("axis", 0))}));
}

LogicalResult scatterElements(NodeConverter &n) {
  std::optional<NamedAttribute> reduction = reductionAttr(n);
  if (!reduction)
    return failure();
  return setResult(n, buildValue(n, "ascend.ScatterElements",
                                 {n.input(0), n.input(1), n.input(2)}, n.outputType(0),
                                 {intAttr(n, "axis", n.intAttr("axis", 0)), *reduction}));
}

/// GatherND with `batch` leading batch dimensions as CANN's GatherNd (which
/// has none; its ONNX parser drops batch_dims with a warning and computes
/// something else): the indices get their batch coordinates prepended, a
/// constant of shape indices[:-1] + [batch] Concat'ed in front (the
/// `<node>/batch_coordinates` and `<node>/indices` ops).
Value batchedIndices(NodeConverter &n, int64_t batch) {
  RankedTensorType indices = n.inputType(1);
  if (!indices || !indices.hasStaticShape() || indices.getRank() <= batch) {
    n.rejection = "batch_dims with indices of unknown shape";
    return Value();
  }
  ArrayRef<int64_t> shape = indices.getShape();
  SmallVector<int64_t> gridShape(shape.drop_back());
  gridShape.push_back(batch);
  int64_t rows = ShapedType::getNumElements(shape.drop_back());
  // Elements per step of each batch dimension within a row index.
  SmallVector<int64_t> strides(batch, 1);
  for (int64_t d = batch - 1; d >= 0; --d)
    strides[d] = ShapedType::getNumElements(shape.drop_back().drop_front(d + 1));
  unsigned width = indices.getElementTypeBitWidth();
  SmallVector<APInt> grid;
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t d = 0; d < batch; ++d)
      grid.push_back(APInt(width, (row / strides[d]) % shape[d], /*isSigned=*/true));
  auto gridType = RankedTensorType::get(gridShape, indices.getElementType());
  Value coordinates = n.makeConst(DenseElementsAttr::get(gridType, grid), "batch_coordinates");
  SmallVector<int64_t> joined(shape);
  joined.back() += batch;
  return buildValue(n, "ascend.ConcatV2", {coordinates, n.input(1)}, indices.clone(joined),
                    {intAttr(n, "concat_dim", -1)}, "/indices");
}

LogicalResult gatherND(NodeConverter &n) {
  int64_t batch = n.intAttr("batch_dims", 0);
  Value indices = batch == 0 ? n.input(1) : batchedIndices(n, batch);
  if (!indices)
    return failure();
  return setResult(n, buildValue(n, "ascend.GatherNd", {n.input(0), indices}, n.outputType(0),
                                 {intAttr(n, "batch_dims", 0)}));
}

LogicalResult scatterND(NodeConverter &n) {
  std::optional<NamedAttribute> reduction = reductionAttr(n);
  if (!reduction)
    return failure();
  return setResult(n, buildValue(n, "ascend.TensorScatterUpdate", {n.input(0), n.input(1), n.input(2)},
                                 n.outputType(0), {*reduction}));
}

LogicalResult trilu(NodeConverter &n) {
  SmallVector<Value> operands = {n.input(0)};
  int64_t diagonal = 0;
  if (n.hasInput(1)) {
    std::optional<std::vector<int64_t>> k = n.constantInts(1);
    if (k && k->size() == 1)
      diagonal = (*k)[0];
    else
      operands.push_back(n.input(1)); // read when the kernel runs
  }
  bool upper = n.intAttr("upper", 1) != 0;
  return setResult(n, buildValue(n, upper ? "ascend.Triu" : "ascend.Tril", operands,
                                 n.outputType(0), {intAttr(n, "diagonal", diagonal)}));
}

LogicalResult cumSum(NodeConverter &n) {
  return setResult(n, buildValue(n, "ascend.Cumsum", {n.input(0), n.input(1)}, n.outputType(0),
                                 {n.builder.getNamedAttr("exclusive", n.builder.getBoolAttr(
                                                                          n.intAttr("exclusive", 0))),
                                  n.builder.getNamedAttr("reverse", n.builder.getBoolAttr(
                                                                        n.intAttr("reverse", 0)))}));
}

LogicalResult nonZero(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  // [rank, n]: n is known only when the graph runs.
  auto y = RankedTensorType::get({x.getRank(), ShapedType::kDynamic}, n.builder.getI64Type());
  return setResult(n, buildValue(n, "ascend.NonZero", {n.input(0)}, y));
}

/// NonMaxSuppression: the optional limits get ONNX's defaults as constants
/// (no boxes without max_output_boxes_per_class, IoU threshold 0, no score
/// threshold).
LogicalResult nonMaxSuppression(NodeConverter &n) {
  RankedTensorType boxes = n.inputType(0);
  if (!boxes)
    return failure();
  Type element = boxes.getElementType();
  auto limit = [&](unsigned input, Type type, double fallback, const char *suffix) {
    if (n.hasInput(input))
      return n.input(input);
    return n.makeConst(DenseElementsAttr::get(
                           RankedTensorType::get({1}, type),
                           isa<FloatType>(type)
                               ? Attribute(FloatAttr::get(type, fallback))
                               : Attribute(IntegerAttr::get(type, static_cast<int64_t>(fallback)))),
                       suffix);
  };
  SmallVector<Value> operands = {
      n.input(0), n.input(1), limit(2, n.builder.getI64Type(), 0, "max_output_boxes_per_class"),
      limit(3, element, 0.0, "iou_threshold"),
      limit(4, element, -std::numeric_limits<double>::infinity(), "score_threshold")};
  auto y = RankedTensorType::get({ShapedType::kDynamic, 3}, n.builder.getI64Type());
  return setResult(n, buildValue(n, "ascend.NonMaxSuppressionV6", operands, y,
                                 {intAttr(n, "center_point_box", n.intAttr("center_point_box", 0))}));
}

/// Compress as CANN's parser builds it: the condition's non-zero positions
/// (NonZero, `<node>/where`, as a 1-D `<node>/indices`) picking slices
/// along `axis` with GatherV2; without `axis`, of the flattened input
/// (`<node>/flatten`). The picked count is known only when the graph runs.
LogicalResult compress(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), condition = n.inputType(1);
  if (!x || !condition || condition.getRank() != 1)
    return failure();
  Type i64 = n.builder.getI64Type();
  Value data = n.input(0);
  RankedTensorType dataType = x;
  int64_t axis = 0;
  if (n.attr("axis")) {
    axis = n.intAttr("axis", 0);
    if (axis < 0)
      axis += x.getRank();
  } else {
    if (!x.hasStaticShape()) {
      n.rejection = "no axis on an input of unknown size";
      return failure();
    }
    dataType = RankedTensorType::get({x.getNumElements()}, x.getElementType());
    data = buildValue(n, "ascend.Reshape", {data}, dataType, {}, "/flatten");
  }
  if (!data || axis < 0 || axis >= dataType.getRank())
    return failure();
  Value where = buildValue(n, "ascend.NonZero", {n.input(1)},
                           RankedTensorType::get({1, ShapedType::kDynamic}, i64), {}, "/where");
  Value indices = where ? buildValue(n, "ascend.Reshape", {where},
                                     RankedTensorType::get({ShapedType::kDynamic}, i64), {},
                                     "/indices")
                        : Value();
  if (!indices)
    return failure();
  SmallVector<int64_t> shape(dataType.getShape());
  shape[axis] = ShapedType::kDynamic;
  return setResult(n, buildValue(n, "ascend.GatherV2", {data, indices}, dataType.clone(shape),
                                 {intAttr(n, "axis", axis)}));
}

/// MaxUnpool as CANN's parser builds it: X's values scattered
/// (TensorScatterUpdate, `<node>/scatter`) into zeros at I's flat indices
/// into the unpooled shape ((in - 1) * stride + kernel - pads per spatial
/// axis), reshaped to it, and padded with zeros at the end of each axis to
/// `output_shape` when that is larger (a constant, or the run's value: it
/// decides the shape), as ONNX's reference does.
LogicalResult maxUnpool(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), indices = n.inputType(1);
  std::optional<std::vector<int64_t>> kernel = n.intsAttr("kernel_shape");
  if (!x || !indices || !kernel || !x.hasStaticShape() || x.getShape() != indices.getShape())
    return failure();
  size_t spatial = kernel->size();
  if (static_cast<size_t>(x.getRank()) != spatial + 2)
    return failure();
  std::vector<int64_t> strides = n.intsAttr("strides").value_or(std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads = n.intsAttr("pads").value_or(std::vector<int64_t>(2 * spatial, 0));
  if (strides.size() != spatial || pads.size() != 2 * spatial)
    return failure();
  SmallVector<int64_t> shape(x.getShape().take_front(2));
  for (size_t a = 0; a < spatial; ++a)
    shape.push_back((x.getDimSize(2 + a) - 1) * strides[a] + (*kernel)[a] - pads[a] -
                    pads[spatial + a]);
  SmallVector<int64_t> padded(shape);
  if (n.hasInput(2)) {
    std::optional<std::vector<int64_t>> given = n.constantInts(2);
    if (!given || given->size() != shape.size()) {
      n.rejection = "an output_shape known only at run time (--run=DIR plans for the run's values)";
      return failure();
    }
    for (size_t d = 0; d < shape.size(); ++d)
      if ((*given)[d] < shape[d]) {
        n.rejection = "an output_shape smaller than the unpooled shape";
        return failure();
      }
    padded.assign(given->begin(), given->end());
  }
  int64_t total = ShapedType::getNumElements(shape), count = x.getNumElements();
  Type element = x.getElementType();
  auto flat = RankedTensorType::get({total}, element);
  Value zeros = n.makeConst(DenseElementsAttr::get(flat, n.builder.getZeroAttr(element)), "zeros");
  Value where = buildValue(n, "ascend.Reshape", {n.input(1)},
                           RankedTensorType::get({count, 1}, indices.getElementType()), {},
                           "/indices");
  Value values = buildValue(n, "ascend.Reshape", {n.input(0)},
                            RankedTensorType::get({count}, element), {}, "/values");
  Value scattered =
      where && values ? buildValue(n, "ascend.TensorScatterUpdate", {zeros, where, values}, flat,
                                   {n.builder.getNamedAttr("reduction",
                                                           n.builder.getStringAttr("none"))},
                                   "/scatter")
                      : Value();
  if (padded == shape)
    return setResult(n, scattered ? buildValue(n, "ascend.Reshape", {scattered},
                                               RankedTensorType::get(shape, element))
                                  : Value());
  Value unpooled = scattered ? buildValue(n, "ascend.Reshape", {scattered},
                                          RankedTensorType::get(shape, element), {}, "/unpooled")
                             : Value();
  SmallVector<int64_t> pairs;
  for (size_t d = 0; d < shape.size(); ++d) {
    pairs.push_back(0);
    pairs.push_back(padded[d] - shape[d]);
  }
  return setResult(
      n, unpooled ? buildValue(n, "ascend.Pad", {unpooled}, RankedTensorType::get(padded, element),
                               {n.builder.getNamedAttr("paddings",
                                                       n.builder.getDenseI64ArrayAttr(pairs)),
                                n.builder.getNamedAttr(
                                    "mode", ascend::PadModeAttr::get(n.builder.getContext(),
                                                                     ascend::PadMode::Constant)),
                                n.builder.getNamedAttr("constant_value",
                                                       n.builder.getF32FloatAttr(0.0f))})
                  : Value());
}

/// RoiAlign as CANN's parser builds it: the batch indices as a float column
/// (`<node>/batch_column`, `<node>/batch_float`) Concat'ed before the rois
/// (`<node>/rois`), then ROIAlign. half_pixel (opset 16's default) is
/// `aligned`.
LogicalResult roiAlign(NodeConverter &n) {
  RankedTensorType x = n.inputType(0), rois = n.inputType(1), indices = n.inputType(2);
  RankedTensorType y = n.outputType(0);
  if (!x || !rois || !indices || !y || rois.getRank() != 2 || !rois.hasStaticShape())
    return failure();
  int64_t count = rois.getDimSize(0);
  Type element = rois.getElementType();
  Value column = buildValue(n, "ascend.Reshape", {n.input(2)},
                            RankedTensorType::get({count, 1}, indices.getElementType()), {},
                            "/batch_column");
  Value asFloat = column ? buildValue(n, "ascend.Cast", {column},
                                      RankedTensorType::get({count, 1}, element), {}, "/batch_float")
                         : Value();
  Value joined = asFloat ? buildValue(n, "ascend.ConcatV2", {asFloat, n.input(1)},
                                      RankedTensorType::get({count, 5}, element),
                                      {intAttr(n, "concat_dim", 1)}, "/rois")
                         : Value();
  std::string transform =
      n.stringAttr("coordinate_transformation_mode", n.opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (transform != "half_pixel" && transform != "output_half_pixel") {
    n.rejection = "coordinate_transformation_mode '" + transform + "'";
    return failure();
  }
  std::string mode = n.stringAttr("mode", "avg");
  SmallVector<NamedAttribute> attrs = {
      intAttr(n, "pooled_height", n.intAttr("output_height", 1)),
      intAttr(n, "pooled_width", n.intAttr("output_width", 1)),
      n.builder.getNamedAttr("spatial_scale",
                             n.builder.getF32FloatAttr(n.floatAttr("spatial_scale", 1.0f))),
      intAttr(n, "sample_num", n.intAttr("sampling_ratio", 0)),
      n.builder.getNamedAttr("aligned", n.builder.getBoolAttr(transform == "half_pixel")),
      n.builder.getNamedAttr("mode", n.builder.getStringAttr(mode))};
  return setResult(n, joined ? buildValue(n, "ascend.ROIAlign", {n.input(0), joined}, y, attrs)
                             : Value());
}

} // namespace

LogicalResult ascendprec::onnximport::convertIndexOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (type == "GatherElements")
    return gatherElements(n);
  if (type == "ScatterElements" || type == "Scatter")
    return scatterElements(n);
  if (type == "GatherND")
    return gatherND(n);
  if (type == "ScatterND")
    return scatterND(n);
  if (type == "Trilu")
    return trilu(n);
  if (type == "CumSum")
    return cumSum(n);
  if (type == "NonZero")
    return nonZero(n);
  if (type == "NonMaxSuppression")
    return nonMaxSuppression(n);
  if (type == "Compress")
    return compress(n);
  if (type == "MaxUnpool")
    return maxUnpool(n);
  if (type == "RoiAlign")
    return roiAlign(n);
  return failure();
}
