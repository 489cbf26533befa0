//===- PoolRuntimeTest.cpp - pooling's float paths ------------------------===//
//
// Pooling fp32 into fp32 with IEEE overflow takes a loop on floats; every
// other pooling the general loop on doubles. On values fp16 holds exactly,
// max pooling in fp32 and in fp16 must choose the same elements: a NaN
// wins (sign kept), ties keep the first, padding never wins, -inf is a
// value. On finite values, where saturation changes nothing, fp32 pooling
// with IEEE overflow and with saturation (the general loop) must give the
// same bits, max and average (padding counted or not), strided and
// stride-1 windows. fp16 and bf16 pooled on widened floats must write the
// general loop's bits.
//
//===----------------------------------------------------------------------===//

#include "RuntimeMemref.h"

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/KernelRuntime.h"
#include "AscendPrec/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace ascendprec::runtime;
using ascendprec::runtime::testing::Memref;

extern "C" void ascendprec_rt_pool(int64_t, void *, int64_t, void *, int64_t, void *, int32_t,
                                   int32_t, int32_t, int32_t, int32_t, int32_t);

namespace {

constexpr int64_t kPlanes = 3, kH = 7, kW = 9;

/// A window over [kH, kW] planes: kernel, strides, pads (before, after per
/// axis) as the runtime takes them, and the output's height and width.
struct PoolShape {
  std::vector<int64_t> params;
  int64_t outH, outW;
};
/// A 3x2 window, strides 2x2, pads (1, 0) before and (1, 1) after.
const PoolShape kStrided{{3, 2, 2, 2, 1, 1, 0, 1}, 4, 5};
/// A 3x3 window, stride 1, every side padded by 1.
const PoolShape kSame{{3, 3, 1, 1, 1, 1, 1, 1}, kH, kW};
/// A 3x3 window, stride 3 (the float path's loop for other strides),
/// every side padded by 1.
const PoolShape kStride3{{3, 3, 3, 3, 1, 1, 1, 1}, 3, 3};

/// Pools raw [kPlanes, kH, kW] elements of `type` (bytes) with `shape`'s
/// window, accumulating in `acc`; returns the output's bytes.
std::vector<uint8_t> poolBytes(std::vector<uint8_t> in, ElementType type, ElementType acc,
                               PoolKind kind, Overflow overflow, bool exclusive,
                               const PoolShape &shape) {
  int64_t outputs = kPlanes * shape.outH * shape.outW;
  std::vector<uint8_t> out(outputs * elementBytes(type));
  std::vector<int64_t> params = shape.params;
  Memref input(in.data(), {kPlanes, kH, kW}), output(out.data(), {kPlanes, shape.outH, shape.outW}),
      param(params.data(), {static_cast<int64_t>(params.size())});
  int32_t code = static_cast<int32_t>(type);
  ascendprec_rt_pool(3, input.descriptor(), 3, output.descriptor(), 1, param.descriptor(),
                     static_cast<int32_t>(kind), code, code, static_cast<int32_t>(acc),
                     exclusive ? 1 : 0, static_cast<int32_t>(overflow));
  return out;
}

/// `values` as elements of a 16-bit float `type` (rounded to nearest even).
std::vector<uint8_t> sixteenBitElements(const std::vector<float> &values, ElementType type) {
  std::vector<uint8_t> in(2 * values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    uint16_t bits = type == ElementType::BF16
                        ? roundToBFloat16(values[i], Rounding::Rint, Overflow::IEEE)
                        : roundToHalf(values[i], Rounding::Rint, Overflow::IEEE);
    std::memcpy(&in[2 * i], &bits, 2);
  }
  return in;
}

/// Max-pools `values` as fp32 or fp16 elements with the strided window;
/// the outputs as floats.
std::vector<float> maxPool(const std::vector<float> &values, ElementType type) {
  std::vector<uint8_t> in;
  if (type == ElementType::F32) {
    in.resize(4 * values.size());
    std::memcpy(in.data(), values.data(), in.size());
  } else {
    in = sixteenBitElements(values, type);
  }
  std::vector<uint8_t> out =
      poolBytes(in, type, type, PoolKind::Max, Overflow::IEEE, false, kStrided);
  std::vector<float> result(out.size() / elementBytes(type));
  for (size_t i = 0; i < result.size(); ++i) {
    if (type == ElementType::F32) {
      std::memcpy(&result[i], &out[4 * i], 4);
    } else {
      uint16_t half;
      std::memcpy(&half, &out[2 * i], 2);
      result[i] = static_cast<float>(halfToDouble(half));
    }
  }
  return result;
}

TEST(PoolRuntime, Fp32MaxPoolingChoosesAsTheGeneralLoop) {
  std::mt19937 random(3);
  std::uniform_int_distribution<int> pick(-40, 40);
  std::vector<float> values(kPlanes * kH * kW);
  for (float &v : values)
    v = static_cast<float>(pick(random)) / 4.0f; // exact in fp16; many ties
  // A window of +0 then -0 over negatives: the first zero wins.
  values[4] = 0.0f;
  values[5] = -0.0f;
  values[kW + 4] = -1.0f;
  values[kW + 5] = -1.0f;
  values[20] = std::nanf("");
  values[kH * kW + 30] = -std::nanf("");
  values[kH * kW + 31] = std::nanf("");
  for (int64_t i = 0; i < kH * kW; ++i)
    values[2 * kH * kW + i] = -INFINITY; // a plane of -inf: padding never wins
  std::vector<float> fp32 = maxPool(values, ElementType::F32);
  std::vector<float> fp16 = maxPool(values, ElementType::F16);
  for (size_t i = 0; i < fp32.size(); ++i) {
    if (std::isnan(fp16[i])) {
      EXPECT_TRUE(std::isnan(fp32[i])) << i;
      EXPECT_EQ(std::signbit(fp32[i]), std::signbit(fp16[i])) << i;
      continue;
    }
    EXPECT_EQ(fp32[i], fp16[i]) << i;
    EXPECT_EQ(std::signbit(fp32[i]), std::signbit(fp16[i])) << i;
  }
  EXPECT_EQ(fp32[2 * 20], -INFINITY);
  EXPECT_FALSE(std::signbit(fp32[2])) << "+0 came first";
}

/// Random values in [-100, 100) with -0 and `tiny` planted (a subnormal).
std::vector<float> randomValues(unsigned seed, float tiny) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  std::vector<float> values(kPlanes * kH * kW);
  for (float &v : values)
    v = value(random);
  values[3] = -0.0f;
  values[8] = tiny;
  return values;
}

