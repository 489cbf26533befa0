//===- KernelReport.cpp - kernel estimates into the precision report ------===//

#include "AscendPrec/Dialect/Kernel/Analysis/KernelReport.h"
#include "AscendPrec/Dialect/Kernel/Analysis/KernelCost.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// The device time of `block`'s launches (report.kernels[launch index]), an
/// If counting its longer branch; the launches of each shorter branch are
/// marked as not counted. A Loop or Scan body counts once (its trip count
/// is a run-time value in general).
double blockUs(Block &block, const llvm::DenseMap<Operation *, size_t> &launchIndex,
               report::ReportData &report) {
  double total = 0;
  for (Operation &op : block) {
    if (auto found = launchIndex.find(&op); found != launchIndex.end()) {
      total += report.kernels[found->second].us;
      continue;
    }
    // By name: this analysis sits below the ascend dialect's library.
    if (op.getName().getStringRef() == "ascend.If" && op.getNumRegions() == 2) {
      Block &thenBlock = op.getRegion(0).front(), &elseBlock = op.getRegion(1).front();
      double thenUs = blockUs(thenBlock, launchIndex, report);
      double elseUs = blockUs(elseBlock, launchIndex, report);
      Block &shorter = thenUs >= elseUs ? elseBlock : thenBlock;
      shorter.walk([&](LaunchOp launch) {
        if (auto found = launchIndex.find(launch); found != launchIndex.end())
          report.kernels[found->second].counted = false;
      });
      total += std::max(thenUs, elseUs);
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &body : region)
        total += blockUs(body, launchIndex, report);
  }
  return total;
}

/// Marks the launches an If's shorter branch holds as not counted in the
/// totals (an If runs one branch on the device, chosen at run time).
void countLongerBranches(ModuleOp module, report::ReportData &report) {
  SymbolTable symbols(module);
  llvm::DenseMap<Operation *, size_t> launchIndex;
  size_t next = 0;
  // The order estimateModule gives its costs in.
  module.walk([&](LaunchOp launch) {
    if (symbols.lookup<KernelOp>(launch.getKernel()) && next < report.kernels.size())
      launchIndex[launch] = next++;
  });
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isExternal())
      blockUs(function.getBody().front(), launchIndex, report);
}

} // namespace

void ascendprec::kernel::attachKernelEstimates(ModuleOp module, report::ReportData &report) {
  auto target = module->getAttrOfType<TargetAttr>("akernel.target");
  if (!target)
    return;
  report.lowered = true;
  double freqMHz = std::max<int64_t>(target.getFreqMhz(), 1);
  // Bump-allocated: one entry per node of graphs of 100k+ nodes.
  llvm::StringMap<size_t, llvm::BumpPtrAllocator> nodeIndex;
  for (auto [index, node] : llvm::enumerate(report.nodes))
    nodeIndex.try_emplace(node.name, index);
  // Nodes whose first launch has been counted.
  llvm::StringSet<llvm::BumpPtrAllocator> timed;
  llvm::StringMap<bool, llvm::BumpPtrAllocator> insertedCast;
  for (const report::ReportNode &node : report.nodes)
    if (node.insertedCast)
      insertedCast[node.name] = true;

  for (KernelCost &cost : estimateModule(module)) {
    report::KernelEstimate estimate;
    estimate.engine = stringifyEngine(cost.engine).str();
    estimate.blockDim = cost.blockDim;
    estimate.us = cost.us;
    estimate.launchUs = cost.launchUs;
    estimate.cubeUs = cost.cubeCycles / freqMHz;
    estimate.vectorUs = cost.vectorCycles / freqMHz;
    estimate.moveUs = cost.moveCycles / freqMHz;
    estimate.node = cost.nodes.empty() ? cost.name : cost.nodes.front();
    estimate.castOnly = !cost.nodes.empty() &&
                        llvm::all_of(cost.nodes, [&](const std::string &node) {
                          return insertedCast.lookup(node);
                        });
    // The kernel's time goes on its first node (a fused kernel's cube op);
    // the other nodes it computes name it with 0. A node computed by
    // several launches (a reduction split into runs) adds their times and
    // names the first.
    for (auto [position, name] : llvm::enumerate(cost.nodes)) {
      auto found = nodeIndex.find(name);
      if (found == nodeIndex.end())
        continue;
      report::ReportNode &node = report.nodes[found->second];
      if (position == 0 && !timed.insert(name).second) {
        node.estUs = node.estUs.value_or(0.0) + cost.us;
        continue;
      }
      if (position != 0 && timed.contains(name))
        continue;
      node.kernel = cost.name;
      node.estUs = position == 0 ? cost.us : 0.0;
    }
    estimate.name = std::move(cost.name);
    estimate.nodes = std::move(cost.nodes);
    report.kernels.push_back(std::move(estimate));
  }
  countLongerBranches(module, report);
  module.walk([&](ViewOp view) {
    if (auto nodes = view->getAttrOfType<ArrayAttr>("nodes"))
      for (Attribute name : nodes) {
        auto found = nodeIndex.find(cast<StringAttr>(name).getValue());
        if (found != nodeIndex.end())
          report.nodes[found->second].estUs = 0.0;
      }
  });
  if (auto unlowered = module->getAttrOfType<ArrayAttr>("akernel.unlowered"))
    for (Attribute name : unlowered)
      report.unlowered.push_back(cast<StringAttr>(name).str());
}
