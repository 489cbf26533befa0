//===- RuntimeBuffers.h - memref descriptors and element access ----------===//
//
// What every kernel-runtime function needs: a strided view of an MLIR
// memref descriptor, element reads and writes in any runtime dtype with the
// device's rounding, and the accumulator rounding of reductions. Internal to
// lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_RUNTIME_RUNTIMEBUFFERS_H
#define ASCENDPREC_LIB_RUNTIME_RUNTIMEBUFFERS_H

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/KernelRuntime.h"
#include "AscendPrec/Runtime/Numerics.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace ascendprec::runtime::detail {


/// A strided view of an MLIR ranked memref descriptor:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Buffer {
  uint8_t *data = nullptr; ///< aligned + offset, in bytes
  int64_t rank = 0;
  const int64_t *sizes = nullptr;
  const int64_t *strides = nullptr;
  size_t bytes = 1;

  int64_t numElements() const {
    int64_t count = 1;
    for (int64_t d = 0; d < rank; ++d)
      count *= sizes[d];
    return count;
  }
  bool contiguous() const {
    int64_t expected = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (sizes[d] != 1 && strides[d] != expected)
        return false;
      expected *= sizes[d];
    }
    return true;
  }
  uint8_t *at(int64_t linearOffset) const { return data + linearOffset * bytes; }
};

inline Buffer bufferOf(int64_t rank, void *descriptor, size_t bytes) {
  auto *fields = static_cast<int64_t *>(descriptor);
  Buffer buffer;
  buffer.rank = rank;
  buffer.bytes = bytes;
  int64_t offset = fields[2];
  buffer.data = reinterpret_cast<uint8_t *>(fields[1]) + offset * static_cast<int64_t>(bytes);
  buffer.sizes = fields + 3;
  buffer.strides = fields + 3 + rank;
  return buffer;
}

/// Calls `body(T{})` with the unsigned type of `bytes` bytes (1, 2, 4 or 8;
/// other sizes are not element sizes of any runtime dtype).
template <typename Body> void forElementSize(size_t bytes, Body body) {
  switch (bytes) {
  case 1: return body(uint8_t{});
  case 2: return body(uint16_t{});
  case 4: return body(uint32_t{});
  default: return body(uint64_t{});
  }
}

/// The values of a rank-1 i64 memref into `values` (its storage reused:
/// entry points called per tile keep a thread_local vector).
inline void readInt64s(int64_t rank, void *descriptor, std::vector<int64_t> &values) {
  Buffer buffer = bufferOf(rank, descriptor, sizeof(int64_t));
  values.resize(buffer.rank ? buffer.sizes[0] : 0);
  for (size_t i = 0; i < values.size(); ++i)
    std::memcpy(&values[i], buffer.at(static_cast<int64_t>(i) * buffer.strides[0]),
                sizeof(int64_t));
}

inline std::vector<int64_t> int64Values(int64_t rank, void *descriptor) {
  std::vector<int64_t> values;
  readInt64s(rank, descriptor, values);
  return values;
}

inline ElementType typeOf(int32_t code) { return static_cast<ElementType>(code); }

inline double readValue(ElementType type, const uint8_t *p) {
  switch (type) {
  case ElementType::F16: { uint16_t v; std::memcpy(&v, p, 2); return halfToFloatTable()[v]; }
  case ElementType::BF16: { uint16_t v; std::memcpy(&v, p, 2); return bfloat16ToDouble(v); }
  case ElementType::F32: { float v; std::memcpy(&v, p, 4); return v; }
  case ElementType::F64: { double v; std::memcpy(&v, p, 8); return v; }
  case ElementType::I1: return *p != 0;
  case ElementType::I8: return static_cast<int8_t>(*p);
  case ElementType::U8: return *p;
  case ElementType::I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
  case ElementType::U16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
  case ElementType::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
  case ElementType::U32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
  case ElementType::I64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
  case ElementType::U64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
  }
  return 0;
}

template <typename T> void put(uint8_t *p, T value) { std::memcpy(p, &value, sizeof(T)); }

/// fp32 rounding to nearest even, the common case, without the general
/// rounding code: the host's double-to-float conversion, then saturation.
inline float nearestFloat(double value, Overflow overflow) {
  float result = static_cast<float>(value);
  if (overflow == Overflow::Saturate && !std::isfinite(result))
    result = std::isnan(result) ? 0.0f
                                : std::copysign(std::numeric_limits<float>::max(), result);
  return result;
}

inline void writeValue(ElementType type, uint8_t *p, double value, Rounding rounding, Overflow overflow) {
  switch (type) {
  case ElementType::F16: return put(p, roundToHalf(value, rounding, overflow));
  case ElementType::BF16: return put(p, roundToBFloat16(value, rounding, overflow));
  case ElementType::F32:
    return put(p, rounding == Rounding::Rint ? nearestFloat(value, overflow)
                                             : roundToFloat(value, rounding, overflow));
  case ElementType::F64: return put(p, value);
  case ElementType::I1: return put<uint8_t>(p, roundToUnsigned(value, 1, rounding));
  case ElementType::I8: return put<int8_t>(p, roundToSigned(value, 8, rounding));
  case ElementType::U8: return put<uint8_t>(p, roundToUnsigned(value, 8, rounding));
  case ElementType::I16: return put<int16_t>(p, roundToSigned(value, 16, rounding));
  case ElementType::U16: return put<uint16_t>(p, roundToUnsigned(value, 16, rounding));
  case ElementType::I32: return put<int32_t>(p, roundToSigned(value, 32, rounding));
  case ElementType::U32: return put<uint32_t>(p, roundToUnsigned(value, 32, rounding));
  case ElementType::I64: return put<int64_t>(p, roundToSigned(value, 64, rounding));
  case ElementType::U64: return put<uint64_t>(p, roundToUnsigned(value, 64, rounding));
  }
}

