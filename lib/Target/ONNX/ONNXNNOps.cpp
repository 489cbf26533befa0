//===- ONNXNNOps.cpp - convolution, matmul, gemm, pooling -----------------===//

#include "ONNXImporter.h"

using namespace mlir;
using namespace mlir::ascendprec::onnximport;

namespace {

NamedAttribute array(NodeConverter &n, const char *name, ArrayRef<int64_t> values) {
  return n.builder.getNamedAttr(name, n.builder.getDenseI64ArrayAttr(values));
}

/// ONNX pads [top, left, bottom, right] as ascend's [top, bottom, left,
/// right]; SAME_* and VALID auto_pad are computed from static sizes.
std::optional<std::vector<int64_t>> pads2d(NodeConverter &n, RankedTensorType x,
                                           ArrayRef<int64_t> kernel,
                                           ArrayRef<int64_t> strides,
                                           ArrayRef<int64_t> dilations, bool oneD) {
  std::string autoPad = n.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    // 1-D pads [begin, end] pad the width of the [N, C, 1, L] form.
    std::vector<int64_t> p =
        n.intsAttr("pads").value_or(std::vector<int64_t>(oneD ? 2 : 4, 0));
    if (oneD)
      return p.size() == 2 ? std::optional(std::vector<int64_t>{0, 0, p[0], p[1]})
                           : std::nullopt;
    if (p.size() != 4)
      return std::nullopt;
    return std::vector<int64_t>{p[0], p[2], p[1], p[3]};
  }
  if (autoPad == "VALID")
    return std::vector<int64_t>(4, 0);
  std::vector<int64_t> result(4, 0);
  for (int axis = 0; axis < 2; ++axis) {
    int64_t in = x.getDimSize(2 + axis);
    if (ShapedType::isDynamic(in))
      return std::nullopt;
    int64_t out = (in + strides[axis] - 1) / strides[axis];
    int64_t total = std::max<int64_t>(
        0, (out - 1) * strides[axis] + dilations[axis] * (kernel[axis] - 1) + 1 - in);
    int64_t small = total / 2, large = total - small;
    bool upper = autoPad == "SAME_UPPER";
    result[2 * axis] = upper ? small : large;
    result[2 * axis + 1] = upper ? large : small;
  }
  return result;
}

/// [N, C, L] as [N, C, 1, L]: 1-D convolution and pooling run as the
/// dialect's 2-D ops over a unit height.
RankedTensorType withUnitHeight(RankedTensorType type) {
  return RankedTensorType::get({type.getDimSize(0), type.getDimSize(1), 1, type.getDimSize(2)},
                               type.getElementType());
}

/// A 2-D window attribute from ONNX's: 1-D values get a leading 1.
std::optional<std::vector<int64_t>> window(NodeConverter &n, const char *name, bool oneD) {
  std::vector<int64_t> values =
      n.intsAttr(name).value_or(std::vector<int64_t>(oneD ? 1 : 2, 1));
  if (values.size() != (oneD ? 1u : 2u))
    return std::nullopt;
  if (oneD)
    values.insert(values.begin(), 1);
  return values;
}

/// Reshapes `value` to `type`, named "<node><suffix>".
Value reshapeTo(NodeConverter &n, Value value, RankedTensorType type, StringRef suffix) {
  Operation *op = buildOp(n, "ascend.Reshape", {value}, {type}, {}, suffix);
  return op ? op->getResult(0) : Value();
}

/// Builds the 2-D op for a node whose data input is operand 0; a 1-D node
/// gets Reshapes to and from the unit-height form (the 2-D op keeps the
/// node's name, so mixlists and keep_dtype still find it).
LogicalResult build2d(NodeConverter &n, StringRef opName, SmallVector<Value> operands,
                      RankedTensorType y, ArrayRef<NamedAttribute> attrs, bool oneD) {
  RankedTensorType y2d = oneD ? withUnitHeight(y) : y;
  if (oneD)
    operands[0] = reshapeTo(n, operands[0], withUnitHeight(n.inputType(0)), "/to_2d");
  Operation *op = buildOp(n, opName, operands, {y2d}, attrs);
  if (!op)
    return failure();
  Value result = op->getResult(0);
  if (oneD)
    result = reshapeTo(n, result, y, "/to_1d");
  if (!result)
    return failure();
  n.results = {result};
  return success();
}

