//===- TranscendentalsTest.cpp - the runtime's fp32 tanh ------------------===//
//
// ascendprec_rt_tanh_f32 claims (lib/Runtime/Transcendentals.cpp) to be
// within 0.5 + 2^-16 ulp of tanh everywhere and correctly rounded except
// within 2^-40.9 of a midpoint. Checked against long double tanhl (64-bit
// significand) on every fp16 value, on every float near the three cut-overs
// (2^-12, 9.1 and the exp range in between), and on a stride through all
// float patterns: every result must be the float nearest tanhl's value.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

extern "C" float ascendprec_rt_tanh_f32(float);

namespace {

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

/// tanh(x) rounded to the nearest float through long double.
float nearestTanh(float x) { return static_cast<float>(tanhl(static_cast<long double>(x))); }

void expectCorrectlyRounded(float x) {
  float got = ascendprec_rt_tanh_f32(x), want = nearestTanh(x);
  ASSERT_EQ(bitsOf(got), bitsOf(want)) << "tanh(" << x << ") = " << got << ", not " << want;
}

TEST(Transcendentals, TanhIsCorrectlyRoundedOnEveryHalfValue) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float x = static_cast<float>(ascendprec::runtime::halfToDouble(static_cast<uint16_t>(bits)));
    if (!std::isnan(x))
      expectCorrectlyRounded(x);
  }
}

TEST(Transcendentals, TanhIsCorrectlyRoundedAroundItsCutOvers) {
  for (float edge : {0x1p-12f, 9.1f, 0.5f, 1.0f, 0.25f}) {
    float below = edge, above = edge;
    for (int i = 0; i < 4096; ++i) {
      below = std::nextafter(below, 0.0f);
      above = std::nextafter(above, INFINITY);
      for (float x : {below, above, -below, -above})
        expectCorrectlyRounded(x);
    }
  }
}

TEST(Transcendentals, TanhIsCorrectlyRoundedOnAStrideOfAllFloats) {
  // 4.3 million patterns of each sign, every exponent.
  for (uint64_t bits = 0; bits < 0x7F800000u; bits += 491) {
    float x = floatOf(static_cast<uint32_t>(bits));
    expectCorrectlyRounded(x);
    expectCorrectlyRounded(-x);
  }
}

TEST(Transcendentals, TanhSpecialValues) {
  EXPECT_TRUE(std::isnan(ascendprec_rt_tanh_f32(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(ascendprec_rt_tanh_f32(INFINITY), 1.0f);
  EXPECT_EQ(ascendprec_rt_tanh_f32(-INFINITY), -1.0f);
  EXPECT_EQ(bitsOf(ascendprec_rt_tanh_f32(-0.0f)), bitsOf(-0.0f));
  EXPECT_EQ(ascendprec_rt_tanh_f32(std::numeric_limits<float>::denorm_min()),
            std::numeric_limits<float>::denorm_min());
}

} // namespace
