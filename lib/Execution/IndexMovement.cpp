//===- IndexMovement.cpp - element-indexed DMA kernels on the host --------===//
//
// The DMA kinds whose moves are chosen element by element from an index
// tensor or a position test, apart from the box-shaped moves of
// DataMovement.cpp:
//
//   gather_elements   y[i] = x[i with i[dim] = indices[i]]
//   scatter_elements  y = data; y[i with i[axis] = indices[i]] (op)= updates[i]
//   gather_nd         y[b, i] = data[b, indices[b, i, :]] (batch_dims b)
//   scatter_nd        y = data; y[indices[i, :]] (op)= updates[i]
//   triangle          y = x where (col - row) is on the kept side of `diagonal`,
//                     0 elsewhere (Tril / Triu over the last two axes)
//   cumsum            running sums along `axis` (exclusive, reverse)
//
// Indices may be negative (counted from the end, as ONNX allows); one out of
// range is an error naming the kernel, the position and the valid range.
// Scatters with a reduction, and cumsum, round every step to the output's
// element type, as a kernel that updates its output in place does.
//
//===----------------------------------------------------------------------===//

#include "IndexMovement.h"
#include "AscendPrec/Execution/DataMovement.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cstring>
#include <functional>

using namespace mlir;
using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;
using ascendprec::runtime::shapeText;

namespace {

std::vector<int64_t> shapeOf(Value buffer) {
  auto type = cast<ShapedType>(buffer.getType());
  return {type.getShape().begin(), type.getShape().end()};
}

int64_t count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<int64_t> strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    s[d - 1] = s[d] * shape[d];
  return s;
}

bool isIndex(Type element) { return element.isInteger(32) || element.isInteger(64); }

/// One kernel's params and buffer shapes, checked once for both the
/// preflight check and the run.
struct IndexPlan {
  std::string kind;
  std::vector<std::vector<int64_t>> ins, outs;
  int64_t axis = 0, batchDims = 0, diagonal = 0;
  bool upper = false, exclusive = false, reverse = false;
  std::string reduction = "none";
};

class Checker {
public:
  Checker(IndexPlan &plan, DictionaryAttr params, std::string &why)
      : plan(plan), params(params), why(why) {}

  bool fail(const std::string &message) {
    why = plan.kind + ": " + message;
    return false;
  }
  bool readInt(StringRef name, int64_t &value, std::optional<int64_t> fallback) {
    auto attr = params ? params.getAs<IntegerAttr>(name) : IntegerAttr();
    if (!attr) {
      if (!fallback)
        return fail("has no '" + name.str() + "'");
      value = *fallback;
      return true;
    }
    value = attr.getInt();
    return true;
  }
  bool readBool(StringRef name, bool &value) {
    Attribute attr = params ? params.get(name) : Attribute();
    if (auto flag = dyn_cast_or_null<BoolAttr>(attr))
      value = flag.getValue();
    else if (auto integer = dyn_cast_or_null<IntegerAttr>(attr))
      value = integer.getInt() != 0;
    else
      value = isa_and_nonnull<UnitAttr>(attr);
    return true;
  }
  bool readReduction() {
    auto attr = params ? params.getAs<StringAttr>("reduction") : StringAttr();
    plan.reduction = attr ? attr.getValue().str() : "none";
    if (plan.reduction != "none" && plan.reduction != "add" && plan.reduction != "mul" &&
        plan.reduction != "max" && plan.reduction != "min")
      return fail("has the reduction '" + plan.reduction + "' (none, add, mul, max or min)");
    return true;
  }
  bool axisIn(int64_t &axis, int64_t rank) {
    if (axis < -rank || axis >= rank)
      return fail("'axis' = " + std::to_string(axis) + " is outside [" + std::to_string(-rank) +
                  ", " + std::to_string(rank) + ")");
    if (axis < 0)
      axis += rank;
    return true;
  }
  bool sameShape(const std::vector<int64_t> &a, const std::vector<int64_t> &b,
                 const std::string &what) {
    if (a != b)
      return fail(what + " is " + shapeText(b) + ", expected " + shapeText(a));
    return true;
  }

  IndexPlan &plan;
  DictionaryAttr params;
  std::string &why;
};

