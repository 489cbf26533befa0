//===- ControlFlowRun.cpp - If, Loop and Scan on the host -----------------===//

#include "ControlFlowRun.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"
#include "AscendPrec/Execution/GraphRun.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cstring>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::ElementType;
using runtime::HostTensor;
using runtime::shapeText;

namespace {

std::string nameOf(Operation &op) {
  if (auto name = op.getAttrOfType<StringAttr>("name"))
    return name.str();
  return op.getName().getStringRef().str();
}

/// `tensor` as `value`'s host type; fails when its shape contradicts the
/// static dimensions `value` declares (later kernels were compiled for them).
bool bindValue(Value value, const HostTensor &tensor, ValueTensors &values, bool reference,
          const std::string &what, std::string &error) {
  auto type = cast<ShapedType>(value.getType());
  std::optional<ElementType> host = hostElementType(type.getElementType(), reference);
  if (!host) {
    error = what + " has an element type the host executor does not hold";
    return false;
  }
  if (type.hasRank()) {
    bool fits = static_cast<int64_t>(tensor.shape().size()) == type.getRank();
    for (int64_t d = 0; fits && d < type.getRank(); ++d)
      fits = type.isDynamicDim(d) || type.getDimSize(d) == tensor.shape()[d];
    if (!fits) {
      std::string declared;
      llvm::raw_string_ostream os(declared);
      os << value.getType();
      error = what + " is " + shapeText(tensor.shape()) + " at run time, but the plan has it as " +
              declared;
      return false;
    }
  }
  values[value] = tensor.convertedTo(*host);
  return true;
}

/// Runs `block` with `arguments` bound to its arguments; `yielded` gets what
/// its terminator yields. Whatever the block defines is dropped as soon as
/// nothing later needs it, and all of it by the end.
bool runBlock(Block &block, ArrayRef<HostTensor> arguments, ValueTensors &values, OpRunner runOp,
              bool reference, const std::string &where, std::vector<HostTensor> &yielded,
              std::string &error) {
  for (auto [argument, tensor] : llvm::zip(block.getArguments(), arguments))
    if (!bindValue(argument, tensor, values, reference,
                   where + " argument " + std::to_string(argument.getArgNumber()), error))
      return false;
  llvm::DenseMap<Operation *, SmallVector<Value>> freeAfter = valuesDyingAt(block);
  bool ok = true;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      yielded.clear();
      for (Value value : op.getOperands())
        yielded.push_back(values.lookup(value));
      break;
    }
    if (!runOp(op, error)) {
      ok = false;
      break;
    }
    if (auto dying = freeAfter.find(&op); dying != freeAfter.end())
      for (Value value : dying->second)
        values.erase(value);
  }
  for (BlockArgument argument : block.getArguments())
    values.erase(argument);
  for (Operation &op : block)
    for (Value result : op.getResults())
      values.erase(result);
  return ok;
}

/// Offsets of one index along `axis`: the elements before the axis (outer),
/// and the bytes of one step along it (inner).
struct AxisSplit {
  int64_t outer = 1;
  size_t innerBytes = 0;
};
AxisSplit splitAt(const std::vector<int64_t> &shape, int64_t axis, ElementType type) {
  AxisSplit split;
  for (int64_t d = 0; d < axis; ++d)
    split.outer *= shape[d];
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d)
    inner *= shape[d];
  split.innerBytes = static_cast<size_t>(inner) * runtime::elementBytes(type);
  return split;
}

/// Index `index` of `tensor` along `axis`, that axis removed.
HostTensor sliceAlong(const HostTensor &tensor, int64_t axis, int64_t index) {
  std::vector<int64_t> shape = tensor.shape();
  int64_t length = shape[axis];
  AxisSplit split = splitAt(shape, axis, tensor.type());
  shape.erase(shape.begin() + axis);
  HostTensor slice = HostTensor::uninitialized(tensor.type(), shape);
  for (int64_t o = 0; o < split.outer; ++o)
    std::memcpy(slice.data() + o * split.innerBytes,
                tensor.data() + (o * length + index) * split.innerBytes, split.innerBytes);
  return slice;
}

/// The slices stacked along a new `axis`, in order; `empty` (the slice
/// shape) when there are none.
HostTensor stackAlong(const std::vector<HostTensor> &slices, int64_t axis, ElementType type,
                      std::vector<int64_t> emptySlice) {
  std::vector<int64_t> shape = slices.empty() ? std::move(emptySlice) : slices[0].shape();
  int64_t length = static_cast<int64_t>(slices.size());
  shape.insert(shape.begin() + axis, length);
  AxisSplit split = splitAt(shape, axis, type);
  HostTensor stacked = HostTensor::uninitialized(type, shape);
  for (int64_t j = 0; j < length; ++j)
    for (int64_t o = 0; o < split.outer; ++o)
      std::memcpy(stacked.data() + (o * length + j) * split.innerBytes,
                  slices[j].data() + o * split.innerBytes, split.innerBytes);
  return stacked;
}