LogicalResult conv(NodeConverter &n, bool transposed) {
  RankedTensorType x = n.inputType(0), w = n.inputType(1);
  RankedTensorType y = n.outputType(0);
  if (!x || !w || !y || x.getRank() != w.getRank() || x.getRank() != y.getRank())
    return failure();
  bool oneD = x.getRank() == 3;
  if (!oneD && x.getRank() != 4)
    return failure();
  std::vector<int64_t> kernel = {oneD ? 1 : w.getDimSize(2), w.getDimSize(oneD ? 2 : 3)};
  std::optional<std::vector<int64_t>> strides = window(n, "strides", oneD);
  std::optional<std::vector<int64_t>> dilations = window(n, "dilations", oneD);
  if (!strides || !dilations)
    return failure();
  if (transposed && (n.attr("output_shape") || n.stringAttr("auto_pad", "NOTSET") != "NOTSET"))
    return failure();
  std::optional<std::vector<int64_t>> pads =
      pads2d(n, oneD ? withUnitHeight(x) : x, kernel, *strides, *dilations, oneD);
  if (!pads)
    return failure();
  SmallVector<Value> operands = {n.input(0), n.input(1)};
  if (oneD)
    operands[1] = reshapeTo(n, operands[1], withUnitHeight(w), "/weight_2d");
  if (n.hasInput(2))
    operands.push_back(n.input(2));
  SmallVector<NamedAttribute> attrs = {
      array(n, "strides", *strides), array(n, "pads", *pads), array(n, "dilations", *dilations),
      n.builder.getNamedAttr("groups", n.builder.getI64IntegerAttr(n.intAttr("group", 1)))};
  if (transposed) {
    std::vector<int64_t> outputPadding =
        n.intsAttr("output_padding").value_or(std::vector<int64_t>(oneD ? 1 : 2, 0));
    if (outputPadding.size() != (oneD ? 1u : 2u))
      return failure();
    if (oneD)
      outputPadding.insert(outputPadding.begin(), 0);
    attrs.push_back(array(n, "output_padding", outputPadding));
  }
  return build2d(n, transposed ? "ascend.Conv2DBackpropInput" : "ascend.Conv2D", operands, y,
                 attrs, oneD);
}

LogicalResult matmul(NodeConverter &n) {
  RankedTensorType a = n.inputType(0), b = n.inputType(1);
  if (!a || !b || a.getRank() < 2 || b.getRank() < 2)
    return failure();
  bool plain = a.getRank() == 2 && b.getRank() == 2;
  Operation *op = buildOp(n, plain ? "ascend.MatMulV2" : "ascend.BatchMatMulV2",
                          {n.input(0), n.input(1)}, {n.outputType(0)});
  if (!op)
    return failure();
  n.results = {op->getResult(0)};
  return success();
}

