//===- ConstantLoss.cpp - what converting a constant to fp16/bf16 loses ---===//

#include "ConstantLoss.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <optional>

using namespace mlir;

namespace {

/// Element `index` of a float constant as a double; nullopt when the data
/// is not at hand (an elided resource) or the type is not a float.
class FloatReader {
public:
  explicit FloatReader(ElementsAttr value) : value(value) {
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      if (isa<FloatType>(dense.getElementType()))
        denseValues = dense;
      return;
    }
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
      auto type = dyn_cast<FloatType>(resource.getElementType());
      if (type) {
        raw = resource.getData();
        semantics = &type.getFloatSemantics();
        bytes = type.getWidth() / 8;
      }
    }
  }
  bool available() const {
    return static_cast<bool>(denseValues) ||
           (semantics && static_cast<int64_t>(raw.size()) == size() * bytes);
  }
  int64_t size() const { return value.getNumElements(); }
  double at(int64_t index) const {
    if (denseValues) {
      // A splat holds one value for every index.
      int64_t i = denseValues.isSplat() ? 0 : index;
      return (*(denseValues.value_begin<APFloat>() + i)).convertToDouble();
    }
    uint64_t bits = 0;
    std::memcpy(&bits, raw.data() + index * bytes, bytes);
    return APFloat(*semantics, APInt(bytes * 8, bits)).convertToDouble();
  }

private:
  ElementsAttr value;
  DenseElementsAttr denseValues;
  ArrayRef<char> raw;
  const llvm::fltSemantics *semantics = nullptr;
  unsigned bytes = 0;
};

constexpr int64_t kSmallConstant = 16;
constexpr double kNoise = 1e-6;

} // namespace

std::string ascendprec::ascend::describeConstantLoss(ElementsAttr before, ElementsAttr after) {
  FloatReader from(before), to(after);
  if (!from.available() || !to.available() || from.size() != to.size())
    return "";
  // Elements far below the constant's largest (a DFT basis's 3e-17 where
  // the exact value is 0) are rounding noise of the export, not values.
  double largest = 0;
  for (int64_t i = 0, n = from.size(); i < n; ++i)
    if (std::isfinite(from.at(i)))
      largest = std::max(largest, std::fabs(from.at(i)));
  int64_t zeroed = 0, overflowed = 0, flipped = 0;
  double zeroedExample = 0, overflowedExample = 0;
  for (int64_t i = 0, n = from.size(); i < n; ++i) {
    double a = from.at(i), b = to.at(i);
    // ±FLT_MAX is how importers write an absent bound (Clip without max):
    // as Inf it bounds nothing either.
    if (!std::isfinite(a) || std::fabs(a) == static_cast<double>(FLT_MAX))
      continue;
    if (a != 0 && b == 0 && std::fabs(a) >= kNoise * largest) {
      if (!zeroed++)
        zeroedExample = a;
    } else if (std::isinf(b)) {
      if (!overflowed++)
        overflowedExample = a;
    } else if (b != 0 && std::signbit(a) != std::signbit(b)) {
      ++flipped;
    }
  }
  int64_t count = from.size();
  bool zeroMatters = zeroed && (count <= kSmallConstant || zeroed * 100 >= count);
  if (!zeroMatters && !overflowed && !flipped)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  auto part = [&](int64_t elements, const char *what, const char *plural, double example) {
    if (!text.empty())
      os << "; ";
    if (count == 1)
      os << example << " " << what;
    else
      os << elements << " of " << count << (elements == 1 ? " element " : " elements ")
         << (elements == 1 ? what : plural) << " (e.g. " << example << ")";
  };
  if (zeroMatters)
    part(zeroed, "becomes 0", "become 0", zeroedExample);
  if (overflowed)
    part(overflowed, "becomes Inf", "become Inf", overflowedExample);
  if (flipped) {
    if (!text.empty())
      os << "; ";
    os << flipped << " elements change sign";
  }
  return text;
}
