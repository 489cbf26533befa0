//===- DataMovement.cpp - DMA kernels run on the host ---------------------===//
//
// Each DMA op is planned (DmaPlan.h: checked, params normalized) and then
// run here, one member of Run per kind, on the byte copies of ByteMoves.h.
// RoiAlign, NLLLoss and the index movements (scatter, gather of elements,
// ...) have files of their own.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Execution/DataMovement.h"
#include "AscendPrec/Execution/GraphRun.h"

#include "ByteMoves.h"
#include "DmaPlan.h"
#include "IndexMovement.h"
#include "NllLoss.h"
#include "RoiAlign.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace mlir;
using namespace ascendprec::exec::dma;
using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;
using llvm::SmallVector;

namespace {

//===----------------------------------------------------------------------===//
// Running each kind
//===----------------------------------------------------------------------===//

struct Run {
  const Plan &plan;
  SmallVector<const uint8_t *, 4> in;
  SmallVector<uint8_t *, 4> out;
  ArrayRef<const HostTensor *> inputs;
  std::string &error;

  bool fail(const llvm::Twine &message) {
    error = (llvm::Twine(plan.kind) + ": " + message).str();
    return false;
  }

  size_t elementSize() const { return plan.outs[0].elementSize(); }

  bool transpose() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    SmallVector<Axis, 8> axes;
    for (size_t i = 0; i < y.shape.size(); ++i)
      axes.push_back({y.shape[i], ys[i], xs[plan.perm[i]]});
    stridedCopy(out[0], in[0], elementSize(), axes);
    return true;
  }

  /// Concat (pieces are the inputs) or split (the outputs).
  bool pieces(bool concat) {
    const Buffer &whole = concat ? plan.outs[0] : plan.ins[0];
    ArrayRef<Buffer> parts = concat ? ArrayRef<Buffer>(plan.ins) : ArrayRef<Buffer>(plan.outs);
    auto wholeStrides = byteStrides(whole.shape, elementSize());
    int64_t offset = 0;
    for (auto [i, part] : llvm::enumerate(parts)) {
      auto partStrides = byteStrides(part.shape, elementSize());
      SmallVector<Axis, 8> axes;
      for (size_t d = 0; d < part.shape.size(); ++d)
        axes.push_back({part.shape[d], concat ? wholeStrides[d] : partStrides[d],
                        concat ? partStrides[d] : wholeStrides[d]});
      int64_t shift = offset * wholeStrides[plan.axis];
      if (part.count) {
        if (concat)
          stridedCopy(out[0] + shift, in[i], elementSize(), axes);
        else
          stridedCopy(out[i], in[0] + shift, elementSize(), axes);
      }
      offset += part.shape[plan.axis];
    }
    return true;
  }