/// The single element of a condition or trip count.
std::optional<int64_t> scalarOf(const HostTensor &tensor, const std::string &what,
                                std::string &error) {
  if (tensor.numElements() != 1) {
    error = what + " has " + std::to_string(tensor.numElements()) + " elements, not one";
    return std::nullopt;
  }
  return tensor.getInt(0);
}

HostTensor scalarTensor(ElementType type, int64_t value) {
  HostTensor tensor(type, {});
  tensor.setInt(0, value);
  return tensor;
}

/// A result's slice shape for a scan output that got no slices: the static
/// dimensions of `result` without `axis`, 0 where dynamic.
std::vector<int64_t> emptySliceShape(Value result, int64_t axis) {
  auto type = dyn_cast<RankedTensorType>(result.getType());
  std::vector<int64_t> shape;
  if (!type)
    return shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != axis)
      shape.push_back(type.isDynamicDim(d) ? 0 : type.getDimSize(d));
  return shape;
}

/// Binds a Loop's or Scan's results: the final carried values, then each
/// scan output's slices stacked along `axisOf(k, rank)` (rank: the stacked
/// result's).
bool bindLoopResults(Operation &op, const std::string &what, ArrayRef<HostTensor> carried,
                     ArrayRef<std::vector<HostTensor>> scans,
                     llvm::function_ref<int64_t(size_t, int64_t)> axisOf, ValueTensors &values,
                     bool reference, std::string &error) {
  for (auto [k, tensor] : llvm::enumerate(carried))
    if (!bindValue(op.getResult(k), tensor, values, reference,
                   what + " output " + std::to_string(k), error))
      return false;
  for (auto [k, slices] : llvm::enumerate(scans)) {
    Value result = op.getResult(carried.size() + k);
    auto type = cast<ShapedType>(result.getType());
    int64_t rank = type.hasRank() ? type.getRank()
                   : slices.empty() ? 1
                                    : static_cast<int64_t>(slices[0].shape().size()) + 1;
    int64_t axis = axisOf(k, rank);
    ElementType element = slices.empty()
                              ? *hostElementType(type.getElementType(), reference)
                              : slices[0].type();
    HostTensor stacked = stackAlong(slices, axis, element, emptySliceShape(result, axis));
    if (!bindValue(result, stacked, values, reference,
                   what + " scan output " + std::to_string(k), error))
      return false;
  }
  return true;
}

bool runIf(ascend::IfOp op, ValueTensors &values, OpRunner runOp, bool reference,
           std::string &error) {
  std::string name = nameOf(*op);
  std::optional<int64_t> cond =
      scalarOf(values.lookup(op.getCond()), "the condition of If '" + name + "'", error);
  if (!cond)
    return false;
  Region &branch = *cond ? op.getThenBranch() : op.getElseBranch();
  std::string where = "If '" + name + "' (" + (*cond ? "then" : "else") + " branch)";
  std::vector<HostTensor> yielded;
  if (!runBlock(branch.front(), {}, values, runOp, reference, where, yielded, error)) {
    error = where + ": " + error;
    return false;
  }
  for (auto [result, tensor] : llvm::zip(op.getResults(), yielded))
    if (!bindValue(result, tensor, values, reference,
                   where + " output " + std::to_string(result.getResultNumber()), error))
      return false;
  return true;
}

bool runLoop(ascend::LoopOp op, ValueTensors &values, OpRunner runOp, bool reference,
             std::string &error) {
  std::string name = nameOf(*op);
  std::optional<int64_t> trips, cond;
  if (Value maxTrips = op.getMaxTripCount())
    if (!(trips = scalarOf(values.lookup(maxTrips), "the trip count of Loop '" + name + "'",
                           error)))
      return false;
  if (Value condition = op.getCondition())
    if (!(cond = scalarOf(values.lookup(condition), "the condition of Loop '" + name + "'",
                          error)))
      return false;
  std::vector<HostTensor> carried;
  for (Value initial : op.getInitial())
    carried.push_back(values.lookup(initial));
  size_t numCarried = carried.size();
  size_t numScans = op.getNumResults() - numCarried;
  std::vector<std::vector<HostTensor>> scans(numScans);
  Block &body = op.getBody().front();
  for (int64_t i = 0; (!trips || i < *trips) && (!cond || *cond); ++i) {
    std::vector<HostTensor> arguments = {scalarTensor(ElementType::I64, i),
                                         scalarTensor(ElementType::I1, cond.value_or(1))};
    arguments.insert(arguments.end(), carried.begin(), carried.end());
    std::vector<HostTensor> yielded;
    std::string where = "Loop '" + name + "' (iteration " + std::to_string(i) + ")";
    if (!runBlock(body, arguments, values, runOp, reference, where, yielded, error)) {
      error = where + ": " + error;
      return false;
    }
    if (yielded.size() != 1 + numCarried + numScans) {
      error = where + ": its body yields " + std::to_string(yielded.size()) + " values, not " +
              std::to_string(1 + numCarried + numScans);
      return false;
    }
    if (!(cond = scalarOf(yielded[0], where + ": the next condition", error)))
      return false;
    for (size_t k = 0; k < numCarried; ++k)
      carried[k] = yielded[1 + k];
    for (size_t k = 0; k < numScans; ++k)
      scans[k].push_back(yielded[1 + numCarried + k]);
  }
  return bindLoopResults(
      *op, "Loop '" + name + "'", carried, scans, [](size_t, int64_t) { return int64_t(0); },
      values, reference, error);
}

