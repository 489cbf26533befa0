//===- HostTensor.h - a tensor in host memory, as the device holds it -----===//
//
// The executor's values: a dense row-major buffer in the device's storage
// format (fp16 and bf16 as their 16-bit patterns, booleans as one byte),
// 64-byte aligned so JIT-compiled kernels can use vector loads. Views
// (Reshape and its kin) share the buffer.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_RUNTIME_HOSTTENSOR_H
#define ASCENDPREC_RUNTIME_HOSTTENSOR_H

#include "AscendPrec/Runtime/Numerics.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ascendprec::runtime {

/// The element types a kernel's GM buffer can hold.
enum class ElementType : uint8_t { F16, BF16, F32, F64, I1, I8, I16, I32, I64, U8, U16, U32, U64 };

/// Every fp16 pattern's fp32 value (exact; NaNs as halfToDouble gives them).
const float *halfToFloatTable();
/// `count` fp32, fp16 or bf16 elements at `source` as their fp32 values,
/// bit for bit what halfToFloatTable() and bfloat16ToDouble() give (the
/// cube's and the reductions' inputs). Uses the host's F16C conversion
/// where it has one.
void widenToFloat(ElementType type, const uint8_t *source, float *target, int64_t count);
/// `count` fp32 values rounded to fp16, to nearest even, bit for bit as
/// roundToHalf(value, Rounding::Rint, overflow) (the fixpipe's way out).
void narrowToHalf(const float *source, uint16_t *target, int64_t count, Overflow overflow);
/// The same into bf16, bit for bit as roundToBFloat16(value, Rounding::Rint,
/// overflow).
void narrowToBFloat16(const float *source, uint16_t *target, int64_t count, Overflow overflow);

/// Bytes per element (I1 is stored as one byte, 0 or 1).
size_t elementBytes(ElementType type);
/// A shape as messages print it: "[2,3]" ("[]" for a scalar).
std::string shapeText(const std::vector<int64_t> &shape);
/// "f16", "bf16", "f32", ..., "i1", "ui8": MLIR's spelling.
const char *elementTypeName(ElementType type);
bool isFloat(ElementType type);

/// A dense row-major tensor. Copying a HostTensor shares its buffer.
class HostTensor {
public:
  HostTensor() = default;
  /// A zero-filled tensor.
  HostTensor(ElementType type, std::vector<int64_t> shape);
  /// A tensor whose contents are left as they are, for the output of a
  /// kernel that writes every element (zeroing a large output costs as much
  /// as a quick kernel). Sanitizer builds, and any build with
  /// ASCENDPREC_POISON_OUTPUTS set in the environment, fill it with 0xFF
  /// bytes (NaN, -1) instead, so that an element a kernel fails to write
  /// shows in the tests.
  static HostTensor uninitialized(ElementType type, std::vector<int64_t> shape);

  /// A tensor over `data`, which it neither copies nor frees: the caller
  /// keeps it alive as long as any copy of the tensor, and nothing may
  /// write through data() (the executor's view of a model's weights, which
  /// kernels only read).
  static HostTensor borrowed(ElementType type, std::vector<int64_t> shape, const uint8_t *data);

  ElementType type() const { return elementType; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t numElements() const { return count; }
  size_t byteSize() const { return static_cast<size_t>(count) * elementBytes(elementType); }
  uint8_t *data() { return storage.get(); }
  const uint8_t *data() const { return storage.get(); }

  /// The same buffer seen with another shape of the same element count.
  HostTensor view(std::vector<int64_t> shape) const;
  /// A copy with its own buffer.
  HostTensor clone() const;
  /// The values in another element type: integers exactly between integer
  /// types, everything else rounded to nearest even (this tensor itself when
  /// the type is the same).
  HostTensor convertedTo(ElementType type) const;

  /// Element `index` (row-major) as a double: exact for every type but
  /// 64-bit integers beyond 2^53.
  double get(int64_t index) const;
  /// Stores `value` rounded to the element type (floats with `rounding` and
  /// `overflow`; integers rounded with `rounding`, clamped, NaN -> 0).
  void set(int64_t index, double value, Rounding rounding = Rounding::Rint,
           Overflow overflow = Overflow::IEEE);
  /// Integer elements exactly (index tensors).
  int64_t getInt(int64_t index) const;
  void setInt(int64_t index, int64_t value);

private:
  ElementType elementType = ElementType::F32;
  std::vector<int64_t> dims;
  int64_t count = 0;
  std::shared_ptr<uint8_t> storage;
};

} // namespace ascendprec::runtime

#endif // ASCENDPREC_RUNTIME_HOSTTENSOR_H
