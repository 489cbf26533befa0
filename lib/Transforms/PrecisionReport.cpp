//===- PrecisionReport.cpp - prec-precision-report ------------------------===//

#include "AscendPrec/Transforms/Passes.h"
#include "AscendPrec/Transforms/CollectReport.h"


namespace mlir::ascendprec {
#define GEN_PASS_DEF_PRECISIONREPORT
#include "AscendPrec/Transforms/Passes.h.inc"
} // namespace mlir::ascendprec

using namespace mlir;
using namespace mlir::ascendprec;

namespace {

struct PrecisionReportPass
    : mlir::ascendprec::impl::PrecisionReportBase<PrecisionReportPass> {
  using PrecisionReportBase::PrecisionReportBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ReportFiles files{report.getValue(), reportText.getValue(), reportDot.getValue(),
                      reportHtml.getValue(), lockfile.getValue()};
    if (failed(writeReportFiles(module, collectReport(module), files)))
      return signalPassFailure();
  }
};

} // namespace
