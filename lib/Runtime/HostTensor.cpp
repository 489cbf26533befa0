//===- HostTensor.cpp - a tensor in host memory ---------------------------===//

#include "AscendPrec/Runtime/HostTensor.h"

#include "LargeBlocks.h"

#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

using namespace ascendprec::runtime;

size_t ascendprec::runtime::elementBytes(ElementType type) {
  switch (type) {
  case ElementType::I1:
  case ElementType::I8:
  case ElementType::U8:
    return 1;
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::I16:
  case ElementType::U16:
    return 2;
  case ElementType::F32:
  case ElementType::I32:
  case ElementType::U32:
    return 4;
  case ElementType::F64:
  case ElementType::I64:
  case ElementType::U64:
    return 8;
  }
  return 1;
}

const char *ascendprec::runtime::elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F16: return "f16";
  case ElementType::BF16: return "bf16";
  case ElementType::F32: return "f32";
  case ElementType::F64: return "f64";
  case ElementType::I1: return "i1";
  case ElementType::I8: return "i8";
  case ElementType::I16: return "i16";
  case ElementType::I32: return "i32";
  case ElementType::I64: return "i64";
  case ElementType::U8: return "ui8";
  case ElementType::U16: return "ui16";
  case ElementType::U32: return "ui32";
  case ElementType::U64: return "ui64";
  }
  return "?";
}

bool ascendprec::runtime::isFloat(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 || type == ElementType::F32 ||
         type == ElementType::F64;
}

