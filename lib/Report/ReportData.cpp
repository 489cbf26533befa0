//===- ReportData.cpp - counts over the report's nodes --------------------===//

#include "AscendPrec/Report/Report.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdio>
#include <set>

using namespace ascendprec::report;

size_t ReportData::plannedCount() const {
  return llvm::count_if(nodes, [](const ReportNode &n) { return !n.insertedCast; });
}

std::string ascendprec::report::displayName(const ReportNode &node) {
  if (node.absorbed.empty())
    return node.name;
  std::string text = node.name + " (+";
  for (size_t i = 0; i < node.absorbed.size(); ++i)
    text += (i ? ", " : "") + node.absorbed[i];
  return text + ")";
}

std::map<std::string, int64_t> ReportData::graphFusionsByPass() const {
  std::map<std::string, int64_t> counts;
  for (const ReportNode &node : nodes)
    for (const std::string &pass : node.fusedBy)
      ++counts[pass];
  return counts;
}

std::map<std::string, int64_t> ReportData::bufferGroupsByPass() const {
  std::map<std::string, int64_t> counts;
  // A group counts once, at its cube op (the group is named after it).
  for (const ReportNode &node : nodes)
    if (!node.bufferPass.empty() && node.bufferGroup == node.name)
      ++counts[node.bufferPass];
  return counts;
}

int64_t ReportData::castsInBufferGroups() const {
  return llvm::count_if(
      nodes, [](const ReportNode &n) { return n.insertedCast && !n.bufferGroup.empty(); });
}

std::map<std::string, int64_t> ReportData::fusionsByPass() const {
  std::map<std::string, int64_t> counts = graphFusionsByPass();
  for (const auto &[pass, count] : bufferGroupsByPass())
    counts[pass] += count;
  return counts;
}

size_t ReportData::genericCount() const {
  return llvm::count_if(nodes,
                        [](const ReportNode &n) { return n.generic && n.unshapedBranch.empty(); });
}

size_t ReportData::unshapedBranchCount() const {
  return llvm::count_if(nodes, [](const ReportNode &n) { return !n.unshapedBranch.empty(); });
}

size_t ReportData::distinctKernels() const {
  std::set<std::string> names;
  for (const KernelEstimate &kernel : kernels)
    names.insert(kernel.name);
  return names.size();
}

namespace {

/// The sum of `field` over the launches in the totals (each If's longer
/// branch), only those computing nothing but inserted Casts if `castsOnly`.
double sumOfCounted(const std::vector<KernelEstimate> &kernels, double KernelEstimate::*field,
                    bool castsOnly = false) {
  double total = 0;
  for (const KernelEstimate &kernel : kernels)
    if (kernel.counted && (!castsOnly || kernel.castOnly))
      total += kernel.*field;
  return total;
}

} // namespace

double ReportData::estDeviceUs() const { return sumOfCounted(kernels, &KernelEstimate::us); }

size_t ReportData::uncountedLaunches() const {
  return static_cast<size_t>(llvm::count_if(
      kernels, [](const KernelEstimate &kernel) { return !kernel.counted; }));
}

double ReportData::estCastUs() const {
  return sumOfCounted(kernels, &KernelEstimate::us, /*castsOnly=*/true);
}

double ReportData::estLaunchUs() const {
  return sumOfCounted(kernels, &KernelEstimate::launchUs);
}

size_t ReportData::countedLaunches() const {
  return kernels.size() - uncountedLaunches();
}

std::map<std::string, double> ReportData::estUsByEngine() const {
  std::map<std::string, double> byEngine;
  for (const KernelEstimate &kernel : kernels)
    if (kernel.counted)
      byEngine[kernel.engine] += kernel.us;
  return byEngine;
}

std::vector<const KernelEstimate *> ReportData::longestKernels(size_t count) const {
  std::vector<const KernelEstimate *> sorted;
  for (const KernelEstimate &kernel : kernels)
    if (kernel.counted)
      sorted.push_back(&kernel);
  // A partial sort: a large model has a kernel per op.
  count = std::min(count, sorted.size());
  std::partial_sort(sorted.begin(), sorted.begin() + count, sorted.end(),
                    [](const KernelEstimate *a, const KernelEstimate *b) {
                      return a->us != b->us ? a->us > b->us : a < b;
                    });
  sorted.resize(count);
  return sorted;
}

std::string ascendprec::report::formatUs(double us) {
  char text[32];
  if (us >= 1000.0)
    std::snprintf(text, sizeof(text), "%.3g ms", us / 1000.0);
  else
    std::snprintf(text, sizeof(text), "%.3g us", us);
  return text;
}
