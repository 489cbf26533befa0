//===- ReportPlot.cpp - the SVG plots of report.html ----------------------===//

#include "ReportPlot.h"
#include "HtmlEscape.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace ascendprec::report;

namespace {

constexpr double kWidth = 720, kHeight = 256, kLeft = 60, kRight = 10, kTop = 26,
                 kBottom = 36;
/// The labels' font (11 px sans-serif): an average character's width and
/// the line's height, for placing them apart.
constexpr double kCharWidth = 6.3, kLineHeight = 12;

struct Box {
  double left, top, right, bottom;
  double overlap(const Box &other) const {
    double w = std::min(right, other.right) - std::max(left, other.left);
    double h = std::min(bottom, other.bottom) - std::max(top, other.top);
    return w > 0 && h > 0 ? w * h : 0;
  }
};

/// Where a label goes beside its point.
struct Placement {
  double x, y; ///< the text's anchor and baseline
  bool anchorEnd;
  Box box;
};

/// The candidate places for a label of `width` beside a point at (px, py),
/// nearest first: right or left, above or below, then farther out.
std::vector<Placement> candidates(double px, double py, double width) {
  std::vector<Placement> places;
  for (double distance : {1.0, 2.2, 3.4})
    for (bool right : {true, false})
      for (bool above : {true, false}) {
        double x = px + (right ? 6 : -6);
        double baseline = above ? py - 5 - (distance - 1) * kLineHeight
                                : py + 4 + distance * kLineHeight - 2;
        Box box{right ? x : x - width, baseline - kLineHeight + 2, right ? x + width : x,
                baseline + 3};
        places.push_back({x, baseline, !right, box});
      }
  return places;
}

/// How much of `box` lies outside the plot area or over something already
/// there (other labels, points); 0 is a free place.
double clash(const Box &box, const std::vector<Box> &taken) {
  double outside = 0;
  outside += std::max(0.0, -box.left) * 100 + std::max(0.0, box.right - kWidth) * 100;
  outside += std::max(0.0, -box.top) * 100 +
             std::max(0.0, box.bottom - (kHeight - kBottom)) * 100;
  double covered = 0;
  for (const Box &other : taken)
    covered += box.overlap(other);
  return outside + covered;
}

const char *fillOf(PlotPoint::Style style) {
  switch (style) {
  case PlotPoint::Style::Jump:
  case PlotPoint::Style::Found:
    return "#c0392b";
  case PlotPoint::Style::Met:
    return "#2e8b57";
  case PlotPoint::Style::Missed:
    return "#fff";
  case PlotPoint::Style::Plain:
    break;
  }
  return "#4a7ab5";
}

bool isLarge(PlotPoint::Style style) {
  return style == PlotPoint::Style::Jump || style == PlotPoint::Style::Found;
}

} // namespace

