//===- ONNXQuantOps.cpp - quantized ONNX models ---------------------------===//
//
// Two ways a quantized model reaches ATC (docs/quantization.md):
//  - AMCT's deploy model names CANN's ops directly: AscendQuant,
//    AscendDequant (deq_scale as uint64, the fp32 scale in its low 32 bits)
//    and AscendAntiQuant nodes, around int8 Conv / MatMul nodes;
//  - a QDQ model (QuantizeLinear / DequantizeLinear pairs, as AMCT's ONNX
//    export and onnxruntime's quantizer write them). An int8 Q with one
//    scale and a constant zero point becomes AscendQuant, a DQ of such data
//    AscendAntiQuant, a DQ of constants the float constant it computes. A
//    Conv, MatMul or Gemm whose data and weights both come through int8 DQs
//    with zero points of 0 becomes the int8 cube op (int32 accumulation)
//    followed by AscendDequant, as AMCT deploys it.
// uint8 and asymmetric (non-zero zero point) activations, and scales known
// only at run time, stay generic with the reason: CANN's AscendQuant is
// int8 with one scale.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include "mlir/IR/DialectResourceBlobManager.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {

bool inDefaultDomain(const onnx::NodeProto &node) {
  return node.domain().empty() || node.domain() == "ai.onnx";
}

/// A constant's value by name, also when it is a large initializer that the
/// importer already holds as a resource blob (the node's inputs are looked
/// up before its converter runs).
std::optional<DenseElementsAttr> constantValue(NodeConverter &n, const std::string &name) {
  if (std::optional<DenseElementsAttr> value = n.constantNamed(name))
    return value;
  Value value = n.valueNamed(name);
  auto constant = value ? value.getDefiningOp<ascend::ConstOp>() : ascend::ConstOp();
  if (!constant)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
    return dense;
  auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue());
  AsmResourceBlob *blob = resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob)
    return std::nullopt;
  auto type = cast<ShapedType>(resource.getType());
  ArrayRef<char> raw = blob->getData();
  if (static_cast<int64_t>(raw.size()) * 8 !=
      type.getNumElements() * static_cast<int64_t>(type.getElementTypeBitWidth()))
    return std::nullopt;
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

/// A constant's values as floats (float constants only).
std::optional<std::vector<float>> floatValues(std::optional<DenseElementsAttr> value) {
  if (!value || !value->getElementType().isF32())
    return std::nullopt;
  auto range = value->getValues<float>();
  return std::vector<float>(range.begin(), range.end());
}

/// A zero point that is absent or a constant of zeros.
bool zeroPointIsZero(NodeConverter &n, const onnx::NodeProto &node) {
  if (node.input_size() < 3 || node.input(2).empty())
    return true;
  std::optional<DenseElementsAttr> zero = constantValue(n, node.input(2));
  if (!zero || !isa<IntegerType>(zero->getElementType()))
    return false;
  return llvm::all_of(zero->getValues<APInt>(), [](const APInt &v) { return v.isZero(); });
}

/// The one value of a per-tensor quantization parameter.
std::optional<float> singleScale(NodeConverter &n, const std::string &name) {
  std::optional<std::vector<float>> values = floatValues(constantValue(n, name));
  if (!values || values->size() != 1)
    return std::nullopt;
  return values->front();
}

/// A zero point as one integer (absent: 0); nullopt unless constant and
/// per-tensor.
std::optional<int64_t> singleZeroPoint(NodeConverter &n, unsigned input) {
  if (!n.hasInput(input))
    return 0;
  std::optional<DenseElementsAttr> value = n.constantInput(input);
  if (!value || !isa<IntegerType>(value->getElementType()) || value->getNumElements() != 1)
    return std::nullopt;
  const APInt &v = *value->getValues<APInt>().begin();
  return cast<IntegerType>(value->getElementType()).isUnsigned() ? int64_t(v.getZExtValue())
                                                                 : v.getSExtValue();
}