/// `value` rounded to what an accumulator of `type` holds.
/// `value` rounded to fp16 (to nearest even), as a double: through the
/// host's F16C instruction when it is a float in fp16's range, where the
/// overflow mode cannot matter (Float16Conversion.cpp).
double nearestHalfValue(double value, Overflow overflow);

inline double roundToAccumulator(double value, ElementType type, Overflow overflow) {
  switch (type) {
  case ElementType::F16: return nearestHalfValue(value, overflow);
  case ElementType::BF16:
    return bfloat16ToDouble(roundToBFloat16(value, Rounding::Rint, overflow));
  case ElementType::F32: return nearestFloat(value, overflow);
  default: return value; // f64 and integer accumulators (exact below 2^53)
  }
}

/// Calls `visit(tileIndex, multiIndex)` for every element of `shape`, in
/// row-major order.
template <typename Visit> void forEachIndex(const std::vector<int64_t> &shape, Visit visit) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  if (count == 0)
    return;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    visit(linear, index);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

inline std::vector<int64_t> shapeOf(const Buffer &buffer) {
  return std::vector<int64_t>(buffer.sizes, buffer.sizes + buffer.rank);
}

/// The GM element at `index` (one per GM dimension), or -1 when it lies
/// outside the buffer.
inline int64_t gmOffset(const Buffer &gm, const int64_t *index) {
  int64_t offset = 0;
  for (int64_t d = 0; d < gm.rank; ++d) {
    if (index[d] < 0 || index[d] >= gm.sizes[d])
      return -1;
    offset += index[d] * gm.strides[d];
  }
  return offset;
}

/// `akernel.load` of a tile from GM in `mode` (TileMovement.cpp): the tile
/// is zero where it reads past GM's edge; `params` are the img2col geometry
/// or the broadcast shape.
void loadTile(const Buffer &gm, const Buffer &tile, const std::vector<int64_t> &offsets,
              const std::vector<int64_t> &params, LoadMode mode);

} // namespace ascendprec::runtime::detail

extern "C" {
// The entry points, for the symbol table (KernelRuntime.cpp).
void ascendprec_rt_load(int64_t, void *, int64_t, void *, int64_t, void *, int64_t, void *,
                        int32_t, int32_t);
void ascendprec_rt_store(int64_t, void *, int64_t, void *, int64_t, void *, int32_t, int32_t,
                         int32_t, int32_t);
void ascendprec_rt_copy(int64_t, void *, int64_t, void *, int32_t);
void ascendprec_rt_fixpipe(int64_t, void *, int64_t, void *, int64_t, void *, int64_t, void *,
                           int32_t, int32_t, int32_t, int32_t, int32_t);
void ascendprec_rt_mmad(int64_t, void *, int64_t, void *, int64_t, void *, int32_t, int32_t);
void ascendprec_rt_block_begin();
void ascendprec_rt_cube_loop(int64_t, void *, int64_t, void *, int64_t, void *, int64_t, void *,
                             int64_t, void *, int64_t, void *, int64_t, void *, int64_t, void *,
                             int64_t, void *, int64_t, int64_t, int64_t, int32_t, int32_t,
                             int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);
void ascendprec_rt_reduce(int64_t, void *, int64_t, void *, int64_t, void *, int32_t, int32_t,
                          int32_t, int32_t, int32_t, int32_t);
void ascendprec_rt_pool(int64_t, void *, int64_t, void *, int64_t, void *, int32_t, int32_t,
                        int32_t, int32_t, int32_t, int32_t);
void ascendprec_rt_interp(int64_t, void *, int64_t, void *, int64_t, void *, int64_t, void *,
                          int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t,
                          int32_t);
void ascendprec_rt_recurrent(int64_t, void *, int64_t, void *, int64_t, void *, int64_t, void *,
                             int64_t, void *, int64_t, void *, int64_t, void *, int64_t, void *,
                             int64_t, void *, int64_t, void *, int32_t, int32_t, int32_t, int32_t,
                             int32_t, int32_t, int32_t);
void ascendprec_rt_topk(int64_t, void *, int64_t, void *, int64_t, void *, int32_t, int32_t,
                        int32_t);
float ascendprec_rt_round_float(double, int32_t, int32_t, int32_t);
float ascendprec_rt_tanh_f32(float);
int64_t ascendprec_rt_round_int(double, int32_t, int32_t, int32_t);
}

#endif // ASCENDPREC_LIB_RUNTIME_RUNTIMEBUFFERS_H
