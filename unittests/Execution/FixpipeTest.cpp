//===- FixpipeTest.cpp - the fixpipe against an element-by-element model ---===//
//
// ascendprec_rt_fixpipe takes an fp32 accumulator tile out: + bias in
// fp32, ReLU (NaN passes, -0 becomes +0), one rounding to the target's
// dtype (rint, IEEE or saturating overflow), into UB row-major or into GM
// at offsets, cropped to GM, plain or transposed. Each case is checked
// element by element against that definition, with values that round,
// overflow fp16 and bf16, are NaN, -0 or subnormal.
//
//===----------------------------------------------------------------------===//

#include "RuntimeMemref.h"

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

extern "C" void ascendprec_rt_fixpipe(int64_t, void *, int64_t, void *, int64_t, void *, int64_t,
                                      void *, int32_t, int32_t, int32_t, int32_t, int32_t);

using namespace ascendprec::runtime;
using ascendprec::runtime::testing::Memref;

namespace {

size_t bytesOf(ElementType type) { return type == ElementType::F32 ? 4 : 2; }

/// The fixpipe's definition for one element, as the target's bytes.
std::vector<uint8_t> expectedBytes(float acc, const float *bias, bool relu, ElementType out,
                                   Overflow overflow) {
  float v = bias ? acc + *bias : acc;
  if (relu)
    v = (v > 0.0f || std::isnan(v)) ? v : 0.0f;
  std::vector<uint8_t> bytes(bytesOf(out));
  if (out == ElementType::F32) {
    if (overflow == Overflow::Saturate && !std::isfinite(v))
      v = std::isnan(v) ? 0.0f : std::copysign(std::numeric_limits<float>::max(), v);
    std::memcpy(bytes.data(), &v, 4);
    return bytes;
  }
  uint16_t half = out == ElementType::F16 ? roundToHalf(v, Rounding::Rint, overflow)
                                          : roundToBFloat16(v, Rounding::Rint, overflow);
  std::memcpy(bytes.data(), &half, 2);
  return bytes;
}

/// An accumulator tile of `rows` x `cols` with usual and unusual values.
std::vector<float> accumulator(int64_t rows, int64_t cols, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> usual(-3.0f, 3.0f);
  const float specials[] = {70000.0f, -70000.0f, 3.5e38f, std::numeric_limits<float>::quiet_NaN(),
                            -0.0f, 1e-40f, -1e-6f, std::numeric_limits<float>::infinity()};
  std::vector<float> acc(rows * cols);
  for (size_t i = 0; i < acc.size(); ++i)
    acc[i] = i % 7 == 3 ? specials[(i / 7) % 8] : usual(random);
  return acc;
}

struct Case {
  ElementType out;
  Overflow overflow;
  bool relu, bias;
};

const Case kCases[] = {
    {ElementType::F16, Overflow::IEEE, false, true},
    {ElementType::F16, Overflow::Saturate, true, true},
    {ElementType::BF16, Overflow::IEEE, true, false},
    {ElementType::BF16, Overflow::Saturate, false, true},
    {ElementType::F32, Overflow::IEEE, true, true},
    {ElementType::F32, Overflow::Saturate, false, true},
};

std::string nameOf(const Case &c) {
  const char *out = c.out == ElementType::F16 ? "f16" : c.out == ElementType::BF16 ? "bf16" : "f32";
  return std::string(out) + (c.overflow == Overflow::Saturate ? " saturating" : " ieee") +
         (c.relu ? " relu" : "") + (c.bias ? " bias" : "");
}

/// Runs the fixpipe of an [m, n] tile into `target` ([rows, cols] of GM,
/// or UB when !intoGm) at (r0, c0), transposed or not; checks every
/// element of the target: written as defined, or left as it was.
void checkFixpipe(const Case &c, int64_t m, int64_t n, bool intoGm, int64_t rows, int64_t cols,
                  int64_t r0, int64_t c0, bool transpose, unsigned seed) {
  SCOPED_TRACE(nameOf(c) + (intoGm ? " into GM" : " into UB") + (transpose ? " transposed" : ""));
  std::vector<float> acc = accumulator(m, n, seed);
  std::vector<float> bias(n);
  for (int64_t j = 0; j < n; ++j)
    bias[j] = 0.25f * static_cast<float>(j) - 1.0f;
  size_t bytes = bytesOf(c.out);
  if (!intoGm) {
    rows = m;
    cols = n;
  }
  const uint8_t kUntouched = 0xA5;
  std::vector<uint8_t> target(rows * cols * bytes, kUntouched);
  std::vector<int64_t> offsets = {r0, c0};
  Memref accRef(acc.data(), {m, n}), targetRef(target.data(), {rows, cols}),
      offsetRef(offsets.data(), {2}), biasRef(bias.data(), {n});
  int32_t flags = (c.relu ? 1 : 0) | (transpose ? 2 : 0) | (c.bias ? 4 : 0) | (intoGm ? 8 : 0);
  ascendprec_rt_fixpipe(2, accRef.descriptor(), 2, targetRef.descriptor(), 1,
                        offsetRef.descriptor(), 1, biasRef.descriptor(),
                        static_cast<int32_t>(ElementType::F32), static_cast<int32_t>(c.out),
                        static_cast<int32_t>(Rounding::Rint), static_cast<int32_t>(c.overflow),
                        flags);
  int64_t mismatches = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t col = 0; col < cols; ++col) {
      // The tile element written here, if any.
      int64_t i = r, j = col;
      if (intoGm) {
        i = transpose ? col - c0 : r - r0;
        j = transpose ? r - r0 : col - c0;
      }
      std::vector<uint8_t> wanted(bytes, kUntouched);
      if (i >= 0 && i < m && j >= 0 && j < n)
        wanted = expectedBytes(acc[i * n + j], c.bias ? &bias[j] : nullptr, c.relu, c.out,
                               c.overflow);
      if (std::memcmp(&target[(r * cols + col) * bytes], wanted.data(), bytes) != 0 &&
          ++mismatches <= 5)
        ADD_FAILURE() << "element [" << r << ", " << col << "] (tile [" << i << ", " << j
                      << "]) differs";
    }
  EXPECT_EQ(mismatches, 0);
}

TEST(Fixpipe, IntoUBMatchesTheDefinition) {
  // Rows of one vector (a depthwise group's 16 columns) and of three and
  // a bit, 70 rows (the row blocks are 32), a row-major UB tile.
  for (const Case &c : kCases) {
    checkFixpipe(c, 70, 16, false, 0, 0, 0, 0, false, 1);
    checkFixpipe(c, 5, 56, false, 0, 0, 0, 0, false, 2);
  }
}

TEST(Fixpipe, IntoGMCroppedMatchesTheDefinition) {
  // GM rows wider than the tile (rows not contiguous), the tile reaching
  // past GM's last rows and columns, and one starting left of column 0.
  for (const Case &c : kCases) {
    checkFixpipe(c, 48, 16, true, 40, 30, 8, 20, false, 3);
    checkFixpipe(c, 48, 16, true, 60, 30, 0, -4, false, 4);
    // Contiguous GM rows (the tile as wide as GM).
    checkFixpipe(c, 40, 16, true, 50, 16, 16, 0, false, 5);
  }
}

TEST(Fixpipe, IntoGMTransposedMatchesTheDefinition) {
  // A convolution's NCHW output: tile rows (positions) along GM's columns.
  for (const Case &c : kCases) {
    checkFixpipe(c, 70, 16, true, 20, 100, 2, 40, true, 6);
    checkFixpipe(c, 16, 16, true, 16, 16, 0, 0, true, 7);
  }
}

} // namespace
