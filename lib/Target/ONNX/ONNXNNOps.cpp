//===- ONNXNNOps.cpp - convolution, matmul, gemm, pooling -----------------===//

#include "ONNXImporter.h"

#include "mlir/Dialect/Traits.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

NamedAttribute array(NodeConverter &n, const char *name, ArrayRef<int64_t> values) {
  return n.builder.getNamedAttr(name, n.builder.getDenseI64ArrayAttr(values));
}

/// ONNX pads `[b0, b1, ..., e0, e1, ...]` as ascend's per-axis pairs
/// `[b0, e0, b1, e1, ...]`; SAME_* and VALID auto_pad are computed from the
/// static sizes of `x`'s spatial dimensions (2 on).
std::optional<std::vector<int64_t>> windowPads(NodeConverter &n, RankedTensorType x,
                                               ArrayRef<int64_t> kernel,
                                               ArrayRef<int64_t> strides,
                                               ArrayRef<int64_t> dilations) {
  size_t spatial = kernel.size();
  std::string autoPad = n.stringAttr("auto_pad", "NOTSET");
  std::vector<int64_t> pairs(2 * spatial, 0);
  if (autoPad == "NOTSET") {
    std::vector<int64_t> p = n.intsAttr("pads").value_or(std::vector<int64_t>(2 * spatial, 0));
    if (p.size() != 2 * spatial)
      return std::nullopt;
    for (size_t axis = 0; axis < spatial; ++axis) {
      pairs[2 * axis] = p[axis];
      pairs[2 * axis + 1] = p[spatial + axis];
    }
    return pairs;
  }
  if (autoPad == "VALID")
    return pairs;
  for (size_t axis = 0; axis < spatial; ++axis) {
    int64_t in = x.getDimSize(2 + axis);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(kernel[axis])) {
      n.rejection = "auto_pad " + autoPad + " on a dynamic spatial size";
      return std::nullopt;
    }
    int64_t out = (in + strides[axis] - 1) / strides[axis];
    int64_t total = std::max<int64_t>(
        0, (out - 1) * strides[axis] + dilations[axis] * (kernel[axis] - 1) + 1 - in);
    int64_t small = total / 2, large = total - small;
    bool upper = autoPad == "SAME_UPPER";
    pairs[2 * axis] = upper ? small : large;
    pairs[2 * axis + 1] = upper ? large : small;
  }
  return pairs;
}

/// [N, C, L] as [N, C, 1, L]: 1-D convolution and pooling run as the
/// dialect's 2-D ops over a unit height.
RankedTensorType withUnitHeight(RankedTensorType type) {
  return RankedTensorType::get({type.getDimSize(0), type.getDimSize(1), 1, type.getDimSize(2)},
                               type.getElementType());
}

/// A window attribute with one entry per spatial axis (default `fill`).
std::optional<std::vector<int64_t>> window(NodeConverter &n, const char *name, size_t spatial,
                                           int64_t fill = 1) {
  std::vector<int64_t> values = n.intsAttr(name).value_or(std::vector<int64_t>(spatial, fill));
  if (values.size() != spatial)
    return std::nullopt;
  return values;
}

/// Reshapes `value` to `type`, named "<node><suffix>".
Value reshapeTo(NodeConverter &n, Value value, RankedTensorType type, StringRef suffix) {
  Operation *op = buildOp(n, "ascend.Reshape", {value}, {type}, {}, suffix);
  return op ? op->getResult(0) : Value();
}

/// Window attributes of a 1-D node as the unit-height 2-D op's: the height
/// axis gets `fill` (a pad pair gets 0, 0).
void addUnitHeight(std::vector<int64_t> &values, int64_t fill, bool pairs = false) {
  values.insert(values.begin(), fill);
  if (pairs)
    values.insert(values.begin(), fill);
}