/// Pooling `in` (elements of `type`, finite) with IEEE overflow takes a
/// float path, with saturation the general loop: both must write the same
/// bytes, max and average in `acc` (padding counted or not), strided and
/// stride-1 windows.
void expectFloatPathWritesTheGeneralLoopsBits(const std::vector<uint8_t> &in, ElementType type,
                                              ElementType acc) {
  for (const PoolShape *shape : {&kStrided, &kSame, &kStride3})
    for (PoolKind kind : {PoolKind::Max, PoolKind::Avg})
      for (bool exclusive : {false, true})
        EXPECT_EQ(poolBytes(in, type, acc, kind, Overflow::IEEE, exclusive, *shape),
                  poolBytes(in, type, acc, kind, Overflow::Saturate, exclusive, *shape))
            << "type " << static_cast<int>(type) << (kind == PoolKind::Max ? " max" : " avg")
            << (exclusive ? " exclusive" : "");
}

TEST(PoolRuntime, Fp32PoolingGivesTheGeneralLoopsBits) {
  std::vector<float> values = randomValues(4, 1e-30f);
  std::vector<uint8_t> in(4 * values.size());
  std::memcpy(in.data(), values.data(), in.size());
  expectFloatPathWritesTheGeneralLoopsBits(in, ElementType::F32, ElementType::F32);
}

TEST(PoolRuntime, HalfPoolingGivesTheGeneralLoopsBits) {
  // fp16 and bf16 pool on widened floats, averaging in an fp32 accumulator.
  std::vector<float> values = randomValues(5, 1e-6f); // an fp16 subnormal
  for (ElementType type : {ElementType::F16, ElementType::BF16})
    expectFloatPathWritesTheGeneralLoopsBits(sixteenBitElements(values, type), type,
                                             ElementType::F32);
}

TEST(PoolRuntime, HalfMaxPoolingKeepsANaNsSignAndPayloadQuieted) {
  // A signalling fp16 NaN (payload 0x123) in a window wins the max and is
  // written quiet with its sign and payload, as writing it from a double
  // does: 0xFD23 -> 0xFF23.
  std::vector<float> values(kPlanes * kH * kW, 1.0f);
  std::vector<uint8_t> in = sixteenBitElements(values, ElementType::F16);
  uint16_t signalling = 0xFD23;
  std::memcpy(&in[0], &signalling, 2);
  std::vector<uint8_t> out = poolBytes(in, ElementType::F16, ElementType::F16, PoolKind::Max,
                                       Overflow::IEEE, false, kStrided);
  uint16_t first, second;
  std::memcpy(&first, &out[0], 2);
  std::memcpy(&second, &out[2], 2);
  EXPECT_EQ(first, 0xFF23);
  EXPECT_EQ(second, 0x3C00); // 1.0: the NaN's window only
}

} // namespace
