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
  for (size_t i = 0; i < count; ++i) {
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
