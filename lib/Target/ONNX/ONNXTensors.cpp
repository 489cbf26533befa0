//===- ONNXTensors.cpp - ONNX types and tensors as MLIR ones --------------===//

#include "ONNXImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"

#include <cstddef>
#include <cstring>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

Type ascendprec::onnximport::elementType(MLIRContext *context,
                                               int32_t onnxType) {
  Builder b(context);
  switch (onnxType) {
  case onnx::TensorProto_DataType_FLOAT:
    return b.getF32Type();
  case onnx::TensorProto_DataType_FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto_DataType_BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto_DataType_DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto_DataType_INT8:
    return b.getIntegerType(8);
  case onnx::TensorProto_DataType_UINT8:
    return b.getIntegerType(8, false);
  case onnx::TensorProto_DataType_INT16:
    return b.getIntegerType(16);
  case onnx::TensorProto_DataType_UINT16:
    return b.getIntegerType(16, false);
  case onnx::TensorProto_DataType_INT32:
    return b.getI32Type();
  case onnx::TensorProto_DataType_UINT32:
    return b.getIntegerType(32, false);
  case onnx::TensorProto_DataType_INT64:
    return b.getI64Type();
  case onnx::TensorProto_DataType_UINT64:
    return b.getIntegerType(64, false);
  case onnx::TensorProto_DataType_BOOL:
    return b.getI1Type();
  default:
    return {};
  }
}

std::optional<int32_t> ascendprec::onnximport::onnxElementType(Type element) {
  if (element.isF32())
    return onnx::TensorProto_DataType_FLOAT;
  if (element.isF16())
    return onnx::TensorProto_DataType_FLOAT16;
  if (element.isBF16())
    return onnx::TensorProto_DataType_BFLOAT16;
  if (element.isF64())
    return onnx::TensorProto_DataType_DOUBLE;
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer)
    return std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1: return onnx::TensorProto_DataType_BOOL;
  case 8: return isUnsigned ? onnx::TensorProto_DataType_UINT8 : onnx::TensorProto_DataType_INT8;
  case 16:
    return isUnsigned ? onnx::TensorProto_DataType_UINT16 : onnx::TensorProto_DataType_INT16;
  case 32:
    return isUnsigned ? onnx::TensorProto_DataType_UINT32 : onnx::TensorProto_DataType_INT32;
  case 64:
    return isUnsigned ? onnx::TensorProto_DataType_UINT64 : onnx::TensorProto_DataType_INT64;
  default: return std::nullopt;
  }
}

Type ascendprec::onnximport::tensorType(MLIRContext *context,
                                              const onnx::TypeProto &type) {
  if (!type.has_tensor_type())
    return {};
  const auto &tensor = type.tensor_type();
  Type element = elementType(context, tensor.elem_type());
  if (!element)
    return {};
  if (!tensor.has_shape())
    return UnrankedTensorType::get(element);
  SmallVector<int64_t> shape;
  for (const auto &dim : tensor.shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  return RankedTensorType::get(shape, element);
}

namespace {
/// Typed-field contents (int32_data and friends) as APInts of `width` bits.
template <typename Field>
SmallVector<APInt> asAPInts(const Field &field, unsigned width) {
  SmallVector<APInt> values;
  for (auto v : field)
    values.emplace_back(width, static_cast<uint64_t>(v), /*isSigned=*/true);
  return values;
}
} // namespace

/// The tensor's type and element count, checked; null with `error` set.
static RankedTensorType checkedTensorType(MLIRContext *context,
                                          const onnx::TensorProto &tensor, int64_t &count,
                                          std::string &error) {
  Type element = ascendprec::onnximport::elementType(context, tensor.data_type());
  if (!element) {
    error = "tensor '" + tensor.name() + "' has an unsupported data type (" +
            std::to_string(tensor.data_type()) + ")";
    return {};
  }
  if (tensor.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) {
    error = "tensor '" + tensor.name() +
            "' keeps its data in an external file, which is not supported";
    return {};
  }
  SmallVector<int64_t> shape;
  count = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0 || (dim > 0 && count > (int64_t(1) << 40) / dim)) {
      error = "tensor '" + tensor.name() + "' has an invalid shape";
      return {};
    }
    shape.push_back(dim);
    count *= dim;
  }
  return RankedTensorType::get(shape, element);
}

