//===- DmaPlanning.cpp - each DMA kind checked and its params read -----===//

#include "DmaPlan.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.h"
#include "AscendPrec/Execution/GraphRun.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <optional>

using namespace mlir;

namespace ascendprec::exec::dma {

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(dim);
  return text + "]";
}


bool isIndexType(ElementType type) {
  return !ascendprec::runtime::isFloat(type) && type != ElementType::I1;
}

namespace {

/// Collects a reason and stops planning.
class Planner {
public:
  Planner(Plan &plan, DictionaryAttr params, std::string &why)
      : plan(plan), params(params), why(why) {}

  bool fail(const llvm::Twine &message) {
    why = (llvm::Twine(plan.kind) + ": " + message).str();
    return false;
  }

  bool buffer(Type type, Buffer &buffer, const llvm::Twine &what) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return fail(what + " is not a memref");
    if (!memref.hasStaticShape())
      return fail(what + " has a dynamic shape");
    if (!memref.getLayout().isIdentity())
      return fail(what + " has a strided layout (the host holds dense row-major tensors)");
    std::optional<ElementType> element = ascendprec::exec::hostElementType(memref.getElementType(), /*reference=*/false);
    if (!element) {
      std::string name;
      llvm::raw_string_ostream os(name);
      os << memref.getElementType();
      return fail(what + " has element type " + name + ", which the host does not hold");
    }
    buffer.type = *element;
    buffer.shape.assign(memref.getShape().begin(), memref.getShape().end());
    buffer.count = 1;
    for (int64_t dim : buffer.shape) {
      std::optional<int64_t> count = llvm::checkedMul(buffer.count, dim);
      if (!count)
        return fail(what + " has too many elements");
      buffer.count = *count;
    }
    if (!llvm::checkedMul(buffer.count, static_cast<int64_t>(buffer.elementSize())))
      return fail(what + " has too many bytes");
    return true;
  }

  bool arity(size_t minIns, size_t maxIns, size_t minOuts, size_t maxOuts) {
    size_t ins = plan.ins.size(), outs = plan.outs.size();
    if (ins < minIns || ins > maxIns)
      return fail("expects " + countText(minIns, maxIns) + " input(s), got " + llvm::Twine(ins));
    if (outs < minOuts || outs > maxOuts)
      return fail("expects " + countText(minOuts, maxOuts) + " output(s), got " +
                  llvm::Twine(outs));
    return true;
  }

  bool sameType(const Buffer &a, const Buffer &b, const llvm::Twine &what) {
    if (a.type != b.type)
      return fail(what + " has element type " + ascendprec::runtime::elementTypeName(b.type) +
                  ", expected " + ascendprec::runtime::elementTypeName(a.type));
    return true;
  }

  bool sameShape(ArrayRef<int64_t> expected, ArrayRef<int64_t> got, const llvm::Twine &what) {
    if (expected != got)
      return fail(what + " has shape " + shapeString(got) + ", expected " +
                  shapeString(expected));
    return true;
  }

  bool scalar(const Buffer &buffer, const llvm::Twine &what) {
    if (buffer.count != 1)
      return fail(what + " must hold one element, got shape " + shapeString(buffer.shape));
    return true;
  }

  Attribute get(StringRef name) const { return params ? params.get(name) : Attribute(); }

  bool readInt(StringRef name, int64_t &value, std::optional<int64_t> fallback = std::nullopt) {
    Attribute attr = get(name);
    if (!attr) {
      if (!fallback)
        return fail("params lack '" + name + "'");
      value = *fallback;
      return true;
    }
    if (auto integer = dyn_cast<IntegerAttr>(attr)) {
      if (integer.getValue().getSignificantBits() > 64)
        return fail("'" + name + "' does not fit 64 bits");
      value = integer.getValue().getSExtValue();
      return true;
    }
    return fail("'" + name + "' is not an integer");
  }