/// Builds the op for a node whose data input is operand 0; a 1-D node gets
/// Reshapes to and from the unit-height form (the op keeps the node's name,
/// so mixlists and keep_dtype still find it).
LogicalResult buildWindowOp(NodeConverter &n, StringRef opName, SmallVector<Value> operands,
                            RankedTensorType y, ArrayRef<NamedAttribute> attrs, bool oneD) {
  RankedTensorType y2d = oneD ? withUnitHeight(y) : y;
  if (oneD)
    operands[0] = reshapeTo(n, operands[0],
                            withUnitHeight(cast<RankedTensorType>(operands[0].getType())), "/to_2d");
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

/// ConvTranspose pads from `output_shape` or SAME_* auto_pad: the total
/// padding that gives the requested output size, split as ONNX says
/// (`outputPadding` grows where the output is larger than the pads give).
std::optional<std::vector<int64_t>> transposedPads(NodeConverter &n, RankedTensorType x,
                                                   ArrayRef<int64_t> kernel,
                                                   ArrayRef<int64_t> strides,
                                                   ArrayRef<int64_t> dilations,
                                                   std::vector<int64_t> &outputPadding) {
  std::string autoPad = n.stringAttr("auto_pad", "NOTSET");
  std::optional<std::vector<int64_t>> outputShape = n.intsAttr("output_shape");
  size_t spatial = kernel.size();
  if (!outputShape && autoPad == "VALID")
    return std::vector<int64_t>(2 * spatial, 0);
  if (!outputShape && autoPad == "NOTSET")
    return windowPads(n, x, kernel, strides, dilations);
  if (outputShape && outputShape->size() > spatial)
    outputShape->erase(outputShape->begin(), outputShape->end() - spatial);
  if (outputShape && outputShape->size() != spatial)
    return std::nullopt;
  std::vector<int64_t> pairs(2 * spatial, 0);
  for (size_t axis = 0; axis < spatial; ++axis) {
    int64_t in = x.getDimSize(2 + axis);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(kernel[axis])) {
      n.rejection = "output_shape or auto_pad on a dynamic spatial size";
      return std::nullopt;
    }
    int64_t out = outputShape ? (*outputShape)[axis] : in * strides[axis];
    int64_t total = strides[axis] * (in - 1) + outputPadding[axis] +
                    (kernel[axis] - 1) * dilations[axis] + 1 - out;
    // ONNX splits with floor division; a negative end pad (an output larger
    // than the pads give) is extra output padding at the end.
    int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
    bool upper = autoPad == "SAME_UPPER";
    int64_t begin = upper ? half : total - half, end = upper ? total - half : half;
    if (end < 0) {
      outputPadding[axis] -= end;
      end = 0;
    }
    if (begin < 0) {
      n.rejection = "an output_shape that needs negative leading padding";
      return std::nullopt;
    }
    pairs[2 * axis] = begin;
    pairs[2 * axis + 1] = end;
  }
  return pairs;
}

/// Conv / ConvTranspose on 1-D (as 2-D), 2-D and 3-D input.
LogicalResult conv(NodeConverter &n, bool transposed) {
  RankedTensorType x = n.inputType(0), w = n.inputType(1);
  RankedTensorType y = n.outputType(0);
  if (!x || !w || !y || x.getRank() != w.getRank() || x.getRank() != y.getRank())
    return failure();
  int64_t rank = x.getRank();
  if (rank < 3 || rank > 5) {
    n.rejection = "a convolution of rank " + std::to_string(rank) + " (1-D to 3-D are expressed)";
    return failure();
  }
  size_t spatial = rank - 2;
  bool oneD = spatial == 1;
  std::vector<int64_t> kernel(w.getShape().begin() + 2, w.getShape().end());
  std::optional<std::vector<int64_t>> strides = window(n, "strides", spatial);
  std::optional<std::vector<int64_t>> dilations = window(n, "dilations", spatial);
  std::optional<std::vector<int64_t>> outputPadding = window(n, "output_padding", spatial, 0);
  if (!strides || !dilations || !outputPadding)
    return failure();
  std::optional<std::vector<int64_t>> pads =
      transposed ? transposedPads(n, x, kernel, *strides, *dilations, *outputPadding)
                 : windowPads(n, x, kernel, *strides, *dilations);
  if (!pads)
    return failure();
  // A QDQ model's int8 convolution: int8 operands, an int32 result that
  // AscendDequant scales back (ONNXQuantOps.cpp).
  std::optional<QuantizedCube> quantized;
  if (!transposed)
    quantized = matchQuantizedCube(n, /*weightAxis=*/0, 2);
  // int8 data accumulates in int32 on the cube (AMCT's deploy models feed
  // AscendQuant's int8 straight into the Conv; ONNX infers int8).
  bool int8Data = x.getElementType().isSignlessInteger(8);
  RankedTensorType result = quantized || int8Data ? y.clone(n.builder.getI32Type()) : y;
  SmallVector<Value> operands = {n.input(0), n.input(1)};
  if (quantized)
    operands = {quantized->x, quantized->weight};
  if (oneD) {
    operands[1] = reshapeTo(n, operands[1],
                            withUnitHeight(cast<RankedTensorType>(operands[1].getType())),
                            "/weight_2d");
    addUnitHeight(*strides, 1);
    addUnitHeight(*dilations, 1);
    addUnitHeight(*outputPadding, 0);
    addUnitHeight(*pads, 0, /*pairs=*/true);
  }
  if (quantized && quantized->bias)
    operands.push_back(quantized->bias);
  else if (!quantized && n.hasInput(2))
    operands.push_back(n.input(2));
  SmallVector<NamedAttribute> attrs = {
      array(n, "strides", *strides), array(n, "pads", *pads), array(n, "dilations", *dilations),
      n.builder.getNamedAttr("groups", n.builder.getI64IntegerAttr(n.intAttr("group", 1)))};
  if (transposed)
    attrs.push_back(array(n, "output_padding", *outputPadding));
  const char *opName = spatial == 3
                           ? (transposed ? "ascend.Conv3DBackpropInput" : "ascend.Conv3D")
                           : (transposed ? "ascend.Conv2DBackpropInput" : "ascend.Conv2D");
  if (failed(buildWindowOp(n, opName, operands, result, attrs, oneD)))
    return failure();
  if (quantized)
    return setResult(n, dequantizeCube(n, n.results[0], *quantized, y, /*channelAxis=*/1));
  return success();
}