/// The raw bytes a tensor of `type` and `count` elements needs.
static size_t rawSize(RankedTensorType type, int64_t count) {
  Type element = type.getElementType();
  return static_cast<size_t>(count) *
         (element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8);
}

static std::string rawSizeError(const onnx::TensorProto &tensor, size_t needed) {
  return "tensor '" + tensor.name() + "' has " + std::to_string(tensor.raw_data().size()) +
         " bytes of raw data; its shape needs " + std::to_string(needed);
}

DenseResourceElementsAttr ascendprec::onnximport::takeLargeTensor(
    MLIRContext *context, onnx::TensorProto &tensor, std::string &error) {
  if (!tensor.has_raw_data() || tensor.raw_data().size() <= kResourceThresholdBytes)
    return {};
  int64_t count;
  RankedTensorType type = checkedTensorType(context, tensor, count, error);
  if (!type || type.getElementType().isInteger(1))
    return {};
  if (tensor.raw_data().size() != rawSize(type, count)) {
    error = rawSizeError(tensor, rawSize(type, count));
    return {};
  }
  // The blob owns the protobuf's string from here; its heap buffer is
  // aligned for any element type (malloc's alignment).
  std::string *bytes = tensor.release_raw_data();
  AsmResourceBlob blob(ArrayRef<char>(bytes->data(), bytes->size()), alignof(std::max_align_t),
                       [bytes](void *, size_t, size_t) { delete bytes; },
                       /*dataIsMutable=*/false);
  return DenseResourceElementsAttr::get(type, tensor.name(), std::move(blob));
}

DenseElementsAttr ascendprec::onnximport::tensorValue(
    MLIRContext *context, const onnx::TensorProto &tensor, std::string &error) {
  int64_t count;
  RankedTensorType type = checkedTensorType(context, tensor, count, error);
  if (!type)
    return {};
  Type element = type.getElementType();
  unsigned width = element.getIntOrFloatBitWidth();

  if (tensor.has_raw_data()) {
    const std::string &raw = tensor.raw_data();
    if (raw.size() != rawSize(type, count)) {
      error = rawSizeError(tensor, rawSize(type, count));
      return {};
    }
    if (element.isInteger(1)) {
      SmallVector<bool> values;
      for (char c : raw)
        values.push_back(c != 0);
      return DenseElementsAttr::get(type, ArrayRef<bool>(values));
    }
    return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>(raw.data(), raw.size()));
  }

  // Typed fields.
  auto checkCount = [&](int64_t got) {
    if (got == count)
      return true;
    error = "tensor '" + tensor.name() + "' holds " + std::to_string(got) +
            " values; its shape needs " + std::to_string(count);
    return false;
  };
  if (auto floatType = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> values;
    if (element.isF32()) {
      if (!checkCount(tensor.float_data_size()))
        return {};
      for (float v : tensor.float_data())
        values.emplace_back(v);
    } else if (element.isF64()) {
      if (!checkCount(tensor.double_data_size()))
        return {};
      for (double v : tensor.double_data())
        values.emplace_back(v);
    } else {
      // float16 and bfloat16 bits live in int32_data.
      if (!checkCount(tensor.int32_data_size()))
        return {};
      for (int32_t bits : tensor.int32_data())
        values.emplace_back(floatType.getFloatSemantics(),
                            APInt(16, static_cast<uint16_t>(bits)));
    }
    return DenseElementsAttr::get(type, values);
  }
  if (element.isInteger(1)) {
    if (!checkCount(tensor.int32_data_size()))
      return {};
    SmallVector<bool> values;
    for (int32_t v : tensor.int32_data())
      values.push_back(v != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(values));
  }
  SmallVector<APInt> values;
  if (width == 64) {
    if (element.isUnsignedInteger()) {
      if (!checkCount(tensor.uint64_data_size()))
        return {};
      values = asAPInts(tensor.uint64_data(), 64);
    } else {
      if (!checkCount(tensor.int64_data_size()))
        return {};
      values = asAPInts(tensor.int64_data(), 64);
    }
  } else if (element.isUnsignedInteger(32)) {
    if (!checkCount(tensor.uint64_data_size()))
      return {};
    values = asAPInts(tensor.uint64_data(), 32);
  } else {
    if (!checkCount(tensor.int32_data_size()))
      return {};
    values = asAPInts(tensor.int32_data(), width);
  }
  return DenseElementsAttr::get(type, values);
}
