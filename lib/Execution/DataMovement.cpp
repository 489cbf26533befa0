//===- DataMovement.cpp - DMA kernels run on the host ---------------------===//
//
// Every kind is planned from the op (buffer shapes and dtypes, normalized
// params) by one function that both canRunDataMovement and runDataMovement
// call, so what the executor accepts is exactly what runs. The moves work on
// raw bytes, element by element size, with two engines:
//
// * stridedCopy: dst[i] = src[sum(i_k * srcStride_k)] over a box of axes
//   (byte strides, negative or zero on the source side). Transpose, slice,
//   reverse, tile, broadcast, concat, split, depth/space rearrangements are
//   all such boxes. Axes are merged where both sides are contiguous so runs
//   become single memcpys; a transposition copies in square tiles.
// * indexMapCopy: dst[i] = src[sum(table_k[i_k])], a per-axis table of source
//   offsets (or "leave alone"): pad (all modes) and nearest resize.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Execution/DataMovement.h"
#include "AscendPrec/Execution/GraphRun.h"

#include "IndexMovement.h"
#include "NllLoss.h"
#include "RoiAlign.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

using namespace mlir;
using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;
using llvm::SmallVector;

namespace {

//===----------------------------------------------------------------------===//
// Buffers and params
//===----------------------------------------------------------------------===//

struct Buffer {
  ElementType type = ElementType::F32;
  SmallVector<int64_t, 6> shape;
  int64_t count = 1;
  size_t elementSize() const { return ascendprec::runtime::elementBytes(type); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
};

enum class PadMode { Constant, Reflect, Edge };

/// One DMA op, checked and with its params normalized (axes non-negative,
/// defaults filled in).
struct Plan {
  std::string kind;
  bool boundsCheck = false;
  SmallVector<Buffer, 4> ins, outs;
  int64_t axis = 0;
  int64_t batchDims = 0;
  int64_t blockSize = 1;
  bool crd = false;
  SmallVector<int64_t, 6> perm;
  SmallVector<int64_t, 6> start, step; // slice: first index and stride per dim
  SmallVector<int64_t, 12> paddings;
  PadMode padMode = PadMode::Constant;
  double constantValue = 0.0;
  bool alignCorners = false, halfPixel = false;
  SmallVector<bool, 6> reversed;
  SmallVector<int64_t, 6> multiples;
};

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(dim);
  return text + "]";
}


bool isIndexType(ElementType type) {
  return !ascendprec::runtime::isFloat(type) && type != ElementType::I1;
}

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

//===----------------------------------------------------------------------===//
// Moving bytes
//===----------------------------------------------------------------------===//

/// Row-major strides in bytes.
SmallVector<int64_t, 6> byteStrides(ArrayRef<int64_t> shape, size_t elementSize) {
  SmallVector<int64_t, 6> strides(shape.size());
  int64_t stride = static_cast<int64_t>(elementSize);
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

/// One axis of a copy: its extent and the byte steps on each side.
struct Axis {
  int64_t size, dst, src;
};

template <size_t N>
void copyElements(uint8_t *dst, const uint8_t *src, int64_t n, int64_t dstStep, int64_t srcStep) {
  for (int64_t i = 0; i < n; ++i, dst += dstStep, src += srcStep)
    std::memcpy(dst, src, N);
}

/// `n` runs of `run` bytes, stepping `dstStep` / `srcStep` bytes.
void copyLine(uint8_t *dst, const uint8_t *src, size_t run, int64_t n, int64_t dstStep,
              int64_t srcStep) {
  int64_t bytes = static_cast<int64_t>(run);
  if (dstStep == bytes && srcStep == bytes) {
    std::memcpy(dst, src, run * n);
    return;
  }
  switch (run) {
  case 1: return copyElements<1>(dst, src, n, dstStep, srcStep);
  case 2: return copyElements<2>(dst, src, n, dstStep, srcStep);
  case 4: return copyElements<4>(dst, src, n, dstStep, srcStep);
  case 8: return copyElements<8>(dst, src, n, dstStep, srcStep);
  default:
    for (int64_t i = 0; i < n; ++i, dst += dstStep, src += srcStep)
      std::memcpy(dst, src, run);
  }
}

/// Calls fn(dstOffset, srcOffset) for every point of the box `axes`
/// (row-major order).
template <typename Fn> void forEachOffset(ArrayRef<Axis> axes, Fn fn) {
  size_t rank = axes.size();
  SmallVector<int64_t, 8> index(rank, 0);
  int64_t dst = 0, src = 0;
  while (true) {
    fn(dst, src);
    size_t k = rank;
    for (; k-- > 0;) {
      if (++index[k] < axes[k].size) {
        dst += axes[k].dst;
        src += axes[k].src;
        break;
      }
      dst -= axes[k].dst * (axes[k].size - 1);
      src -= axes[k].src * (axes[k].size - 1);
      index[k] = 0;
    }
    if (k == static_cast<size_t>(-1))
      return;
  }
}

/// dst[i] = src[sum(i_k * srcStride_k)] for every point i of the box. `dst`
/// and `src` point at the box's first element.
void stridedCopy(uint8_t *dst, const uint8_t *src, size_t elementSize, ArrayRef<Axis> axes) {
  SmallVector<Axis, 8> kept;
  for (const Axis &axis : axes) {
    if (axis.size == 0)
      return;
    if (axis.size != 1)
      kept.push_back(axis);
  }
  // Merge an axis into the next inner one where both sides step across the
  // whole inner axis.
  SmallVector<Axis, 8> merged;
  for (size_t k = kept.size(); k-- > 0;) {
    const Axis &axis = kept[k];
    if (!merged.empty()) {
      Axis &inner = merged.back();
      if (axis.dst == inner.dst * inner.size && axis.src == inner.src * inner.size) {
        inner.size *= axis.size;
        continue;
      }
    }
    merged.push_back(axis);
  }
  std::reverse(merged.begin(), merged.end());
  int64_t bytes = static_cast<int64_t>(elementSize);
  size_t run = elementSize;
  if (!merged.empty() && merged.back().dst == bytes && merged.back().src == bytes) {
    run = elementSize * merged.back().size;
    merged.pop_back();
  }
  if (merged.empty()) {
    std::memcpy(dst, src, run);
    return;
  }
  Axis inner = merged.pop_back_val();
  // A transposition (the output's inner axis reads across the source while
  // another axis reads along it): copy in square tiles so both sides stay in
  // cache.
  constexpr int64_t kTile = 32;
  std::optional<size_t> across;
  if (run == elementSize && inner.dst == bytes && inner.size >= 8)
    for (size_t k = 0; k < merged.size(); ++k)
      if (merged[k].src == bytes && merged[k].size >= 8)
        across = k;
  if (!across) {
    forEachOffset(merged, [&](int64_t d, int64_t s) {
      copyLine(dst + d, src + s, run, inner.size, inner.dst, inner.src);
    });
    return;
  }
  Axis outer = merged[*across];
  merged.erase(merged.begin() + *across);
  forEachOffset(merged, [&](int64_t d, int64_t s) {
    for (int64_t a0 = 0; a0 < outer.size; a0 += kTile) {
      int64_t a1 = std::min(outer.size, a0 + kTile);
      for (int64_t b0 = 0; b0 < inner.size; b0 += kTile) {
        int64_t n = std::min(inner.size, b0 + kTile) - b0;
        for (int64_t a = a0; a < a1; ++a)
          copyLine(dst + d + a * outer.dst + b0 * inner.dst,
                   src + s + a * outer.src + b0 * inner.src, run, n, inner.dst, inner.src);
      }
    }
  });
}

/// dst (dense row-major over `sizes`) element i reads src at byte offset
/// sum(tables[k][i_k]); an entry of -1 leaves the element alone.
void indexMapCopy(uint8_t *dst, const uint8_t *src, size_t elementSize, ArrayRef<int64_t> sizes,
                  ArrayRef<SmallVector<int64_t, 0>> tables) {
  if (sizes.empty()) {
    std::memcpy(dst, src, elementSize);
    return;
  }
  if (llvm::is_contained(sizes, 0))
    return;
  size_t rank = sizes.size();
  int64_t bytes = static_cast<int64_t>(elementSize);
  // The innermost axis as contiguous segments.
  struct Segment {
    int64_t dst, src, bytes;
  };
  SmallVector<Segment, 8> segments;
  const SmallVector<int64_t, 0> &last = tables[rank - 1];
  for (int64_t i = 0, n = sizes[rank - 1]; i < n;) {
    if (last[i] < 0) {
      ++i;
      continue;
    }
    int64_t j = i + 1;
    while (j < n && last[j] == last[j - 1] + bytes)
      ++j;
    segments.push_back({i * bytes, last[i], (j - i) * bytes});
    i = j;
  }
  int64_t rowBytes = sizes[rank - 1] * bytes;
  SmallVector<int64_t, 8> index(rank - 1, 0);
  uint8_t *row = dst;
  while (true) {
    int64_t offset = 0;
    bool skip = false;
    for (size_t k = 0; k + 1 < rank && !skip; ++k) {
      int64_t entry = tables[k][index[k]];
      skip = entry < 0;
      offset += entry;
    }
    if (!skip)
      for (const Segment &segment : segments)
        std::memcpy(row + segment.dst, src + offset + segment.src, segment.bytes);
    row += rowBytes;
    size_t k = rank - 1;
    for (; k-- > 0;) {
      if (++index[k] < sizes[k])
        break;
      index[k] = 0;
    }
    if (k == static_cast<size_t>(-1))
      return;
  }
}

/// Repeats the `size`-byte pattern `count` times from `dst`.
void fillPattern(uint8_t *dst, const uint8_t *pattern, size_t size, int64_t count) {
  if (count <= 0)
    return;
  std::memcpy(dst, pattern, size);
  size_t done = size, total = size * static_cast<size_t>(count);
  while (done < total) {
    size_t chunk = std::min(done, total - done);
    std::memcpy(dst + done, dst, chunk);
    done += chunk;
  }
}

using Bytes = std::array<uint8_t, 8>;

/// `value` as one element of `type`, rounded to nearest even (integers:
/// rounded and clamped), as the device stores a value it makes.
Bytes encode(double value, ElementType type) {
  HostTensor scalar(type, {});
  scalar.set(0, value);
  Bytes bytes{};
  std::memcpy(bytes.data(), scalar.data(), scalar.byteSize());
  return bytes;
}

/// Element `index` of `source` as one element of `type`: the same bits for
/// the same type, exact between integer types (clamped), rounded to nearest
/// even otherwise.
Bytes convertElement(const HostTensor &source, int64_t index, ElementType type) {
  Bytes bytes{};
  if (source.type() == type) {
    size_t size = ascendprec::runtime::elementBytes(type);
    std::memcpy(bytes.data(), source.data() + index * size, size);
    return bytes;
  }
  HostTensor scalar(type, {});
  if (isIndexType(source.type()) && isIndexType(type))
    scalar.setInt(0, source.getInt(index));
  else
    scalar.set(0, source.get(index));
  std::memcpy(bytes.data(), scalar.data(), scalar.byteSize());
  return bytes;
}

/// An integer element exactly (unsigned values beyond int64 saturate).
int64_t readIndex(const uint8_t *data, ElementType type, int64_t i) {
  auto load = [&](auto tag) {
    decltype(tag) value;
    std::memcpy(&value, data + i * sizeof(value), sizeof(value));
    return value;
  };
  switch (type) {
  case ElementType::I8: return load(int8_t());
  case ElementType::I16: return load(int16_t());
  case ElementType::I32: return load(int32_t());
  case ElementType::I64: return load(int64_t());
  case ElementType::U8: return load(uint8_t());
  case ElementType::U16: return load(uint16_t());
  case ElementType::U32: return load(uint32_t());
  case ElementType::U64: {
    uint64_t value = load(uint64_t());
    return value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
               ? std::numeric_limits<int64_t>::max()
               : static_cast<int64_t>(value);
  }
  default: return 0;
  }
}

std::string numberText(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

int64_t product(ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t dim : dims)
    count *= dim;
  return count;
}

//===----------------------------------------------------------------------===//
// Running each kind
//===----------------------------------------------------------------------===//

struct Run {
  const Plan &plan;
  SmallVector<const uint8_t *, 4> in;
  SmallVector<uint8_t *, 4> out;
  ArrayRef<const HostTensor *> inputs;
  std::string &error;

  bool fail(const llvm::Twine &message) {
    error = (llvm::Twine(plan.kind) + ": " + message).str();
    return false;
  }

  size_t elementSize() const { return plan.outs[0].elementSize(); }

  bool transpose() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    SmallVector<Axis, 8> axes;
    for (size_t i = 0; i < y.shape.size(); ++i)
      axes.push_back({y.shape[i], ys[i], xs[plan.perm[i]]});
    stridedCopy(out[0], in[0], elementSize(), axes);
    return true;
  }

  /// Concat (pieces are the inputs) or split (the outputs).
  bool pieces(bool concat) {
    const Buffer &whole = concat ? plan.outs[0] : plan.ins[0];
    ArrayRef<Buffer> parts = concat ? ArrayRef<Buffer>(plan.ins) : ArrayRef<Buffer>(plan.outs);
    auto wholeStrides = byteStrides(whole.shape, elementSize());
    int64_t offset = 0;
    for (auto [i, part] : llvm::enumerate(parts)) {
      auto partStrides = byteStrides(part.shape, elementSize());
      SmallVector<Axis, 8> axes;
      for (size_t d = 0; d < part.shape.size(); ++d)
        axes.push_back({part.shape[d], concat ? wholeStrides[d] : partStrides[d],
                        concat ? partStrides[d] : wholeStrides[d]});
      int64_t shift = offset * wholeStrides[plan.axis];
      if (part.count) {
        if (concat)
          stridedCopy(out[0] + shift, in[i], elementSize(), axes);
        else
          stridedCopy(out[i], in[0] + shift, elementSize(), axes);
      }
      offset += part.shape[plan.axis];
    }
    return true;
  }

  bool slice() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    if (!y.count)
      return true;
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    SmallVector<Axis, 8> axes;
    int64_t base = 0;
    for (size_t d = 0; d < y.shape.size(); ++d) {
      base += plan.start[d] * xs[d];
      axes.push_back({y.shape[d], ys[d], plan.step[d] * xs[d]});
    }
    stridedCopy(out[0], in[0] + base, elementSize(), axes);
    return true;
  }

