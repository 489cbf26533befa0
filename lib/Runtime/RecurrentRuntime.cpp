//===- RecurrentRuntime.cpp - akernel.recurrent: LSTM, GRU, RNN layers ----===//
//
// ONNX's equations (gate orders i,o,f,c for LSTM and z,r,h for GRU; biases
// as [Wb, Rb]) with the device's roundings: each product x_t * W and
// h * R is exact and summed in fp32 (the cube), the biases added in fp32
// and each pre-activation rounded once to the data dtype (the fixpipe);
// every gate function and elementwise step is computed in fp32 and rounded
// to the data dtype (the vector unit), the cell state included. The data
// dtype is the results'; with 16-bit inputs and fp32 results
// (cube_fp16in_fp32out) the cube reads x, the weights and h in the input
// dtype.
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

/// The layer's buffers and the rounding to its data dtype.
struct Layer {
  Buffer x, w, r, b, seqLength, initH, initC, y, yH, yC;
  ElementType seqType;   ///< seq_length's integer dtype
  ElementType inputType; ///< x, w, r, b, init_h, init_c: what the cube reads
  ElementType data;  ///< the results and every vector step
  Overflow overflow;
  RecurrentCell cell;
  int32_t flags;
  int64_t seq, batch, input, hidden, gates;

  double read(const Buffer &buffer, int64_t i0, int64_t i1, int64_t i2) const {
    return readValue(inputType, buffer.at(i0 * buffer.strides[0] + i1 * buffer.strides[1] +
                                     i2 * buffer.strides[2]));
  }
  /// To the data dtype (the vector unit's result, the fixpipe's output).
  double round(double value) const { return roundToAccumulator(value, data, overflow); }
  /// To the cube's input dtype (h fed back into the product).
  double toInput(double value) const { return roundToAccumulator(value, inputType, overflow); }
  /// To fp32 (the cube's accumulator, the vector unit's internal dtype).
  double f32(double value) const { return roundToAccumulator(value, ElementType::F32, overflow); }
  double sigmoid(double v) const { return round(f32(1 / (1 + std::exp(-v)))); }
  double tanh(double v) const { return round(f32(std::tanh(v))); }
};

/// `values` (length n) times the rows [first, first + count) of a
/// [dirs, rows, n] weight: exact products summed in fp32.
std::vector<double> multiply(const Layer &layer, const Buffer &weight, int64_t direction,
                             const std::vector<double> &values, int64_t first, int64_t count) {
  std::vector<double> out(count, 0.0);
  for (int64_t row = 0; row < count; ++row) {
    double sum = 0;
    for (size_t k = 0; k < values.size(); ++k)
      sum = layer.f32(sum + values[k] * layer.read(weight, direction, first + row,
                                                   static_cast<int64_t>(k)));
    out[row] = sum;
  }
  return out;
}