NamedAttribute floatAttr(NodeConverter &n, StringRef name, float value) {
  return n.builder.getNamedAttr(name, n.builder.getF32FloatAttr(value));
}

NamedAttribute boolAttr(NodeConverter &n, StringRef name, bool value) {
  return n.builder.getNamedAttr(name, n.builder.getBoolAttr(value));
}

/// QuantizeLinear to int8 with one constant scale and zero point.
LogicalResult quantizeLinear(NodeConverter &n) {
  RankedTensorType y = n.outputType(0);
  if (!y)
    return failure();
  if (!y.getElementType().isSignlessInteger(8) && !y.getElementType().isSignedInteger(8)) {
    n.rejection = "quantization to " + std::string(y.getElementType().isUnsignedInteger(8)
                                                        ? "uint8"
                                                        : "a type other than int8") +
                  " (CANN's AscendQuant writes int8)";
    return failure();
  }
  std::optional<float> scale = singleScale(n, n.node.input(1));
  std::optional<int64_t> zero = singleZeroPoint(n, 2);
  if (!scale || !zero) {
    n.rejection = "a per-axis or run-time scale or zero point (AscendQuant has one constant "
                  "scale and offset)";
    return failure();
  }
  if (n.intAttr("saturate", 1) == 0) {
    n.rejection = "saturate=0";
    return failure();
  }
  // ONNX divides by the scale; AscendQuant multiplies by its reciprocal.
  return setResult(n, buildValue(n, "ascend.AscendQuant", {n.input(0)},
                                 y.clone(n.builder.getI8Type()),
                                 {floatAttr(n, "scale", 1.0f / *scale),
                                  floatAttr(n, "offset", static_cast<float>(*zero))}));
}

/// DequantizeLinear of a constant: the float constant it computes, as ONNX
/// does ((x - zero_point) * scale in fp32), per tensor or along `axis`.
LogicalResult dequantizeConstant(NodeConverter &n, DenseElementsAttr x, RankedTensorType y) {
  // Per-channel scales of a large layer (512 floats and up) are held as
  // resource blobs, which constantValue reads too.
  std::optional<std::vector<float>> scales = floatValues(constantValue(n, n.node.input(1)));
  std::optional<DenseElementsAttr> zeros =
      n.hasInput(2) ? constantValue(n, n.node.input(2)) : std::optional<DenseElementsAttr>();
  if (!scales || (n.hasInput(2) && !zeros) || !isa<IntegerType>(x.getElementType()))
    return failure();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), axis = n.intAttr("axis", 1);
  if (axis < 0)
    axis += rank;
  int64_t count = static_cast<int64_t>(scales->size());
  if (count != 1 && (axis < 0 || axis >= rank || type.getDimSize(axis) != count)) {
    n.rejection = "scales that match neither one value nor the axis";
    return failure();
  }
  std::vector<int64_t> zero(count, 0);
  if (zeros) {
    bool isUnsigned = cast<IntegerType>(zeros->getElementType()).isUnsigned();
    std::vector<int64_t> given;
    for (const APInt &v : zeros->getValues<APInt>())
      given.push_back(isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue());
    if (given.size() != 1 && static_cast<int64_t>(given.size()) != count)
      return failure();
    for (int64_t c = 0; c < count; ++c)
      zero[c] = given.size() == 1 ? given[0] : given[c];
  }
  // Elements per step of `axis`, and the axis's size.
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= type.getDimSize(d);
  bool isUnsigned = cast<IntegerType>(x.getElementType()).isUnsigned();
  std::vector<float> values;
  values.reserve(type.getNumElements());
  int64_t i = 0;
  for (const APInt &v : x.getValues<APInt>()) {
    int64_t c = count == 1 ? 0 : (i / inner) % count;
    int64_t q = isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue();
    values.push_back(static_cast<float>(q - zero[c]) * (*scales)[c]);
    ++i;
  }
  RankedTensorType result = RankedTensorType::get(type.getShape(), n.builder.getF32Type());
  if (y && y.getElementType() != result.getElementType())
    return failure();
  n.results = {n.makeConst(DenseElementsAttr::get(result, ArrayRef<float>(values)), "value")};
  return success();
}