bool planKernel(ascendprec::kernel::DmaOp op, IndexPlan &plan, std::string &why) {
  plan.kind = op.getKind().str();
  for (Value in : op.getInputs())
    plan.ins.push_back(shapeOf(in));
  for (Value out : op.getOutputs())
    plan.outs.push_back(shapeOf(out));
  Checker c(plan, op.getParamsAttr(), why);
  auto arity = [&](size_t ins) {
    if (plan.ins.size() != ins || plan.outs.size() != 1)
      return c.fail("takes " + std::to_string(ins) + " inputs and one output, not " +
                    std::to_string(plan.ins.size()) + " and " + std::to_string(plan.outs.size()));
    return true;
  };
  auto indexInput = [&](unsigned i) {
    if (!isIndex(getElementTypeOrSelf(op.getInputs()[i].getType())))
      return c.fail("its indices are not int32 or int64");
    return true;
  };
  const std::string &kind = plan.kind;
  if (kind == "gather_elements" || kind == "scatter_elements") {
    bool scatter = kind == "scatter_elements";
    // GatherElements names its axis `dim`, as CANN's op does.
    if (!arity(scatter ? 3 : 2) || !indexInput(1) ||
        !c.readInt(scatter ? "axis" : "dim", plan.axis, 0))
      return false;
    const std::vector<int64_t> &data = plan.ins[0], &indices = plan.ins[1];
    if (!c.axisIn(plan.axis, static_cast<int64_t>(data.size())))
      return false;
    if (indices.size() != data.size())
      return c.fail("its indices have rank " + std::to_string(indices.size()) + ", the data " +
                    std::to_string(data.size()));
    if (scatter)
      return c.readReduction() && c.sameShape(indices, plan.ins[2], "the updates' shape") &&
             c.sameShape(data, plan.outs[0], "the output's shape");
    return c.sameShape(indices, plan.outs[0], "the output's shape");
  }
  if (kind == "gather_nd" || kind == "scatter_nd") {
    bool scatter = kind == "scatter_nd";
    if (!arity(scatter ? 3 : 2) || !indexInput(1) ||
        !c.readInt("batch_dims", plan.batchDims, 0))
      return false;
    const std::vector<int64_t> &data = plan.ins[0], &indices = plan.ins[1];
    int64_t b = plan.batchDims;
    if (indices.empty())
      return c.fail("its indices are a scalar");
    int64_t depth = indices.back();
    if (b < 0 || b >= static_cast<int64_t>(indices.size()) || b > static_cast<int64_t>(data.size()) ||
        depth < 1 || b + depth > static_cast<int64_t>(data.size()))
      return c.fail("its indices " + shapeText(indices) + " do not index the data " +
                    shapeText(data) + " with batch_dims " + std::to_string(b));
    for (int64_t d = 0; d < b; ++d)
      if (indices[d] != data[d])
        return c.fail("batch dimension " + std::to_string(d) + " differs between the data and "
                      "the indices");
    std::vector<int64_t> slice(indices.begin(), indices.end() - 1);
    slice.insert(slice.end(), data.begin() + b + depth, data.end());
    if (scatter) {
      if (b != 0)
        return c.fail("scatters with batch dimensions");
      return c.readReduction() && c.sameShape(slice, plan.ins[2], "the updates' shape") &&
             c.sameShape(data, plan.outs[0], "the output's shape");
    }
    return c.sameShape(slice, plan.outs[0], "the output's shape");
  }
  if (kind == "triangle") {
    // A second input is k, read when the kernel runs.
    if (!arity(plan.ins.size() == 2 ? 2 : 1) || !c.readInt("diagonal", plan.diagonal, 0) ||
        !c.readBool("upper", plan.upper))
      return false;
    if (plan.ins.size() == 2 && count(plan.ins[1]) != 1)
      return c.fail("its k holds " + std::to_string(count(plan.ins[1])) + " elements, not one");
    if (plan.ins[0].size() < 2)
      return c.fail("needs a matrix (rank 2 or more)");
    return c.sameShape(plan.ins[0], plan.outs[0], "the output's shape");
  }
  if (kind == "cumsum") {
    // The axis is an input, read when the kernel runs.
    if (!arity(2) || !indexInput(1) || !c.readBool("exclusive", plan.exclusive) ||
        !c.readBool("reverse", plan.reverse))
      return false;
    if (count(plan.ins[1]) != 1)
      return c.fail("its axis holds " + std::to_string(count(plan.ins[1])) + " elements, not one");
    return c.sameShape(plan.ins[0], plan.outs[0], "the output's shape");
  }
  return c.fail("is not an index-movement kind");
}

/// Index `raw` along an axis of `length`, negative from the end; false when
/// outside [-length, length).
bool resolveIndex(int64_t raw, int64_t length, int64_t &index) {
  if (raw < -length || raw >= length)
    return false;
  index = raw < 0 ? raw + length : raw;
  return true;
}

