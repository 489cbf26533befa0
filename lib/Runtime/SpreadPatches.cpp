//===- SpreadPatches.cpp - a transposed convolution without its zeros -----===//
//
// The device runs a transposed convolution (Conv2DBackpropInput) as the
// convolution of its input spread out by the strides, zeros between the
// values, with the flipped filter (CubeLowering.cpp). On the host most of
// that tile is zeros: with stride s, an output position meets a map value
// at only one window offset in s along each axis (a 2x2, stride-2
// upsampling multiplies 3 zeros for every value).
//
// The output positions fall into s_h * s_w phase classes, and every
// position of a class meets map values at the same window offsets. So each
// class gathers its own patch panel with only those K columns (each column
// a run of one input row, stride 1 along the class's positions), takes the
// same rows of B, and goes through the cube's multiply (mmadTile): every
// sum adds the same nonzero products in the same K order, one rounding
// each. The dropped products are +-0 (a zero of the spread times a finite
// weight), which change no sum that is not -0, and a sum starting from +0
// never is -0 while no factor is tiny (CubeRuntime.cpp). When B holds an
// inf or NaN (0 x inf is NaN on the cube) or a tiny value, or the map does,
// the caller multiplies the full tile instead.
//
//===----------------------------------------------------------------------===//

#include "SpreadPatches.h"

#include "CubeTile.h"

#include <algorithm>
#include <array>
#include <cstring>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// Whether one of `count` values of `in` (fp32, fp16 or bf16) is inf or NaN.
bool holdsNonFinite(ElementType in, const uint8_t *data, int64_t count) {
  if (in == ElementType::F32) {
    uint32_t found = 0;
    for (int64_t i = 0; i < count; ++i) {
      uint32_t bits;
      std::memcpy(&bits, data + 4 * i, 4);
      found |= (bits & 0x7f800000u) == 0x7f800000u;
    }
    return found != 0;
  }
  uint16_t exponent = in == ElementType::F16 ? 0x7c00 : 0x7f80;
  uint32_t found = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, data + 2 * i, 2);
    found |= (bits & exponent) == exponent;
  }
  return found != 0;
}

/// The positions of one phase class on one output row: `count` positions
/// from column `ow0`, `spreadW` apart, at class rows [first, first + count).
struct ClassRun {
  int64_t oh, ow0, count, first;
};

/// One phase class of a tile: its rows (tile rows, in order), as runs along
/// output rows, and its K columns (the window offsets that meet map values).
struct PhaseClass {
  std::vector<int64_t> rows, columns;
  std::vector<ClassRun> runs;
};

/// Non-negative x mod s.
inline int64_t phaseOf(int64_t x, int64_t s) { return ((x % s) + s) % s; }

/// The class's patch panel, K-major ([columns][rows]): zero where a window
/// offset falls outside the map, else the map value, read along an input
/// row (a class's neighbouring positions meet neighbouring map columns).
template <typename T>
void gatherClass(const T *source, const PatchPlane &g, const PhaseClass &cls, T *panel) {
  int64_t window = g.kernelH * g.kernelW;
  int64_t rows = static_cast<int64_t>(cls.rows.size());
  for (size_t j = 0; j < cls.columns.size(); ++j) {
    int64_t kk = cls.columns[j];
    int64_t c = kk / window, t = (kk % window) / g.kernelW, q = kk % g.kernelW;
    const T *channel = source + g.base + c * g.channelStride;
    T *column = panel + j * rows;
    for (const ClassRun &run : cls.runs) {
      T *target = column + run.first;
      // Exact divisions: the class's offsets land on spread positions.
      int64_t hh = run.oh - g.padTop + t * g.dilationH;
      int64_t ww = run.ow0 - g.padLeft + q * g.dilationW;
      int64_t h = hh / g.spreadH, w0 = ww / g.spreadW;
      if (hh < 0 || h >= g.height) {
        std::fill(target, target + run.count, T{});
        continue;
      }
      const T *line = channel + h * g.rowStride;
      int64_t begin = std::clamp<int64_t>(-w0, 0, run.count);
      int64_t end = std::clamp<int64_t>(g.width - w0, begin, run.count);
      std::fill(target, target + begin, T{});
      if (g.columnStride == 1) {
        std::memcpy(target + begin, line + w0 + begin, (end - begin) * sizeof(T));
      } else {
        for (int64_t i = begin; i < end; ++i)
          target[i] = line[(w0 + i) * g.columnStride];
      }
      std::fill(target + end, target + run.count, T{});
    }
  }
}

