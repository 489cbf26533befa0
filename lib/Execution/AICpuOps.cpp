//===- AICpuOps.cpp - AI CPU kernels run on the host ----------------------===//

#include "AscendPrec/Execution/AICpuOps.h"
#include "AscendPrec/Execution/Einsum.h"
#include "AICpuMaxPool.h"

#include "IndexMovement.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::ElementType;
using runtime::HostTensor;

namespace {

using FloatFn = std::function<double(double, double)>;
using IntFn = std::function<int64_t(int64_t, int64_t)>;

struct Elementwise {
  unsigned arity;
  FloatFn onFloats;
  IntFn onIntegers; ///< empty: integer data is not supported
};

int64_t floorMod(int64_t a, int64_t b) {
  if (b == 0)
    return 0; // the device's result is undocumented (docs/decisions.md)
  int64_t r = a % b;
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

const llvm::StringMap<Elementwise> &elementwiseOps() {
  static const llvm::StringMap<Elementwise> ops = {
      {"Add", {2, [](double a, double b) { return a + b; }, [](int64_t a, int64_t b) { return a + b; }}},
      {"Sub", {2, [](double a, double b) { return a - b; }, [](int64_t a, int64_t b) { return a - b; }}},
      {"Mul", {2, [](double a, double b) { return a * b; }, [](int64_t a, int64_t b) { return a * b; }}},
      {"RealDiv", {2, [](double a, double b) { return a / b; },
                   [](int64_t a, int64_t b) { return b ? a / b : 0; }}},
      {"Div", {2, [](double a, double b) { return a / b; },
               [](int64_t a, int64_t b) { return b ? a / b : 0; }}},
      {"Maximum", {2, [](double a, double b) { return std::isnan(a) || a > b ? a : b; },
                   [](int64_t a, int64_t b) { return std::max(a, b); }}},
      {"Minimum", {2, [](double a, double b) { return std::isnan(a) || a < b ? a : b; },
                   [](int64_t a, int64_t b) { return std::min(a, b); }}},
      // Mod truncates (C's fmod), FloorMod takes the divisor's sign.
      {"Mod", {2, [](double a, double b) { return std::fmod(a, b); },
               [](int64_t a, int64_t b) { return b ? a % b : 0; }}},
      {"FloorMod", {2, [](double a, double b) {
                      double r = std::fmod(a, b);
                      return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
                    },
                    floorMod}},
      {"Pow", {2, [](double a, double b) { return std::pow(a, b); }, {}}},
      {"Neg", {1, [](double a, double) { return -a; }, [](int64_t a, int64_t) { return -a; }}},
      {"Abs", {1, [](double a, double) { return std::fabs(a); },
               [](int64_t a, int64_t) { return a < 0 ? -a : a; }}},
      {"Relu", {1, [](double a, double) { return a > 0 || std::isnan(a) ? a : 0.0; },
                [](int64_t a, int64_t) { return std::max<int64_t>(a, 0); }}},
      {"Sqrt", {1, [](double a, double) { return std::sqrt(a); }, {}}},
      {"Exp", {1, [](double a, double) { return std::exp(a); }, {}}},
      {"Log", {1, [](double a, double) { return std::log(a); }, {}}},
      {"Sin", {1, [](double a, double) { return std::sin(a); }, {}}},
      {"Cos", {1, [](double a, double) { return std::cos(a); }, {}}},
      {"Tanh", {1, [](double a, double) { return std::tanh(a); }, {}}},
      {"Sigmoid", {1, [](double a, double) { return 1 / (1 + std::exp(-a)); }, {}}},
      {"Floor", {1, [](double a, double) { return std::floor(a); }, {}}},
      {"Ceil", {1, [](double a, double) { return std::ceil(a); }, {}}},
      {"Round", {1, [](double a, double) { return std::nearbyint(a); }, {}}},
      {"Reciprocal", {1, [](double a, double) { return 1 / a; }, {}}},
      {"Sign", {1, [](double a, double) { return a > 0 ? 1.0 : a < 0 ? -1.0 : a; },
                [](int64_t a, int64_t) { return int64_t(a > 0) - int64_t(a < 0); }}},
      // Unsigned shifts (ONNX BitShift): the bits as uint64, a shift of 64 or
      // more gives 0; the result is cut to the output's width when stored.
      {"LeftShift", {2, {}, [](int64_t a, int64_t b) {
                       auto bits = static_cast<uint64_t>(a), by = static_cast<uint64_t>(b);
                       return static_cast<int64_t>(by >= 64 ? 0 : bits << by);
                     }}},
      {"RightShift", {2, {}, [](int64_t a, int64_t b) {
                        auto bits = static_cast<uint64_t>(a), by = static_cast<uint64_t>(b);
                        return static_cast<int64_t>(by >= 64 ? 0 : bits >> by);
                      }}},
  };
  return ops;
}

/// The element of `input` that output element `index` (row-major in
/// `shape`) reads under NumPy broadcasting.
int64_t broadcastIndex(const HostTensor &input, const std::vector<int64_t> &shape, int64_t index) {
  const std::vector<int64_t> &dims = input.shape();
  int64_t offset = 0, stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1, e = static_cast<int64_t>(dims.size()) - 1;
       d >= 0; --d, --e) {
    int64_t position = index % shape[d];
    index /= shape[d];
    if (e < 0)
      continue;
    if (dims[e] != 1)
      offset += position * stride;
    stride *= dims[e];
  }
  return offset;
}

bool broadcastsTo(const std::vector<int64_t> &dims, const std::vector<int64_t> &shape) {
  if (dims.size() > shape.size())
    return false;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t dim = dims[dims.size() - 1 - i], target = shape[shape.size() - 1 - i];
    if (dim != 1 && dim != target)
      return false;
  }
  return true;
}

} // namespace

