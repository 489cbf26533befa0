//===- NumericsTest.cpp - exact rounding against llvm::APFloat ------------===//
//
// Every float result is compared bit for bit with llvm::APFloat's conversion
// in the matching rounding mode. APFloat has no round-to-odd; its reference
// is derived from round-toward-zero: an inexact result with an even last bit
// moves to the odd neighbour away from zero (adding 1 to a sign-magnitude
// pattern does exactly that).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/Numerics.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace ascendprec::runtime;

namespace {

constexpr Rounding kModes[] = {Rounding::Rint,  Rounding::Round,
                               Rounding::Floor, Rounding::Ceil,
                               Rounding::Trunc, Rounding::Odd};

const char *modeName(Rounding rounding) {
  switch (rounding) {
  case Rounding::Rint: return "rint";
  case Rounding::Round: return "round";
  case Rounding::Floor: return "floor";
  case Rounding::Ceil: return "ceil";
  case Rounding::Trunc: return "trunc";
  case Rounding::Odd: return "odd";
  }
  return "?";
}

llvm::RoundingMode llvmMode(Rounding rounding) {
  switch (rounding) {
  case Rounding::Rint: return llvm::RoundingMode::NearestTiesToEven;
  case Rounding::Round: return llvm::RoundingMode::NearestTiesToAway;
  case Rounding::Floor: return llvm::RoundingMode::TowardNegative;
  case Rounding::Ceil: return llvm::RoundingMode::TowardPositive;
  case Rounding::Trunc:
  case Rounding::Odd: return llvm::RoundingMode::TowardZero;
  }
  return llvm::RoundingMode::NearestTiesToEven;
}

uint64_t bitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

double doubleOf(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// APFloat's bits for `value` converted to `semantics` (IEEE overflow).
uint64_t referenceBits(double value, const llvm::fltSemantics &semantics,
                       Rounding rounding) {
  llvm::APFloat number(value);
  bool losesInfo = false;
  const llvm::APFloat::opStatus status =
      number.convert(semantics, llvmMode(rounding), &losesInfo);
  uint64_t bits = number.bitcastToAPInt().getZExtValue();
  if (rounding == Rounding::Odd && (status & llvm::APFloat::opInexact) &&
      (bits & 1) == 0)
    bits += 1;
  return bits;
}

/// The exact double of a pattern of `semantics`, according to APFloat.
double referenceValue(uint64_t bits, const llvm::fltSemantics &semantics) {
  llvm::APFloat number(semantics,
                       llvm::APInt(llvm::APFloat::getSizeInBits(semantics),
                                   bits));
  bool losesInfo = false;
  number.convert(llvm::APFloat::IEEEdouble(),
                 llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  return number.convertToDouble();
}

/// Describes a 16-bit format under test.
struct Format16 {
  const char *name;
  const llvm::fltSemantics &(*semantics)();
  uint16_t (*round)(double, Rounding, Overflow);
  double (*decode)(uint16_t);
  float (*entry)(float, int32_t, int32_t);
  int fractionBits;
  uint16_t maxFinite;
  uint16_t infinity;
};

const Format16 kHalf = {"f16",        &llvm::APFloat::IEEEhalf,
                        &roundToHalf, &halfToDouble,
                        &ascendprec_round_f16, 10,
                        0x7BFF,       0x7C00};
const Format16 kBFloat = {"bf16",           &llvm::APFloat::BFloat,
                          &roundToBFloat16, &bfloat16ToDouble,
                          &ascendprec_round_bf16, 7,
                          0x7F7F,           0x7F80};

bool isNaNPattern(const Format16 &format, uint16_t bits) {
  return (bits & 0x7FFF) > format.infinity;
}

/// Decoding matches APFloat for every pattern; re-encoding a decoded value
/// gives the pattern back in every mode (a NaN stays a quiet NaN with its
/// sign).
void checkAllPatterns(const Format16 &format) {
  const llvm::fltSemantics &semantics = format.semantics();
  const uint16_t quietBit = uint16_t(1) << (format.fractionBits - 1);
  int failures = 0;
  for (uint32_t pattern = 0; pattern <= 0xFFFF && failures < 10; ++pattern) {
    const uint16_t bits = static_cast<uint16_t>(pattern);
    const double value = format.decode(bits);
    const double expected = referenceValue(bits, semantics);
    if (isNaNPattern(format, bits)) {
      EXPECT_TRUE(std::isnan(value)) << format.name << " 0x" << std::hex
                                     << pattern;
      EXPECT_EQ(std::signbit(value), std::signbit(expected));
    } else if (bitsOf(value) != bitsOf(expected)) {
      ADD_FAILURE() << format.name << " decode 0x" << std::hex << pattern
                    << ": " << value << " != " << expected;
      ++failures;
    }
    for (Rounding mode : kModes) {
      const uint16_t again = format.round(value, mode, Overflow::IEEE);
      const uint16_t want =
          isNaNPattern(format, bits) ? uint16_t(bits | quietBit) : bits;
      if (again != want) {
        ADD_FAILURE() << format.name << " re-encode 0x" << std::hex << pattern
                      << " (" << modeName(mode) << ") gave 0x" << again;
        ++failures;
      }
    }
  }
}

/// The points around magnitude pattern `bits` whose rounding is delicate:
/// the value itself, the midpoint to the next pattern up (for the largest
/// finite one, to 2^(emax+1), the overflow threshold) and the neighbours of
/// that midpoint in double and in float.
std::vector<double> pointsAbove(const Format16 &format, uint16_t bits) {
  const double value = format.decode(bits);
  const double next =
      bits == format.maxFinite
          ? 2 * std::ldexp(1.0, std::ilogb(format.decode(format.maxFinite)))
          : format.decode(static_cast<uint16_t>(bits + 1));
  const double middle = (value + next) / 2; // exact in double and float
  const float middleFloat = static_cast<float>(middle);
  return {value,
          middle,
          std::nextafter(middle, 0.0),
          std::nextafter(middle, INFINITY),
          std::nextafter(middleFloat, 0.0f),
          std::nextafter(middleFloat, INFINITY)};
}

/// Rounds every point near every finite pattern, both signs, all modes,
/// through the C++ function and (for points that are floats) the C entry.
/// Returns the number of conversions checked.
long checkNeighbourhoods(const Format16 &format) {
  const llvm::fltSemantics &semantics = format.semantics();
  long checked = 0;
  int failures = 0;
  for (uint32_t magnitude = 0; magnitude <= format.maxFinite && failures < 10;
       ++magnitude) {
    for (double point : pointsAbove(format, static_cast<uint16_t>(magnitude))) {
      for (double x : {point, -point}) {
        const bool isFloat = static_cast<double>(static_cast<float>(x)) == x;
        for (Rounding mode : kModes) {
          const uint64_t want = referenceBits(x, semantics, mode);
          const uint16_t got = format.round(x, mode, Overflow::IEEE);
          ++checked;
          if (got != want) {
            ADD_FAILURE() << format.name << " " << modeName(mode) << " of "
                          << std::hexfloat << x << ": got 0x" << std::hex
                          << got << ", APFloat 0x" << want;
            ++failures;
          }
          if (!isFloat)
            continue;
          const float entry = format.entry(static_cast<float>(x),
                                           static_cast<int32_t>(mode), 0);
          const float wantEntry = static_cast<float>(
              format.decode(static_cast<uint16_t>(want)));
          ++checked;
          if (bitsOf(entry) != bitsOf(wantEntry)) {
            ADD_FAILURE() << format.name << " C entry " << modeName(mode)
                          << " of " << std::hexfloat << x << ": got "
                          << entry << ", want " << wantEntry;
            ++failures;
          }
        }
      }
    }
  }
  return checked;
}

void expectFloatMatches(double x, Rounding mode, int &failures) {
  const uint64_t want = referenceBits(x, llvm::APFloat::IEEEsingle(), mode);
  const float got = roundToFloat(x, mode, Overflow::IEEE);
  if (std::isnan(x)) {
    // APFloat and we both keep the sign and quiet the NaN; payloads are not
    // part of the contract.
    if (!std::isnan(got) || std::signbit(got) != std::signbit(x)) {
      ADD_FAILURE() << "f32 " << modeName(mode) << " of NaN 0x" << std::hex
                    << bitsOf(x) << " gave " << got;
      ++failures;
    }
    return;
  }
  if (bitsOf(got) != want) {
    ADD_FAILURE() << "f32 " << modeName(mode) << " of " << std::hexfloat << x
                  << " (0x" << std::hex << bitsOf(x) << "): got 0x"
                  << bitsOf(got) << ", APFloat 0x" << want;
    ++failures;
  }
}

} // namespace

TEST(Numerics, HalfDecodeMatchesAPFloatAndReencodesForAll65536Patterns) {
  checkAllPatterns(kHalf);
}

TEST(Numerics, BFloat16DecodeMatchesAPFloatAndReencodesForAll65536Patterns) {
  checkAllPatterns(kBFloat);
}

TEST(Numerics, HalfRoundingMatchesAPFloatAtValuesMidpointsAndTheirNeighbours) {
  // 31744 magnitudes x 6 points x 2 signs x 6 modes, plus the C entry for
  // the points that are floats.
  EXPECT_GT(checkNeighbourhoods(kHalf), 2'000'000);
}

TEST(Numerics,
     BFloat16RoundingMatchesAPFloatAtValuesMidpointsAndTheirNeighbours) {
  EXPECT_GT(checkNeighbourhoods(kBFloat), 2'000'000);
}

TEST(Numerics, FloatRoundingMatchesAPFloatOnRandomAndBoundaryDoubles) {
  std::mt19937_64 random(20240611);
  std::vector<double> inputs;
  inputs.reserve(1'000'000);
  // Raw bit patterns (mostly far outside binary32's range: overflow and
  // underflow in every direction, NaNs, double subnormals).
  for (int i = 0; i < 300'000; ++i)
    inputs.push_back(doubleOf(random()));
  // Exponents from below the smallest float subnormal to above FLT_MAX.
  std::uniform_int_distribution<int> exponent(1023 - 155, 1023 + 130);
  for (int i = 0; i < 500'000; ++i)
    inputs.push_back(doubleOf((random() & 0x800FFFFFFFFFFFFFull) |
                              (uint64_t(exponent(random)) << 52)));
  // Exact ties between adjacent floats, and the doubles on either side.
  for (int i = 0; i < 65'000; ++i) {
    const double value = inputs[300'000 + i];
    const float low = static_cast<float>(value);
    if (!std::isfinite(low))
      continue;
    const double middle =
        (static_cast<double>(low) +
         static_cast<double>(std::nextafter(low, INFINITY))) / 2;
    if (!std::isfinite(middle))
      continue;
    inputs.push_back(middle);
    inputs.push_back(std::nextafter(middle, 0.0));
    inputs.push_back(std::nextafter(middle, INFINITY));
  }
  const double maxFloat = FLT_MAX;
  const double overflowThreshold = 0x1p128;
  const double boundaries[] = {
      0.0, maxFloat, (maxFloat + overflowThreshold) / 2, overflowThreshold,
      std::nextafter((maxFloat + overflowThreshold) / 2, 0.0),
      std::nextafter((maxFloat + overflowThreshold) / 2, INFINITY),
      std::nextafter(maxFloat, INFINITY), DBL_MAX, INFINITY,
      static_cast<double>(FLT_MIN), std::nextafter(double(FLT_MIN), 0.0),
      0x1p-149, 0x1p-150, std::nextafter(0x1p-150, 0.0),
      std::nextafter(0x1p-150, 1.0), 0x1.8p-149, 0x1p-151, DBL_MIN,
      DBL_TRUE_MIN, 0x1p-126 - 0x1p-150, 1.0, 1.0 + 0x1p-24,
      1.0 + 0x1p-24 + 0x1p-52, 1.0 + 0x1p-23 + 0x1p-24,
      std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::signaling_NaN()};
  for (double value : boundaries) {
    inputs.push_back(value);
    inputs.push_back(-value);
  }

  int failures = 0;
  for (double x : inputs) {
    for (Rounding mode : kModes)
      expectFloatMatches(x, mode, failures);
    if (failures >= 10)
      break;
  }
  EXPECT_GT(inputs.size(), 950'000u);
  // The C entry is the same function.
  for (size_t i = 0; i < inputs.size(); i += 97)
    for (Rounding mode : kModes) {
      const float viaEntry = ascendprec_round_f32(
          inputs[i], static_cast<int32_t>(mode), 0);
      const float direct = roundToFloat(inputs[i], mode, Overflow::IEEE);
      EXPECT_EQ(bitsOf(viaEntry), bitsOf(direct));
    }
}

TEST(Numerics, SaturationModeClampsOverflowAndInfToMaxAndNaNToZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Rounding mode : kModes) {
    SCOPED_TRACE(modeName(mode));
    EXPECT_EQ(roundToHalf(INFINITY, mode, Overflow::Saturate), 0x7BFF);
    EXPECT_EQ(roundToHalf(-INFINITY, mode, Overflow::Saturate), 0xFBFF);
    EXPECT_EQ(roundToHalf(nan, mode, Overflow::Saturate), 0x0000);
    EXPECT_EQ(roundToHalf(-nan, mode, Overflow::Saturate), 0x0000);
    EXPECT_EQ(roundToHalf(70000.0, mode, Overflow::Saturate), 0x7BFF);
    EXPECT_EQ(roundToHalf(-70000.0, mode, Overflow::Saturate), 0xFBFF);
    EXPECT_EQ(roundToHalf(65504.0, mode, Overflow::Saturate), 0x7BFF);
    EXPECT_EQ(roundToHalf(1.0, mode, Overflow::Saturate), 0x3C00);

    EXPECT_EQ(roundToBFloat16(INFINITY, mode, Overflow::Saturate), 0x7F7F);
    EXPECT_EQ(roundToBFloat16(-INFINITY, mode, Overflow::Saturate), 0xFF7F);
    EXPECT_EQ(roundToBFloat16(nan, mode, Overflow::Saturate), 0x0000);
    EXPECT_EQ(roundToBFloat16(1e39, mode, Overflow::Saturate), 0x7F7F);
    EXPECT_EQ(roundToBFloat16(-1e39, mode, Overflow::Saturate), 0xFF7F);

    EXPECT_EQ(roundToFloat(INFINITY, mode, Overflow::Saturate), FLT_MAX);
    EXPECT_EQ(roundToFloat(-INFINITY, mode, Overflow::Saturate), -FLT_MAX);
    EXPECT_EQ(bitsOf(roundToFloat(nan, mode, Overflow::Saturate)), 0u);
    EXPECT_EQ(roundToFloat(1e300, mode, Overflow::Saturate), FLT_MAX);

    // The C entries take the same integer codes.
    EXPECT_EQ(ascendprec_round_f16(INFINITY, static_cast<int32_t>(mode), 1),
              65504.0f);
    EXPECT_EQ(bitsOf(ascendprec_round_bf16(-std::numeric_limits<float>::quiet_NaN(),
                                           static_cast<int32_t>(mode), 1)),
              0u);
  }
  // Below the threshold, saturation changes nothing.
  EXPECT_EQ(roundToHalf(65519.0, Rounding::Rint, Overflow::Saturate), 0x7BFF);
  EXPECT_EQ(roundToHalf(0x1p-25, Rounding::Round, Overflow::Saturate), 0x0001);
}

TEST(Numerics, IEEEOverflowFollowsTheRoundingDirection) {
  EXPECT_EQ(roundToHalf(70000.0, Rounding::Rint, Overflow::IEEE), 0x7C00);
  EXPECT_EQ(roundToHalf(70000.0, Rounding::Round, Overflow::IEEE), 0x7C00);
  EXPECT_EQ(roundToHalf(70000.0, Rounding::Trunc, Overflow::IEEE), 0x7BFF);
  EXPECT_EQ(roundToHalf(70000.0, Rounding::Odd, Overflow::IEEE), 0x7BFF);
  EXPECT_EQ(roundToHalf(70000.0, Rounding::Floor, Overflow::IEEE), 0x7BFF);
  EXPECT_EQ(roundToHalf(-70000.0, Rounding::Floor, Overflow::IEEE), 0xFC00);
  EXPECT_EQ(roundToHalf(70000.0, Rounding::Ceil, Overflow::IEEE), 0x7C00);
  EXPECT_EQ(roundToHalf(-70000.0, Rounding::Ceil, Overflow::IEEE), 0xFBFF);
  // 65520 is the tie between 65504 (odd significand) and 2^16: even wins.
  EXPECT_EQ(roundToHalf(65520.0, Rounding::Rint, Overflow::IEEE), 0x7C00);
  EXPECT_EQ(roundToHalf(65519.0, Rounding::Rint, Overflow::IEEE), 0x7BFF);
  // Inf passes through; a NaN stays a quiet NaN with its sign.
  EXPECT_EQ(roundToHalf(-INFINITY, Rounding::Trunc, Overflow::IEEE), 0xFC00);
  EXPECT_EQ(roundToHalf(-std::numeric_limits<double>::quiet_NaN(),
                        Rounding::Rint, Overflow::IEEE),
            0xFE00);
  EXPECT_EQ(roundToBFloat16(std::numeric_limits<double>::signaling_NaN(),
                            Rounding::Rint, Overflow::IEEE) &
                0x7FC0,
            0x7FC0);
  EXPECT_TRUE(std::isnan(roundToFloat(std::numeric_limits<double>::quiet_NaN(),
                                      Rounding::Floor, Overflow::IEEE)));
}

TEST(Numerics, SubnormalResultsAreKeptNotFlushed) {
  EXPECT_EQ(roundToHalf(0x1p-24, Rounding::Rint, Overflow::IEEE), 0x0001);
  EXPECT_EQ(roundToHalf(0x1p-25, Rounding::Rint, Overflow::IEEE), 0x0000);
  EXPECT_EQ(roundToHalf(0x1p-25, Rounding::Round, Overflow::IEEE), 0x0001);
  EXPECT_EQ(roundToHalf(-0x1p-30, Rounding::Floor, Overflow::IEEE), 0x8001);
  EXPECT_EQ(roundToHalf(0x1p-30, Rounding::Odd, Overflow::IEEE), 0x0001);
  EXPECT_EQ(roundToHalf(0x1p-14 - 0x1p-26, Rounding::Rint, Overflow::IEEE),
            0x0400); // the largest subnormal's carry into the exponent
  EXPECT_EQ(roundToBFloat16(0x1p-133, Rounding::Rint, Overflow::IEEE), 0x0001);
  EXPECT_EQ(roundToFloat(0x1p-149, Rounding::Rint, Overflow::IEEE), 0x1p-149f);
  EXPECT_EQ(halfToDouble(0x0001), 0x1p-24);
  EXPECT_EQ(bfloat16ToDouble(0x8001), -0x1p-133);
}

TEST(Numerics, CEntriesTreatUnknownModeCodesAsRintAndIEEE) {
  EXPECT_EQ(ascendprec_round_f16(1.0f + 0x1p-11f, 99, 0), 1.0f);
  EXPECT_EQ(ascendprec_round_f16(1.0f + 0x1p-11f + 0x1p-12f, -1, 0),
            1.0f + 0x1p-10f);
  EXPECT_EQ(ascendprec_round_f16(70000.0f, 0, 7), INFINITY);
  EXPECT_EQ(ascendprec_round_bf16(1.0f + 0x1p-8f, 1, 0), 1.0f + 0x1p-7f);
  EXPECT_EQ(ascendprec_round_f32(1.0 + 0x1p-24, 3, 0), 1.0f + 0x1p-23f);
}

TEST(Numerics, IntegerRoundingModesOnHalves) {
  struct Case {
    double value;
    int64_t rint, round, floor, ceil, trunc;
  };
  const Case cases[] = {
      {2.5, 2, 3, 2, 3, 2},      {-2.5, -2, -3, -3, -2, -2},
      {3.5, 4, 4, 3, 4, 3},      {-3.5, -4, -4, -4, -3, -3},
      {0.5, 0, 1, 0, 1, 0},      {-0.5, 0, -1, -1, 0, 0},
      {2.4999999999999996, 2, 2, 2, 3, 2},
      {-7.0, -7, -7, -7, -7, -7}, {0x1p52 + 1, 0x10000000000001,
                                   0x10000000000001, 0x10000000000001,
                                   0x10000000000001, 0x10000000000001}};
  for (const Case &c : cases) {
    SCOPED_TRACE(c.value);
    EXPECT_EQ(roundToSigned(c.value, 64, Rounding::Rint), c.rint);
    EXPECT_EQ(roundToSigned(c.value, 64, Rounding::Round), c.round);
    EXPECT_EQ(roundToSigned(c.value, 64, Rounding::Floor), c.floor);
    EXPECT_EQ(roundToSigned(c.value, 64, Rounding::Ceil), c.ceil);
    EXPECT_EQ(roundToSigned(c.value, 64, Rounding::Trunc), c.trunc);
    // No integer round-to-odd in CANN: Odd behaves as Trunc.
    EXPECT_EQ(roundToSigned(c.value, 64, Rounding::Odd), c.trunc);
  }
}

TEST(Numerics, IntegerRoundingMatchesTheLibmFunctionsOnRandomValues) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> spread(-1e6, 1e6);
  for (int i = 0; i < 100'000; ++i) {
    // Quarters land on ties and their neighbours often.
    const double x = i % 2 ? std::round(spread(random) * 4) / 4
                           : spread(random);
    ASSERT_EQ(roundToSigned(x, 32, Rounding::Rint),
              static_cast<int64_t>(std::nearbyint(x))) << x;
    ASSERT_EQ(roundToSigned(x, 32, Rounding::Round),
              static_cast<int64_t>(std::round(x))) << x;
    ASSERT_EQ(roundToSigned(x, 32, Rounding::Floor),
              static_cast<int64_t>(std::floor(x))) << x;
    ASSERT_EQ(roundToSigned(x, 32, Rounding::Ceil),
              static_cast<int64_t>(std::ceil(x))) << x;
    ASSERT_EQ(roundToSigned(x, 32, Rounding::Trunc),
              static_cast<int64_t>(std::trunc(x))) << x;
  }
}

TEST(Numerics, IntegerConversionsClampToTheTypeRange) {
  EXPECT_EQ(roundToSigned(127.4, 8, Rounding::Rint), 127);
  EXPECT_EQ(roundToSigned(127.5, 8, Rounding::Rint), 127); // 128 clamps
  EXPECT_EQ(roundToSigned(-128.5, 8, Rounding::Round), -128);
  EXPECT_EQ(roundToSigned(-1e10, 8, Rounding::Rint), -128);
  EXPECT_EQ(roundToSigned(40000.0, 16, Rounding::Rint), 32767);
  EXPECT_EQ(roundToSigned(2147483647.4, 32, Rounding::Rint), 2147483647);
  EXPECT_EQ(roundToSigned(2147483647.5, 32, Rounding::Rint), 2147483647);
  EXPECT_EQ(roundToSigned(-2147483648.9, 32, Rounding::Ceil), INT32_MIN);
  EXPECT_EQ(roundToSigned(-2147483648.9, 32, Rounding::Floor), INT32_MIN);
  EXPECT_EQ(roundToSigned(1e300, 32, Rounding::Trunc), INT32_MAX);
  EXPECT_EQ(roundToSigned(INFINITY, 64, Rounding::Rint), INT64_MAX);
  EXPECT_EQ(roundToSigned(-INFINITY, 64, Rounding::Rint), INT64_MIN);
  EXPECT_EQ(roundToUnsigned(255.5, 8, Rounding::Rint), 255u); // 256 clamps
  EXPECT_EQ(roundToUnsigned(70000.0, 16, Rounding::Rint), 65535u);
  EXPECT_EQ(roundToUnsigned(INFINITY, 32, Rounding::Rint), UINT32_MAX);
}

TEST(Numerics, IntegerConversionsNearTwoToThe63And64) {
  const double two63 = 0x1p63;
  EXPECT_EQ(roundToSigned(two63, 64, Rounding::Rint), INT64_MAX);
  EXPECT_EQ(roundToSigned(two63, 64, Rounding::Floor), INT64_MAX);
  EXPECT_EQ(roundToSigned(std::nextafter(two63, 0.0), 64, Rounding::Rint),
            INT64_MAX - 1023); // 2^63 - 1024
  EXPECT_EQ(roundToSigned(-two63, 64, Rounding::Rint), INT64_MIN);
  EXPECT_EQ(roundToSigned(std::nextafter(-two63, -INFINITY), 64,
                          Rounding::Trunc),
            INT64_MIN);
  EXPECT_EQ(roundToSigned(std::nextafter(-two63, 0.0), 64, Rounding::Ceil),
            INT64_MIN + 1024);
  EXPECT_EQ(roundToUnsigned(two63, 64, Rounding::Rint), uint64_t(1) << 63);
  EXPECT_EQ(roundToUnsigned(0x1p64, 64, Rounding::Rint), UINT64_MAX);
  EXPECT_EQ(roundToUnsigned(std::nextafter(0x1p64, 0.0), 64, Rounding::Rint),
            UINT64_MAX - 2047); // 2^64 - 2048
  // The C entry returns unsigned results as their bit pattern.
  EXPECT_EQ(ascendprec_round_int(1e30, 64, 0, 0), -1);
  EXPECT_EQ(ascendprec_round_int(two63, 64, 0, 0), INT64_MIN);
  EXPECT_EQ(ascendprec_round_int(two63, 64, 1, 0), INT64_MAX);
  EXPECT_EQ(ascendprec_round_int(-2.5, 8, 1, 1), -3);
  EXPECT_EQ(ascendprec_round_int(300.0, 8, 0, 0), 255);
}

TEST(Numerics, IntegerNaNIsZeroAndNegativeUnsignedIsZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Rounding mode : kModes) {
    SCOPED_TRACE(modeName(mode));
    for (unsigned bits : {8u, 16u, 32u, 64u}) {
      EXPECT_EQ(roundToSigned(nan, bits, mode), 0);
      EXPECT_EQ(roundToSigned(-nan, bits, mode), 0);
      EXPECT_EQ(roundToUnsigned(nan, bits, mode), 0u);
      EXPECT_EQ(roundToUnsigned(-1.0, bits, mode), 0u);
      EXPECT_EQ(roundToUnsigned(-1e300, bits, mode), 0u);
      EXPECT_EQ(roundToUnsigned(-INFINITY, bits, mode), 0u);
    }
  }
  EXPECT_EQ(roundToUnsigned(-0.4, 8, Rounding::Rint), 0u);
  EXPECT_EQ(roundToUnsigned(-0.4, 8, Rounding::Floor), 0u); // -1 clamps
  EXPECT_EQ(roundToUnsigned(0.4, 8, Rounding::Ceil), 1u);
  EXPECT_EQ(ascendprec_round_int(nan, 32, 1, 0), 0);
}

TEST(Numerics, BoolConversionIsValueNotEqualToZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Rounding mode : kModes) {
    EXPECT_EQ(roundToUnsigned(0.0, 1, mode), 0u);
    EXPECT_EQ(roundToUnsigned(-0.0, 1, mode), 0u);
    EXPECT_EQ(roundToUnsigned(0.3, 1, mode), 1u);
    EXPECT_EQ(roundToUnsigned(-2.0, 1, mode), 1u);
    EXPECT_EQ(roundToUnsigned(0x1p-1074, 1, mode), 1u);
    EXPECT_EQ(roundToUnsigned(-INFINITY, 1, mode), 1u);
    EXPECT_EQ(roundToUnsigned(nan, 1, mode), 1u); // NaN != 0
  }
  EXPECT_EQ(ascendprec_round_int(0.5, 1, 0, 0), 1);
}

// widenToFloat (the cube's and the reductions' input path, F16C where the
// host has it) gives the table's bits for all 65,536 fp16 patterns, NaNs
// included, in blocks of 8 and in the tail; bf16 is the top half of fp32.
TEST(Numerics, WideningGivesTheTablesBitsForAllHalfAndBFloat16Patterns) {
  std::vector<uint16_t> patterns(65536 + 3);
  for (size_t i = 0; i < patterns.size(); ++i)
    patterns[i] = static_cast<uint16_t>(i);
  std::vector<float> widened(patterns.size());
  for (ElementType type : {ElementType::F16, ElementType::BF16}) {
    widenToFloat(type, reinterpret_cast<const uint8_t *>(patterns.data()), widened.data(),
                 static_cast<int64_t>(patterns.size()));
    for (size_t i = 0; i < patterns.size(); ++i) {
      // bf16 is the top half of an fp32 (a signalling NaN stays one).
      uint32_t got, want = static_cast<uint32_t>(patterns[i]) << 16;
      if (type == ElementType::F16)
        std::memcpy(&want, &halfToFloatTable()[patterns[i]], 4);
      else if (!std::isnan(bfloat16ToDouble(patterns[i])))
        ASSERT_EQ(static_cast<double>(widened[i]), bfloat16ToDouble(patterns[i]));
      std::memcpy(&got, &widened[i], 4);
      ASSERT_EQ(got, want) << (type == ElementType::F16 ? "f16" : "bf16") << " pattern 0x"
                           << std::hex << patterns[i];
    }
  }
}

/// Inputs for a narrowing to a 16-bit format whose finite patterns are
/// below `infinity`: every value, the midpoints between neighbours and one
/// fp32 ulp either side of each, then a stride through all fp32 patterns.
std::vector<float> narrowingInputs(uint32_t infinity, double (*decode)(uint16_t)) {
  std::vector<float> values;
  for (uint32_t bits = 0; bits < infinity; ++bits)
    for (uint32_t sign : {0u, 0x8000u}) {
      double low = decode(static_cast<uint16_t>(bits | sign));
      double high = decode(static_cast<uint16_t>((bits + 1) | sign));
      float midpoint = static_cast<float>((low + high) / 2);
      values.insert(values.end(), {static_cast<float>(low), midpoint,
                                   std::nextafter(midpoint, 0.0f),
                                   std::nextafter(midpoint, INFINITY),
                                   std::nextafter(midpoint, -INFINITY)});
    }
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 997) {
    float value;
    uint32_t pattern = static_cast<uint32_t>(bits);
    std::memcpy(&value, &pattern, 4);
    values.push_back(value);
  }
  return values;
}

// narrowToBFloat16 (the fixpipe's bf16 output, integer rounding of
// finite values) gives roundToBFloat16's bits: every bf16 value, the
// midpoints between neighbours and one fp32 ulp either side, a stride
// through all fp32 patterns (inf and NaN among finite values in a block),
// in both overflow modes.
TEST(Numerics, BFloat16NarrowingGivesRoundToBFloat16sBits) {
  std::vector<float> values = narrowingInputs(0x7F80, bfloat16ToDouble);
  values.insert(values.end(), {INFINITY, -INFINITY, NAN, -NAN, 3.4028235e38f, -3.4028235e38f,
                               1e-40f, -1e-45f});
  std::vector<uint16_t> narrowed(values.size());
  for (Overflow overflow : {Overflow::IEEE, Overflow::Saturate}) {
    narrowToBFloat16(values.data(), narrowed.data(), static_cast<int64_t>(values.size()),
                     overflow);
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ(narrowed[i], roundToBFloat16(values[i], Rounding::Rint, overflow))
          << "value " << values[i] << (overflow == Overflow::IEEE ? " (ieee)" : " (saturate)");
  }
}

// narrowToHalf (the fixpipe's fp16 output, F16C where the host has it)
// gives roundToHalf's bits: every fp16 value, the midpoints between
// neighbours and one fp32 ulp either side (ties to even), a stride through
// all fp32 patterns, and NaNs among numbers in a block of 8; in both
// overflow modes.
TEST(Numerics, NarrowingGivesRoundToHalfsBitsOnMidpointsAndAStrideOfAllFloats) {
  std::vector<float> values = narrowingInputs(0x7C00, halfToDouble);
  values.insert(values.end(), {INFINITY, -INFINITY, NAN, 1.0f, 65504.0f, 65520.0f, -65520.0f,
                               1e-8f, -1e-8f, 6e-8f, 3e-8f, 2.98e-8f});
  std::vector<uint16_t> narrowed(values.size());
  for (Overflow overflow : {Overflow::IEEE, Overflow::Saturate}) {
    narrowToHalf(values.data(), narrowed.data(), static_cast<int64_t>(values.size()), overflow);
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ(narrowed[i], roundToHalf(values[i], Rounding::Rint, overflow))
          << "value " << values[i] << (overflow == Overflow::IEEE ? " (ieee)" : " (saturate)");
  }
}