int64_t attrAt(std::optional<ArrayRef<int64_t>> values, size_t index) {
  return values && index < values->size() ? (*values)[index] : 0;
}

bool runScan(ascend::ScanOp op, ValueTensors &values, OpRunner runOp, bool reference,
             std::string &error) {
  std::string name = nameOf(*op);
  std::vector<HostTensor> states;
  for (Value initial : op.getInitial())
    states.push_back(values.lookup(initial));
  std::vector<HostTensor> inputs;
  std::vector<int64_t> inputAxes;
  int64_t length = -1;
  for (auto [k, input] : llvm::enumerate(op.getScanInputs())) {
    HostTensor tensor = values.lookup(input);
    int64_t rank = static_cast<int64_t>(tensor.shape().size());
    int64_t axis = attrAt(op.getScanInputAxes(), k);
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank) {
      error = "Scan '" + name + "': scan input " + std::to_string(k) + " has no axis " +
              std::to_string(attrAt(op.getScanInputAxes(), k));
      return false;
    }
    if (length >= 0 && tensor.shape()[axis] != length) {
      error = "Scan '" + name + "': its scan inputs differ in length (" + std::to_string(length) +
              " and " + std::to_string(tensor.shape()[axis]) + ")";
      return false;
    }
    length = tensor.shape()[axis];
    inputs.push_back(tensor);
    inputAxes.push_back(axis);
  }
  size_t numStates = states.size();
  size_t numScans = op.getNumResults() - numStates;
  std::vector<std::vector<HostTensor>> scans(numScans);
  Block &body = op.getBody().front();
  for (int64_t t = 0; t < std::max<int64_t>(length, 0); ++t) {
    std::vector<HostTensor> arguments = states;
    for (size_t k = 0; k < inputs.size(); ++k) {
      bool reverse = attrAt(op.getScanInputDirections(), k) != 0;
      arguments.push_back(sliceAlong(inputs[k], inputAxes[k], reverse ? length - 1 - t : t));
    }
    std::vector<HostTensor> yielded;
    std::string where = "Scan '" + name + "' (step " + std::to_string(t) + ")";
    if (!runBlock(body, arguments, values, runOp, reference, where, yielded, error)) {
      error = where + ": " + error;
      return false;
    }
    for (size_t k = 0; k < numStates; ++k)
      states[k] = yielded[k];
    for (size_t k = 0; k < numScans; ++k)
      scans[k].push_back(yielded[numStates + k]);
  }
  for (size_t k = 0; k < numScans; ++k)
    if (attrAt(op.getScanOutputDirections(), k) != 0)
      std::reverse(scans[k].begin(), scans[k].end());
  auto outputAxis = [&](size_t k, int64_t rank) {
    int64_t axis = attrAt(op.getScanOutputAxes(), k);
    return axis < 0 ? axis + rank : axis;
  };
  return bindLoopResults(*op, "Scan '" + name + "'", states, scans, outputAxis, values,
                         reference, error);
}

} // namespace

llvm::DenseMap<Operation *, SmallVector<Value>> exec::valuesDyingAt(Block &block) {
  llvm::DenseMap<Value, Operation *> lastUse;
  for (Operation &op : block) {
    for (Value result : op.getResults())
      lastUse[result] = &op; // unused: gone right after it is made
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue; // what the block ends with stays for its caller
    op.walk([&](Operation *user) {
      for (Value operand : user->getOperands())
        if (operand.getParentBlock() == &block)
          lastUse[operand] = &op;
    });
  }
  if (Operation *terminator = block.empty() ? nullptr : &block.back())
    for (Value operand : terminator->getOperands())
      lastUse.erase(operand);
  llvm::DenseMap<Operation *, SmallVector<Value>> dying;
  for (auto &[value, op] : lastUse)
    dying[op].push_back(value);
  return dying;
}

bool exec::isControlFlow(Operation &op) {
  return isa<ascend::IfOp, ascend::LoopOp, ascend::ScanOp>(op);
}

bool exec::runControlFlow(Operation &op, ValueTensors &values, OpRunner runOp, bool reference,
                          std::string &error) {
  if (auto ifOp = dyn_cast<ascend::IfOp>(op))
    return runIf(ifOp, values, runOp, reference, error);
  if (auto loop = dyn_cast<ascend::LoopOp>(op))
    return runLoop(loop, values, runOp, reference, error);
  if (auto scan = dyn_cast<ascend::ScanOp>(op))
    return runScan(scan, values, runOp, reference, error);
  error = "'" + op.getName().getStringRef().str() + "' is not control flow";
  return false;
}