/// DequantizeLinear: of constants, the value; of int8 data with one scale
/// and zero point, AscendAntiQuant.
LogicalResult dequantizeLinear(NodeConverter &n) {
  RankedTensorType y = n.outputType(0);
  if (std::optional<DenseElementsAttr> x = constantValue(n, n.node.input(0)))
    return dequantizeConstant(n, *x, y);
  RankedTensorType x = n.inputType(0);
  if (!x || !y)
    return failure();
  if (!y.getElementType().isF32() && !y.getElementType().isF16()) {
    n.rejection = "a result of another type than float or float16";
    return failure();
  }
  if (!x.getElementType().isSignlessInteger(8) && !x.getElementType().isSignedInteger(8)) {
    n.rejection = std::string(x.getElementType().isUnsignedInteger(8) ? "uint8" : "non-int8") +
                  " data (CANN's AscendAntiQuant reads int8)";
    return failure();
  }
  std::optional<float> scale = singleScale(n, n.node.input(1));
  std::optional<int64_t> zero = singleZeroPoint(n, 2);
  if (!scale || !zero) {
    n.rejection = "a per-axis or run-time scale or zero point (AscendAntiQuant has one constant "
                  "scale and offset)";
    return failure();
  }
  return setResult(n, buildValue(n, "ascend.AscendAntiQuant", {n.input(0)}, y,
                                 {floatAttr(n, "scale", *scale),
                                  floatAttr(n, "offset", -static_cast<float>(*zero))}));
}

//===----------------------------------------------------------------------===//
// AMCT's deploy ops
//===----------------------------------------------------------------------===//

/// AMCT writes `dtype` as a GE DataType: 0 float, 1 float16.
Type amctFloatType(NodeConverter &n) {
  return n.intAttr("dtype", 0) == 1 ? Type(n.builder.getF16Type()) : Type(n.builder.getF32Type());
}

LogicalResult amctQuant(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  SmallVector<NamedAttribute> attrs = {floatAttr(n, "scale", n.floatAttr("scale", 0.0f)),
                                       floatAttr(n, "offset", n.floatAttr("offset", 0.0f)),
                                       boolAttr(n, "sqrt_mode", n.intAttr("sqrt_mode", 0) != 0)};
  attrs.push_back(n.builder.getNamedAttr(
      "round_mode", n.builder.getStringAttr(n.stringAttr("round_mode", "Round"))));
  return setResult(n, buildValue(n, "ascend.AscendQuant", {n.input(0)},
                                 x.clone(n.builder.getI8Type()), attrs));
}

LogicalResult amctDequant(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  std::optional<DenseElementsAttr> packed = n.constantInput(1);
  if (!x || !packed || !isa<IntegerType>(packed->getElementType()) ||
      packed->getElementType().getIntOrFloatBitWidth() != 64) {
    n.rejection = "a deq_scale that is not a constant uint64 tensor";
    return failure();
  }
  // The fp32 scale sits in the low 32 bits of each uint64.
  std::vector<float> scales;
  for (const APInt &v : packed->getValues<APInt>()) {
    uint32_t bits = static_cast<uint32_t>(v.getZExtValue() & 0xffffffffu);
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    scales.push_back(scale);
  }
  Value deqScale = n.makeConst(
      DenseElementsAttr::get(
          RankedTensorType::get({static_cast<int64_t>(scales.size())}, n.builder.getF32Type()),
          ArrayRef<float>(scales)),
      "deq_scale");
  int64_t rank = x.getRank();
  int64_t axis = rank == 4 || rank == 5 ? 1 : rank - 1;
  return setResult(
      n, buildValue(n, "ascend.AscendDequant", {n.input(0), deqScale},
                    x.clone(amctFloatType(n)),
                    {n.builder.getNamedAttr("channel_axis", n.builder.getI64IntegerAttr(axis)),
                     boolAttr(n, "sqrt_mode", n.intAttr("sqrt_mode", 0) != 0),
                     boolAttr(n, "relu_flag", n.intAttr("relu_flag", 0) != 0)}));
}

