//===- DataDependentOps.cpp - NonZero and NonMaxSuppressionV6 on the host -===//

#include "DataDependentOps.h"

#include "AscendPrec/Dialect/Ascend/IR/AscendOps.h"

#include <algorithm>
#include <cstring>
#include <array>
#include <numeric>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::ElementType;
using runtime::HostTensor;

namespace {

bool hasDynamicShape(Operation *op) {
  for (Type type : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type); shaped && !shaped.hasStaticShape())
      return true;
  return false;
}

} // namespace

bool exec::isDataDependentOp(Operation *op) {
  if (isa<ascend::NonZeroOp, ascend::NonMaxSuppressionV6Op>(op))
    return true;
  // Data movement after a data-sized result (Compress: NonZero, Reshape,
  // GatherV2): exact, so the host computes what the kernel would.
  if (auto gather = dyn_cast<ascend::GatherV2Op>(op))
    return gather.getBatchDims() == 0 && hasDynamicShape(op);
  return isa<ascend::ReshapeOp>(op) && !cast<ascend::ReshapeOp>(op).getShape() &&
         hasDynamicShape(op);
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

/// A Reshape to a type with at most one unknown dimension: the same data.
bool reshape(Operation *op, const HostTensor &x, std::vector<HostTensor> &outputs,
             std::string &error) {
  auto type = cast<ShapedType>(op->getResult(0).getType());
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  int64_t known = 1, unknown = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (ShapedType::isDynamic(shape[d])) {
      if (unknown >= 0) {
        error = "a Reshape with more than one unknown dimension";
        return false;
      }
      unknown = static_cast<int64_t>(d);
    } else {
      known *= shape[d];
    }
  }
  if (unknown >= 0)
    shape[unknown] = known ? x.numElements() / known : 0;
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  if (count != x.numElements()) {
    error = "cannot reshape " + std::to_string(x.numElements()) + " elements to the result type";
    return false;
  }
  outputs.push_back(x.view(shape));
  return true;
}

/// GatherV2 (no batch dimensions) on host tensors: slices of `x` along
/// `axis` picked by `indices` (negative from the end).
bool gatherV2(ascend::GatherV2Op op, const HostTensor &x, const HostTensor &indices,
              std::vector<HostTensor> &outputs, std::string &error) {
  const std::vector<int64_t> &shape = x.shape();
  int64_t rank = static_cast<int64_t>(shape.size()), axis = op.getAxis();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank) {
    error = "GatherV2's axis is out of range";
    return false;
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= shape[d];
  std::vector<int64_t> result(shape.begin(), shape.begin() + axis);
  result.insert(result.end(), indices.shape().begin(), indices.shape().end());
  result.insert(result.end(), shape.begin() + axis + 1, shape.end());
  HostTensor y(x.type(), result);
  size_t width = runtime::elementBytes(x.type()) * inner;
  int64_t picks = indices.numElements();
  for (int64_t k = 0; k < picks; ++k) {
    int64_t index = indices.getInt(k);
    if (index < 0)
      index += shape[axis];
    if (index < 0 || index >= shape[axis]) {
      error = "GatherV2 index " + std::to_string(indices.getInt(k)) + " is out of range for size " +
              std::to_string(shape[axis]);
      return false;
    }
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(y.data() + (o * picks + k) * width,
                  x.data() + (o * shape[axis] + index) * width, width);
  }
  outputs.push_back(std::move(y));
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
  if (isa<ascend::ReshapeOp>(op))
    return reshape(op, *inputs[0], outputs, error);
  if (auto gather = dyn_cast<ascend::GatherV2Op>(op))
    return gatherV2(gather, *inputs[0], *inputs[1], outputs, error);
  error = "'" + op->getName().getStringRef().str() + "' is not run by the host";
  return false;
}