namespace {

std::vector<int64_t> shapeOf(Value buffer) {
  auto type = cast<ShapedType>(buffer.getType());
  return std::vector<int64_t>(type.getShape().begin(), type.getShape().end());
}

/// An Einsum's equation planned against its buffers' shapes.
std::optional<EinsumPlan> einsumPlanOf(kernel::AICPUCallOp op, std::string &why) {
  auto equation = op.getAttrs() ? op.getAttrs()->getAs<StringAttr>("equation") : StringAttr();
  if (!equation) {
    why = "an AI CPU Einsum without its equation";
    return std::nullopt;
  }
  std::vector<std::vector<int64_t>> shapes;
  for (Value buffer : op.getBuffers().drop_back())
    shapes.push_back(shapeOf(buffer));
  std::optional<EinsumPlan> plan = planEinsum(equation.getValue(), shapes, why);
  if (!plan) {
    why = "an AI CPU Einsum whose equation '" + equation.getValue().str() +
          "' the host cannot run: " + why;
    return std::nullopt;
  }
  if (plan->outputShape != shapeOf(op.getBuffers().back())) {
    why = "an AI CPU Einsum whose output buffer does not have the equation's shape";
    return std::nullopt;
  }
  return plan;
}

} // namespace

/// A Cumsum's flag (`exclusive`, `reverse`) from the kernel's attributes.
bool cumsumFlag(kernel::AICPUCallOp op, StringRef name) {
  auto flag = op.getAttrs() ? op.getAttrs()->getAs<BoolAttr>(name) : BoolAttr();
  return flag && flag.getValue();
}

/// An integer attribute of the kernel (ReverseSequence's dims).
int64_t intAttrOf(kernel::AICPUCallOp op, StringRef name) {
  auto value = op.getAttrs() ? op.getAttrs()->getAs<IntegerAttr>(name) : IntegerAttr();
  return value ? value.getInt() : 0;
}

