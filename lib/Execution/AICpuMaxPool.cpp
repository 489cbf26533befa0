//===- AICpuMaxPool.cpp - the AI CPU's MaxPool for windows too large ------===//
//
// CANN's ONNX MaxPool plugin (hicann/ops-nn
// common/src/framework/max_pool_onnx_plugin.cpp, ParseOpToGraphMaxPool)
// sends a 2-D MaxPool whose window holds more than 255 elements, or whose
// stride exceeds 63, to the AI CPU: TransposeD to NHWC, PadV2 with the
// constant -65504 when any pad is set, MaxPool with padding "VALID", and
// TransposeD back. The transposes move data only; what the result depends
// on is the padding value: -65504 (fp16's lowest finite value) takes part
// in every window that reaches the padding, so it wins over -inf and, in
// fp32, over anything below it.
//
//===----------------------------------------------------------------------===//

#include "AICpuMaxPool.h"

#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::HostTensor;

namespace {

SmallVector<int64_t> intsOf(kernel::AICPUCallOp op, StringRef name) {
  auto values = op.getAttrs() ? op.getAttrs()->getAs<DenseI64ArrayAttr>(name) : DenseI64ArrayAttr();
  return values ? SmallVector<int64_t>(values.asArrayRef()) : SmallVector<int64_t>();
}

} // namespace

bool exec::runAICpuMaxPool(kernel::AICPUCallOp op, const HostTensor &input, HostTensor &output,
                           std::string &error) {
  SmallVector<int64_t> ksize = intsOf(op, "ksize"), strides = intsOf(op, "strides"),
                       pads = intsOf(op, "pads");
  const std::vector<int64_t> &in = input.shape(), &out = output.shape();
  if (in.size() != 4 || out.size() != 4 || ksize.size() != 2 || strides.size() != 2 ||
      pads.size() != 4) {
    error = "an AI CPU MaxPool that is not 2-D NCHW with 2 window sizes, 2 strides and 4 pads";
    return false;
  }
  bool padded = llvm::any_of(pads, [](int64_t pad) { return pad != 0; });
  // pads: [top, bottom, left, right], as the ascend op keeps them.
  int64_t top = pads[0], left = pads[2];
  int64_t height = in[2], width = in[3];
  constexpr double kPadValue = -65504.0;
  for (int64_t plane = 0; plane < out[0] * out[1]; ++plane)
    for (int64_t oh = 0; oh < out[2]; ++oh)
      for (int64_t ow = 0; ow < out[3]; ++ow) {
        double best = -INFINITY;
        bool first = true;
        for (int64_t i = 0; i < ksize[0]; ++i)
          for (int64_t j = 0; j < ksize[1]; ++j) {
            int64_t h = oh * strides[0] - top + i, w = ow * strides[1] - left + j;
            bool inside = h >= 0 && h < height && w >= 0 && w < width;
            if (!inside && !padded)
              continue;
            double value = inside ? input.get((plane * height + h) * width + w) : kPadValue;
            // The first NaN stays (as the AI Core's max does).
            if (first || (!std::isnan(best) && (std::isnan(value) || value > best)))
              best = value;
            first = false;
          }
        output.set((plane * out[2] + oh) * out[3] + ow, best);
      }
  return true;
}
