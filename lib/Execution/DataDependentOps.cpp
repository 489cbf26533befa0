//===- DataDependentOps.cpp - NonZero and NonMaxSuppressionV6 on the host -===//

#include "DataDependentOps.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include <algorithm>
#include <array>
#include <numeric>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::ElementType;
using runtime::HostTensor;

bool exec::isDataDependentOp(Operation *op) {
  return isa<ascend::NonZeroOp, ascend::NonMaxSuppressionV6Op>(op);
}

namespace {

/// The result's element type as the host holds it.
ElementType indexTypeOf(Operation *op) {
  return cast<ShapedType>(op->getResult(0).getType()).getElementType().isInteger(32)
             ? ElementType::I32
             : ElementType::I64;
}

HostTensor nonZero(const HostTensor &x, ElementType indexType) {
  const std::vector<int64_t> &shape = x.shape();
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> found;
  for (int64_t i = 0; i < x.numElements(); ++i)
    if (x.get(i) != 0.0) // NaN is non-zero
      found.push_back(i);
  int64_t count = static_cast<int64_t>(found.size());
  HostTensor y(indexType, {rank, count});
  for (int64_t k = 0; k < count; ++k) {
    int64_t rest = found[k];
    for (int64_t d = rank - 1; d >= 0; --d) {
      y.setInt(d * count + k, rest % shape[d]);
      rest /= shape[d];
    }
  }
  return y;
}

/// A box as [ymin, xmin, ymax, xmax], in fp32 as the kernel compares.
using Corners = std::array<float, 4>;

Corners cornersOf(const HostTensor &boxes, int64_t offset, bool centered) {
  float a = static_cast<float>(boxes.get(offset)), b = static_cast<float>(boxes.get(offset + 1));
  float c = static_cast<float>(boxes.get(offset + 2)), d = static_cast<float>(boxes.get(offset + 3));
  if (centered) { // [x_center, y_center, width, height]
    return {b - d / 2.0f, a - c / 2.0f, b + d / 2.0f, a + c / 2.0f};
  }
  // [y1, x1, y2, x2], either corner first.
  return {std::min(a, c), std::min(b, d), std::max(a, c), std::max(b, d)};
}

/// Whether two boxes overlap by more than `threshold` (IoU); boxes without
/// area never suppress.
bool overlaps(const Corners &p, const Corners &q, float threshold) {
  float areaP = (p[2] - p[0]) * (p[3] - p[1]), areaQ = (q[2] - q[0]) * (q[3] - q[1]);
  if (areaP <= 0.0f || areaQ <= 0.0f)
    return false;
  float height = std::max(0.0f, std::min(p[2], q[2]) - std::max(p[0], q[0]));
  float width = std::max(0.0f, std::min(p[3], q[3]) - std::max(p[1], q[1]));
  float intersection = height * width;
  if (intersection <= 0.0f)
    return false;
  return intersection / (areaP + areaQ - intersection) > threshold;
}

bool nonMaxSuppression(ascend::NonMaxSuppressionV6Op op,
                       const std::vector<const HostTensor *> &inputs, HostTensor &y,
                       std::string &error) {
  const HostTensor &boxes = *inputs[0], &scores = *inputs[1];
  if (inputs[2]->numElements() != 1 || inputs[3]->numElements() != 1 ||
      inputs[4]->numElements() != 1) {
    error = "max_output_size, iou_threshold and score_threshold must hold one element each";
    return false;
  }
  int64_t limit = inputs[2]->getInt(0);
  float iou = static_cast<float>(inputs[3]->get(0));
  float minimum = static_cast<float>(inputs[4]->get(0));
  bool centered = op.getCenterPointBox() == 1;
  int64_t batches = boxes.shape()[0], count = boxes.shape()[1], classes = scores.shape()[1];
  if (scores.shape()[0] != batches || scores.shape()[2] != count) {
    error = "scores must be [batch, classes, boxes] for boxes [batch, boxes, 4]";
    return false;
  }
  std::vector<std::array<int64_t, 3>> selected;
  for (int64_t b = 0; b < batches && limit > 0; ++b)
    for (int64_t c = 0; c < classes; ++c) {
      int64_t base = (b * classes + c) * count;
      std::vector<int64_t> order;
      for (int64_t i = 0; i < count; ++i)
        if (static_cast<float>(scores.get(base + i)) > minimum)
          order.push_back(i);
      // By descending score; equal scores keep the lower index first.
      std::stable_sort(order.begin(), order.end(), [&](int64_t l, int64_t r) {
        return static_cast<float>(scores.get(base + l)) > static_cast<float>(scores.get(base + r));
      });
      std::vector<Corners> kept;
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= limit)
          break;
        Corners box = cornersOf(boxes, (b * count + i) * 4, centered);
        if (std::any_of(kept.begin(), kept.end(),
                        [&](const Corners &other) { return overlaps(box, other, iou); }))
          continue;
        kept.push_back(box);
        selected.push_back({b, c, i});
      }
    }
  int64_t rows = static_cast<int64_t>(selected.size());
  y = HostTensor(indexTypeOf(op), {rows, 3});
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < 3; ++k)
      y.setInt(r * 3 + k, selected[r][k]);
  return true;
}

} // namespace

bool exec::runDataDependentOp(Operation *op, const std::vector<const HostTensor *> &inputs,
                              std::vector<HostTensor> &outputs, std::string &error) {
  outputs.clear();
  if (isa<ascend::NonZeroOp>(op)) {
    outputs.push_back(nonZero(*inputs[0], indexTypeOf(op)));
    return true;
  }
  if (auto nms = dyn_cast<ascend::NonMaxSuppressionV6Op>(op)) {
    outputs.emplace_back(indexTypeOf(op), std::vector<int64_t>{0, 3});
    return nonMaxSuppression(nms, inputs, outputs.back(), error);
  }
  error = "'" + op->getName().getStringRef().str() + "' is not run by the host";
  return false;
}
