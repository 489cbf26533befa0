//===- ReportData.cpp - counts over the report's nodes --------------------===//

#include "AscendPrec/Report/Report.h"

#include "llvm/ADT/STLExtras.h"

using namespace ascendprec::report;

size_t ReportData::plannedCount() const {
  return llvm::count_if(nodes, [](const ReportNode &n) { return !n.insertedCast; });
}

size_t ReportData::genericCount() const {
  return llvm::count_if(nodes, [](const ReportNode &n) { return n.generic; });
}