  bool reverse() {
    const Buffer &x = plan.ins[0];
    if (!x.count)
      return true;
    auto xs = byteStrides(x.shape, elementSize());
    SmallVector<Axis, 8> axes;
    int64_t base = 0;
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (plan.reversed[d])
        base += (x.shape[d] - 1) * xs[d];
      axes.push_back({x.shape[d], xs[d], plan.reversed[d] ? -xs[d] : xs[d]});
    }
    stridedCopy(out[0], in[0] + base, elementSize(), axes);
    return true;
  }

  bool tile() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    SmallVector<Axis, 12> axes;
    for (size_t d = 0; d < x.shape.size(); ++d) {
      axes.push_back({plan.multiples[d], x.shape[d] * ys[d], 0}); // the repeats
      axes.push_back({x.shape[d], ys[d], xs[d]});
    }
    stridedCopy(out[0], in[0], elementSize(), axes);
    return true;
  }

  bool broadcast() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    if (plan.ins.size() == 2) {
      // The shape input, at run time, must broadcast with x to the output.
      const Buffer &shape = plan.ins[1];
      int64_t entries = shape.shape[0], lead = y.rank() - entries;
      for (int64_t i = 0; i < entries; ++i) {
        int64_t want = readIndex(in[1], shape.type, i), have = y.shape[lead + i];
        int64_t xd = lead + i - (y.rank() - x.rank());
        int64_t xDim = xd >= 0 ? x.shape[xd] : 1;
        bool ok = want == have || (want == 1 && xDim == have);
        if (!ok)
          return fail("the shape input holds " + llvm::Twine(want) + " at " + llvm::Twine(i) +
                      ", which does not broadcast " + shapeString(x.shape) + " to " +
                      shapeString(y.shape));
      }
    }
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    int64_t lead = y.rank() - x.rank();
    SmallVector<Axis, 8> axes;
    for (int64_t d = 0; d < y.rank(); ++d) {
      int64_t xd = d - lead;
      int64_t step = xd < 0 || x.shape[xd] == 1 ? 0 : xs[xd];
      axes.push_back({y.shape[d], ys[d], step});
    }
    stridedCopy(out[0], in[0], elementSize(), axes);
    return true;
  }

  /// DepthToSpace / SpaceToDepth as a transposition of 6-D views.
  bool blocks(bool toSpace) {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    int64_t b = plan.blockSize, n = x.shape[0];
    size_t size = elementSize();
    SmallVector<Axis, 8> axes;
    if (toSpace) {
      // y viewed as [N, C', H, b, W, b]; x as [N, b, b, C', H, W] (DCR) or
      // [N, C', b, b, H, W] (CRD).
      int64_t c = y.shape[1], h = x.shape[2], w = x.shape[3];
      auto ys = byteStrides({n, c, h, b, w, b}, size);
      if (!plan.crd) {
        auto xs = byteStrides({n, b, b, c, h, w}, size);
        axes = {{n, ys[0], xs[0]}, {c, ys[1], xs[3]}, {h, ys[2], xs[4]},
                {b, ys[3], xs[1]}, {w, ys[4], xs[5]}, {b, ys[5], xs[2]}};
      } else {
        auto xs = byteStrides({n, c, b, b, h, w}, size);
        axes = {{n, ys[0], xs[0]}, {c, ys[1], xs[1]}, {h, ys[2], xs[4]},
                {b, ys[3], xs[2]}, {w, ys[4], xs[5]}, {b, ys[5], xs[3]}};
      }
    } else {
      // y viewed as [N, b, b, C, H', W']; x as [N, C, H', b, W', b].
      int64_t c = x.shape[1], h = y.shape[2], w = y.shape[3];
      auto ys = byteStrides({n, b, b, c, h, w}, size);
      auto xs = byteStrides({n, c, h, b, w, b}, size);
      axes = {{n, ys[0], xs[0]}, {b, ys[1], xs[3]}, {b, ys[2], xs[5]},
              {c, ys[3], xs[1]}, {h, ys[4], xs[2]}, {w, ys[5], xs[4]}};
    }
    stridedCopy(out[0], in[0], size, axes);
    return true;
  }

  bool pad() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    size_t size = elementSize();
    if (plan.padMode == PadMode::Constant) {
      double fill = plan.constantValue;
      if (inputs.size() > 1 && inputs[1]->numElements() == 1)
        fill = inputs[1]->get(0);
      Bytes value = encode(fill, y.type);
      fillPattern(out[0], value.data(), size, y.count);
    }
    auto xs = byteStrides(x.shape, size);
    SmallVector<SmallVector<int64_t, 0>, 6> tables;
    for (int64_t d = 0; d < x.rank(); ++d) {
      int64_t before = plan.paddings[2 * d], after = plan.paddings[2 * d + 1];
      int64_t lo = std::max<int64_t>(-before, 0);
      int64_t kept = x.shape[d] - lo - std::max<int64_t>(-after, 0);
      int64_t shift = std::max<int64_t>(before, 0);
      SmallVector<int64_t, 0> table(y.shape[d]);
      for (int64_t o = 0; o < y.shape[d]; ++o) {
        // Position in the cropped extent [0, kept).
        int64_t c = o - shift, source = -1;
        if (c >= 0 && c < kept)
          source = c;
        else if (plan.padMode == PadMode::Edge)
          source = std::clamp<int64_t>(c, 0, kept - 1);
        else if (plan.padMode == PadMode::Reflect) {
          // NumPy's reflect (the edge is not repeated), periodic past one
          // reflection.
          if (kept == 1) {
            source = 0;
          } else {
            int64_t period = 2 * (kept - 1);
            int64_t m = ((c % period) + period) % period;
            source = m < kept ? m : period - m;
          }
        }
        table[o] = source < 0 ? -1 : (lo + source) * xs[d];
      }
      tables.push_back(std::move(table));
    }
    indexMapCopy(out[0], in[0], size, y.shape, tables);
    return true;
  }

  bool resize() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    size_t size = elementSize();
    auto xs = byteStrides(x.shape, size);
    SmallVector<SmallVector<int64_t, 0>, 4> tables(4);
    for (int d = 0; d < 4; ++d) {
      int64_t inSize = x.shape[d], outSize = y.shape[d];
      tables[d].resize(outSize);
      if (outSize == 0)
        continue;
      if (d < 2) {
        for (int64_t i = 0; i < outSize; ++i)
          tables[d][i] = i * xs[d];
        continue;
      }
      // TensorFlow's ResizeNearestNeighbor (Ascend IR's): a float scale;
      // align_corners rounds (half away from zero), otherwise floor;
      // half-pixel centres sample at (i + 0.5) * scale.
      float scale = plan.alignCorners && outSize > 1
                        ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                        : static_cast<float>(inSize) / static_cast<float>(outSize);
      for (int64_t i = 0; i < outSize; ++i) {
        float at = plan.halfPixel ? (static_cast<float>(i) + 0.5f) * scale
                                  : static_cast<float>(i) * scale;
        int64_t source = static_cast<int64_t>(plan.alignCorners ? std::round(at) : std::floor(at));
        source = std::clamp<int64_t>(source, 0, inSize - 1);
        tables[d][i] = source * xs[d];
      }
    }
    indexMapCopy(out[0], in[0], size, y.shape, tables);
    return true;
  }

  bool gather() {
    const Buffer &x = plan.ins[0], &indices = plan.ins[1], &y = plan.outs[0];
    int64_t b = plan.batchDims, axis = plan.axis;
    ArrayRef<int64_t> xShape(x.shape);
    int64_t batches = product(xShape.take_front(b));
    int64_t outer = product(xShape.slice(b, axis - b));
    int64_t extent = x.shape[axis];
    int64_t inner = product(xShape.drop_front(axis + 1));
    int64_t perBatch = product(ArrayRef<int64_t>(indices.shape).drop_front(b));
    if (!y.count)
      return true;
    // Check first, so that nothing is written for a failing op.
    if (!plan.boundsCheck)
      for (int64_t i = 0; i < indices.count; ++i) {
        int64_t index = readIndex(in[1], indices.type, i);
        if (index < -extent || index >= extent)
          return fail(ascendprec::exec::kInvalidDataError + "index " + llvm::Twine(index) + " (element " +
                      llvm::Twine(i) +
                      " of the indices) is outside [" + llvm::Twine(-extent) + ", " +
                      llvm::Twine(extent) + ") along axis " + llvm::Twine(axis) +
                      "; without bounds_check (support_out_of_bound_index) the device "
                      "would read out of bounds");
      }
    size_t rowBytes = static_cast<size_t>(inner) * elementSize();
    uint8_t *dst = out[0];
    for (int64_t batch = 0; batch < batches; ++batch)
      for (int64_t o = 0; o < outer; ++o) {
        const uint8_t *slab = in[0] + ((batch * outer + o) * extent) * rowBytes;
        for (int64_t k = 0; k < perBatch; ++k, dst += rowBytes) {
          int64_t index = readIndex(in[1], indices.type, batch * perBatch + k);
          if (index < 0)
            index += extent;
          if (index < 0 || index >= extent)
            std::memset(dst, 0, rowBytes); // bounds_check: the row reads 0
          else
            std::memcpy(dst, slab + index * rowBytes, rowBytes);
        }
      }
    return true;
  }

  bool oneHot() {
    const Buffer &indices = plan.ins[0], &y = plan.outs[0];
    int64_t depth = y.shape[plan.axis];
    int64_t given = readIndex(in[1], plan.ins[1].type, 0);
    if (given != depth)
      return fail(ascendprec::exec::kInvalidDataError + "the depth input is " + llvm::Twine(given) +
                  " but the output has " +
                  llvm::Twine(depth) + " along axis " + llvm::Twine(plan.axis));
    size_t size = elementSize();
    Bytes on = convertElement(*inputs[2], 0, y.type), off = convertElement(*inputs[3], 0, y.type);
    fillPattern(out[0], off.data(), size, y.count);
    ArrayRef<int64_t> shape(indices.shape);
    int64_t outer = product(shape.take_front(plan.axis));
    int64_t inner = product(shape.drop_front(plan.axis));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t index = readIndex(in[0], indices.type, o * inner + i);
        if (index < 0)
          index += depth; // negative indices count from depth (ONNX)
        if (index >= 0 && index < depth)
          std::memcpy(out[0] + ((o * depth + index) * inner + i) * size, on.data(), size);
      }
    return true;
  }

  bool fill() {
    const Buffer &dims = plan.ins[0], &y = plan.outs[0];
    for (int64_t d = 0; d < y.rank(); ++d) {
      int64_t given = readIndex(in[0], dims.type, d);
      if (given != y.shape[d]) {
        SmallVector<int64_t, 6> values;
        for (int64_t k = 0; k < y.rank(); ++k)
          values.push_back(readIndex(in[0], dims.type, k));
        return fail("the dims input is " + shapeString(values) + " but the output is " +
                    shapeString(y.shape));
      }
    }
    Bytes value = convertElement(*inputs[1], 0, y.type);
    fillPattern(out[0], value.data(), elementSize(), y.count);
    return true;
  }

  bool arange() {
    const Buffer &y = plan.outs[0];
    int64_t n = y.shape[0];
    bool integers = isIndexType(y.type) && llvm::all_of(plan.ins, [](const Buffer &b) {
                      return isIndexType(b.type);
                    });
    HostTensor scalar(y.type, {});
    size_t size = elementSize();
    if (integers) {
      int64_t start = inputs[0]->getInt(0), limit = inputs[1]->getInt(0),
              delta = inputs[2]->getInt(0);
      if (delta == 0)
        return fail("delta is 0");
      // ceil((limit - start) / delta), at least 0, in 128 bits.
      __int128 span = static_cast<__int128>(limit) - start;
      __int128 count = span / delta + ((span % delta != 0) && ((span > 0) == (delta > 0)));
      if (count < 0)
        count = 0;
      if (count != n)
        return fail("start " + llvm::Twine(start) + ", limit " + llvm::Twine(limit) +
                    ", delta " + llvm::Twine(delta) + " give " +
                    llvm::Twine(static_cast<int64_t>(count)) + " elements, the output holds " +
                    llvm::Twine(n));
      for (int64_t i = 0; i < n; ++i) {
        scalar.setInt(0, start + i * delta);
        std::memcpy(out[0] + i * size, scalar.data(), size);
      }
      return true;
    }
    double start = inputs[0]->get(0), limit = inputs[1]->get(0), delta = inputs[2]->get(0);
    if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
      return fail("start, limit and delta must be finite with a non-zero delta");
    double count = std::max(0.0, std::ceil((limit - start) / delta));
    // The count the graph computed in the dtype's own arithmetic may round
    // either way from the exact one.
    if (std::abs(count - static_cast<double>(n)) > 1)
      return fail("start " + numberText(start) + ", limit " + numberText(limit) + ", delta " +
                  numberText(delta) + " give " + numberText(count) +
                  " elements, the output holds " + llvm::Twine(n));
    for (int64_t i = 0; i < n; ++i) {
      // Each element computed exactly, then rounded once to the output dtype.
      scalar.set(0, start + static_cast<double>(i) * delta);
      std::memcpy(out[0] + i * size, scalar.data(), size);
    }
    return true;
  }

  bool copy() {
    if (plan.outs[0].count)
      std::memcpy(out[0], in[0], plan.outs[0].count * elementSize());
    return true;
  }

  bool go() {
    const std::string &kind = plan.kind;
    if (kind == "transpose")
      return transpose();
    if (kind == "concat")
      return pieces(/*concat=*/true);
    if (kind == "split")
      return pieces(/*concat=*/false);
    if (kind == "slice")
      return slice();
    if (kind == "pad")
      return pad();
    if (kind == "gather")
      return gather();
    if (kind == "tile")
      return tile();
    if (kind == "broadcast")
      return broadcast();
    if (kind == "depth_to_space")
      return blocks(/*toSpace=*/true);
    if (kind == "space_to_depth")
      return blocks(/*toSpace=*/false);
    if (kind == "one_hot")
      return oneHot();
    if (kind == "arange")
      return arange();
    if (kind == "fill")
      return fill();
    if (kind == "resize")
      return resize();
    if (kind == "copy")
      return copy();
    if (kind == "reverse")
      return reverse();
    return fail("unknown DMA kind");
  }
};