LogicalResult matmul(NodeConverter &n) {
  RankedTensorType a = n.inputType(0), b = n.inputType(1);
  if (!a || !b || a.getRank() < 2 || b.getRank() < 2)
    return failure();
  bool plain = a.getRank() == 2 && b.getRank() == 2;
  RankedTensorType y = n.outputType(0);
  SmallVector<int64_t> batch;
  if (OpTrait::util::getBroadcastedShape(a.getShape().drop_back(2), b.getShape().drop_back(2),
                                         batch)) {
    batch.push_back(a.getDimSize(a.getRank() - 2));
    batch.push_back(b.getDimSize(b.getRank() - 1));
    y = refineType(y, a.clone(batch));
  }
  // A QDQ model's int8 MatMul (weights [K, N], scales per N or one).
  std::optional<QuantizedCube> quantized;
  if (b.getRank() == 2 && y)
    quantized = matchQuantizedCube(n, /*weightAxis=*/1, std::nullopt);
  SmallVector<Value> operands = {n.input(0), n.input(1)};
  if (quantized)
    operands = {quantized->x, quantized->weight};
  Operation *op = buildOp(n, plain ? "ascend.MatMulV2" : "ascend.BatchMatMulV2", operands,
                          {quantized ? y.clone(n.builder.getI32Type()) : y});
  if (!op)
    return failure();
  if (quantized)
    return setResult(n, dequantizeCube(n, op->getResult(0), *quantized, y, y.getRank() - 1));
  n.results = {op->getResult(0)};
  return success();
}

/// Gemm: alpha * op(A) * op(B) + beta * C as MatMulV2 (with C as its bias
/// when C is [N] and alpha = beta = 1), a Mul by alpha and beta where they
/// are not 1, and an Add of C otherwise. beta = 0 drops C (PyTorch exports
/// torch.mm that way). The op that gives the result carries the node's name.
LogicalResult gemm(NodeConverter &n) {
  float alpha = n.floatAttr("alpha", 1.0f), beta = n.floatAttr("beta", 1.0f);
  RankedTensorType y = n.outputType(0);
  if (!y || y.getRank() != 2)
    return failure();
  bool useC = n.hasInput(2) && beta != 0.0f;
  RankedTensorType c = useC ? n.inputType(2) : RankedTensorType();
  if (useC && !c)
    return failure();
  SmallVector<NamedAttribute> attrs = {
      n.builder.getNamedAttr("transpose_x1", n.builder.getBoolAttr(n.intAttr("transA", 0))),
      n.builder.getNamedAttr("transpose_x2", n.builder.getBoolAttr(n.intAttr("transB", 0)))};
  SmallVector<Value> operands = {n.input(0), n.input(1)};
  bool asBias = c && alpha == 1.0f && beta == 1.0f && c.getRank() == 1 &&
                c.getDimSize(0) == y.getDimSize(1) && !ShapedType::isDynamic(y.getDimSize(1));
  // A QDQ model's int8 Gemm: alpha = 1 and C absent or its bias.
  if (alpha == 1.0f && (!useC || asBias)) {
    bool transB = n.intAttr("transB", 0) != 0;
    if (std::optional<QuantizedCube> quantized = matchQuantizedCube(
            n, /*weightAxis=*/transB ? 0 : 1, useC ? std::optional<unsigned>(2) : std::nullopt)) {
      SmallVector<Value> quantizedOperands = {quantized->x, quantized->weight};
      if (quantized->bias)
        quantizedOperands.push_back(quantized->bias);
      Operation *mm = buildOp(n, "ascend.MatMulV2", quantizedOperands,
                              {y.clone(n.builder.getI32Type())}, attrs);
      if (!mm)
        return failure();
      return setResult(n, dequantizeCube(n, mm->getResult(0), *quantized, y, 1));
    }
  }
  if (asBias)
    operands.push_back(n.input(2));
  bool last = !(useC && !asBias) && alpha == 1.0f;
  Operation *mm = buildOp(n, "ascend.MatMulV2", operands, {y}, attrs, last ? "" : "/matmul");
  if (!mm)
    return failure();
  Value result = mm->getResult(0);
  Type element = y.getElementType();
  if (alpha != 1.0f) {
    Operation *scaled = buildOp(n, "ascend.Mul", {result, n.makeConst(scalarValue(element, alpha), "alpha")},
                                {y}, {}, useC ? "/times_alpha" : "");
    if (!scaled)
      return failure();
    result = scaled->getResult(0);
  }
  if (useC && !asBias) {
    Value addend = n.input(2);
    if (beta != 1.0f) {
      Operation *scaled =
          buildOp(n, "ascend.Mul", {addend, n.makeConst(scalarValue(element, beta), "beta")}, {c}, {}, "/times_beta");
      if (!scaled)
        return failure();
      addend = scaled->getResult(0);
    }
    Operation *add = buildOp(n, "ascend.Add", {result, addend}, {y});
    if (!add)
      return failure();
    result = add->getResult(0);
  }
  n.results = {result};
  return success();
}

