//===- Results.h - the engine's typed results as Python values ------------===//
//
// Plain dicts and lists (numbers, strings, numpy arrays): the pure-Python
// layer (ascendprec/_results.py) wraps them in dataclasses.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_PYTHON_RESULTS_H
#define ASCENDPREC_PYTHON_RESULTS_H

#include "AscendPrec/Report/Report.h"
#include "AscendPrec/Session/Accuracy.h"
#include "AscendPrec/Session/PrecisionSearch.h"

#include <pybind11/pybind11.h>

namespace ascendprec::python {

/// Each planned op: name, op type, dtypes, engine, rule, source, fusion,
/// UB group, kernel, estimated and measured figures.
pybind11::list opsOf(const report::ReportData &report);
/// The plan's totals: SoC, mode, counts, estimated device time, the nodes
/// ATC would refuse.
pybind11::dict summaryOf(const report::ReportData &report);
/// ATC's refusals (E13010), one dict per parser key no CANN plugin
/// registers: op_type, domain, opset, key, nodes, plugin_opsets,
/// way_forward and the message prec-compile prints.
pybind11::list atcRefusalsOf(const report::ReportData &report);
pybind11::dict errorStatsOf(const session::ErrorStats &stats);
pybind11::dict outputAccuracyOf(const session::OutputAccuracy &output);
/// A run: per output and per op accuracy, host times, the error jumps.
pybind11::dict accuracyOf(const session::AccuracyResult &accuracy);
/// --compare-modes' rows, each with its outputs' accuracy (when it ran).
pybind11::list modesOf(const std::vector<report::ReportModeComparison> &modes,
                       const std::vector<std::vector<session::OutputAccuracy>> &outputs);
/// A search's steps and result.
pybind11::dict searchOf(const session::SearchOutcome &outcome);

} // namespace ascendprec::python

#endif // ASCENDPREC_PYTHON_RESULTS_H