bool checkTensor(const HostTensor *tensor, const Buffer &buffer, const llvm::Twine &what,
                 const Plan &plan, std::string &error) {
  auto fail = [&](const llvm::Twine &message) {
    error = (llvm::Twine(plan.kind) + ": " + what + " " + message).str();
    return false;
  };
  if (!tensor)
    return fail("is missing");
  if (tensor->type() != buffer.type)
    return fail(llvm::Twine("is ") + ascendprec::runtime::elementTypeName(tensor->type()) +
                ", the op's buffer is " + ascendprec::runtime::elementTypeName(buffer.type));
  if (tensor->numElements() != buffer.count)
    return fail("holds " + llvm::Twine(tensor->numElements()) + " elements, the op's buffer " +
                shapeString(buffer.shape) + " holds " + llvm::Twine(buffer.count));
  if (buffer.count && !tensor->data())
    return fail("has no storage");
  return true;
}

} // namespace

bool ascendprec::exec::canRunDataMovement(ascendprec::kernel::DmaOp op, std::string &why) {
  if (op.getKind() == "roi_align")
    return canRunRoiAlign(op, why);
  if (op.getKind() == "nll_loss")
    return canRunNllLoss(op, why);
  if (isIndexMovementKind(op.getKind()))
    return canRunIndexMovement(op, why);
  Plan plan;
  return makePlan(op, plan, why);
}

