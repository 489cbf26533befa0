//===- RoiAlign.cpp - the roi_align DMA kind on the host ------------------===//

#include "RoiAlign.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using ascendprec::runtime::HostTensor;

namespace {

struct RoiAlignPlan {
  int64_t pooledHeight = 0, pooledWidth = 0, sampleNum = 0;
  float spatialScale = 1.0f;
  bool aligned = false, max = false;
};

bool planRoiAlign(ascendprec::kernel::DmaOp op, RoiAlignPlan &plan, std::string &why) {
  DictionaryAttr params = op.getParamsAttr();
  auto intParam = [&](StringRef name, int64_t &value) {
    auto attr = params ? params.getAs<IntegerAttr>(name) : IntegerAttr();
    if (attr)
      value = attr.getInt();
    return static_cast<bool>(attr);
  };
  if (op.getInputs().size() != 2 || op.getOutputs().size() != 1 ||
      !intParam("pooled_height", plan.pooledHeight) || !intParam("pooled_width", plan.pooledWidth)) {
    why = "roi_align: takes features, rois, one output and the pooled sizes";
    return false;
  }
  intParam("sample_num", plan.sampleNum);
  if (auto scale = params.getAs<FloatAttr>("spatial_scale"))
    plan.spatialScale = static_cast<float>(scale.getValueAsDouble());
  if (auto aligned = params.getAs<BoolAttr>("aligned"))
    plan.aligned = aligned.getValue();
  if (auto mode = params.getAs<StringAttr>("mode"))
    plan.max = mode.getValue() == "max";
  return true;
}

/// The bilinear sample of plane `plane` at (y, x), as its four weighted
/// corners; zero weights outside [-1, size].
struct Sample {
  int64_t offsets[4] = {0, 0, 0, 0};
  float weights[4] = {0, 0, 0, 0};
};

Sample sampleAt(float y, float x, int64_t height, int64_t width) {
  Sample s;
  if (y < -1.0f || y > static_cast<float>(height) || x < -1.0f || x > static_cast<float>(width))
    return s;
  y = std::max(y, 0.0f);
  x = std::max(x, 0.0f);
  int64_t yLow = static_cast<int64_t>(y), xLow = static_cast<int64_t>(x), yHigh, xHigh;
  if (yLow >= height - 1) {
    yHigh = yLow = height - 1;
    y = static_cast<float>(yLow);
  } else {
    yHigh = yLow + 1;
  }
  if (xLow >= width - 1) {
    xHigh = xLow = width - 1;
    x = static_cast<float>(xLow);
  } else {
    xHigh = xLow + 1;
  }
  float ly = y - static_cast<float>(yLow), lx = x - static_cast<float>(xLow);
  float hy = 1.0f - ly, hx = 1.0f - lx;
  s.offsets[0] = yLow * width + xLow;
  s.offsets[1] = yLow * width + xHigh;
  s.offsets[2] = yHigh * width + xLow;
  s.offsets[3] = yHigh * width + xHigh;
  s.weights[0] = hy * hx;
  s.weights[1] = hy * lx;
  s.weights[2] = ly * hx;
  s.weights[3] = ly * lx;
  return s;
}

} // namespace

bool ascendprec::exec::canRunRoiAlign(kernel::DmaOp op, std::string &why) {
  RoiAlignPlan plan;
  return planRoiAlign(op, plan, why);
}

bool ascendprec::exec::runRoiAlign(kernel::DmaOp op, ArrayRef<const HostTensor *> inputs,
                                   ArrayRef<HostTensor *> outputs, std::string &error) {
  RoiAlignPlan plan;
  if (!planRoiAlign(op, plan, error) || inputs.size() != 2 || outputs.size() != 1)
    return false;
  const HostTensor &x = *inputs[0], &rois = *inputs[1];
  HostTensor &y = *outputs[0];
  int64_t batch = x.shape()[0], channels = x.shape()[1], height = x.shape()[2],
          width = x.shape()[3], regions = rois.shape()[0];
  int64_t ph = plan.pooledHeight, pw = plan.pooledWidth;
  float offset = plan.aligned ? 0.5f : 0.0f;
  for (int64_t r = 0; r < regions; ++r) {
    int64_t b = static_cast<int64_t>(rois.get(r * 5));
    if (b < 0 || b >= batch) {
      error = "roi_align: region " + std::to_string(r) + " names image " + std::to_string(b) +
              " of " + std::to_string(batch);
      return false;
    }
    float startW = static_cast<float>(rois.get(r * 5 + 1)) * plan.spatialScale - offset;
    float startH = static_cast<float>(rois.get(r * 5 + 2)) * plan.spatialScale - offset;
    float endW = static_cast<float>(rois.get(r * 5 + 3)) * plan.spatialScale - offset;
    float endH = static_cast<float>(rois.get(r * 5 + 4)) * plan.spatialScale - offset;
    float roiW = endW - startW, roiH = endH - startH;
    if (!plan.aligned) {
      roiW = std::max(roiW, 1.0f);
      roiH = std::max(roiH, 1.0f);
    }
    float binH = roiH / static_cast<float>(ph), binW = roiW / static_cast<float>(pw);
    int64_t gridH = plan.sampleNum > 0 ? plan.sampleNum
                                       : static_cast<int64_t>(std::ceil(roiH / static_cast<float>(ph)));
    int64_t gridW = plan.sampleNum > 0 ? plan.sampleNum
                                       : static_cast<int64_t>(std::ceil(roiW / static_cast<float>(pw)));
    float count = static_cast<float>(std::max<int64_t>(gridH * gridW, 1));
    // The samples of every bin, shared by the channels.
    std::vector<Sample> samples;
    samples.reserve(static_cast<size_t>(ph * pw * gridH * gridW));
    for (int64_t i = 0; i < ph; ++i)
      for (int64_t j = 0; j < pw; ++j)
        for (int64_t iy = 0; iy < gridH; ++iy)
          for (int64_t ix = 0; ix < gridW; ++ix) {
            float sy = startH + static_cast<float>(i) * binH +
                       (static_cast<float>(iy) + 0.5f) * binH / static_cast<float>(gridH);
            float sx = startW + static_cast<float>(j) * binW +
                       (static_cast<float>(ix) + 0.5f) * binW / static_cast<float>(gridW);
            samples.push_back(sampleAt(sy, sx, height, width));
          }
    size_t perBin = static_cast<size_t>(gridH * gridW);
    for (int64_t c = 0; c < channels; ++c) {
      int64_t plane = (b * channels + c) * height * width;
      for (int64_t bin = 0; bin < ph * pw; ++bin) {
        float value = 0.0f;
        bool first = true;
        for (size_t k = 0; k < perBin; ++k) {
          const Sample &s = samples[bin * perBin + k];
          if (plan.max) {
            for (int q = 0; q < 4; ++q) {
              float v = s.weights[q] * static_cast<float>(x.get(plane + s.offsets[q]));
              value = first ? v : std::max(value, v);
              first = false;
            }
          } else {
            for (int q = 0; q < 4; ++q)
              value += s.weights[q] * static_cast<float>(x.get(plane + s.offsets[q]));
          }
        }
        y.set((r * channels + c) * ph * pw + bin, plan.max ? value : value / count);
      }
    }
  }
  return true;
}