namespace {

/// 64-byte aligned storage, zero-filled or (`zeroed` false) as it comes;
/// at least one byte so that an empty tensor still has a valid (never
/// dereferenced) address.
std::shared_ptr<uint8_t> allocateStorage(size_t bytes, bool zeroed) {
  if (bytes >= detail::kLargeBlockBytes)
    if (std::shared_ptr<uint8_t> large = detail::allocateLarge(bytes, zeroed))
      return large;
  if (bytes > detail::kMediumBlockBytes && bytes < detail::kLargeBlockBytes)
    if (std::shared_ptr<uint8_t> medium = detail::allocateMedium(bytes, zeroed))
      return medium;
  size_t rounded = (bytes + 63) / 64 * 64;
  if (rounded == 0)
    rounded = 64;
  void *memory = std::aligned_alloc(64, rounded);
  if (!memory)
    throw std::bad_alloc();
  if (zeroed)
    std::memset(memory, 0, rounded);
  return std::shared_ptr<uint8_t>(static_cast<uint8_t *>(memory), [](uint8_t *p) { std::free(p); });
}

/// Whether uninitialized tensors are filled with 0xFF bytes.
bool poisonOutputs() {
#if defined(ASCENDPREC_ADDRESS_SANITIZER)
  return true;
#else
  static const bool requested = [] {
    const char *value = std::getenv("ASCENDPREC_POISON_OUTPUTS");
    return value && *value && std::string(value) != "0";
  }();
  return requested;
#endif
}

int64_t product(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

template <typename T> T load(const uint8_t *data, int64_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T> void store(uint8_t *data, int64_t index, T value) {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}

} // namespace

HostTensor::HostTensor(ElementType type, std::vector<int64_t> shape)
    : elementType(type), dims(std::move(shape)), count(product(dims)),
      storage(allocateStorage(static_cast<size_t>(count) * elementBytes(type), true)) {}

HostTensor HostTensor::uninitialized(ElementType type, std::vector<int64_t> shape) {
  HostTensor tensor;
  tensor.elementType = type;
  tensor.dims = std::move(shape);
  tensor.count = product(tensor.dims);
  size_t bytes = static_cast<size_t>(tensor.count) * elementBytes(type);
  tensor.storage = allocateStorage(bytes, /*zeroed=*/false);
  if (poisonOutputs())
    std::memset(tensor.storage.get(), 0xFF, bytes);
  return tensor;
}

HostTensor HostTensor::borrowed(ElementType type, std::vector<int64_t> shape,
                                const uint8_t *data) {
  HostTensor tensor;
  tensor.elementType = type;
  tensor.dims = std::move(shape);
  tensor.count = product(tensor.dims);
  tensor.storage = std::shared_ptr<uint8_t>(const_cast<uint8_t *>(data), [](uint8_t *) {});
  return tensor;
}

HostTensor HostTensor::view(std::vector<int64_t> shape) const {
  assert(product(shape) == count && "a view keeps the element count");
  HostTensor result = *this;
  result.dims = std::move(shape);
  return result;
}

HostTensor HostTensor::clone() const {
  HostTensor result(elementType, dims);
  if (byteSize())
    std::memcpy(result.data(), data(), byteSize());
  return result;
}

HostTensor HostTensor::convertedTo(ElementType type) const {
  if (type == elementType)
    return *this;
  HostTensor result(type, dims);
  bool integers = !isFloat(type) && !isFloat(elementType);
  for (int64_t i = 0; i < count; ++i) {
    if (integers)
      result.setInt(i, getInt(i));
    else
      result.set(i, get(i));
  }
  return result;
}

double HostTensor::get(int64_t index) const {
  const uint8_t *bytes = data();
  switch (elementType) {
  case ElementType::F16: return halfToDouble(load<uint16_t>(bytes, index));
  case ElementType::BF16: return bfloat16ToDouble(load<uint16_t>(bytes, index));
  case ElementType::F32: return load<float>(bytes, index);
  case ElementType::F64: return load<double>(bytes, index);
  case ElementType::I1: return load<uint8_t>(bytes, index) != 0;
  case ElementType::I8: return load<int8_t>(bytes, index);
  case ElementType::I16: return load<int16_t>(bytes, index);
  case ElementType::I32: return load<int32_t>(bytes, index);
  case ElementType::I64: return static_cast<double>(load<int64_t>(bytes, index));
  case ElementType::U8: return load<uint8_t>(bytes, index);
  case ElementType::U16: return load<uint16_t>(bytes, index);
  case ElementType::U32: return load<uint32_t>(bytes, index);
  case ElementType::U64: return static_cast<double>(load<uint64_t>(bytes, index));
  }
  return 0;
}

void HostTensor::set(int64_t index, double value, Rounding rounding, Overflow overflow) {
  uint8_t *bytes = data();
  switch (elementType) {
  case ElementType::F16: return store(bytes, index, roundToHalf(value, rounding, overflow));
  case ElementType::BF16: return store(bytes, index, roundToBFloat16(value, rounding, overflow));
  case ElementType::F32: return store(bytes, index, roundToFloat(value, rounding, overflow));
  case ElementType::F64: return store(bytes, index, value);
  case ElementType::I1: return store<uint8_t>(bytes, index, roundToUnsigned(value, 1, rounding));
  case ElementType::I8: return store<int8_t>(bytes, index, roundToSigned(value, 8, rounding));
  case ElementType::I16: return store<int16_t>(bytes, index, roundToSigned(value, 16, rounding));
  case ElementType::I32: return store<int32_t>(bytes, index, roundToSigned(value, 32, rounding));
  case ElementType::I64: return store<int64_t>(bytes, index, roundToSigned(value, 64, rounding));
  case ElementType::U8: return store<uint8_t>(bytes, index, roundToUnsigned(value, 8, rounding));
  case ElementType::U16: return store<uint16_t>(bytes, index, roundToUnsigned(value, 16, rounding));
  case ElementType::U32: return store<uint32_t>(bytes, index, roundToUnsigned(value, 32, rounding));
  case ElementType::U64: return store<uint64_t>(bytes, index, roundToUnsigned(value, 64, rounding));
  }
}

int64_t HostTensor::getInt(int64_t index) const {
  const uint8_t *bytes = data();
  switch (elementType) {
  case ElementType::I64: return load<int64_t>(bytes, index);
  case ElementType::U64: return static_cast<int64_t>(load<uint64_t>(bytes, index));
  default: return static_cast<int64_t>(get(index));
  }
}

void HostTensor::setInt(int64_t index, int64_t value) {
  uint8_t *bytes = data();
  switch (elementType) {
  case ElementType::I64: return store(bytes, index, value);
  case ElementType::U64: return store(bytes, index, static_cast<uint64_t>(value));
  default: return set(index, static_cast<double>(value), Rounding::Trunc);
  }
}

std::string ascendprec::runtime::shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}
