//===- PrecisionReport.cpp - prec-precision-report ------------------------===//

#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/CollectReport.h"


namespace ascendprec::ascend {
#define GEN_PASS_DEF_PRECISIONREPORT
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h.inc"
} // namespace ascendprec::ascend

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;
using namespace ascendprec::report;

namespace {

struct PrecisionReportPass
    : ascendprec::ascend::impl::PrecisionReportBase<PrecisionReportPass> {
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