bool ascendprec::exec::runDataMovement(ascendprec::kernel::DmaOp op,
                                       llvm::ArrayRef<const runtime::HostTensor *> inputs,
                                       llvm::ArrayRef<runtime::HostTensor *> outputs,
                                       std::string &error) {
  if (op.getKind() == "roi_align")
    return runRoiAlign(op, inputs, outputs, error);
  if (op.getKind() == "nll_loss")
    return runNllLoss(op, inputs, outputs, error);
  if (isIndexMovementKind(op.getKind()))
    return runIndexMovement(op, inputs, outputs, error);
  Plan plan;
  if (!makePlan(op, plan, error))
    return false;
  if (inputs.size() != plan.ins.size() || outputs.size() != plan.outs.size()) {
    error = plan.kind + ": given " + std::to_string(inputs.size()) + " input(s) and " +
            std::to_string(outputs.size()) + " output(s), the op has " +
            std::to_string(plan.ins.size()) + " and " + std::to_string(plan.outs.size());
    return false;
  }
  for (auto [i, tensor] : llvm::enumerate(inputs))
    if (!checkTensor(tensor, plan.ins[i], "input #" + llvm::Twine(i), plan, error))
      return false;
  for (auto [i, tensor] : llvm::enumerate(outputs))
    if (!checkTensor(tensor, plan.outs[i], "output #" + llvm::Twine(i), plan, error))
      return false;
  // An input sharing bytes with an output (a view) is read from a copy, so
  // writing the output cannot change what is still to be read.
  std::vector<HostTensor> copies;
  copies.reserve(inputs.size()); // pointers into it stay valid
  SmallVector<const HostTensor *, 4> sources(inputs.begin(), inputs.end());
  for (const HostTensor *&input : sources) {
    const uint8_t *begin = input->data(), *end = begin + input->byteSize();
    bool overlaps = llvm::any_of(outputs, [&](const HostTensor *output) {
      const uint8_t *outBegin = output->data(), *outEnd = outBegin + output->byteSize();
      return input->byteSize() && output->byteSize() && begin < outEnd && outBegin < end;
    });
    if (overlaps) {
      copies.push_back(input->clone());
      input = &copies.back();
    }
  }
  Run run{plan, {}, {}, sources, error};
  for (const HostTensor *input : sources)
    run.in.push_back(input->data());
  for (HostTensor *output : outputs)
    run.out.push_back(output->data());
  return run.go();
}