/// MaxPool / AveragePool on 1-D (as 2-D), 2-D and 3-D input.
LogicalResult pool(NodeConverter &n, bool average) {
  RankedTensorType x = n.inputType(0), y = n.outputType(0);
  if (!x || !y || !n.attr("kernel_shape"))
    return failure();
  if (x.getRank() < 3 || x.getRank() > 5) {
    n.rejection = "pooling of rank " + std::to_string(x.getRank());
    return failure();
  }
  if (n.node.output_size() > 1 && !n.node.output(1).empty()) {
    n.rejection = "the Indices output (CANN's MaxPoolWithArgmax numbers elements differently)";
    return failure();
  }
  if (n.intAttr("storage_order", 0) != 0) {
    n.rejection = "storage_order=1";
    return failure();
  }
  size_t spatial = x.getRank() - 2;
  bool oneD = spatial == 1;
  std::optional<std::vector<int64_t>> kernel = window(n, "kernel_shape", spatial);
  std::optional<std::vector<int64_t>> strides = window(n, "strides", spatial);
  std::optional<std::vector<int64_t>> dilations = window(n, "dilations", spatial);
  if (!kernel || !strides || !dilations)
    return failure();
  if (llvm::any_of(*dilations, [](int64_t d) { return d != 1; })) {
    n.rejection = "dilations other than 1 (CANN's pooling ops have none)";
    return failure();
  }
  std::optional<std::vector<int64_t>> pads = windowPads(n, x, *kernel, *strides, *dilations);
  if (!pads)
    return failure();
  if (oneD) {
    addUnitHeight(*kernel, 1);
    addUnitHeight(*strides, 1);
    addUnitHeight(*pads, 0, /*pairs=*/true);
  }
  SmallVector<NamedAttribute> attrs = {
      array(n, "ksize", *kernel), array(n, "strides", *strides), array(n, "pads", *pads),
      n.builder.getNamedAttr("ceil_mode", n.builder.getBoolAttr(n.intAttr("ceil_mode", 0)))};
  if (average)
    attrs.push_back(n.builder.getNamedAttr(
        "exclusive", n.builder.getBoolAttr(!n.intAttr("count_include_pad", 0))));
  const char *opName = spatial == 3 ? (average ? "ascend.AvgPool3D" : "ascend.MaxPool3D")
                                    : (average ? "ascend.AvgPool" : "ascend.MaxPool");
  return buildWindowOp(n, opName, {n.input(0)}, y, attrs, oneD);
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

LogicalResult ascendprec::onnximport::convertNNOp(NodeConverter &n) {
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
    return pool(n, /*average=*/false);
  if (type == "AveragePool")
    return pool(n, /*average=*/true);
  if (type == "GlobalAveragePool")
    return globalPool(n, "ascend.AvgPool");
  if (type == "GlobalMaxPool")
    return globalPool(n, "ascend.MaxPool");
  return failure();
}