  bool readInts(StringRef name, SmallVectorImpl<int64_t> &values) {
    values.clear();
    Attribute attr = get(name);
    if (!attr)
      return fail("params lack '" + name + "'");
    if (auto array = dyn_cast<DenseI64ArrayAttr>(attr)) {
      values.append(array.asArrayRef().begin(), array.asArrayRef().end());
      return true;
    }
    if (auto array = dyn_cast<DenseI32ArrayAttr>(attr)) {
      values.append(array.asArrayRef().begin(), array.asArrayRef().end());
      return true;
    }
    if (auto array = dyn_cast<ArrayAttr>(attr)) {
      for (Attribute element : array) {
        auto integer = dyn_cast<IntegerAttr>(element);
        if (!integer || integer.getValue().getSignificantBits() > 64)
          return fail("'" + name + "' is not a list of 64-bit integers");
        values.push_back(integer.getValue().getSExtValue());
      }
      return true;
    }
    if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
      for (const APInt &v : dense.getValues<APInt>()) {
        if (v.getSignificantBits() > 64)
          return fail("'" + name + "' is not a list of 64-bit integers");
        values.push_back(v.getSExtValue());
      }
      return true;
    }
    if (auto integer = dyn_cast<IntegerAttr>(attr)) {
      values.push_back(integer.getValue().getSExtValue());
      return true;
    }
    return fail("'" + name + "' is not a list of integers");
  }

  bool readFloat(StringRef name, double &value, double fallback) {
    Attribute attr = get(name);
    if (!attr) {
      value = fallback;
      return true;
    }
    if (auto number = dyn_cast<FloatAttr>(attr)) {
      value = number.getValueAsDouble();
      return true;
    }
    if (auto integer = dyn_cast<IntegerAttr>(attr)) {
      value = static_cast<double>(integer.getValue().getSExtValue());
      return true;
    }
    return fail("'" + name + "' is not a number");
  }

  bool readBool(StringRef name, bool &value, bool fallback) {
    Attribute attr = get(name);
    if (!attr) {
      value = fallback;
      return true;
    }
    if (auto flag = dyn_cast<BoolAttr>(attr)) {
      value = flag.getValue();
      return true;
    }
    if (isa<UnitAttr>(attr)) {
      value = true;
      return true;
    }
    if (auto integer = dyn_cast<IntegerAttr>(attr)) {
      value = !integer.getValue().isZero();
      return true;
    }
    return fail("'" + name + "' is not a boolean");
  }

  /// An enum param as its (lower-case) spelling: a string or the `ascend`
  /// dialect's enum attributes.
  bool readWord(StringRef name, std::string &value, StringRef fallback) {
    Attribute attr = get(name);
    if (!attr) {
      value = fallback.lower();
      return true;
    }
    if (auto text = dyn_cast<StringAttr>(attr))
      value = text.getValue().lower();
    else if (auto mode = dyn_cast<ascendprec::ascend::PadModeAttr>(attr))
      value = ascendprec::ascend::stringifyPadMode(mode.getValue()).lower();
    else if (auto order = dyn_cast<ascendprec::ascend::BlockOrderAttr>(attr))
      value = ascendprec::ascend::stringifyBlockOrder(order.getValue()).lower();
    else
      return fail("'" + name + "' is not a string or an ascend enum");
    return true;
  }

  /// `axis` in [-rank, rank) made non-negative.
  bool normalizeAxis(int64_t &axis, int64_t rank, StringRef name) {
    if (axis < -rank || axis >= rank)
      return fail("'" + name + "' = " + llvm::Twine(axis) + " is outside [" + llvm::Twine(-rank) +
                  ", " + llvm::Twine(rank) + ")");
    if (axis < 0)
      axis += rank;
    return true;
  }

  Plan &plan;
  DictionaryAttr params;
  std::string &why;

private:
  static std::string countText(size_t low, size_t high) {
    if (low == high)
      return std::to_string(low);
    if (high == std::numeric_limits<size_t>::max())
      return std::to_string(low) + " or more";
    return std::to_string(low) + " to " + std::to_string(high);
  }
};

