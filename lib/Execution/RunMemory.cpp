//===- RunMemory.cpp - how much memory a run of a plan needs ---------------===//

#include "AscendPrec/Execution/RunMemory.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <fstream>
#include <sstream>

using namespace mlir;
using namespace ascendprec;

namespace {

// LLVM's saturating arithmetic: a peak past 2^64 reads as UINT64_MAX.
uint64_t saturatingAdd(uint64_t a, uint64_t b) { return llvm::SaturatingAdd(a, b); }
uint64_t saturatingMul(uint64_t a, uint64_t b) { return llvm::SaturatingMultiply(a, b); }

/// The bytes a value of `type` takes on the host, in the plan and in the
/// reference (where f16/bf16 widen to f32); 0 for what is not a tensor.
std::pair<uint64_t, uint64_t> bytesOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return {0, 0};
  uint64_t elements = 1;
  for (int64_t dim : shaped.getShape())
    elements = saturatingMul(elements, dim < 0 ? 1 : static_cast<uint64_t>(dim));
  Type element = shaped.getElementType();
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  uint64_t width = std::max<uint64_t>(1, (bits + 7) / 8);
  uint64_t referenceWidth = (element.isF16() || element.isBF16()) ? 4 : width;
  return {saturatingMul(elements, width), saturatingMul(elements, referenceWidth)};
}

std::string describe(Value value, func::FuncOp graph) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto name = graph.getArgAttrOfType<StringAttr>(argument.getArgNumber(), "ascend.name");
    os << "input '" << (name ? name.getValue() : StringRef("?")) << "'";
  } else if (Operation *op = value.getDefiningOp()) {
    StringRef node;
    if (auto nodes = op->getAttrOfType<ArrayAttr>("nodes"); nodes && !nodes.empty())
      node = cast<StringAttr>(nodes[0]).getValue();
    else if (auto name = op->getAttrOfType<StringAttr>("name"))
      node = name.getValue();
    os << "the result of node '" << node << "'";
  }
  os << " (" << value.getType() << ")";
  return text;
}

} // namespace

exec::RunMemoryEstimate exec::estimateRunMemory(func::FuncOp graph, bool withReference) {
  RunMemoryEstimate estimate;
  if (graph.getBody().empty())
    return estimate;
  Block &body = graph.getBody().front();
  // The position of each value's last use among the body's ops (a use
  // inside an If/Loop/Scan counts at the op that holds it); the return
  // keeps the outputs to the end.
  llvm::DenseMap<Operation *, size_t> position;
  size_t index = 0;
  for (Operation &op : body)
    position[&op] = index++;
  llvm::DenseMap<Value, size_t> lastUse;
  auto noteUses = [&](Operation &top) {
    top.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        lastUse[operand] = std::max(lastUse.lookup(operand), position[&top]);
    });
  };
  for (Operation &op : body)
    noteUses(op);

  auto cost = [&](Value value) {
    auto [plan, reference] = bytesOf(value.getType());
    if (plan > estimate.largestBytes) {
      estimate.largestBytes = plan;
      estimate.largestValue = describe(value, graph);
    }
    return withReference ? saturatingAdd(plan, reference) : plan;
  };
  // Values freed at each position, and what is alive.
  std::vector<uint64_t> freedAt(index + 1, 0);
  uint64_t live = 0, peak = 0;
  auto define = [&](Value value) {
    uint64_t bytes = cost(value);
    live = saturatingAdd(live, bytes);
    size_t last = lastUse.count(value) ? lastUse[value] : position.size();
    freedAt[last] = saturatingAdd(freedAt[last], bytes);
  };
  for (BlockArgument argument : body.getArguments())
    define(argument);
  peak = live;
  size_t at = 0;
  for (Operation &op : body) {
    for (Value result : op.getResults())
      define(result);
    // A region op's own values, at their largest, while it runs.
    uint64_t inner = 0;
    for (Region &region : op.getRegions())
      region.walk([&](Operation *nested) {
        for (Value result : nested->getResults())
          inner = saturatingAdd(inner, cost(result));
      });
    peak = std::max(peak, saturatingAdd(live, inner));
    live = live >= freedAt[at] ? live - freedAt[at] : 0;
    ++at;
  }
  estimate.peakBytes = peak;
  return estimate;
}

std::optional<uint64_t> exec::availableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    uint64_t kilobytes = 0;
    if (fields >> key >> kilobytes && key == "MemAvailable:")
      return saturatingMul(kilobytes, 1024);
  }
  return std::nullopt;
}

std::string exec::formatBytes(uint64_t bytes) {
  const char *units[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (unit == 0)
    os << bytes << " bytes";
  else
    os << llvm::format("%.3g", value) << " " << units[unit];
  return text;
}
