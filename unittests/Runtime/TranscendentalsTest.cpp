//===- TranscendentalsTest.cpp - the runtime's exp, tanh and sigmoid ------===//
//
// DoubleExp.h's exp claims to be within about 1 ulp of double, so that its
// fp32 result is the correctly rounded one (checked against long double
// expl on every fp16 value and a stride through all floats).
// ascendprec_rt_tanh_f32 claims (lib/Runtime/Transcendentals.cpp) to be
// within 0.5 + 2^-16 ulp of tanh everywhere and correctly rounded except
// within 2^-40.9 of a midpoint. Checked against long double tanhl (64-bit
// significand) on every fp16 value, on every float near the three cut-overs
// (2^-12, 9.1 and the exp range in between), and on a stride through all
// float patterns: every result must be the float nearest tanhl's value.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/Transcendentals.h"
#include "AscendPrec/Runtime/DoubleExp.h"
#include "AscendPrec/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
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

/// visit(x) for every fp16 value but NaN, as a float.
template <typename Visit> void forEveryHalfValue(Visit visit) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float x = static_cast<float>(ascendprec::runtime::halfToDouble(static_cast<uint16_t>(bits)));
    if (!std::isnan(x))
      visit(x);
  }
}

/// visit(x) and visit(-x) for every `stride`-th finite float pattern.
template <typename Visit> void forAStrideOfFloats(uint32_t stride, Visit visit) {
  for (uint64_t bits = 0; bits < 0x7F800000u; bits += stride) {
    float x = floatOf(static_cast<uint32_t>(bits));
    visit(x);
    visit(-x);
  }
}

/// tanh(x) rounded to the nearest float through long double.
float nearestTanh(float x) { return static_cast<float>(tanhl(static_cast<long double>(x))); }

void expectCorrectlyRounded(float x) {
  float got = ascendprec_rt_tanh_f32(x), want = nearestTanh(x);
  ASSERT_EQ(bitsOf(got), bitsOf(want)) << "tanh(" << x << ") = " << got << ", not " << want;
}

TEST(Transcendentals, TanhIsCorrectlyRoundedOnEveryHalfValue) {
  forEveryHalfValue(expectCorrectlyRounded);
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
  forAStrideOfFloats(491, expectCorrectlyRounded);
}