constexpr size_t kMany = std::numeric_limits<size_t>::max();

//===----------------------------------------------------------------------===//
// Planning each kind
//===----------------------------------------------------------------------===//

bool planTranspose(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(1, 1, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  if (!p.sameType(x, y, "the output") || !p.readInts("perm", plan.perm))
    return false;
  if (static_cast<int64_t>(plan.perm.size()) != x.rank())
    return p.fail("'perm' has " + llvm::Twine(plan.perm.size()) + " entries for rank " +
                  llvm::Twine(x.rank()));
  SmallVector<bool, 6> seen(x.rank(), false);
  SmallVector<int64_t, 6> expected;
  for (int64_t &d : plan.perm) {
    if (d < 0)
      d += x.rank(); // as NumPy, a negative entry counts from the end
    if (d < 0 || d >= x.rank() || seen[d])
      return p.fail("'perm' is not a permutation of [0, " + llvm::Twine(x.rank()) + ")");
    seen[d] = true;
    expected.push_back(x.shape[d]);
  }
  return p.sameShape(expected, y.shape, "the output");
}

/// Concat's inputs or Split's outputs, pieces of `whole` along `axis`.
bool planPieces(Planner &p, const Buffer &whole, ArrayRef<Buffer> pieces, StringRef axisName,
                StringRef pieceName) {
  Plan &plan = p.plan;
  if (!p.readInt(axisName, plan.axis) || !p.normalizeAxis(plan.axis, whole.rank(), axisName))
    return false;
  int64_t total = 0;
  for (auto [i, piece] : llvm::enumerate(pieces)) {
    std::string what = (pieceName + " #" + llvm::Twine(i)).str();
    if (!p.sameType(whole, piece, what))
      return false;
    SmallVector<int64_t, 6> expected(whole.shape.begin(), whole.shape.end());
    if (piece.rank() == whole.rank())
      expected[plan.axis] = piece.shape[plan.axis];
    if (!p.sameShape(expected, piece.shape, what))
      return false;
    total += piece.shape[plan.axis];
  }
  if (total != whole.shape[plan.axis])
    return p.fail("the " + pieceName + "s' sizes along axis " + llvm::Twine(plan.axis) +
                  " add up to " + llvm::Twine(total) + ", not " +
                  llvm::Twine(whole.shape[plan.axis]));
  return true;
}

bool planConcat(Planner &p) {
  if (!p.arity(1, kMany, 1, 1))
    return false;
  if (p.plan.outs[0].rank() == 0)
    return p.fail("cannot concatenate scalars");
  return planPieces(p, p.plan.outs[0], p.plan.ins, "concat_dim", "input");
}

bool planSplit(Planner &p) {
  if (!p.arity(1, 1, 1, kMany))
    return false;
  if (p.plan.ins[0].rank() == 0)
    return p.fail("cannot split a scalar");
  return planPieces(p, p.plan.ins[0], p.plan.outs, "axis", "output");
}

bool planSlice(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(1, 1, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  SmallVector<int64_t, 6> begin, end, strides;
  if (!p.sameType(x, y, "the output") || !p.readInts("begin", begin) ||
      !p.readInts("end", end) || !p.readInts("strides", strides))
    return false;
  for (auto [name, list] : {std::pair<StringRef, ArrayRef<int64_t>>{"begin", begin},
                            {"end", end}, {"strides", strides}})
    if (static_cast<int64_t>(list.size()) != x.rank())
      return p.fail("'" + name + "' has " + llvm::Twine(list.size()) +
                    " entries, expected one per dimension (" + llvm::Twine(x.rank()) + ")");
  SmallVector<int64_t, 6> expected;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t size = x.shape[d], stride = strides[d];
    if (stride == 0)
      return p.fail("'strides' is 0 for dimension " + llvm::Twine(d));
    if (stride == std::numeric_limits<int64_t>::min())
      return p.fail("'strides' is too large for dimension " + llvm::Twine(d));
    // NumPy clamping, as ascend::stridedSliceLength.
    auto normalize = [&](int64_t index, int64_t low, int64_t high) {
      if (index < 0)
        index = index < -size ? low : index + size;
      return std::clamp(index, low, high);
    };
    int64_t first, length;
    if (stride > 0) {
      first = normalize(begin[d], 0, size);
      int64_t last = normalize(end[d], 0, size);
      length = last > first ? (last - first - 1) / stride + 1 : 0;
    } else {
      first = normalize(begin[d], -1, size - 1);
      int64_t last = normalize(end[d], -1, size - 1);
      length = first > last ? (first - last - 1) / -stride + 1 : 0;
    }
    expected.push_back(length);
    plan.start.push_back(length ? first : 0);
    plan.step.push_back(stride);
  }
  return p.sameShape(expected, y.shape, "the output");
}

bool planPad(Planner &p) {
  Plan &plan = p.plan;
  // x, and PadV3's constant_values when the value is read at run time.
  if (!p.arity(1, 2, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  std::string mode;
  if (!p.sameType(x, y, "the output") || !p.readInts("paddings", plan.paddings) ||
      !p.readWord("mode", mode, "constant") ||
      !p.readFloat("constant_value", plan.constantValue, 0.0))
    return false;
  if (mode == "constant")
    plan.padMode = PadMode::Constant;
  else if (mode == "reflect")
    plan.padMode = PadMode::Reflect;
  else if (mode == "edge")
    plan.padMode = PadMode::Edge;
  else
    return p.fail("mode '" + mode + "' (the host pads with constant, reflect and edge)");
  if (static_cast<int64_t>(plan.paddings.size()) != 2 * x.rank())
    return p.fail("'paddings' has " + llvm::Twine(plan.paddings.size()) +
                  " entries, expected two per dimension (" + llvm::Twine(2 * x.rank()) + ")");
  SmallVector<int64_t, 6> expected;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t before = plan.paddings[2 * d], after = plan.paddings[2 * d + 1];
    auto kept = llvm::checkedAdd(x.shape[d], std::min<int64_t>(before, 0));
    kept = kept ? llvm::checkedAdd(*kept, std::min<int64_t>(after, 0)) : kept;
    if (!kept || *kept < 0)
      return p.fail("'paddings' crop dimension " + llvm::Twine(d) + " (of " +
                    llvm::Twine(x.shape[d]) + ") below zero elements");
    auto size = llvm::checkedAdd(*kept, std::max<int64_t>(before, 0));
    size = size ? llvm::checkedAdd(*size, std::max<int64_t>(after, 0)) : size;
    if (!size)
      return p.fail("'paddings' overflow dimension " + llvm::Twine(d));
    if (*kept == 0 && *size > 0 && plan.padMode != PadMode::Constant)
      return p.fail("mode '" + mode + "' cannot pad dimension " + llvm::Twine(d) +
                    ", which holds no element after cropping");
    expected.push_back(*size);
  }
  return p.sameShape(expected, y.shape, "the output");
}

bool planGather(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(2, 2, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &indices = plan.ins[1], &y = plan.outs[0];
  if (!p.sameType(x, y, "the output"))
    return false;
  if (!isIndexType(indices.type))
    return p.fail(llvm::Twine("the indices have element type ") +
                  ascendprec::runtime::elementTypeName(indices.type) + ", not an integer type");
  if (x.rank() == 0)
    return p.fail("cannot gather from a scalar");
  if (!p.readInt("axis", plan.axis) || !p.normalizeAxis(plan.axis, x.rank(), "axis") ||
      !p.readInt("batch_dims", plan.batchDims, 0))
    return false;
  int64_t b = plan.batchDims;
  if (b < 0 || b > plan.axis || b > indices.rank())
    return p.fail("'batch_dims' = " + llvm::Twine(b) + " is outside [0, min(axis " +
                  llvm::Twine(plan.axis) + ", indices rank " + llvm::Twine(indices.rank()) +
                  ")]");
  for (int64_t d = 0; d < b; ++d)
    if (x.shape[d] != indices.shape[d])
      return p.fail("batch dimension " + llvm::Twine(d) + " is " + llvm::Twine(x.shape[d]) +
                    " in x but " + llvm::Twine(indices.shape[d]) + " in the indices");
  SmallVector<int64_t, 6> expected(x.shape.begin(), x.shape.begin() + plan.axis);
  expected.append(indices.shape.begin() + b, indices.shape.end());
  expected.append(x.shape.begin() + plan.axis + 1, x.shape.end());
  return p.sameShape(expected, y.shape, "the output");
}

bool planTile(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(1, 1, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  SmallVector<int64_t, 6> &multiples = plan.multiples;
  if (!p.sameType(x, y, "the output") || !p.readInts("multiples", multiples))
    return false;
  if (static_cast<int64_t>(multiples.size()) != x.rank())
    return p.fail("'multiples' has " + llvm::Twine(multiples.size()) +
                  " entries, expected one per dimension (" + llvm::Twine(x.rank()) + ")");
  SmallVector<int64_t, 6> expected;
  for (auto [dim, times] : llvm::zip(x.shape, multiples)) {
    std::optional<int64_t> size = llvm::checkedMul(dim, times);
    if (times < 0 || !size)
      return p.fail("'multiples' holds " + llvm::Twine(times));
    expected.push_back(*size);
  }
  return p.sameShape(expected, y.shape, "the output");
}

bool planBroadcast(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(1, 2, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  if (!p.sameType(x, y, "the output"))
    return false;
  if (plan.ins.size() == 2) {
    const Buffer &shape = plan.ins[1];
    if (!isIndexType(shape.type) || shape.rank() != 1)
      return p.fail("the shape input must be a 1-D integer tensor, got " +
                    shapeString(shape.shape) + " of " +
                    ascendprec::runtime::elementTypeName(shape.type));
    if (shape.shape[0] > y.rank())
      return p.fail("the shape input has " + llvm::Twine(shape.shape[0]) +
                    " entries for an output of rank " + llvm::Twine(y.rank()));
  }
  if (x.rank() > y.rank())
    return p.fail("cannot broadcast " + shapeString(x.shape) + " to " + shapeString(y.shape));
  int64_t lead = y.rank() - x.rank();
  for (int64_t d = 0; d < x.rank(); ++d)
    if (x.shape[d] != 1 && x.shape[d] != y.shape[lead + d])
      return p.fail("cannot broadcast " + shapeString(x.shape) + " to " + shapeString(y.shape));
  return true;
}

bool planBlocks(Planner &p, bool toSpace) {
  Plan &plan = p.plan;
  if (!p.arity(1, 1, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  std::string mode;
  if (!p.sameType(x, y, "the output") || !p.readInt("block_size", plan.blockSize) ||
      !p.readWord("mode", mode, "dcr"))
    return false;
  if (mode == "crd" && toSpace)
    plan.crd = true;
  else if (mode != "dcr")
    return p.fail("mode '" + mode + "'" +
                  (toSpace ? llvm::Twine(" (DCR or CRD)") : llvm::Twine(" (SpaceToDepth is DCR)")));
  if (plan.blockSize < 1 || plan.blockSize > (int64_t(1) << 20))
    return p.fail("'block_size' = " + llvm::Twine(plan.blockSize));
  if (x.rank() != 4 || y.rank() != 4)
    return p.fail("expects NCHW tensors of rank 4");
  int64_t b = plan.blockSize, area = b * b;
  const Buffer &deep = toSpace ? x : y, &wide = toSpace ? y : x;
  if (deep.shape[1] % area != 0)
    return p.fail("the channels (" + llvm::Twine(deep.shape[1]) +
                  ") are not a multiple of block_size^2 (" + llvm::Twine(area) + ")");
  if (wide.shape[2] % b != 0 || wide.shape[3] % b != 0)
    return p.fail("the height and width of " + shapeString(wide.shape) +
                  " are not multiples of block_size " + llvm::Twine(b));
  SmallVector<int64_t, 4> expected = {x.shape[0], 0, 0, 0};
  if (toSpace)
    expected = {x.shape[0], x.shape[1] / area, x.shape[2] * b, x.shape[3] * b};
  else
    expected = {x.shape[0], x.shape[1] * area, x.shape[2] / b, x.shape[3] / b};
  return p.sameShape(expected, y.shape, "the output");
}

bool planOneHot(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(4, 4, 1, 1))
    return false;
  const Buffer &indices = plan.ins[0], &depth = plan.ins[1], &y = plan.outs[0];
  if (!isIndexType(indices.type) || !isIndexType(depth.type))
    return p.fail("the indices and the depth must be integer tensors");
  if (!p.scalar(depth, "the depth") || !p.scalar(plan.ins[2], "on_value") ||
      !p.scalar(plan.ins[3], "off_value"))
    return false;
  if (!p.readInt("axis", plan.axis, -1) ||
      !p.normalizeAxis(plan.axis, indices.rank() + 1, "axis"))
    return false;
  if (y.rank() != indices.rank() + 1)
    return p.fail("the output has rank " + llvm::Twine(y.rank()) + ", expected " +
                  llvm::Twine(indices.rank() + 1));
  SmallVector<int64_t, 6> expected(indices.shape.begin(), indices.shape.end());
  expected.insert(expected.begin() + plan.axis, y.shape[plan.axis]);
  return p.sameShape(expected, y.shape, "the output");
}

bool planArange(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(3, 3, 1, 1))
    return false;
  const Buffer &y = plan.outs[0];
  if (!p.scalar(plan.ins[0], "start") || !p.scalar(plan.ins[1], "limit") ||
      !p.scalar(plan.ins[2], "delta"))
    return false;
  if (y.rank() != 1)
    return p.fail("the output must be 1-D, got " + shapeString(y.shape));
  if (y.type == ElementType::I1)
    return p.fail("a boolean range");
  return true;
}

bool planFill(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(2, 2, 1, 1))
    return false;
  const Buffer &dims = plan.ins[0], &y = plan.outs[0];
  if (!isIndexType(dims.type) || dims.rank() != 1 || dims.shape[0] != y.rank())
    return p.fail("the dims input must be a 1-D integer tensor with one entry per output "
                  "dimension (" + llvm::Twine(y.rank()) + "), got " + shapeString(dims.shape) +
                  " of " + ascendprec::runtime::elementTypeName(dims.type));
  return p.scalar(plan.ins[1], "the value");
}

bool planResize(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(1, 1, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  if (!p.sameType(x, y, "the output") || !p.readBool("align_corners", plan.alignCorners, false) ||
      !p.readBool("half_pixel_centers", plan.halfPixel, false))
    return false;
  if (x.rank() != 4 || y.rank() != 4)
    return p.fail("expects NCHW tensors of rank 4");
  if (plan.alignCorners && plan.halfPixel)
    return p.fail("'align_corners' and 'half_pixel_centers' both set");
  if (x.shape[0] != y.shape[0] || x.shape[1] != y.shape[1])
    return p.fail("the output " + shapeString(y.shape) + " changes N or C of " +
                  shapeString(x.shape));
  if (p.get("size")) {
    SmallVector<int64_t, 2> size;
    if (!p.readInts("size", size))
      return false;
    if (size.size() != 2 || size[0] != y.shape[2] || size[1] != y.shape[3])
      return p.fail("'size' " + shapeString(size) + " is not the output's H and W");
  } else if (Attribute attr = p.get("scales")) {
    auto scales = dyn_cast<DenseF32ArrayAttr>(attr);
    if (!scales || scales.size() != 2)
      return p.fail("'scales' is not two f32 factors");
    for (int d = 0; d < 2; ++d)
      if (static_cast<int64_t>(std::floor(x.shape[2 + d] * scales[d])) != y.shape[2 + d])
        return p.fail("'scales' do not give the output's H and W");
  }
  if ((x.shape[2] == 0 && y.shape[2] > 0) || (x.shape[3] == 0 && y.shape[3] > 0))
    return p.fail("cannot resize an empty image to a non-empty one");
  return true;
}

bool planCopy(Planner &p) {
  if (!p.arity(1, 1, 1, 1))
    return false;
  const Buffer &x = p.plan.ins[0], &y = p.plan.outs[0];
  if (!p.sameType(x, y, "the output"))
    return false;
  if (x.count != y.count)
    return p.fail("copies " + llvm::Twine(x.count) + " elements into " + llvm::Twine(y.count));
  return true;
}

bool planReverse(Planner &p) {
  Plan &plan = p.plan;
  if (!p.arity(1, 1, 1, 1))
    return false;
  const Buffer &x = plan.ins[0], &y = plan.outs[0];
  SmallVector<int64_t, 6> axes;
  if (!p.sameType(x, y, "the output") || !p.sameShape(x.shape, y.shape, "the output") ||
      !p.readInts("axis", axes))
    return false;
  plan.reversed.assign(x.rank(), false);
  for (int64_t axis : axes) {
    if (!p.normalizeAxis(axis, x.rank(), "axis"))
      return false;
    if (plan.reversed[axis])
      return p.fail("'axis' names dimension " + llvm::Twine(axis) + " twice");
    plan.reversed[axis] = true;
  }
  return true;
}

} // namespace

bool makePlan(ascendprec::kernel::DmaOp op, Plan &plan, std::string &why) {
  plan.kind = op.getKind().str();
  plan.boundsCheck = op.getBoundsCheck();
  Planner p(plan, op.getParamsAttr(), why);
  for (auto [i, value] : llvm::enumerate(op.getInputs())) {
    plan.ins.emplace_back();
    if (!p.buffer(value.getType(), plan.ins.back(), "input #" + llvm::Twine(i)))
      return false;
  }
  for (auto [i, value] : llvm::enumerate(op.getOutputs())) {
    plan.outs.emplace_back();
    if (!p.buffer(value.getType(), plan.outs.back(), "output #" + llvm::Twine(i)))
      return false;
  }
  if (plan.boundsCheck && plan.kind != "gather" && plan.kind != "scatter")
    return p.fail("'bounds_check' applies to gather and scatter only");
  const std::string &kind = plan.kind;
  if (kind == "transpose")
    return planTranspose(p);
  if (kind == "concat")
    return planConcat(p);
  if (kind == "split")
    return planSplit(p);
  if (kind == "slice")
    return planSlice(p);
  if (kind == "pad")
    return planPad(p);
  if (kind == "gather")
    return planGather(p);
  if (kind == "tile")
    return planTile(p);
  if (kind == "broadcast")
    return planBroadcast(p);
  if (kind == "depth_to_space")
    return planBlocks(p, /*toSpace=*/true);
  if (kind == "space_to_depth")
    return planBlocks(p, /*toSpace=*/false);
  if (kind == "one_hot")
    return planOneHot(p);
  if (kind == "arange")
    return planArange(p);
  if (kind == "fill")
    return planFill(p);
  if (kind == "resize")
    return planResize(p);
  if (kind == "copy")
    return planCopy(p);
  if (kind == "reverse")
    return planReverse(p);
  if (kind == "scatter")
    return p.fail("not supported on the host (no graph op lowers to it, so its params and "
                  "update rule are not defined)");
  return p.fail("unknown DMA kind");
}

} // namespace ascendprec::exec::dma