/// Runs one direction over the sequence for one batch row.
void runDirection(const Layer &layer, int64_t direction, bool reverse, int64_t n) {
  int64_t hidden = layer.hidden, g = layer.gates;
  auto bias = [&](int64_t which, int64_t row) {
    if (!(layer.flags & HasBias))
      return 0.0;
    int64_t at = which * g * hidden + row;
    return readValue(layer.inputType,
                     layer.b.at(direction * layer.b.strides[0] + at * layer.b.strides[1]));
  };
  std::vector<double> h(hidden, 0.0), c(hidden, 0.0);
  for (int64_t j = 0; j < hidden; ++j) {
    if (layer.flags & HasInitH)
      h[j] = layer.read(layer.initH, direction, n, j);
    if (layer.flags & HasInitC)
      c[j] = layer.read(layer.initC, direction, n, j);
  }
  bool linearBeforeReset = layer.flags & LinearBeforeReset;
  // A padded batch row runs its own first `length` steps (the reverse
  // direction from its last one); y is 0 past them.
  int64_t length = layer.seq;
  if (layer.flags & HasSeqLength) {
    auto given = static_cast<int64_t>(
        readValue(layer.seqType, layer.seqLength.at(n * layer.seqLength.strides[0])));
    length = std::clamp<int64_t>(given, 0, layer.seq);
  }
  for (int64_t t = length; t < layer.seq; ++t)
    for (int64_t j = 0; j < hidden; ++j)
      writeValue(layer.data,
                 layer.y.at(t * layer.y.strides[0] + direction * layer.y.strides[1] +
                            n * layer.y.strides[2] + j * layer.y.strides[3]),
                 0.0, Rounding::Rint, layer.overflow);
  for (int64_t step = 0; step < length; ++step) {
    int64_t t = reverse ? length - 1 - step : step;
    std::vector<double> x(layer.input);
    for (int64_t k = 0; k < layer.input; ++k)
      x[k] = layer.read(layer.x, t, n, k);
    std::vector<double> xw = multiply(layer, layer.w, direction, x, 0, g * hidden);
    std::vector<double> hIn(hidden);
    for (int64_t j = 0; j < hidden; ++j)
      hIn[j] = layer.toInput(h[j]);
    std::vector<double> hr = multiply(layer, layer.r, direction, hIn, 0, g * hidden);
    // Pre-activation of gate `gate`, row j: one fixpipe rounding.
    auto pre = [&](int64_t gate, int64_t j) {
      int64_t row = gate * hidden + j;
      return layer.round(layer.f32(layer.f32(xw[row] + hr[row]) +
                                   layer.f32(bias(0, row) + bias(1, row))));
    };
    std::vector<double> next(hidden);
    if (layer.cell == RecurrentCell::Rnn) {
      for (int64_t j = 0; j < hidden; ++j)
        next[j] = layer.tanh(pre(0, j));
    } else if (layer.cell == RecurrentCell::Lstm) {
      for (int64_t j = 0; j < hidden; ++j) {
        double i = layer.sigmoid(pre(0, j)), o = layer.sigmoid(pre(1, j));
        double f = layer.sigmoid(pre(2, j)), candidate = layer.tanh(pre(3, j));
        c[j] = layer.round(layer.f32(layer.round(f * c[j]) + layer.round(i * candidate)));
        next[j] = layer.round(o * layer.tanh(c[j]));
      }
    } else {
      // GRU: z and r first; h's gate needs r.
      std::vector<double> z(hidden), r(hidden);
      for (int64_t j = 0; j < hidden; ++j) {
        z[j] = layer.sigmoid(pre(0, j));
        r[j] = layer.sigmoid(pre(1, j));
      }
      std::vector<double> resetH(hidden);
      for (int64_t j = 0; j < hidden; ++j)
        resetH[j] = layer.toInput(layer.round(r[j] * h[j]));
      // Without linear_before_reset, r scales h before the product.
      std::vector<double> hrH =
          linearBeforeReset ? std::vector<double>(hr.begin() + 2 * hidden, hr.end())
                            : multiply(layer, layer.r, direction, resetH, 2 * hidden, hidden);
      for (int64_t j = 0; j < hidden; ++j) {
        int64_t row = 2 * hidden + j;
        double recurrent = linearBeforeReset
                               ? layer.round(r[j] * layer.round(layer.f32(hrH[j] + bias(1, row))))
                               : layer.round(layer.f32(hrH[j] + bias(1, row)));
        double candidate = layer.tanh(
            layer.round(layer.f32(layer.round(layer.f32(xw[row] + bias(0, row))) + recurrent)));
        next[j] = layer.round(layer.f32(layer.round((1 - z[j]) * candidate) +
                                        layer.round(z[j] * h[j])));
      }
    }
    h = next;
    for (int64_t j = 0; j < hidden; ++j)
      writeValue(layer.data,
                 layer.y.at(t * layer.y.strides[0] + direction * layer.y.strides[1] +
                            n * layer.y.strides[2] + j * layer.y.strides[3]),
                 h[j], Rounding::Rint, layer.overflow);
  }
  for (int64_t j = 0; j < hidden; ++j) {
    int64_t at = direction * layer.yH.strides[0] + n * layer.yH.strides[1] + j * layer.yH.strides[2];
    writeValue(layer.data, layer.yH.at(at), h[j], Rounding::Rint, layer.overflow);
    if (layer.cell == RecurrentCell::Lstm)
      writeValue(layer.data,
                 layer.yC.at(direction * layer.yC.strides[0] + n * layer.yC.strides[1] +
                             j * layer.yC.strides[2]),
                 c[j], Rounding::Rint, layer.overflow);
  }
}

} // namespace

extern "C" {

void ascendprec_rt_recurrent(int64_t xRank, void *xDesc, int64_t wRank, void *wDesc,
                             int64_t rRank, void *rDesc, int64_t bRank, void *bDesc,
                             int64_t hRank, void *hDesc, int64_t cRank, void *cDesc,
                             int64_t sRank, void *sDesc, int64_t yRank, void *yDesc,
                             int64_t yhRank, void *yhDesc, int64_t ycRank, void *ycDesc,
                             int32_t cell, int32_t direction, int32_t flags, int32_t inputType,
                             int32_t dataType, int32_t seqType, int32_t overflow) {
  Layer layer;
  layer.inputType = typeOf(inputType);
  layer.data = typeOf(dataType);
  layer.seqType = typeOf(seqType);
  layer.seqLength = bufferOf(sRank, sDesc, elementBytes(layer.seqType));
  size_t inBytes = elementBytes(layer.inputType), outBytes = elementBytes(layer.data);
  layer.x = bufferOf(xRank, xDesc, inBytes);
  layer.w = bufferOf(wRank, wDesc, inBytes);
  layer.r = bufferOf(rRank, rDesc, inBytes);
  layer.b = bufferOf(bRank, bDesc, inBytes);
  layer.initH = bufferOf(hRank, hDesc, inBytes);
  layer.initC = bufferOf(cRank, cDesc, inBytes);
  layer.y = bufferOf(yRank, yDesc, outBytes);
  layer.yH = bufferOf(yhRank, yhDesc, outBytes);
  layer.yC = bufferOf(ycRank, ycDesc, outBytes);
  layer.overflow = static_cast<Overflow>(overflow);
  layer.cell = static_cast<RecurrentCell>(cell);
  layer.flags = flags;
  layer.seq = layer.x.sizes[0];
  layer.batch = layer.x.sizes[1];
  layer.input = layer.x.sizes[2];
  layer.hidden = layer.r.sizes[2];
  layer.gates = layer.r.sizes[1] / layer.hidden;
  auto dir = static_cast<RecurrentDirection>(direction);
  for (int64_t n = 0; n < layer.batch; ++n) {
    if (dir == RecurrentDirection::Bidirectional) {
      runDirection(layer, 0, /*reverse=*/false, n);
      runDirection(layer, 1, /*reverse=*/true, n);
    } else {
      runDirection(layer, 0, dir == RecurrentDirection::Reverse, n);
    }
  }
}

} // extern "C"