LogicalResult amctAntiQuant(NodeConverter &n) {
  RankedTensorType x = n.inputType(0);
  if (!x)
    return failure();
  // CANN's parser negates AMCT's offset (ascend_anti_quant_plugin).
  return setResult(n, buildValue(n, "ascend.AscendAntiQuant", {n.input(0)},
                                 x.clone(amctFloatType(n)),
                                 {floatAttr(n, "scale", n.floatAttr("scale", 0.0f)),
                                  floatAttr(n, "offset", -n.floatAttr("offset", 0.0f)),
                                  boolAttr(n, "sqrt_mode", n.intAttr("sqrt_mode", 0) != 0)}));
}

//===----------------------------------------------------------------------===//
// The int8 cube ops of a QDQ model
//===----------------------------------------------------------------------===//

/// The DequantizeLinear that defines input `i` of the node, if it is one.
const onnx::NodeProto *dequantizeFeeding(NodeConverter &n, unsigned i) {
  if (!n.hasInput(i) || !n.producerOf)
    return nullptr;
  const onnx::NodeProto *producer = n.producerOf(n.node.input(i));
  if (!producer || producer->op_type() != "DequantizeLinear" || !inDefaultDomain(*producer) ||
      producer->input_size() < 2)
    return nullptr;
  return producer;
}

bool isInt8(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element && (element.isSignlessInteger(8) || element.isSignedInteger(8));
}

/// The scales of a DQ of constants, one or one per `axis` entry; nothing
/// unless its zero point is 0 and its DQ axis is `axis`.
std::optional<std::vector<float>> constantScales(NodeConverter &n, const onnx::NodeProto &dq,
                                                 RankedTensorType type, int64_t axis) {
  std::optional<std::vector<float>> scales = floatValues(constantValue(n, dq.input(1)));
  if (!scales || !zeroPointIsZero(n, dq))
    return std::nullopt;
  if (scales->size() == 1)
    return scales;
  int64_t dqAxis = 1;
  for (const onnx::AttributeProto &attr : dq.attribute())
    if (attr.name() == "axis")
      dqAxis = attr.i();
  if (dqAxis < 0)
    dqAxis += type.getRank();
  if (dqAxis != axis || type.getDimSize(axis) != static_cast<int64_t>(scales->size()))
    return std::nullopt;
  return scales;
}

/// The bias as floats: a float constant, or a DQ of int32 constants.
std::optional<std::vector<float>> biasValues(NodeConverter &n, unsigned input) {
  if (std::optional<std::vector<float>> values = floatValues(n.constantInput(input)))
    return values;
  const onnx::NodeProto *dq = dequantizeFeeding(n, input);
  if (!dq)
    return std::nullopt;
  std::optional<DenseElementsAttr> q = constantValue(n, dq->input(0));
  if (!q || !q->getElementType().isInteger(32))
    return std::nullopt;
  auto type = cast<RankedTensorType>(q->getType());
  if (type.getRank() != 1)
    return std::nullopt;
  std::optional<std::vector<float>> scales = constantScales(n, *dq, type, 0);
  if (!scales)
    return std::nullopt;
  std::vector<float> values;
  int64_t c = 0;
  for (const APInt &v : q->getValues<APInt>()) {
    values.push_back(static_cast<float>(v.getSExtValue()) * (*scales)[scales->size() == 1 ? 0 : c]);
    ++c;
  }
  return values;
}

} // namespace