std::string outOfRange(const IndexPlan &plan, int64_t position, int64_t raw, int64_t length) {
  return plan.kind + ": " + ascendprec::exec::kInvalidDataError.str() + "index " + std::to_string(raw) +
         " (indices element " +
         std::to_string(position) + ") is outside [" + std::to_string(-length) + ", " +
         std::to_string(length) + ")";
}

void copyElement(HostTensor &to, int64_t at, const HostTensor &from, int64_t index) {
  size_t size = ascendprec::runtime::elementBytes(to.type());
  std::memcpy(to.data() + at * size, from.data() + index * size, size);
}

/// `a` op `b` for a scatter's reduction (add, mul, max, min).
template <typename T> T combine(const std::string &reduction, T a, T b) {
  if (reduction == "add")
    return a + b;
  if (reduction == "mul")
    return a * b;
  return reduction == "max" ? std::max(a, b) : std::min(a, b);
}

/// y[at] = y[at] op value, rounded to y's type; a plain copy for "none".
void update(const IndexPlan &plan, HostTensor &y, int64_t at, const HostTensor &updates,
            int64_t from) {
  if (plan.reduction == "none")
    copyElement(y, at, updates, from);
  else if (!ascendprec::runtime::isFloat(y.type()))
    y.setInt(at, combine(plan.reduction, y.getInt(at), updates.getInt(from)));
  else
    y.set(at, combine(plan.reduction, y.get(at), updates.get(from)));
}

bool runElements(const IndexPlan &plan, ArrayRef<const HostTensor *> in, HostTensor &y,
                 std::string &error) {
  bool scatter = plan.kind == "scatter_elements";
  const HostTensor &data = *in[0], &indices = *in[1];
  const std::vector<int64_t> &indexShape = plan.ins[1];
  std::vector<int64_t> dataStrides = strides(plan.ins[0]), indexStrides = strides(indexShape);
  int64_t length = plan.ins[0][plan.axis];
  if (scatter)
    std::memcpy(y.data(), data.data(), data.byteSize());
  for (int64_t i = 0; i < count(indexShape); ++i) {
    int64_t raw = indices.getInt(i), index;
    if (!resolveIndex(raw, length, index)) {
      error = outOfRange(plan, i, raw, length);
      return false;
    }
    // The data element at i's coordinates with the axis coordinate replaced.
    int64_t offset = 0;
    for (size_t d = 0; d < indexShape.size(); ++d) {
      int64_t coord = (i / indexStrides[d]) % indexShape[d];
      offset += (static_cast<int64_t>(d) == plan.axis ? index : coord) * dataStrides[d];
    }
    if (scatter)
      update(plan, y, offset, *in[2], i);
    else
      copyElement(y, i, data, offset);
  }
  return true;
}

bool runNd(const IndexPlan &plan, ArrayRef<const HostTensor *> in, HostTensor &y,
           std::string &error) {
  bool scatter = plan.kind == "scatter_nd";
  const HostTensor &data = *in[0], &indices = *in[1];
  const std::vector<int64_t> &dataShape = plan.ins[0], &indexShape = plan.ins[1];
  std::vector<int64_t> dataStrides = strides(dataShape);
  int64_t b = plan.batchDims, depth = indexShape.back();
  int64_t sliceSize = 1;
  for (size_t d = b + depth; d < dataShape.size(); ++d)
    sliceSize *= dataShape[d];
  int64_t tuples = count(indexShape) / depth;
  // Tuples per batch element, and the data's elements per batch element.
  int64_t perBatch = 1;
  for (size_t d = b; d + 1 < indexShape.size(); ++d)
    perBatch *= indexShape[d];
  int64_t batchStride = b > 0 ? dataStrides[b - 1] : count(dataShape);
  if (scatter)
    std::memcpy(y.data(), data.data(), data.byteSize());
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = (t / perBatch) * batchStride;
    for (int64_t k = 0; k < depth; ++k) {
      int64_t raw = indices.getInt(t * depth + k), index;
      int64_t length = dataShape[b + k];
      if (!resolveIndex(raw, length, index)) {
        error = outOfRange(plan, t * depth + k, raw, length);
        return false;
      }
      offset += index * dataStrides[b + k];
    }
    for (int64_t e = 0; e < sliceSize; ++e) {
      if (scatter)
        update(plan, y, offset + e, *in[2], t * sliceSize + e);
      else
        copyElement(y, t * sliceSize + e, data, offset + e);
    }
  }
  return true;
}