/// ReverseSequence: per batch entry, the first seq_lengths[b] elements
/// along seq_dim reversed, the rest copied (exact).
bool runReverseSequence(kernel::AICPUCallOp op, const HostTensor &x, const HostTensor &lengths,
                        HostTensor &y, std::string &error) {
  const std::vector<int64_t> &shape = x.shape();
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t seqDim = intAttrOf(op, "seq_dim"), batchDim = intAttrOf(op, "batch_dim");
  seqDim += seqDim < 0 ? rank : 0;
  batchDim += batchDim < 0 ? rank : 0;
  std::vector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  size_t width = runtime::elementBytes(x.type());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t batch = (i / strides[batchDim]) % shape[batchDim];
    int64_t position = (i / strides[seqDim]) % shape[seqDim];
    int64_t length = lengths.getInt(batch);
    if (length < 0 || length > shape[seqDim]) {
      error = "ReverseSequence: seq_lengths[" + std::to_string(batch) + "] = " +
              std::to_string(length) + " is outside [0, " + std::to_string(shape[seqDim]) + "]";
      return false;
    }
    int64_t source = i;
    if (position < length)
      source += (length - 1 - 2 * position) * strides[seqDim];
    std::memcpy(y.data() + i * width, x.data() + source * width, width);
  }
  return true;
}

/// MatrixDeterminant: LU with partial pivoting in double per matrix, each
/// determinant rounded once to y's dtype.
void runDeterminant(const HostTensor &x, HostTensor &y) {
  int64_t m = x.shape().back();
  std::vector<double> a(static_cast<size_t>(m * m));
  for (int64_t k = 0; k < y.numElements(); ++k) {
    for (int64_t e = 0; e < m * m; ++e)
      a[e] = x.get(k * m * m + e);
    double det = 1.0;
    for (int64_t c = 0; c < m && det != 0.0; ++c) {
      int64_t pivot = c;
      for (int64_t r = c + 1; r < m; ++r)
        if (std::abs(a[r * m + c]) > std::abs(a[pivot * m + c]))
          pivot = r;
      if (a[pivot * m + c] == 0.0) {
        det = 0.0;
        break;
      }
      if (pivot != c) {
        for (int64_t j = 0; j < m; ++j)
          std::swap(a[c * m + j], a[pivot * m + j]);
        det = -det;
      }
      det *= a[c * m + c];
      for (int64_t r = c + 1; r < m; ++r) {
        double factor = a[r * m + c] / a[c * m + c];
        for (int64_t j = c; j < m; ++j)
          a[r * m + j] -= factor * a[c * m + j];
      }
    }
    y.set(k, det);
  }
}

bool exec::canRunAICpu(kernel::AICPUCallOp op, unsigned numOutputs, std::string &why) {
  if (op.getOpType() == "ReverseSequence" || op.getOpType() == "MatrixDeterminant") {
    size_t inputs = op.getOpType() == "ReverseSequence" ? 2 : 1;
    if (numOutputs == 1 && op.getBuffers().size() == inputs + 1)
      return true;
    why = "an AI CPU " + op.getOpType().str() + " with " +
          std::to_string(op.getBuffers().size()) + " buffers";
    return false;
  }
  if (op.getOpType() == "Einsum")
    return numOutputs == 1 && einsumPlanOf(op, why).has_value();
  if (op.getOpType() == "MaxPool") {
    if (numOutputs == 1 && op.getBuffers().size() == 2)
      return true;
    why = "an AI CPU MaxPool with " + std::to_string(op.getBuffers().size()) + " buffers";
    return false;
  }
  if (op.getOpType() == "Cumsum") {
    // x, axis (read when the kernel runs), y.
    if (numOutputs == 1 && op.getBuffers().size() == 3 &&
        isa<IntegerType>(getElementTypeOrSelf(op.getBuffers()[1].getType())))
      return true;
    why = "an AI CPU Cumsum whose buffers are not x, an integer axis and y";
    return false;
  }
  auto found = elementwiseOps().find(op.getOpType());
  if (found == elementwiseOps().end()) {
    why = "an AI CPU kernel (" + op.getOpType().str() +
          "), which the host runs only for elementwise ops, Einsum and Cumsum";
    return false;
  }
  if (numOutputs != 1 || op.getBuffers().size() != found->second.arity + 1) {
    why = "an AI CPU " + op.getOpType().str() + " with " +
          std::to_string(op.getBuffers().size()) + " buffers (expected " +
          std::to_string(found->second.arity) + " inputs and one output)";
    return false;
  }
  Type element = getElementTypeOrSelf(op.getBuffers().back().getType());
  if (isa<IntegerType>(element) && !found->second.onIntegers) {
    why = "an AI CPU " + op.getOpType().str() + " on integers, which the host does not run";
    return false;
  }
  if (!isa<IntegerType>(element) && !found->second.onFloats) {
    why = "an AI CPU " + op.getOpType().str() + " on floats, which the host does not run";
    return false;
  }
  return true;
}