std::optional<QuantizedCube>
ascendprec::onnximport::matchQuantizedCube(NodeConverter &n, int64_t weightAxis,
                                           std::optional<unsigned> biasInput) {
  const onnx::NodeProto *dataDq = dequantizeFeeding(n, 0);
  const onnx::NodeProto *weightDq = dequantizeFeeding(n, 1);
  if (!dataDq || !weightDq || !zeroPointIsZero(n, *dataDq) ||
      !isInt8(n.typeNamed(dataDq->input(0))))
    return std::nullopt;
  std::optional<float> dataScale = singleScale(n, dataDq->input(1));
  std::optional<DenseElementsAttr> weights = constantValue(n, weightDq->input(0));
  if (!dataScale || !weights || !isInt8(weights->getElementType()))
    return std::nullopt;
  auto weightType = cast<RankedTensorType>(weights->getType());
  std::optional<std::vector<float>> weightScales =
      constantScales(n, *weightDq, weightType, weightAxis);
  Value data = n.valueNamed(dataDq->input(0));
  if (!weightScales || !data)
    return std::nullopt;
  // The accumulator's scale per output channel, in fp32 as AMCT computes it.
  std::vector<float> deqScales;
  for (float weightScale : *weightScales)
    deqScales.push_back(*dataScale * weightScale);
  QuantizedCube cube;
  cube.x = data;
  if (biasInput && n.hasInput(*biasInput)) {
    std::optional<std::vector<float>> bias = biasValues(n, *biasInput);
    int64_t channels = weightType.getDimSize(weightAxis);
    if (!bias || static_cast<int64_t>(bias->size()) != channels)
      return std::nullopt;
    // Bias in the accumulator's units, rounded to nearest (ties to even)
    // as AMCT quantizes it, saturated to int32.
    std::vector<int32_t> quantized;
    for (int64_t c = 0; c < channels; ++c) {
      double scale = deqScales[deqScales.size() == 1 ? 0 : c];
      double value = std::nearbyint(static_cast<double>((*bias)[c]) / scale);
      value = std::clamp(value, -2147483648.0, 2147483647.0);
      quantized.push_back(static_cast<int32_t>(value));
    }
    cube.bias = n.makeConst(
        DenseElementsAttr::get(RankedTensorType::get({channels}, n.builder.getI32Type()),
                               ArrayRef<int32_t>(quantized)),
        "bias_int32");
  }
  cube.weight = n.makeConst(*weights, "weight_int8");
  cube.deqScale = n.makeConst(
      DenseElementsAttr::get(RankedTensorType::get({static_cast<int64_t>(deqScales.size())},
                                                   n.builder.getF32Type()),
                             ArrayRef<float>(deqScales)),
      "deq_scale");
  return cube;
}

Value ascendprec::onnximport::dequantizeCube(NodeConverter &n, Value accumulator,
                                             const QuantizedCube &cube, RankedTensorType result,
                                             int64_t channelAxis) {
  if (!accumulator)
    return Value();
  return buildValue(n, "ascend.AscendDequant", {accumulator, cube.deqScale}, result,
                    {n.builder.getNamedAttr("channel_axis",
                                            n.builder.getI64IntegerAttr(channelAxis))},
                    "/dequant");
}

LogicalResult ascendprec::onnximport::convertQuantOp(NodeConverter &n) {
  const std::string &type = n.node.op_type();
  if (inDefaultDomain(n.node)) {
    if (type == "QuantizeLinear")
      return quantizeLinear(n);
    if (type == "DequantizeLinear")
      return dequantizeLinear(n);
  }
  // AMCT's deploy model: CANN's parser registers these in the ONNX domain.
  if (type == "AscendQuant")
    return amctQuant(n);
  if (type == "AscendDequant")
    return amctDequant(n);
  if (type == "AscendAntiQuant")
    return amctAntiQuant(n);
  return failure();
}
