//===- ConstantConversion.cpp - convert constants at compile time ---------===//
//
// One element conversion (convertScalar) serves both representations of a
// constant: `dense<...>` through DenseElementsAttr::mapValues, and
// `dense_resource<...>` blobs (large imported weights) element by element
// over their little-endian bytes into a new blob.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Ascend/IR/ConstantConversion.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace ascendprec;

static bool isUnsignedInt(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && (intType.isUnsigned() || intType.getWidth() == 1);
}

bool ascendprec::ascend::isLosslessConversion(Type from, Type to) {
  if (from == to)
    return true;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (fromFloat && toFloat)
    return llvm::APFloat::isRepresentableBy(fromFloat.getFloatSemantics(),
                                            toFloat.getFloatSemantics());
  if (fromInt && toFloat)
    return llvm::APFloat::semanticsPrecision(toFloat.getFloatSemantics()) >=
           fromInt.getWidth();
  if (fromInt && toInt) {
    if (isUnsignedInt(from))
      return toInt.getWidth() > fromInt.getWidth() ||
             (isUnsignedInt(to) && toInt.getWidth() >= fromInt.getWidth());
    return !isUnsignedInt(to) && toInt.getWidth() >= fromInt.getWidth();
  }
  return false;
}

/// One element, given and returned as its bits. Nothing when the result is
/// undefined (NaN or out of range, float to integer) or a type is not numeric.
static std::optional<APInt> convertScalar(const APInt &bits, Type from, Type to) {
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (fromFloat && toFloat) {
    APFloat value(fromFloat.getFloatSemantics(), bits);
    bool losesInfo;
    value.convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
    return value.bitcastToAPInt();
  }
  if (fromInt && toFloat) {
    APFloat value(toFloat.getFloatSemantics());
    value.convertFromAPInt(bits, /*isSigned=*/!isUnsignedInt(from),
                           APFloat::rmNearestTiesToEven);
    return value.bitcastToAPInt();
  }
  if (fromFloat && toInt) {
    // Float to integer truncates toward zero; NaN and overflow have no value.
    APFloat value(fromFloat.getFloatSemantics(), bits);
    llvm::APSInt result(toInt.getWidth(), isUnsignedInt(to));
    bool isExact;
    if (value.convertToInteger(result, APFloat::rmTowardZero, &isExact) ==
        APFloat::opInvalidOp)
      return std::nullopt;
    return APInt(result);
  }
  if (fromInt && toInt)
    return isUnsignedInt(from) ? bits.zextOrTrunc(toInt.getWidth())
                               : bits.sextOrTrunc(toInt.getWidth());
  return std::nullopt;
}

static DenseElementsAttr convertDense(DenseElementsAttr value, Type to) {
  Type from = value.getElementType();
  if (isa<FloatType>(from)) {
    // Check first: mapValues cannot give up half-way.
    if (isa<IntegerType>(to))
      for (const APFloat &element : value.getValues<APFloat>())
        if (!convertScalar(element.bitcastToAPInt(), from, to))
          return {};
    if (!isa<FloatType, IntegerType>(to))
      return {};
    return value.mapValues(to, [&](const APFloat &element) {
      return *convertScalar(element.bitcastToAPInt(), from, to);
    });
  }
  if (!isa<IntegerType>(from) || !isa<FloatType, IntegerType>(to))
    return {};
  return value.mapValues(
      to, [&](const APInt &element) { return *convertScalar(element, from, to); });
}

/// Little-endian bytes of element `index` (`bytes` wide) as an APInt.
static APInt readElement(ArrayRef<char> data, size_t index, unsigned bytes) {
  uint64_t words[2] = {0, 0};
  std::memcpy(words, data.data() + index * bytes, bytes);
  return APInt(bytes * 8, ArrayRef<uint64_t>(words, (bytes + 7) / 8));
}

static void writeElement(MutableArrayRef<char> data, size_t index, const APInt &value) {
  unsigned bytes = value.getBitWidth() / 8;
  std::memcpy(data.data() + index * bytes, value.getRawData(), bytes);
}