/// The tile's phase classes, rows [0, validRows) of the tile at m0 and K
/// columns [0, realK), into `classes` (reused: a detector's upsampling runs
/// 1600 tiles, and allocating four classes' lists for each took a quarter
/// of its time).
void phaseClasses(const PatchPlane &g, int64_t m0, int64_t validRows, int64_t realK,
                  std::vector<PhaseClass> &classes) {
  int64_t sH = g.spreadH, sW = g.spreadW;
  classes.resize(sH * sW);
  for (PhaseClass &cls : classes) {
    cls.rows.clear();
    cls.columns.clear();
    cls.runs.clear();
  }
  int64_t oh = m0 / g.outW, ow = m0 % g.outW;
  int64_t r = 0;
  // A row segment at a time: along it the classes of one phase row take
  // every sW-th position.
  while (r < validRows) {
    int64_t segment = std::min(validRows - r, g.outW - ow);
    int64_t phaseH = phaseOf(oh - g.padTop, sH);
    for (int64_t pw = 0; pw < sW && pw < segment; ++pw) {
      int64_t first = r + pw;
      int64_t count = (segment - pw + sW - 1) / sW;
      PhaseClass &cls = classes[phaseH * sW + phaseOf(ow + pw - g.padLeft, sW)];
      cls.runs.push_back({oh, ow + pw, count, static_cast<int64_t>(cls.rows.size())});
      for (int64_t i = 0; i < count; ++i)
        cls.rows.push_back(first + i * sW);
    }
    r += segment;
    ow = 0;
    ++oh;
  }
  // A class's K columns depend on the geometry alone: worked out once per
  // geometry (four divisions per column and class were a sixth of a
  // detector's upsampling).
  thread_local std::vector<std::vector<int64_t>> columnsOf;
  thread_local std::array<int64_t, 7> geometry = {-1};
  std::array<int64_t, 7> now = {sH, sW, g.kernelH, g.kernelW, g.dilationH, g.dilationW, realK};
  if (now != geometry) {
    geometry = now;
    columnsOf.assign(sH * sW, {});
    int64_t window = g.kernelH * g.kernelW;
    for (int64_t ph = 0; ph < sH; ++ph)
      for (int64_t pw = 0; pw < sW; ++pw)
        for (int64_t kk = 0; kk < realK; ++kk) {
          int64_t t = (kk % window) / g.kernelW, q = kk % g.kernelW;
          if ((ph + t * g.dilationH) % sH == 0 && (pw + q * g.dilationW) % sW == 0)
            columnsOf[ph * sW + pw].push_back(kk);
        }
  }
  for (size_t c = 0; c < classes.size(); ++c)
    if (!classes[c].rows.empty())
      classes[c].columns = columnsOf[c];
}

/// A class's rows of B and their plan, kept per thread and per class: the
/// tiles of one launch take the same rows of the same weights, and planning
/// them again for each tile took a twentieth of the launch. Reused only when
/// the bytes are equal, so another kernel's weights are never mistaken.
struct ClassRhs {
  std::vector<uint8_t> bytes;
  ElementType in = ElementType::F32;
  int64_t columns = 0, n = 0;
  RhsPlan plan;
  bool planned = false;
};

template <typename T>
const RhsPlan &classPlan(ElementType in, const PhaseClass &cls, int64_t k, int64_t n,
                         const std::vector<const uint8_t *> &steps, ClassRhs &kept,
                         std::vector<T> &rhs) {
  int64_t columns = static_cast<int64_t>(cls.columns.size());
  rhs.resize(columns * n);
  for (int64_t j = 0; j < columns; ++j) {
    int64_t kk = cls.columns[j];
    std::memcpy(&rhs[j * n], steps[kk / k] + (kk % k) * n * sizeof(T), n * sizeof(T));
  }
  size_t bytes = rhs.size() * sizeof(T);
  if (!kept.planned || kept.in != in || kept.columns != columns || kept.n != n ||
      kept.bytes.size() != bytes || std::memcmp(kept.bytes.data(), rhs.data(), bytes) != 0) {
    kept.bytes.assign(reinterpret_cast<const uint8_t *>(rhs.data()),
                      reinterpret_cast<const uint8_t *>(rhs.data()) + bytes);
    kept.in = in;
    kept.columns = columns;
    kept.n = n;
    planRhs(in, kept.bytes.data(), n, columns, n, kept.plan);
    kept.planned = true;
  }
  return kept.plan;
}