  bool slice() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    if (!y.count)
      return true;
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    SmallVector<Axis, 8> axes;
    int64_t base = 0;
    for (size_t d = 0; d < y.shape.size(); ++d) {
      base += plan.start[d] * xs[d];
      axes.push_back({y.shape[d], ys[d], plan.step[d] * xs[d]});
    }
    stridedCopy(out[0], in[0] + base, elementSize(), axes);
    return true;
  }

  bool reverse() {
    const Buffer &x = plan.ins[0];
    if (!x.count)
      return true;
    auto xs = byteStrides(x.shape, elementSize());
    SmallVector<Axis, 8> axes;
    int64_t base = 0;
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (plan.reversed[d])
        base += (x.shape[d] - 1) * xs[d];
      axes.push_back({x.shape[d], xs[d], plan.reversed[d] ? -xs[d] : xs[d]});
    }
    stridedCopy(out[0], in[0] + base, elementSize(), axes);
    return true;
  }

  bool tile() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    SmallVector<Axis, 12> axes;
    for (size_t d = 0; d < x.shape.size(); ++d) {
      axes.push_back({plan.multiples[d], x.shape[d] * ys[d], 0}); // the repeats
      axes.push_back({x.shape[d], ys[d], xs[d]});
    }
    stridedCopy(out[0], in[0], elementSize(), axes);
    return true;
  }

  bool broadcast() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    if (plan.ins.size() == 2) {
      // The shape input, at run time, must broadcast with x to the output.
      const Buffer &shape = plan.ins[1];
      int64_t entries = shape.shape[0], lead = y.rank() - entries;
      for (int64_t i = 0; i < entries; ++i) {
        int64_t want = readIndex(in[1], shape.type, i), have = y.shape[lead + i];
        int64_t xd = lead + i - (y.rank() - x.rank());
        int64_t xDim = xd >= 0 ? x.shape[xd] : 1;
        bool ok = want == have || (want == 1 && xDim == have);
        if (!ok)
          return fail("the shape input holds " + llvm::Twine(want) + " at " + llvm::Twine(i) +
                      ", which does not broadcast " + shapeString(x.shape) + " to " +
                      shapeString(y.shape));
      }
    }
    auto xs = byteStrides(x.shape, elementSize()), ys = byteStrides(y.shape, elementSize());
    int64_t lead = y.rank() - x.rank();
    SmallVector<Axis, 8> axes;
    for (int64_t d = 0; d < y.rank(); ++d) {
      int64_t xd = d - lead;
      int64_t step = xd < 0 || x.shape[xd] == 1 ? 0 : xs[xd];
      axes.push_back({y.shape[d], ys[d], step});
    }
    stridedCopy(out[0], in[0], elementSize(), axes);
    return true;
  }

  /// DepthToSpace / SpaceToDepth as a transposition of 6-D views.
  bool blocks(bool toSpace) {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    int64_t b = plan.blockSize, n = x.shape[0];
    size_t size = elementSize();
    SmallVector<Axis, 8> axes;
    if (toSpace) {
      // y viewed as [N, C', H, b, W, b]; x as [N, b, b, C', H, W] (DCR) or
      // [N, C', b, b, H, W] (CRD).
      int64_t c = y.shape[1], h = x.shape[2], w = x.shape[3];
      auto ys = byteStrides({n, c, h, b, w, b}, size);
      if (!plan.crd) {
        auto xs = byteStrides({n, b, b, c, h, w}, size);
        axes = {{n, ys[0], xs[0]}, {c, ys[1], xs[3]}, {h, ys[2], xs[4]},
                {b, ys[3], xs[1]}, {w, ys[4], xs[5]}, {b, ys[5], xs[2]}};
      } else {
        auto xs = byteStrides({n, c, b, b, h, w}, size);
        axes = {{n, ys[0], xs[0]}, {c, ys[1], xs[1]}, {h, ys[2], xs[4]},
                {b, ys[3], xs[2]}, {w, ys[4], xs[5]}, {b, ys[5], xs[3]}};
      }
    } else {
      // y viewed as [N, b, b, C, H', W']; x as [N, C, H', b, W', b].
      int64_t c = x.shape[1], h = y.shape[2], w = y.shape[3];
      auto ys = byteStrides({n, b, b, c, h, w}, size);
      auto xs = byteStrides({n, c, h, b, w, b}, size);
      axes = {{n, ys[0], xs[0]}, {b, ys[1], xs[3]}, {b, ys[2], xs[5]},
              {c, ys[3], xs[1]}, {h, ys[4], xs[2]}, {w, ys[5], xs[4]}};
    }
    stridedCopy(out[0], in[0], size, axes);
    return true;
  }

  bool pad() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    size_t size = elementSize();
    if (plan.padMode == PadMode::Constant) {
      double fill = plan.constantValue;
      if (inputs.size() > 1 && inputs[1]->numElements() == 1)
        fill = inputs[1]->get(0);
      Bytes value = encode(fill, y.type);
      fillPattern(out[0], value.data(), size, y.count);
    }
    auto xs = byteStrides(x.shape, size);
    SmallVector<SmallVector<int64_t, 0>, 6> tables;
    for (int64_t d = 0; d < x.rank(); ++d) {
      int64_t before = plan.paddings[2 * d], after = plan.paddings[2 * d + 1];
      int64_t lo = std::max<int64_t>(-before, 0);
      int64_t kept = x.shape[d] - lo - std::max<int64_t>(-after, 0);
      int64_t shift = std::max<int64_t>(before, 0);
      SmallVector<int64_t, 0> table(y.shape[d]);
      for (int64_t o = 0; o < y.shape[d]; ++o) {
        // Position in the cropped extent [0, kept).
        int64_t c = o - shift, source = -1;
        if (c >= 0 && c < kept)
          source = c;
        else if (plan.padMode == PadMode::Edge)
          source = std::clamp<int64_t>(c, 0, kept - 1);
        else if (plan.padMode == PadMode::Reflect) {
          // NumPy's reflect (the edge is not repeated), periodic past one
          // reflection.
          if (kept == 1) {
            source = 0;
          } else {
            int64_t period = 2 * (kept - 1);
            int64_t m = ((c % period) + period) % period;
            source = m < kept ? m : period - m;
          }
        }
        table[o] = source < 0 ? -1 : (lo + source) * xs[d];
      }
      tables.push_back(std::move(table));
    }
    indexMapCopy(out[0], in[0], size, y.shape, tables);
    return true;
  }

  bool resize() {
    const Buffer &x = plan.ins[0], &y = plan.outs[0];
    size_t size = elementSize();
    auto xs = byteStrides(x.shape, size);
    SmallVector<SmallVector<int64_t, 0>, 4> tables(4);
    for (int d = 0; d < 4; ++d) {
      int64_t inSize = x.shape[d], outSize = y.shape[d];
      tables[d].resize(outSize);
      if (outSize == 0)
        continue;
      if (d < 2) {
        for (int64_t i = 0; i < outSize; ++i)
          tables[d][i] = i * xs[d];
        continue;
      }
      // TensorFlow's ResizeNearestNeighbor (Ascend IR's): a float scale;
      // align_corners rounds (half away from zero), otherwise floor;
      // half-pixel centres sample at (i + 0.5) * scale.
      float scale = plan.alignCorners && outSize > 1
                        ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                        : static_cast<float>(inSize) / static_cast<float>(outSize);
      for (int64_t i = 0; i < outSize; ++i) {
        float at = plan.halfPixel ? (static_cast<float>(i) + 0.5f) * scale
                                  : static_cast<float>(i) * scale;
        int64_t source = static_cast<int64_t>(plan.alignCorners ? std::round(at) : std::floor(at));
        source = std::clamp<int64_t>(source, 0, inSize - 1);
        tables[d][i] = source * xs[d];
      }
    }
    indexMapCopy(out[0], in[0], size, y.shape, tables);
    return true;
  }

  bool gather() {
    const Buffer &x = plan.ins[0], &indices = plan.ins[1], &y = plan.outs[0];
    int64_t b = plan.batchDims, axis = plan.axis;
    ArrayRef<int64_t> xShape(x.shape);
    int64_t batches = product(xShape.take_front(b));
    int64_t outer = product(xShape.slice(b, axis - b));
    int64_t extent = x.shape[axis];
    int64_t inner = product(xShape.drop_front(axis + 1));
    int64_t perBatch = product(ArrayRef<int64_t>(indices.shape).drop_front(b));
    if (!y.count)
      return true;
    // Check first, so that nothing is written for a failing op.
    if (!plan.boundsCheck)
      for (int64_t i = 0; i < indices.count; ++i) {
        int64_t index = readIndex(in[1], indices.type, i);
        if (index < -extent || index >= extent)
          return fail(ascendprec::exec::kInvalidDataError + "index " + llvm::Twine(index) + " (element " +
                      llvm::Twine(i) +
                      " of the indices) is outside [" + llvm::Twine(-extent) + ", " +
                      llvm::Twine(extent) + ") along axis " + llvm::Twine(axis) +
                      "; without bounds_check (support_out_of_bound_index) the device "
                      "would read out of bounds");
      }
    size_t rowBytes = static_cast<size_t>(inner) * elementSize();
    uint8_t *dst = out[0];
    for (int64_t batch = 0; batch < batches; ++batch)
      for (int64_t o = 0; o < outer; ++o) {
        const uint8_t *slab = in[0] + ((batch * outer + o) * extent) * rowBytes;
        for (int64_t k = 0; k < perBatch; ++k, dst += rowBytes) {
          int64_t index = readIndex(in[1], indices.type, batch * perBatch + k);
          if (index < 0)
            index += extent;
          if (index < 0 || index >= extent)
            std::memset(dst, 0, rowBytes); // bounds_check: the row reads 0
          else
            std::memcpy(dst, slab + index * rowBytes, rowBytes);
        }
      }
    return true;
  }

  bool oneHot() {
    const Buffer &indices = plan.ins[0], &y = plan.outs[0];
    int64_t depth = y.shape[plan.axis];
    int64_t given = readIndex(in[1], plan.ins[1].type, 0);
    if (given != depth)
      return fail(ascendprec::exec::kInvalidDataError + "the depth input is " + llvm::Twine(given) +
                  " but the output has " +
                  llvm::Twine(depth) + " along axis " + llvm::Twine(plan.axis));
    size_t size = elementSize();
    Bytes on = convertElement(*inputs[2], 0, y.type), off = convertElement(*inputs[3], 0, y.type);
    fillPattern(out[0], off.data(), size, y.count);
    ArrayRef<int64_t> shape(indices.shape);
    int64_t outer = product(shape.take_front(plan.axis));
    int64_t inner = product(shape.drop_front(plan.axis));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t index = readIndex(in[0], indices.type, o * inner + i);
        if (index < 0)
          index += depth; // negative indices count from depth (ONNX)
        if (index >= 0 && index < depth)
          std::memcpy(out[0] + ((o * depth + index) * inner + i) * size, on.data(), size);
      }
    return true;
  }

  bool fill() {
    const Buffer &dims = plan.ins[0], &y = plan.outs[0];
    for (int64_t d = 0; d < y.rank(); ++d) {
      int64_t given = readIndex(in[0], dims.type, d);
      if (given != y.shape[d]) {
        SmallVector<int64_t, 6> values;
        for (int64_t k = 0; k < y.rank(); ++k)
          values.push_back(readIndex(in[0], dims.type, k));
        return fail("the dims input is " + shapeString(values) + " but the output is " +
                    shapeString(y.shape));
      }
    }
    Bytes value = convertElement(*inputs[1], 0, y.type);
    fillPattern(out[0], value.data(), elementSize(), y.count);
    return true;
  }

  bool arange() {
    const Buffer &y = plan.outs[0];
    int64_t n = y.shape[0];
    bool integers = isIndexType(y.type) && llvm::all_of(plan.ins, [](const Buffer &b) {
                      return isIndexType(b.type);
                    });
    HostTensor scalar(y.type, {});
    size_t size = elementSize();
    if (integers) {
      int64_t start = inputs[0]->getInt(0), limit = inputs[1]->getInt(0),
              delta = inputs[2]->getInt(0);
      if (delta == 0)
        return fail("delta is 0");
      // ceil((limit - start) / delta), at least 0, in 128 bits.
      __int128 span = static_cast<__int128>(limit) - start;
      __int128 count = span / delta + ((span % delta != 0) && ((span > 0) == (delta > 0)));
      if (count < 0)
        count = 0;
      if (count != n)
        return fail("start " + llvm::Twine(start) + ", limit " + llvm::Twine(limit) +
                    ", delta " + llvm::Twine(delta) + " give " +
                    llvm::Twine(static_cast<int64_t>(count)) + " elements, the output holds " +
                    llvm::Twine(n));
      for (int64_t i = 0; i < n; ++i) {
        scalar.setInt(0, start + i * delta);
        std::memcpy(out[0] + i * size, scalar.data(), size);
      }
      return true;
    }
    double start = inputs[0]->get(0), limit = inputs[1]->get(0), delta = inputs[2]->get(0);
    if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
      return fail("start, limit and delta must be finite with a non-zero delta");
    double count = std::max(0.0, std::ceil((limit - start) / delta));
    // The count the graph computed in the dtype's own arithmetic may round
    // either way from the exact one.
    if (std::abs(count - static_cast<double>(n)) > 1)
      return fail("start " + numberText(start) + ", limit " + numberText(limit) + ", delta " +
                  numberText(delta) + " give " + numberText(count) +
                  " elements, the output holds " + llvm::Twine(n));
    for (int64_t i = 0; i < n; ++i) {
      // Each element computed exactly, then rounded once to the output dtype.
      scalar.set(0, start + static_cast<double>(i) * delta);
      std::memcpy(out[0] + i * size, scalar.data(), size);
    }
    return true;
  }

  bool copy() {
    if (plan.outs[0].count)
      std::memcpy(out[0], in[0], plan.outs[0].count * elementSize());
    return true;
  }

  bool go() {
    const std::string &kind = plan.kind;
    if (kind == "transpose")
      return transpose();
    if (kind == "concat")
      return pieces(/*concat=*/true);
    if (kind == "split")
      return pieces(/*concat=*/false);
    if (kind == "slice")
      return slice();
    if (kind == "pad")
      return pad();
    if (kind == "gather")
      return gather();
    if (kind == "tile")
      return tile();
    if (kind == "broadcast")
      return broadcast();
    if (kind == "depth_to_space")
      return blocks(/*toSpace=*/true);
    if (kind == "space_to_depth")
      return blocks(/*toSpace=*/false);
    if (kind == "one_hot")
      return oneHot();
    if (kind == "arange")
      return arange();
    if (kind == "fill")
      return fill();
    if (kind == "resize")
      return resize();
    if (kind == "copy")
      return copy();
    if (kind == "reverse")
      return reverse();
    return fail("unknown DMA kind");
  }
};