void runTriangle(const IndexPlan &plan, const HostTensor &x, HostTensor &y) {
  const std::vector<int64_t> &shape = plan.ins[0];
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  size_t size = ascendprec::runtime::elementBytes(x.type());
  std::memset(y.data(), 0, y.byteSize());
  for (int64_t i = 0; i < count(shape); ++i) {
    int64_t col = i % cols, row = (i / cols) % rows;
    bool keep = plan.upper ? col - row >= plan.diagonal : col - row <= plan.diagonal;
    if (keep)
      std::memcpy(y.data() + i * size, x.data() + i * size, size);
  }
}

} // namespace

bool ascendprec::exec::isIndexMovementKind(StringRef kind) {
  return kind == "gather_elements" || kind == "scatter_elements" || kind == "gather_nd" ||
         kind == "scatter_nd" || kind == "triangle" || kind == "cumsum";
}

bool ascendprec::exec::canRunIndexMovement(ascendprec::kernel::DmaOp op, std::string &why) {
  IndexPlan plan;
  return planKernel(op, plan, why);
}

bool ascendprec::exec::runIndexMovement(ascendprec::kernel::DmaOp op,
                                        ArrayRef<const HostTensor *> inputs,
                                        ArrayRef<HostTensor *> outputs, std::string &error) {
  IndexPlan plan;
  if (!planKernel(op, plan, error))
    return false;
  if (inputs.size() != plan.ins.size() || outputs.size() != 1) {
    error = plan.kind + ": the launch binds other buffers than the kernel has";
    return false;
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i]->shape() != plan.ins[i]) {
      error = plan.kind + ": input " + std::to_string(i) + " is " +
              shapeText(inputs[i]->shape()) + ", the kernel's buffer " + shapeText(plan.ins[i]);
      return false;
    }
  HostTensor &y = *outputs[0];
  if (y.shape() != plan.outs[0] || inputs[0]->type() != y.type()) {
    error = plan.kind + ": the output buffer does not match the kernel";
    return false;
  }
  const std::string &kind = plan.kind;
  if (kind == "gather_elements" || kind == "scatter_elements")
    return runElements(plan, inputs, y, error);
  if (kind == "gather_nd" || kind == "scatter_nd")
    return runNd(plan, inputs, y, error);
  if (kind == "triangle") {
    if (inputs.size() == 2)
      plan.diagonal = inputs[1]->getInt(0);
    runTriangle(plan, *inputs[0], y);
    return true;
  }
  return ascendprec::exec::runCumsum(*inputs[0], inputs[1]->getInt(0), plan.exclusive,
                                     plan.reverse, y, error);
}

bool ascendprec::exec::runCumsum(const HostTensor &x, int64_t axis, bool exclusive, bool reverse,
                                 HostTensor &y, std::string &error) {
  const std::vector<int64_t> &shape = x.shape();
  int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < -rank || axis >= rank) {
    // A value the model computed or the user gave: the data's fault.
    error = "cumsum: " + ascendprec::exec::kInvalidDataError.str() + "'axis' = " +
            std::to_string(axis) + " is outside [" + std::to_string(-rank) +
            ", " + std::to_string(rank) + ")";
    return false;
  }
  if (axis < 0)
    axis += rank;
  if (count(shape) == 0)
    return true;
  int64_t length = shape[axis];
  int64_t inner = strides(shape)[axis];
  int64_t outer = count(shape) / (length * inner);
  bool isFloat = ascendprec::runtime::isFloat(x.type());
  bool wide = x.type() == ElementType::F64;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < inner; ++k) {
      // Running sums in fp32 for f16/bf16/f32 (each output rounded to the
      // dtype), in fp64 for f64, exactly for integers.
      float sum = 0;
      double wideSum = 0;
      int64_t intSum = 0;
      auto store = [&](int64_t at) {
        if (!isFloat)
          y.setInt(at, intSum);
        else
          y.set(at, wide ? wideSum : static_cast<double>(sum));
      };
      for (int64_t s = 0; s < length; ++s) {
        int64_t step = reverse ? length - 1 - s : s;
        int64_t at = (o * length + step) * inner + k;
        if (exclusive)
          store(at);
        if (!isFloat)
          intSum += x.getInt(at);
        else if (wide)
          wideSum += x.get(at);
        else
          sum = sum + static_cast<float>(x.get(at));
        if (!exclusive)
          store(at);
      }
    }
  return true;
}
