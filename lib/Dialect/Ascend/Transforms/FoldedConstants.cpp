//===- FoldedConstants.cpp - float constants computed at compile time -----===//

#include "FoldedConstants.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

ConstOp ascendprec::ascend::constantProducer(Value value) {
  return value ? value.getDefiningOp<ConstOp>() : ConstOp();
}

static bool isFusableFloat(Type type) { return type.isF16() || type.isBF16() || type.isF32(); }

std::optional<std::vector<float>> ascendprec::ascend::readFloatConstant(ConstOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  if (!type || !type.hasStaticShape() || !isFusableFloat(type.getElementType()))
    return std::nullopt;
  size_t count = static_cast<size_t>(type.getNumElements());
  std::vector<float> values;
  values.reserve(count);
  auto widen = [](APFloat value) {
    bool lost = false;
    value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    return value.convertToFloat(); // exact: f16 and bf16 fit in f32
  };
  if (auto dense = dyn_cast<DenseFPElementsAttr>(op.getValue())) {
    for (const APFloat &value : dense.getValues<APFloat>())
      values.push_back(widen(value));
    return values;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue());
  if (!resource || !resource.getRawHandle().getBlob())
    return std::nullopt;
  ArrayRef<char> data = resource.getData();
  unsigned bytes = type.getElementTypeBitWidth() / 8;
  if (data.size() != count * bytes)
    return std::nullopt;
  const llvm::fltSemantics &semantics = cast<FloatType>(type.getElementType()).getFloatSemantics();
  for (size_t i = 0; i < count; ++i) {
    uint64_t word = 0;
    std::memcpy(&word, data.data() + i * bytes, bytes);
    values.push_back(widen(APFloat(semantics, APInt(bytes * 8, word))));
  }
  return values;
}

ConstOp ascendprec::ascend::createFloatConstant(OpBuilder &builder, Location loc,
                                                StringRef name, RankedTensorType type,
                                                ArrayRef<float> values, bool asResource) {
  const llvm::fltSemantics &semantics = cast<FloatType>(type.getElementType()).getFloatSemantics();
  unsigned bytes = type.getElementTypeBitWidth() / 8;
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(values.size() * bytes, alignof(uint64_t));
  MutableArrayRef<char> data = blob.getMutableData();
  for (size_t i = 0; i < values.size(); ++i) {
    APFloat value(values[i]);
    bool lost = false;
    value.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    uint64_t word = value.bitcastToAPInt().getZExtValue();
    std::memcpy(data.data() + i * bytes, &word, bytes);
  }
  ElementsAttr elements;
  if (asResource)
    elements = DenseResourceElementsAttr::get(type, name, std::move(blob));
  else
    elements = DenseElementsAttr::getFromRawBuffer(type, blob.getData());
  return ConstOp::create(builder, loc, elements, builder.getStringAttr(name), nullptr, nullptr,
                         nullptr, nullptr);
}