bool checkTensor(const HostTensor *tensor, const Buffer &buffer, const llvm::Twine &what,
                 const Plan &plan, std::string &error) {
  auto fail = [&](const llvm::Twine &message) {
    error = (llvm::Twine(plan.kind) + ": " + what + " " + message).str();
    return false;
  };
  if (!tensor)
    return fail("is missing");
  if (tensor->type() != buffer.type)
    return fail(llvm::Twine("is ") + ascendprec::runtime::elementTypeName(tensor->type()) +
                ", the op's buffer is " + ascendprec::runtime::elementTypeName(buffer.type));
  if (tensor->numElements() != buffer.count)
    return fail("holds " + llvm::Twine(tensor->numElements()) + " elements, the op's buffer " +
                shapeString(buffer.shape) + " holds " + llvm::Twine(buffer.count));
  if (buffer.count && !tensor->data())
    return fail("has no storage");
  return true;
}

} // namespace

bool ascendprec::exec::canRunDataMovement(ascendprec::kernel::DmaOp op, std::string &why) {
  if (op.getKind() == "roi_align")
    return canRunRoiAlign(op, why);
  if (op.getKind() == "nll_loss")
    return canRunNllLoss(op, why);
  if (isIndexMovementKind(op.getKind()))
    return canRunIndexMovement(op, why);
  Plan plan;
  return makePlan(op, plan, why);
}

