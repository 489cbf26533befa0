//===- ONNXTypeInference.cpp - result types ONNX could not infer ----------===//
//
// ONNX's shape inference gives up on a Reshape whose target comes from a
// run-time shape chain with symbolic dimensions (`Shape -> Gather -> Concat
// -> Reshape` on a dynamic batch), and on everything after it. The
// converters then compute result types themselves, so that a dynamic
// dimension stays `?` instead of turning every following op generic. This
// file reads what is known of a run-time shape vector.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::onnximport;

namespace {
/// One element of a run-time shape vector: a number (dynamic when unknown),
/// and, when it is read from a Shape op, which tensor's dimension it is.
struct ShapeEntry {
  int64_t value = ShapedType::kDynamic;
  Value of;
  int64_t dim = -1;
};
using ShapeEntries = SmallVector<ShapeEntry>;

std::optional<ShapeEntries> shapeEntries(Value value) {
  auto type = dyn_cast_or_null<RankedTensorType>(value ? value.getType() : Type());
  if (!type || type.getRank() > 1 || !isa<IntegerType>(type.getElementType()) ||
      !type.hasStaticShape())
    return std::nullopt;
  int64_t length = type.getRank() == 0 ? 1 : type.getDimSize(0);
  ShapeEntries unknown(length);
  Operation *producer = value.getDefiningOp();
  if (!producer)
    return unknown;
  auto fits = [&](ShapeEntries entries) {
    return static_cast<int64_t>(entries.size()) == length ? entries : unknown;
  };
  if (auto constant = dyn_cast<ascend::ConstOp>(producer)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!dense)
      return unknown;
    ShapeEntries entries;
    for (const APInt &v : dense.getValues<APInt>())
      entries.push_back({v.getSExtValue(), Value(), -1});
    return fits(entries);
  }
  if (auto shape = dyn_cast<ascend::ShapeOp>(producer)) {
    ShapeEntries entries;
    for (auto [d, dim] : llvm::enumerate(cast<RankedTensorType>(shape.getX().getType()).getShape()))
      entries.push_back({dim, shape.getX(), static_cast<int64_t>(d)});
    return fits(entries);
  }
  if (isa<ascend::CastOp, ascend::ReshapeOp>(producer)) {
    std::optional<ShapeEntries> inner = shapeEntries(producer->getOperand(0));
    return inner ? fits(*inner) : unknown;
  }
  if (auto concat = dyn_cast<ascend::ConcatV2Op>(producer)) {
    ShapeEntries entries;
    for (Value piece : concat.getX()) {
      std::optional<ShapeEntries> part = shapeEntries(piece);
      if (!part)
        return unknown;
      entries.append(part->begin(), part->end());
    }
    return fits(entries);
  }
  if (auto gather = dyn_cast<ascend::GatherV2Op>(producer)) {
    std::optional<ShapeEntries> source = shapeEntries(gather.getX());
    std::optional<ShapeEntries> indices = shapeEntries(gather.getIndices());
    if (!source || !indices || gather.getAxis() != 0)
      return unknown;
    ShapeEntries entries;
    for (const ShapeEntry &index : *indices) {
      int64_t at = index.value;
      if (ShapedType::isDynamic(at))
        return unknown;
      if (at < 0)
        at += source->size();
      if (at < 0 || at >= static_cast<int64_t>(source->size()))
        return unknown;
      entries.push_back((*source)[at]);
    }
    return fits(entries);
  }
  if (auto slice = dyn_cast<ascend::StridedSliceOp>(producer)) {
    std::optional<ShapeEntries> source = shapeEntries(slice.getX());
    if (!source || slice.getStrides().size() != 1 || slice.getStrides()[0] != 1)
      return unknown;
    int64_t size = source->size(), begin = slice.getBegin()[0];
    begin = std::clamp<int64_t>(begin < 0 ? begin + size : begin, 0, size);
    if (begin + length > size)
      return unknown;
    return ShapeEntries(source->begin() + begin, source->begin() + begin + length);
  }
  return unknown;
}
} // namespace

std::optional<SmallVector<int64_t>> ascendprec::onnximport::knownShapeValues(Value value) {
  std::optional<ShapeEntries> entries = shapeEntries(value);
  if (!entries)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const ShapeEntry &entry : *entries)
    values.push_back(entry.value);
  return values;
}

RankedTensorType ascendprec::onnximport::reshapeResultType(Value input, Value target,
                                                                 bool allowZero) {
  auto x = cast<RankedTensorType>(input.getType());
  std::optional<ShapeEntries> entries = shapeEntries(target);
  if (!entries)
    return RankedTensorType();
  SmallVector<int64_t> shape;
  int64_t inferred = -1;
  // x's dimensions a target entry does not copy, for -1.
  SmallVector<bool> copied(x.getRank(), false);
  int64_t staticProduct = 1;
  bool restKnown = true;
  for (auto [i, entry] : llvm::enumerate(*entries)) {
    int64_t dim = entry.value;
    bool copiesX = entry.of == input && entry.dim >= 0;
    if (dim == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= x.getRank())
        return RankedTensorType();
      dim = x.getDimSize(i);
      copiesX = true;
      entry.dim = i;
    }
    if (dim == -1) {
      if (inferred >= 0)
        return RankedTensorType(); // two -1: malformed
      inferred = i;
      shape.push_back(dim);
      continue;
    }
    if (dim < -1 && !ShapedType::isDynamic(dim))
      return RankedTensorType();
    if (copiesX && !copied[entry.dim])
      copied[entry.dim] = true;
    else if (ShapedType::isDynamic(dim))
      restKnown = false;
    else if (llvm::MulOverflow(staticProduct, dim, staticProduct))
      return RankedTensorType(); // no tensor has that many elements
    shape.push_back(dim);
  }
  if (inferred >= 0) {
    // -1 is x's element count over the other target dimensions: known when
    // the x dimensions no entry copies are static.
    int64_t remaining = 1;
    for (int64_t d = 0; d < x.getRank(); ++d) {
      if (copied[d])
        continue;
      if (x.isDynamicDim(d))
        restKnown = false;
      else if (llvm::MulOverflow(remaining, x.getDimSize(d), remaining))
        return RankedTensorType();
    }
    shape[inferred] = restKnown && staticProduct > 0 && remaining % staticProduct == 0
                          ? remaining / staticProduct
                          : ShapedType::kDynamic;
  }
  return RankedTensorType::get(shape, x.getElementType());
}

RankedTensorType ascendprec::onnximport::refineType(RankedTensorType inferred,
                                                          RankedTensorType computed) {
  if (!inferred || !computed)
    return inferred ? inferred : computed;
  if (inferred.getRank() != computed.getRank() ||
      inferred.getElementType() != computed.getElementType())
    return inferred;
  SmallVector<int64_t> shape(inferred.getShape());
  for (auto [dim, known] : llvm::zip(shape, computed.getShape()))
    if (ShapedType::isDynamic(dim))
      dim = known;
  return inferred.clone(shape);
}
