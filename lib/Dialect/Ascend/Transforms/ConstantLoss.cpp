//===- ConstantLoss.cpp - what converting a constant to fp16/bf16 loses ---===//

#include "ConstantLoss.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

using namespace mlir;

namespace {

constexpr int64_t kSmallConstant = 16;
constexpr float kNoise = 1e-6f;

/// The magnitudes at which f32 values round to 0 and to Inf in a type
/// (round to nearest even): half the smallest subnormal rounds to 0, and
/// the midpoint above the largest finite value to Inf.
struct Limits {
  float zeroAtOrBelow, infAtOrAbove;
};

std::optional<Limits> limitsOf(Type to) {
  if (to.isF16())
    return Limits{std::ldexp(1.0f, -25), 65520.0f};
  if (to.isBF16())
    return Limits{std::ldexp(1.0f, -134), 3.3961776e38f};
  return std::nullopt;
}

/// The constant's f32 values as one array (a splat: its one value).
ArrayRef<float> floatsOf(ElementsAttr value, bool &splat) {
  splat = false;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (!dense.getElementType().isF32())
      return {};
    splat = dense.isSplat();
    ArrayRef<char> raw = dense.getRawData();
    return {reinterpret_cast<const float *>(raw.data()), raw.size() / sizeof(float)};
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    if (!resource.getElementType().isF32())
      return {};
    ArrayRef<char> raw = resource.getData();
    if (static_cast<int64_t>(raw.size()) != resource.getNumElements() * 4)
      return {}; // elided or not at hand
    return {reinterpret_cast<const float *>(raw.data()), raw.size() / sizeof(float)};
  }
  return {};
}

} // namespace

std::string ascendprec::ascend::describeConstantLoss(ElementsAttr value, Type to) {
  std::optional<Limits> limits = limitsOf(to);
  bool splat = false;
  ArrayRef<float> values = floatsOf(value, splat);
  if (!limits || values.empty())
    return "";
  float largest = 0;
  for (float v : values)
    if (std::isfinite(v))
      largest = std::max(largest, std::fabs(v));
  int64_t zeroed = 0, overflowed = 0;
  float zeroedExample = 0, overflowedExample = 0;
  for (float v : values) {
    float magnitude = std::fabs(v);
    if (!std::isfinite(v) || magnitude == FLT_MAX)
      continue;
    if (v != 0 && magnitude <= limits->zeroAtOrBelow && magnitude >= kNoise * largest) {
      if (!zeroed++)
        zeroedExample = v;
    } else if (magnitude >= limits->infAtOrAbove) {
      if (!overflowed++)
        overflowedExample = v;
    }
  }
  int64_t count = value.getNumElements();
  if (splat) {
    // One stored value stands for every element.
    zeroed *= count;
    overflowed *= count;
  }
  bool zeroMatters = zeroed && (count <= kSmallConstant || zeroed * 100 >= count);
  if (!zeroMatters && !overflowed)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  auto part = [&](int64_t elements, const char *what, const char *plural, float example) {
    if (!text.empty())
      os << "; ";
    if (count == 1)
      os << static_cast<double>(example) << " " << what;
    else
      os << elements << " of " << count << (elements == 1 ? " element " : " elements ")
         << (elements == 1 ? what : plural) << " (e.g. " << static_cast<double>(example) << ")";
  };
  if (zeroMatters)
    part(zeroed, "becomes 0", "become 0", zeroedExample);
  if (overflowed)
    part(overflowed, "becomes Inf", "become Inf", overflowedExample);
  return text;
}