bool ascendprec::exec::runDataMovement(ascendprec::kernel::DmaOp op,
                                       llvm::ArrayRef<const runtime::HostTensor *> inputs,
                                       llvm::ArrayRef<runtime::HostTensor *> outputs,
                                       std::string &error) {
  if (op.getKind() == "roi_align")
    return runRoiAlign(op, inputs, outputs, error);
  if (op.getKind() == "nll_loss")
    return runNllLoss(op, inputs, outputs, error);
  if (isIndexMovementKind(op.getKind()))
    return runIndexMovement(op, inputs, outputs, error);
  Plan plan;
  if (!makePlan(op, plan, error))
    return false;
  if (inputs.size() != plan.ins.size() || outputs.size() != plan.outs.size()) {
    error = plan.kind + ": given " + std::to_string(inputs.size()) + " input(s) and " +
            std::to_string(outputs.size()) + " output(s), the op has " +
            std::to_string(plan.ins.size()) + " and " + std::to_string(plan.outs.size());
    return false;
  }
  for (auto [i, tensor] : llvm::enumerate(inputs))
    if (!checkTensor(tensor, plan.ins[i], "input #" + llvm::Twine(i), plan, error))
      return false;
  for (auto [i, tensor] : llvm::enumerate(outputs))
    if (!checkTensor(tensor, plan.outs[i], "output #" + llvm::Twine(i), plan, error))
      return false;
  // An input sharing bytes with an output (a view) is read from a copy, so
  // writing the output cannot change what is still to be read.
  std::vector<HostTensor> copies;
  copies.reserve(inputs.size()); // pointers into it stay valid
  SmallVector<const HostTensor *, 4> sources(inputs.begin(), inputs.end());
  for (const HostTensor *&input : sources) {
    const uint8_t *begin = input->data(), *end = begin + input->byteSize();
    bool overlaps = llvm::any_of(outputs, [&](const HostTensor *output) {
      const uint8_t *outBegin = output->data(), *outEnd = outBegin + output->byteSize();
      return input->byteSize() && output->byteSize() && begin < outEnd && outBegin < end;
    });
    if (overlaps) {
      copies.push_back(input->clone());
      input = &copies.back();
    }
  }
  Run run{plan, {}, {}, sources, error};
  for (const HostTensor *input : sources)
    run.in.push_back(input->data());
  for (HostTensor *output : outputs)
    run.out.push_back(output->data());
  return run.go();
}
