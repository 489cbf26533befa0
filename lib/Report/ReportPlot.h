//===- ReportPlot.h - the SVG plots of report.html -------------*- C++ -*-===//
//
// Internal to the report library: a scatter plot with a log y axis, for the
// error of each op along the graph and for the modes' estimated time
// against their error, with the search's target as a line and labels placed
// so that they neither overlap nor cover a point.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_LIB_REPORT_REPORTPLOT_H
#define ASCENDPREC_LIB_REPORT_REPORTPLOT_H

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace ascendprec::report {

struct PlotPoint {
  enum class Style {
    Plain,  ///< a small blue point
    Jump,   ///< a large red point: where the error jumps
    Met,    ///< a green point: meets the search's target
    Missed, ///< a hollow point: misses it
    Found,  ///< a large red point: the plan the search found
  };
  double x = 0, y = 0; ///< y > 0, drawn on a log scale
  std::string label;
  Style style = Style::Plain;
};

struct PlotOptions {
  std::string xLabel, yLabel;
  bool connect = false;     ///< a line through the points (graph order)
  bool labelPoints = false; ///< each point's label written beside it
  std::optional<double> targetY; ///< a dashed line at this y
  std::string targetLabel;
};

/// An SVG scatter plot of `points`; every label is also the point's tooltip.
void writeLogPlot(llvm::raw_ostream &os, const std::vector<PlotPoint> &points,
                  const PlotOptions &options);

} // namespace ascendprec::report

#endif // ASCENDPREC_LIB_REPORT_REPORTPLOT_H