bool exec::runAICpu(kernel::AICPUCallOp op, ArrayRef<const HostTensor *> inputs,
                    ArrayRef<HostTensor *> outputs, std::string &error) {
  std::string why;
  if (op.getOpType() == "ReverseSequence" || op.getOpType() == "MatrixDeterminant") {
    if (!canRunAICpu(op, outputs.size(), error) || inputs.size() != op.getBuffers().size() - 1)
      return false;
    if (op.getOpType() == "MatrixDeterminant") {
      runDeterminant(*inputs[0], *outputs.front());
      return true;
    }
    return runReverseSequence(op, *inputs[0], *inputs[1], *outputs.front(), error);
  }
  if (op.getOpType() == "MaxPool") {
    if (!canRunAICpu(op, outputs.size(), error) || inputs.size() != 1)
      return false;
    return runAICpuMaxPool(op, *inputs[0], *outputs.front(), error);
  }
  if (op.getOpType() == "Cumsum") {
    if (!canRunAICpu(op, outputs.size(), error) || inputs.size() != 2)
      return false;
    return runCumsum(*inputs[0], inputs[1]->getInt(0), cumsumFlag(op, "exclusive"),
                     cumsumFlag(op, "reverse"), *outputs.front(), error);
  }
  bool einsum = op.getOpType() == "Einsum";
  // An Einsum's check is its plan: planned once, then run.
  std::optional<EinsumPlan> plan;
  if (einsum && outputs.size() == 1)
    plan = einsumPlanOf(op, why);
  bool runnable = einsum ? plan.has_value() : canRunAICpu(op, outputs.size(), why);
  if (!runnable || inputs.size() != op.getBuffers().size() - 1) {
    error = why.empty() ? "the launch does not match the AI CPU kernel" : why;
    return false;
  }
  if (plan) {
    runEinsum(*plan, inputs, *outputs.front());
    return true;
  }
  const Elementwise &fn = elementwiseOps().find(op.getOpType())->second;
  HostTensor &output = *outputs.front();
  for (const HostTensor *input : inputs)
    if (!broadcastsTo(input->shape(), output.shape())) {
      error = op.getOpType().str() + ": an input does not broadcast to the output's shape";
      return false;
    }
  bool integers = !runtime::isFloat(output.type()) && fn.onIntegers;
  // Unsigned results wrap around their width (a uint8 200 << 1 is 144).
  uint64_t wrap = ~uint64_t(0);
  ElementType out = output.type();
  if (out == ElementType::U8 || out == ElementType::U16 || out == ElementType::U32)
    wrap = (uint64_t(1) << (8 * runtime::elementBytes(out))) - 1;
  for (int64_t i = 0; i < output.numElements(); ++i) {
    int64_t a = broadcastIndex(*inputs[0], output.shape(), i);
    int64_t b = fn.arity > 1 ? broadcastIndex(*inputs[1], output.shape(), i) : 0;
    if (integers) {
      int64_t value =
          fn.onIntegers(inputs[0]->getInt(a), fn.arity > 1 ? inputs[1]->getInt(b) : 0);
      if (wrap != ~uint64_t(0))
        value = static_cast<int64_t>(static_cast<uint64_t>(value) & wrap);
      output.setInt(i, value);
    } else {
      output.set(i, fn.onFloats(inputs[0]->get(a), fn.arity > 1 ? inputs[1]->get(b) : 0.0));
    }
  }
  return true;
}