TEST(Transcendentals, TanhSpecialValues) {
  EXPECT_TRUE(std::isnan(ascendprec_rt_tanh_f32(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(ascendprec_rt_tanh_f32(INFINITY), 1.0f);
  EXPECT_EQ(ascendprec_rt_tanh_f32(-INFINITY), -1.0f);
  EXPECT_EQ(bitsOf(ascendprec_rt_tanh_f32(-0.0f)), bitsOf(-0.0f));
  EXPECT_EQ(ascendprec_rt_tanh_f32(std::numeric_limits<float>::denorm_min()),
            std::numeric_limits<float>::denorm_min());
}

namespace de = ascendprec::runtime::doubleexp;

/// |got - want| in ulps of want (as a double).
double ulpsOff(double got, long double want) {
  auto nearest = static_cast<double>(want);
  double ulp = std::nextafter(std::fabs(nearest), INFINITY) - std::fabs(nearest);
  return static_cast<double>(fabsl(static_cast<long double>(got) - want) / ulp);
}

TEST(Transcendentals, ExpDoubleIsWithinAnUlpOfExpl) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> wide(-708.0, 709.7), narrow(-20.0, 20.0);
  double worst = 0;
  for (int i = 0; i < 2000000; ++i) {
    double x = i % 2 ? wide(random) : narrow(random);
    worst = std::max(worst, ulpsOff(de::expDouble(x), expl(static_cast<long double>(x))));
  }
  EXPECT_LT(worst, 1.0);
}

void expectExpCorrectlyRounded(float x) {
  float got = de::expFloat(x), want = static_cast<float>(expl(static_cast<long double>(x)));
  ASSERT_EQ(bitsOf(got), bitsOf(want)) << "exp(" << x << ") = " << got << ", not " << want;
}

TEST(Transcendentals, ExpFloatIsCorrectlyRoundedOnEveryHalfValue) {
  forEveryHalfValue(expectExpCorrectlyRounded);
}

TEST(Transcendentals, ExpFloatIsCorrectlyRoundedOnAStrideOfAllFloats) {
  // Every exponent of both signs, the clamps (-104, 89) and the subnormal
  // results (below -87.3) included.
  forAStrideOfFloats(491, expectExpCorrectlyRounded);
  for (float x = -104.5f; x < -86.0f; x += 0.0009765625f)
    expectExpCorrectlyRounded(x);
}

TEST(Transcendentals, ExpSpecialValues) {
  EXPECT_EQ(de::expFloat(INFINITY), INFINITY);
  EXPECT_EQ(bitsOf(de::expFloat(-INFINITY)), 0u);
  EXPECT_EQ(de::expFloat(0.0f), 1.0f);
  EXPECT_EQ(de::expFloat(-0.0f), 1.0f);
  EXPECT_EQ(de::expDouble(1.0), 0x1.5bf0a8b145769p+1); // e, correctly rounded
  EXPECT_EQ(de::expDouble(1000.0), INFINITY);
  EXPECT_EQ(de::expDouble(-1000.0), 0.0);
  // A NaN comes back as it went in, payload and sign.
  for (uint32_t nanBits : {0x7FC12345u, 0xFFC00001u}) {
    EXPECT_EQ(bitsOf(de::expFloat(floatOf(nanBits))), nanBits);
    EXPECT_EQ(bitsOf(de::tanhFloat(floatOf(nanBits))), nanBits);
  }
}

TEST(Transcendentals, SigmoidIsCorrectlyRoundedExceptNextToAMidpoint) {
  // 1 / (1 + e) in double carries about 2^-52 of error: the fp32 result is
  // the correctly rounded one unless the exact value lies that close to the
  // midpoint between two floats (fp16 inputs near 0 do: 0.5 + x/4 needs one
  // bit more than a float holds, and x^3/48 is all that separates it from
  // the midpoint). There either neighbour is accepted.
  auto expectSigmoid = [](float x) {
    long double exact = 1.0L / (1.0L + expl(-static_cast<long double>(x)));
    float got = de::sigmoidFloat(x), want = static_cast<float>(exact);
    if (bitsOf(got) == bitsOf(want))
      return;
    long double midpoint = (static_cast<long double>(got) + want) / 2;
    ASSERT_EQ(std::nextafter(got, want), want) << "sigmoid(" << x << ") = " << got;
    ASSERT_LT(fabsl(exact - midpoint), exact * 0x1p-48L) << "sigmoid(" << x << ") = " << got;
  };
  forEveryHalfValue(expectSigmoid);
  forAStrideOfFloats(4093, expectSigmoid);
}

TEST(Transcendentals, ArrayFunctionsMatchTheScalarSteps) {
  // tanhFloats and sigmoidFloats run the host's widest vector code; every
  // element must be what the scalar steps give.
  std::vector<float> in;
  std::mt19937 random(3);
  std::uniform_real_distribution<float> values(-30.0f, 30.0f);
  for (int i = 0; i < 100003; ++i)
    in.push_back(i % 7 == 0 ? floatOf(random()) : values(random));
  std::vector<float> tanhs(in.size()), sigmoids(in.size());
  ascendprec::runtime::detail::tanhFloats(in.data(), tanhs.data(), in.size());
  ascendprec::runtime::detail::sigmoidFloats(in.data(), sigmoids.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(bitsOf(tanhs[i]), bitsOf(de::tanhFloat(in[i]))) << "tanh(" << in[i] << ")";
    ASSERT_EQ(bitsOf(sigmoids[i]), bitsOf(de::sigmoidFloat(in[i]))) << "sigmoid(" << in[i] << ")";
  }
}

} // namespace