/// Gemm: alpha * op(A) * op(B) + beta * C with alpha = 1 and beta = 1 (or 0)
/// becomes MatMulV2 with a bias ([N]) or MatMulV2 + Add (any other C).
LogicalResult gemm(NodeConverter &n) {
  float beta = n.floatAttr("beta", 1.0f);
  if (n.floatAttr("alpha", 1.0f) != 1.0f || (beta != 1.0f && beta != 0.0f))
    return failure();
  RankedTensorType y = n.outputType(0);
  // beta = 0 drops C (PyTorch exports torch.mm that way).
  bool useC = n.hasInput(2) && beta != 0.0f;
  RankedTensorType c = useC ? n.inputType(2) : RankedTensorType();
  SmallVector<NamedAttribute> attrs = {
      n.builder.getNamedAttr("transpose_x1", n.builder.getBoolAttr(n.intAttr("transA", 0))),
      n.builder.getNamedAttr("transpose_x2", n.builder.getBoolAttr(n.intAttr("transB", 0)))};
  SmallVector<Value> operands = {n.input(0), n.input(1)};
  bool asBias = c && c.getRank() == 1;
  if (asBias)
    operands.push_back(n.input(2));
  Operation *mm = buildOp(n, "ascend.MatMulV2", operands, {y}, attrs,
                          useC && !asBias ? "/matmul" : "");
  if (!mm)
    return failure();
  Value result = mm->getResult(0);
  if (useC && !asBias) {
    Operation *add = buildOp(n, "ascend.Add", {result, n.input(2)}, {y});
    if (!add)
      return failure();
    result = add->getResult(0);
  }
  n.results = {result};
  return success();
}

LogicalResult pool(NodeConverter &n, const char *opName, bool average) {
  RankedTensorType x = n.inputType(0), y = n.outputType(0);
  if (!x || !y || (x.getRank() != 3 && x.getRank() != 4) || n.node.output_size() > 1)
    return failure();
  bool oneD = x.getRank() == 3;
  std::optional<std::vector<int64_t>> kernel = window(n, "kernel_shape", oneD);
  std::optional<std::vector<int64_t>> strides = window(n, "strides", oneD);
  std::optional<std::vector<int64_t>> dilations = window(n, "dilations", oneD);
  if (!n.attr("kernel_shape") || !kernel || !strides || !dilations ||
      *dilations != std::vector<int64_t>{1, 1} || n.intAttr("storage_order", 0) != 0)
    return failure();
  std::optional<std::vector<int64_t>> pads =
      pads2d(n, oneD ? withUnitHeight(x) : x, *kernel, *strides, *dilations, oneD);
  if (!pads)
    return failure();
  SmallVector<NamedAttribute> attrs = {
      array(n, "ksize", *kernel), array(n, "strides", *strides), array(n, "pads", *pads),
      n.builder.getNamedAttr("ceil_mode", n.builder.getBoolAttr(n.intAttr("ceil_mode", 0)))};
  if (average)
    attrs.push_back(n.builder.getNamedAttr(
        "exclusive", n.builder.getBoolAttr(!n.intAttr("count_include_pad", 0))));
  return build2d(n, opName, {n.input(0)}, y, attrs, oneD);
}

LogicalResult globalPool(NodeConverter &n, const char *opName) {
  RankedTensorType x = n.inputType(0);
  if (!x || x.getRank() != 4)
    return failure();
  Operation *op = buildOp(n, opName, {n.input(0)}, {n.outputType(0)},
                          {array(n, "ksize", {1, 1}), array(n, "strides", {1, 1}),
                           array(n, "pads", {0, 0, 0, 0}),
                           n.builder.getNamedAttr("global_pooling", n.builder.getBoolAttr(true))});
  if (!op)
    return failure();
  n.results = {op->getResult(0)};
  return success();
}

} // namespace

LogicalResult mlir::ascendprec::onnximport::convertNNOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (type == "Conv")
    return conv(n, /*transposed=*/false);
  if (type == "ConvTranspose")
    return conv(n, /*transposed=*/true);
  if (type == "MatMul")
    return matmul(n);
  if (type == "Gemm")
    return gemm(n);
  if (type == "MaxPool")
    return pool(n, "ascend.MaxPool", false);
  if (type == "AveragePool")
    return pool(n, "ascend.AvgPool", true);
  if (type == "GlobalAveragePool")
    return globalPool(n, "ascend.AvgPool");
  if (type == "GlobalMaxPool")
    return globalPool(n, "ascend.MaxPool");
  return failure();
}