/// f32 to f16, round to nearest even, as APFloat converts (subnormals kept,
/// overflow to Inf); nothing for a NaN, whose payload APFloat's path keeps.
/// Integer arithmetic: the weights of a model go through here once per plan,
/// and APFloat takes ~30x longer per element.
static std::optional<uint16_t> floatToHalfBits(uint32_t bits) {
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000)
    return std::nullopt; // NaN
  if (magnitude >= 0x477ff000) // 65520 and up (Inf included) round to Inf
    return static_cast<uint16_t>(sign | 0x7c00);
  if (magnitude >= 0x38800000) { // a normal half: rebias, keep 10 bits
    uint32_t half = (magnitude - 0x38000000) >> 13, rest = magnitude & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  if (magnitude <= 0x33000000) // up to 2^-25 (a tie, to even): zero
    return sign;
  // A subnormal half: the significand in units of 2^-24.
  uint32_t significand = (magnitude & 0x7fffff) | 0x800000;
  unsigned shift = 126 - (magnitude >> 23);
  uint32_t half = significand >> shift, rest = significand & ((1u << shift) - 1),
           tie = 1u << (shift - 1);
  if (rest > tie || (rest == tie && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

/// f32 to bf16, round to nearest even; nothing for a NaN.
static std::optional<uint16_t> floatToBFloatBits(uint32_t bits) {
  if ((bits & 0x7fffffff) > 0x7f800000)
    return std::nullopt;
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

/// The f32 -> f16/bf16 conversion of a blob without APFloat; false (nothing
/// written) for other types or when an element is NaN.
static bool convertFloatBlobFast(ArrayRef<char> data, Type from, Type to,
                                 MutableArrayRef<char> out) {
  if (!from.isF32() || !(to.isF16() || to.isBF16()))
    return false;
  size_t count = data.size() / 4;
  bool half = to.isF16();
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, data.data() + 4 * i, 4);
    std::optional<uint16_t> converted = half ? floatToHalfBits(bits) : floatToBFloatBits(bits);
    if (!converted)
      return false;
    std::memcpy(out.data() + 2 * i, &*converted, 2);
  }
  return true;
}

static DenseResourceElementsAttr convertResource(DenseResourceElementsAttr value,
                                                 Type to) {
  auto type = cast<ShapedType>(value.getType());
  Type from = type.getElementType();
  // Whole bytes only (booleans stay `dense<...>` on import), and at most
  // 64 bits so an element fits the scratch words.
  auto byteWidth = [](Type t) -> unsigned {
    unsigned bits = t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0;
    return bits % 8 == 0 && bits <= 64 ? bits / 8 : 0;
  };
  unsigned fromBytes = byteWidth(from), toBytes = byteWidth(to);
  ArrayRef<char> data = value.getData();
  size_t count = static_cast<size_t>(type.getNumElements());
  if (!fromBytes || !toBytes || data.size() != count * fromBytes)
    return {};
  AsmResourceBlob converted =
      HeapAsmResourceBlob::allocate(count * toBytes, alignof(uint64_t));
  MutableArrayRef<char> out = converted.getMutableData();
  bool fast = convertFloatBlobFast(data, from, to, out);
  for (size_t i = 0; i < count && !fast; ++i) {
    std::optional<APInt> element = convertScalar(readElement(data, i, fromBytes), from, to);
    if (!element)
      return {};
    writeElement(out, i, *element);
  }
  // Named after the source blob and the new type ("conv1.weight.f16").
  std::string key = value.getRawHandle().getKey().str() + ".";
  llvm::raw_string_ostream(key) << to;
  return DenseResourceElementsAttr::get(type.clone(to), key, std::move(converted));
}

ElementsAttr ascendprec::ascend::convertElements(ElementsAttr value, Type to) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return convertDense(dense, to);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return convertResource(resource, to);
  return {};
}