template <typename T>
bool multiplyClasses(ElementType in, const T *source, const PatchPlane &g, int64_t m0, int64_t m,
                     int64_t k, const std::vector<const uint8_t *> &steps, float *acc, int64_t n) {
  int64_t depth = static_cast<int64_t>(steps.size()) * k;
  int64_t realK = std::min(depth, g.channels * g.kernelH * g.kernelW);
  int64_t validRows = std::clamp<int64_t>(g.outH * g.outW - m0, 0, m);
  thread_local std::vector<PhaseClass> classes;
  thread_local std::vector<ClassRhs> keptRhs;
  phaseClasses(g, m0, validRows, realK, classes);
  keptRhs.resize(std::max(keptRhs.size(), classes.size()));
  // Every class's panel first: a tiny value sends the whole tile to the
  // caller's full multiply with the accumulator untouched.
  thread_local std::vector<std::vector<T>> panels;
  panels.resize(std::max(panels.size(), classes.size()));
  for (size_t c = 0; c < classes.size(); ++c) {
    const PhaseClass &cls = classes[c];
    int64_t rows = static_cast<int64_t>(cls.rows.size());
    int64_t columns = static_cast<int64_t>(cls.columns.size());
    if (rows == 0 || columns == 0)
      continue; // no map value reaches these positions: their sums stay +0
    panels[c].resize(columns * rows);
    gatherClass(source, g, cls, panels[c].data());
    if (holdsTiny(in, reinterpret_cast<const uint8_t *>(panels[c].data()), columns * rows))
      return false;
  }
  // Rows no map value reaches, and rows past the last position, are zeros
  // times finite weights: +0.
  std::fill(acc, acc + m * n, 0.0f);
  thread_local std::vector<T> rhs;
  thread_local std::vector<float> sums;
  for (size_t c = 0; c < classes.size(); ++c) {
    const PhaseClass &cls = classes[c];
    int64_t rows = static_cast<int64_t>(cls.rows.size());
    int64_t columns = static_cast<int64_t>(cls.columns.size());
    if (rows == 0 || columns == 0)
      continue;
    const RhsPlan &plan = classPlan(in, cls, k, n, steps, keptRhs[c], rhs);
    sums.resize(rows * n);
    mmadTile(in, reinterpret_cast<const uint8_t *>(panels[c].data()), LhsLayout{1, rows},
             keptRhs[c].bytes.data(), n, plan, reinterpret_cast<uint8_t *>(sums.data()), rows,
             n, columns, /*init=*/true);
    // Rows of n (often 16) floats: an inline loop, not a library call each.
    for (int64_t i = 0; i < rows; ++i) {
      float *to = acc + cls.rows[i] * n;
      const float *from = sums.data() + i * n;
      for (int64_t j = 0; j < n; ++j)
        to[j] = from[j];
    }
  }
  return true;
}

} // namespace

bool ascendprec::runtime::detail::multiplySpreadPatches(ElementType in, const uint8_t *source,
                                                        const PatchPlane &g, int64_t m0,
                                                        int64_t m, int64_t k,
                                                        const std::vector<const uint8_t *> &steps,
                                                        float *acc, int64_t n) {
  if (g.strideH != 1 || g.strideW != 1 || g.spreadH < 1 || g.spreadW < 1 || steps.empty() ||
      m <= 0 || k <= 0 || n <= 0)
    return false;
  if (in != ElementType::F32 && in != ElementType::F16 && in != ElementType::BF16)
    return false;
  for (const uint8_t *b : steps)
    if (holdsNonFinite(in, b, k * n) || holdsTiny(in, b, k * n))
      return false;
  if (in == ElementType::F32)
    return multiplyClasses(in, reinterpret_cast<const uint32_t *>(source), g, m0, m, k, steps,
                           acc, n);
  return multiplyClasses(in, reinterpret_cast<const uint16_t *>(source), g, m0, m, k, steps, acc,
                         n);
}