void ascendprec::report::writeLogPlot(llvm::raw_ostream &os,
                                      const std::vector<PlotPoint> &points,
                                      const PlotOptions &options) {
  double xMin = 0, xMax = 1, yMin = -8, yMax = 0;
  bool first = true;
  auto include = [&](double x, double y, bool withX) {
    double ly = std::log10(std::max(y, 1e-12));
    if (first) {
      xMin = xMax = x;
      yMin = yMax = ly;
      first = false;
    }
    if (withX) {
      xMin = std::min(xMin, x);
      xMax = std::max(xMax, x);
    }
    yMin = std::min(yMin, ly);
    yMax = std::max(yMax, ly);
  };
  for (const PlotPoint &point : points)
    include(point.x, point.y, true);
  if (options.targetY && !points.empty())
    include(points.front().x, *options.targetY, false);
  yMin = std::floor(yMin);
  yMax = std::max(std::ceil(yMax), yMin + 1);
  if (xMax == xMin)
    xMax = xMin + 1;
  // Points stay clear of the frame's edges, where labels would not fit.
  const double inner = options.labelPoints ? 30 : 0;
  auto px = [&](double x) {
    return kLeft + inner + (x - xMin) / (xMax - xMin) * (kWidth - kLeft - kRight - 2 * inner);
  };
  auto py = [&](double y) {
    double ly = std::log10(std::max(y, 1e-12));
    return kTop + (yMax - ly) / (yMax - yMin) * (kHeight - kTop - kBottom);
  };
  auto number = [](double value) { return llvm::format("%.1f", value); };

  os << "<svg class=\"plot\" width=\"" << number(kWidth) << "\" height=\"" << number(kHeight)
     << "\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"11\">";
  for (double e = yMin; e <= yMax; e += 1) {
    double y = kTop + (yMax - e) / (yMax - yMin) * (kHeight - kTop - kBottom);
    os << "<line x1=\"" << number(kLeft) << "\" x2=\"" << number(kWidth - kRight) << "\" y1=\"" << number(y)
       << "\" y2=\"" << number(y) << "\" stroke=\"#ddd\"/><text x=\"4\" y=\"" << number(y + 4)
       << "\">1e" << static_cast<int>(e) << "</text>";
  }
  // The x range at both ends of the axis.
  char low[32], high[32];
  std::snprintf(low, sizeof(low), "%.4g", xMin);
  std::snprintf(high, sizeof(high), "%.4g", xMax);
  double axis = kHeight - kBottom + 12;
  os << "<text x=\"" << number(px(xMin)) << "\" y=\"" << number(axis) << "\">" << low
     << "</text><text x=\"" << number(px(xMax)) << "\" y=\"" << number(axis)
     << "\" text-anchor=\"end\">" << high << "</text>";
  os << "<text x=\"" << number(kLeft) << "\" y=\"" << number(kHeight - 6) << "\">" << escapeHtml(options.xLabel)
     << "</text><text x=\"" << number(kLeft) << "\" y=\"12\">" << escapeHtml(options.yLabel)
     << "</text>";

  // What labels must keep clear of: the axis title (above the frame), every
  // point, the target.
  std::vector<Box> taken = {{kLeft, 0, kLeft + kCharWidth * options.yLabel.size(), 15}};
  for (const PlotPoint &point : points) {
    double r = isLarge(point.style) ? 5 : 3;
    taken.push_back({px(point.x) - r, py(point.y) - r, px(point.x) + r, py(point.y) + r});
  }
  if (options.targetY) {
    double y = py(*options.targetY);
    os << "<line class=\"target\" x1=\"" << number(kLeft) << "\" x2=\"" << number(kWidth - kRight) << "\" y1=\""
       << number(y) << "\" y2=\"" << number(y)
       << "\" stroke=\"#2e8b57\" stroke-dasharray=\"6,4\"/>";
    double width = kCharWidth * options.targetLabel.size();
    // Above the line at its right end, or below when the top is too near.
    double baseline = y - 4 > 16 ? y - 4 : y + 13;
    os << "<text x=\"" << number(kWidth - kRight - 2) << "\" y=\"" << number(baseline)
       << "\" text-anchor=\"end\" fill=\"#2e8b57\">" << escapeHtml(options.targetLabel)
       << "</text>";
    taken.push_back({kWidth - kRight - 2 - width, baseline - 10, kWidth - kRight, baseline + 3});
    taken.push_back({kLeft, y - 1, kWidth - kRight, y + 1});
  }

  if (options.connect && points.size() > 1) {
    os << "<polyline fill=\"none\" stroke=\"#4a7ab5\" points=\"";
    for (const PlotPoint &point : points)
      os << number(px(point.x)) << "," << number(py(point.y)) << " ";
    os << "\"/>";
  }
  for (const PlotPoint &point : points) {
    bool large = isLarge(point.style);
    os << "<circle cx=\"" << number(px(point.x)) << "\" cy=\"" << number(py(point.y))
       << "\" r=\"" << number((large ? 5 : 3.5)) << "\" fill=\"" << fillOf(point.style) << "\""
       << (point.style == PlotPoint::Style::Missed ? " stroke=\"#4a7ab5\" stroke-width=\"1.5\""
                                                   : "")
       << "><title>" << escapeHtml(point.label) << "</title></circle>";
  }
  if (!options.labelPoints) {
    os << "</svg>\n";
    return;
  }
  // Labels in order of importance (the found plan first), each at the
  // nearest place that is free, else the least crowded one.
  std::vector<size_t> order(points.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return isLarge(points[a].style) > isLarge(points[b].style);
  });
  for (size_t i : order) {
    const PlotPoint &point = points[i];
    bool bold = point.style == PlotPoint::Style::Found;
    double width = kCharWidth * point.label.size() * (bold ? 1.1 : 1.0);
    std::vector<Placement> places = candidates(px(point.x), py(point.y), width);
    const Placement *best = &places.front();
    double bestClash = clash(best->box, taken);
    for (const Placement &place : places) {
      double value = clash(place.box, taken);
      if (value < bestClash) {
        best = &place;
        bestClash = value;
      }
      if (value == 0)
        break;
    }
    taken.push_back(best->box);
    os << "<text x=\"" << number(best->x) << "\" y=\"" << number(best->y) << "\""
       << (best->anchorEnd ? " text-anchor=\"end\"" : "")
       << (bold ? " font-weight=\"bold\"" : "") << ">" << escapeHtml(point.label) << "</text>";
  }
  os << "</svg>\n";
}
