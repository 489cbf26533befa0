//===- InterpolationRuntime.cpp - vinterp: resize and grid sampling -------===//
//
// Each output element is a weighted sum of 1, 4 or 16 taps of its plane.
// Weights and partial sums are rounded to the `acc` dtype at every step (as
// the vector unit computes in it); the result is rounded once into the
// output. Resizing follows Ascend IR's ResizeBilinearV2 / ResizeBicubic
// (scale in / out, taps clamped to the edge); grid sampling follows ONNX's
// GridSample (PyTorch's grid_sample), which CANN's GridSampler2D computes.
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"

#include "AscendPrec/Runtime/KernelRuntime.h"
#include "AscendPrec/Runtime/ResizeTaps.h"

#include <array>
#include <cmath>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// One tap along an axis: the index it reads (-1: padding, reads 0) and its
/// weight.
using Tap = ResizeTap;

int64_t clampIndex(int64_t i, int64_t size) { return std::min(std::max<int64_t>(i, 0), size - 1); }

/// PyTorch's reflect_coordinates: `x` folded into [low, high] (given
/// doubled, so that half-pixel bounds stay integers).
double reflect(double x, int64_t twiceLow, int64_t twiceHigh) {
  if (twiceLow == twiceHigh)
    return 0;
  double low = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
  x = std::fabs(x - low);
  double extra = std::fmod(x, span);
  int64_t flips = static_cast<int64_t>(std::floor(x / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

/// The taps of a grid sample along one axis at normalised coordinate `g`.
std::vector<Tap> sampleTaps(InterpMode mode, bool alignCorners, InterpPadding padding, double g,
                            int64_t size) {
  double x = alignCorners ? (g + 1) / 2 * (size - 1) : ((g + 1) * size - 1) / 2;
  int64_t twiceLow = alignCorners ? 0 : -1;
  int64_t twiceHigh = alignCorners ? 2 * (size - 1) : 2 * size - 1;
  // Border and reflection move the coordinate (nearest, bilinear) or each
  // tap (bicubic) into the image.
  auto inside = [&](double v) {
    if (padding == InterpPadding::Reflection)
      v = reflect(v, twiceLow, twiceHigh);
    return std::min(std::max(v, 0.0), static_cast<double>(size - 1));
  };
  auto index = [&](int64_t i) { return i >= 0 && i < size ? i : int64_t(-1); };
  if (mode != InterpMode::Bicubic && padding != InterpPadding::Zeros)
    x = inside(x);
  // A NaN point, or one so far out that no tap can reach the image, reads
  // only padding (and keeps the index arithmetic in range).
  if (!(std::fabs(x) < 4.0 * static_cast<double>(size) + 4)) {
    if (padding == InterpPadding::Zeros || std::isnan(x))
      return {{-1, 1}};
    x = inside(x);
  }
  if (mode == InterpMode::Nearest)
    return {{index(static_cast<int64_t>(std::nearbyint(x))), 1}};
  double first = std::floor(x), t = x - first;
  auto base = static_cast<int64_t>(first);
  if (mode == InterpMode::Bilinear)
    return {{index(base), 1 - t}, {index(base + 1), t}};
  std::array<double, 4> w = cubicWeights(t);
  std::vector<Tap> taps;
  for (int k = 0; k < 4; ++k) {
    int64_t i = base - 1 + k;
    if (padding != InterpPadding::Zeros)
      i = static_cast<int64_t>(inside(static_cast<double>(i)));
    taps.push_back({index(i), w[k]});
  }
  return taps;
}

bool isHalfOrFloat(ElementType type) {
  return type == ElementType::F32 || type == ElementType::F16 || type == ElementType::BF16;
}

/// A resize of fp32/fp16/bf16 tiles weighing in fp32 with IEEE overflow, on
/// floats: each float multiply and add is the fp32 rounding of its exact
/// result, which is what the general loop computes through doubles (the
/// weight is the fp32 rounding of the taps' double product there too), so
/// the bits are the same. Plane by plane for locality; a tail window's
/// positions past the plane are left as they are (its store crops them).
void resizeOnFloats(const Buffer &input, const Buffer &output, ElementType in, ElementType out,
                    const std::vector<ResizeTaps> &rowTaps,
                    const std::vector<ResizeTaps> &columnTaps) {
  int64_t planes = output.sizes[0], height = input.sizes[1], width = input.sizes[2];
  int64_t outH = static_cast<int64_t>(rowTaps.size()), outW = static_cast<int64_t>(columnTaps.size());
  int64_t planeIn = height * width, planeOut = output.sizes[1] * output.sizes[2];
  thread_local std::vector<float> wideIn, wideOut;
  const float *source = reinterpret_cast<const float *>(input.data);
  if (in != ElementType::F32) {
    wideIn.resize(planes * planeIn);
    widenToFloat(in, input.data, wideIn.data(), planes * planeIn);
    source = wideIn.data();
  }
  float *target = reinterpret_cast<float *>(output.data);
  if (out != ElementType::F32) {
    wideOut.assign(planes * planeOut, 0.0f);
    target = wideOut.data();
  }
  // Per output row, every position's tap weights (the fp32 rounding of the
  // row and column weights' product, rows outer as the general loop adds
  // them) and column indices, shared by the planes.
  int64_t columns = columnTaps[0].count;
  thread_local std::vector<float> weights;
  thread_local std::vector<int32_t> columnIndex;
  columnIndex.resize(outW * columns);
  for (int64_t ow = 0; ow < outW; ++ow)
    for (int64_t c = 0; c < columns; ++c)
      columnIndex[ow * columns + c] = static_cast<int32_t>(columnTaps[ow].taps[c].index);
  for (int64_t oh = 0; oh < outH; ++oh) {
    const ResizeTaps &ys = rowTaps[oh];
    int64_t rows = ys.count, perPosition = rows * columns;
    weights.resize(outW * perPosition);
    for (int64_t ow = 0, k = 0; ow < outW; ++ow)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < columns; ++c)
          weights[k++] = static_cast<float>(ys.taps[r].weight * columnTaps[ow].taps[c].weight);
    for (int64_t plane = 0; plane < planes; ++plane) {
      const float *x = source + plane * planeIn;
      float *y = target + plane * planeOut + oh * output.sizes[2];
      const float *w = weights.data();
      const int32_t *at = columnIndex.data();
      if (rows == 2 && columns == 2) {
        const float *top = x + ys.taps[0].index * width, *bottom = x + ys.taps[1].index * width;
        for (int64_t ow = 0; ow < outW; ++ow, w += 4, at += 2) {
          float sum = 0.0f;
          sum = sum + w[0] * top[at[0]];
          sum = sum + w[1] * top[at[1]];
          sum = sum + w[2] * bottom[at[0]];
          sum = sum + w[3] * bottom[at[1]];
          y[ow] = sum;
        }
        continue;
      }
      for (int64_t ow = 0; ow < outW; ++ow, at += columns) {
        float sum = 0.0f;
        for (int64_t r = 0; r < rows; ++r) {
          const float *line = x + ys.taps[r].index * width;
          for (int64_t c = 0; c < columns; ++c, ++w) {
            float product = *w * line[at[c]];
            sum = sum + product;
          }
        }
        y[ow] = sum;
      }
    }
  }
  if (out == ElementType::F16)
    narrowToHalf(target, reinterpret_cast<uint16_t *>(output.data), planes * planeOut,
                 Overflow::IEEE);
  else if (out == ElementType::BF16)
    narrowToBFloat16(target, reinterpret_cast<uint16_t *>(output.data), planes * planeOut,
                     Overflow::IEEE);
}

} // namespace

extern "C" {

void ascendprec_rt_interp(int64_t inRank, void *inDesc, int64_t gridRank, void *gridDesc,
                          int64_t outRank, void *outDesc, int64_t windowRank, void *windowDesc,
                          int32_t modeCode,
                          int32_t coordinatesCode, int32_t paddingCode, int32_t hasGrid,
                          int32_t inType, int32_t gridType, int32_t outType, int32_t accType,
                          int32_t overflow) {
  ElementType in = typeOf(inType), gridElement = typeOf(gridType), out = typeOf(outType),
              acc = typeOf(accType);
  Buffer input = bufferOf(inRank, inDesc, elementBytes(in));
  Buffer grid = bufferOf(gridRank, gridDesc, elementBytes(gridElement));
  Buffer output = bufferOf(outRank, outDesc, elementBytes(out));
  auto mode = static_cast<InterpMode>(modeCode);
  auto coordinates = static_cast<InterpCoordinates>(coordinatesCode);
  auto padding = static_cast<InterpPadding>(paddingCode);
  Overflow overflowMode = static_cast<Overflow>(overflow);
  int64_t planes = output.sizes[0], outH = output.sizes[1], outW = output.sizes[2];
  int64_t height = input.sizes[1], width = input.sizes[2];
  // The window: [H, W, Ho, Wo] of the whole plane, then the origins of the
  // input and output tiles in it (a whole-plane tile: its sizes, zeros).
  std::vector<int64_t> window = int64Values(windowRank, windowDesc);
  if (window.size() == 8) {
    outH = std::min(outH, window[2] - window[6]);
    outW = std::min(outW, window[3] - window[7]);
  } else {
    window = {height, width, outH, outW, 0, 0, 0, 0};
  }
  // A resize's taps depend on the row or column only; the lowering loaded
  // every row and column they read (clamping is only a guard).
  auto windowTaps = [&](int64_t o, int64_t axis, int64_t tileSize) {
    ResizeTaps found = resizeTaps(mode, coordinates, o + window[6 + axis], window[axis],
                                  window[2 + axis]);
    for (int k = 0; k < found.count; ++k)
      found.taps[k].index = clampIndex(found.taps[k].index - window[4 + axis], tileSize);
    return found;
  };
  // Fixed-size taps, kept across calls: a windowed resize calls this once
  // per window.
  thread_local std::vector<ResizeTaps> rowTaps, columnTaps;
  rowTaps.clear();
  columnTaps.clear();
  if (!hasGrid) {
    for (int64_t o = 0; o < outH; ++o)
      rowTaps.push_back(windowTaps(o, 0, height));
    for (int64_t o = 0; o < outW; ++o)
      columnTaps.push_back(windowTaps(o, 1, width));
  }
  // UB tiles are dense; the float path needs them so.
  if (!hasGrid && overflowMode == Overflow::IEEE && acc == ElementType::F32 &&
      isHalfOrFloat(in) && isHalfOrFloat(out) && input.contiguous() && output.contiguous()) {
    resizeOnFloats(input, output, in, out, rowTaps, columnTaps);
    return;
  }
  bool alignCorners = coordinates == InterpCoordinates::AlignCorners;
  for (int64_t oh = 0; oh < outH; ++oh)
    for (int64_t ow = 0; ow < outW; ++ow) {
      std::vector<Tap> rows, columns;
      if (hasGrid) {
        int64_t at = oh * grid.strides[0] + ow * grid.strides[1];
        double gx = readValue(gridElement, grid.at(at));
        double gy = readValue(gridElement, grid.at(at + grid.strides[2]));
        columns = sampleTaps(mode, alignCorners, padding, gx, width);
        rows = sampleTaps(mode, alignCorners, padding, gy, height);
      } else {
        rows.assign(rowTaps[oh].taps.begin(), rowTaps[oh].taps.begin() + rowTaps[oh].count);
        columns.assign(columnTaps[ow].taps.begin(),
                       columnTaps[ow].taps.begin() + columnTaps[ow].count);
      }
      for (int64_t plane = 0; plane < planes; ++plane) {
        double sum = 0;
        for (const Tap &y : rows)
          for (const Tap &x : columns) {
            if (y.index < 0 || x.index < 0)
              continue;
            double value = readValue(
                in, input.at(plane * input.strides[0] + y.index * input.strides[1] +
                              x.index * input.strides[2]));
            double weight = roundToAccumulator(y.weight * x.weight, acc, overflowMode);
            sum = roundToAccumulator(
                sum + roundToAccumulator(weight * value, acc, overflowMode), acc, overflowMode);
          }
        writeValue(out,
                   output.at(plane * output.strides[0] + oh * output.strides[1] +
                             ow * output.strides[2]),
                   sum, Rounding::Rint, overflowMode);
      }
    }
}

} // extern "C"
