//===- RecurrentRuntime.cpp - akernel.recurrent: LSTM, GRU, RNN layers ----===//
//
// ONNX's equations (gate orders i,o,f,c for LSTM and z,r,h for GRU; biases
// as [Wb, Rb]) with the device's roundings: each product x_t * W and
// h * R is exact and added to its fp32 sum in K order with one rounding,
// through the cube's own multiply (mmadTile: x_t * W for every step at
// once, h * R per step, the weights transposed and planned once per
// launch), the biases added in fp32 and each pre-activation rounded once
// to the data dtype (the fixpipe);
// every gate function and elementwise step is computed in fp32 and rounded
// to the data dtype (the vector unit), the cell state included. The data
// dtype is the results'; with 16-bit inputs and fp32 results
// (cube_fp16in_fp32out) the cube reads x, the weights and h in the input
// dtype.
//
//===----------------------------------------------------------------------===//

#include "CacheLineVector.h"
#include "ConstantTiles.h"
#include "CubeTile.h"
#include "RuntimeBuffers.h"
#include "Transcendentals.h"
#include "Transpose.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

std::atomic<unsigned> threadsOfRun{1};

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
  /// To fp32 (the cube's accumulator, the vector unit's internal dtype).
  double f32(double value) const { return roundToAccumulator(value, ElementType::F32, overflow); }
  /// v is a value of the data dtype: exact as a float.
  double sigmoid(double v) const {
    float x = static_cast<float>(v), result;
    sigmoidFloats(&x, &result, 1);
    return round(result);
  }
  /// v is a value of the data dtype (fp32 or narrower): exact as a float.
  double tanh(double v) const {
    return round(ascendprec_rt_tanh_f32(static_cast<float>(v)));
  }
};

/// Whether the cube's multiply reads the layer's input dtype (fp16, bf16,
/// fp32); an fp64 layer sums its products one by one.
bool onTheCube(const Layer &layer) {
  return layer.inputType == ElementType::F16 || layer.inputType == ElementType::BF16 ||
         layer.inputType == ElementType::F32;
}

/// weight[direction]'s rows of the gates of hidden units [first, first +
/// units), transposed to [k, gates * units]: gate-major, as the full rows
/// are (units = hidden: the whole direction).
CacheLineVector<uint8_t> gateColumns(const Layer &layer, const Buffer &weight, int64_t direction,
                                     int64_t first, int64_t units) {
  int64_t k = weight.sizes[2], columns = layer.gates * units;
  CacheLineVector<uint8_t> out(k * columns * weight.bytes);
  for (int64_t gate = 0; gate < layer.gates; ++gate) {
    int64_t firstRow = gate * layer.hidden + first;
    if (weight.strides[2] == 1) {
      copyTransposed(weight.at(direction * weight.strides[0] + firstRow * weight.strides[1]),
                     weight.strides[1], units, k, out.data() + gate * units * weight.bytes,
                     columns, weight.bytes, /*streaming=*/false);
      continue;
    }
    for (int64_t j = 0; j < units; ++j)
      for (int64_t p = 0; p < k; ++p)
        std::memcpy(&out[(p * columns + gate * units + j) * weight.bytes],
                    weight.at(direction * weight.strides[0] + (firstRow + j) * weight.strides[1] +
                              p * weight.strides[2]),
                    weight.bytes);
  }
  return out;
}

/// W's or R's gate columns of some hidden units of one direction
/// (gateColumns) as the cube reads them, with their plan. A remembered
/// constant's (a model's initializer) are kept for every later launch and
/// run (ConstantTiles.h): transposing and planning a 2-layer bidirectional
/// LSTM's weights took a tenth of each run. Others are built per launch.
class GateWeights {
public:
  GateWeights(const Layer &layer, const Buffer &weight, int64_t direction, int64_t first,
              int64_t units) {
    int64_t k = weight.sizes[2], columns = layer.gates * units;
    std::vector<int64_t> key;
    bool constant = onTheCube(layer) && isRememberedConstant(weight);
    if (constant) {
      // The address first (forgetConstant finds its keys by it); -1 where a
      // cube loop's keys hold their load mode, which is never negative.
      key = {reinterpret_cast<int64_t>(weight.data), -1, static_cast<int64_t>(layer.inputType),
             direction, first, units, layer.gates, layer.hidden};
      for (int64_t d = 0; d < 3; ++d)
        key.insert(key.end(), {weight.sizes[d], weight.strides[d]});
      if ((tile_ = findConstantTile(key)))
        return;
    }
    own_ = std::make_unique<KeptTile>();
    own_->bytes = gateColumns(layer, weight, direction, first, units);
    if (constant && (tile_ = keepConstantBytes(key, own_->bytes, k, columns, layer.inputType))) {
      own_.reset();
      return;
    }
    if (onTheCube(layer))
      planRhs(layer.inputType, own_->bytes.data(), columns, k, columns, own_->plan);
    tile_ = own_.get();
  }
  const uint8_t *data() const { return tile_->bytes.data(); }
  const RhsPlan &plan() const { return tile_->plan; }

private:
  std::unique_ptr<KeptTile> own_;
  const KeptTile *tile_ = nullptr;
};

/// One direction's weights as the cube reads them (GateWeights of every
/// unit) and (GRU) the plan of R's columns of the h gate alone.
struct DirectionWeights {
  GateWeights w, r;
  RhsPlan rGatePlan;

  DirectionWeights(const Layer &layer, int64_t direction)
      : w(layer, layer.w, direction, 0, layer.hidden),
        r(layer, layer.r, direction, 0, layer.hidden) {
    if (layer.cell == RecurrentCell::Gru && onTheCube(layer))
      planRhs(layer.inputType, r.data() + 2 * layer.hidden * layer.r.bytes,
              layer.gates * layer.hidden, layer.hidden, layer.hidden, rGatePlan);
  }
};

/// `values` in the input dtype's bytes (the cube reads h so), each rounded
/// to it.
void toInputBytes(const Layer &layer, const std::vector<double> &values,
                  std::vector<uint8_t> &bytes) {
  size_t size = elementBytes(layer.inputType);
  bytes.resize(values.size() * size);
  for (size_t j = 0; j < values.size(); ++j)
    writeValue(layer.inputType, &bytes[j * size], values[j], Rounding::Rint, layer.overflow);
}

/// `values` (the input dtype's bytes, k of them, `step` elements apart)
/// times the [k, n] block of transposed weights at `rhs` (rows `ldb`
/// apart), as the cube sums them: n fp32 sums, widened to double.
void multiplyRow(const Layer &layer, const uint8_t *values, int64_t step, const uint8_t *rhs,
                 int64_t ldb, const RhsPlan &plan, int64_t k, int64_t n,
                 std::vector<double> &out) {
  out.resize(n);
  if (!onTheCube(layer)) {
    size_t bytes = elementBytes(layer.inputType);
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum = layer.f32(sum + readValue(layer.inputType, values + p * step * bytes) *
                                  readValue(layer.inputType, rhs + (p * ldb + j) * bytes));
      out[j] = sum;
    }
    return;
  }
  thread_local std::vector<float> sums;
  sums.resize(n);
  mmadTile(layer.inputType, values, LhsLayout{k * step, step}, rhs, ldb, plan,
           reinterpret_cast<uint8_t *>(sums.data()), 1, n, k, /*init=*/true);
  for (int64_t j = 0; j < n; ++j)
    out[j] = layer.f32(sums[j]);
}

/// Rounds `count` fp32 values to the data dtype (F32 or F16) in place.
void roundToData(const Layer &layer, float *values, int64_t count) {
  if (layer.data != ElementType::F16)
    return;
  thread_local std::vector<uint16_t> bits;
  bits.resize(count);
  narrowToHalf(values, bits.data(), count, layer.overflow);
  widenToFloat(ElementType::F16, reinterpret_cast<const uint8_t *>(bits.data()), values, count);
}

/// Whether an LSTM step may take lstmStepInFloat: fp32 or fp16 data with
/// IEEE overflow.
bool gatesInFloat(const Layer &layer) {
  return layer.overflow == Overflow::IEEE &&
         (layer.data == ElementType::F32 || layer.data == ElementType::F16);
}

/// One LSTM step's gates, cell and output for `units` hidden units at once
/// (the arrays' gates `units` apart), in fp32: xw and hr the fp32 sums of x
/// * W and h * R, biasSum the fp32 sums of the biases; updates c and writes
/// h. The same values as the per-element path, which computes in double
/// and rounds every step: a sum or product of two floats computed in double
/// and rounded to fp32 is the fp32 operation's result (53 >= 2 x 24 + 2
/// bits: double rounding is innocuous), 16-bit values multiply exactly in
/// fp32, the sigmoid is still computed in double, and each step is rounded
/// to the data dtype where the other path rounds it.
void lstmStepInFloat(const Layer &layer, int64_t units, const float *xw, const float *hr,
                     const float *biasSum, float *c, float *h) {
  int64_t rows = 4 * units;
  thread_local std::vector<float> pre, gate, products, cell;
  pre.resize(rows);
  gate.resize(rows);
  products.resize(2 * units);
  cell.resize(units);
  for (int64_t row = 0; row < rows; ++row)
    pre[row] = (xw[row] + hr[row]) + biasSum[row];
  roundToData(layer, pre.data(), rows);
  // i, o, f: sigmoids; the candidate: tanh.
  sigmoidFloats(pre.data(), gate.data(), 3 * units);
  tanhFloats(pre.data() + 3 * units, gate.data() + 3 * units, units);
  roundToData(layer, gate.data(), rows);
  const float *inputGate = gate.data(), *outputGate = inputGate + units;
  const float *forgetGate = outputGate + units, *candidate = forgetGate + units;
  for (int64_t j = 0; j < units; ++j) {
    products[j] = forgetGate[j] * c[j];
    products[units + j] = inputGate[j] * candidate[j];
  }
  roundToData(layer, products.data(), 2 * units);
  for (int64_t j = 0; j < units; ++j)
    cell[j] = products[j] + products[units + j];
  roundToData(layer, cell.data(), units);
  tanhFloats(cell.data(), products.data(), units);
  roundToData(layer, products.data(), units);
  for (int64_t j = 0; j < units; ++j)
    products[j] *= outputGate[j];
  roundToData(layer, products.data(), units);
  std::memcpy(c, cell.data(), units * sizeof(float));
  std::memcpy(h, products.data(), units * sizeof(float));
}

/// Writes `count` fp32 values as `type` (rounded to nearest even), `stride`
/// elements apart from `out`: contiguous fp32, fp16 and bf16 a vector at a
/// time, anything else element by element.
void writeFloats(ElementType type, uint8_t *out, int64_t stride, const float *values,
                 int64_t count, Overflow overflow) {
  if (stride == 1 && type == ElementType::F32) {
    std::memcpy(out, values, count * sizeof(float));
    return;
  }
  if (stride == 1 && (type == ElementType::F16 || type == ElementType::BF16)) {
    thread_local std::vector<uint16_t> bits;
    bits.resize(count);
    if (type == ElementType::F16)
      narrowToHalf(values, bits.data(), count, overflow);
    else
      narrowToBFloat16(values, bits.data(), count, overflow);
    std::memcpy(out, bits.data(), count * sizeof(uint16_t));
    return;
  }
  size_t bytes = elementBytes(type);
  for (int64_t j = 0; j < count; ++j)
    writeValue(type, out + j * stride * bytes, values[j], Rounding::Rint, overflow);
}

/// Runs one direction over the sequence for one batch row.
void runDirection(const Layer &layer, const DirectionWeights &weights, int64_t direction,
                  bool reverse, int64_t n) {
  int64_t hidden = layer.hidden, g = layer.gates;
  // The biases, read once: Wb and Rb per row, and their fp32 sum.
  int64_t rows = g * hidden;
  std::vector<double> biases(2 * rows, 0.0), biasSum(rows, 0.0);
  if (layer.flags & HasBias)
    for (int64_t at = 0; at < 2 * rows; ++at)
      biases[at] = readValue(layer.inputType,
                             layer.b.at(direction * layer.b.strides[0] + at * layer.b.strides[1]));
  for (int64_t row = 0; row < rows; ++row)
    biasSum[row] = layer.f32(biases[row] + biases[rows + row]);
  auto bias = [&](int64_t which, int64_t row) { return biases[which * rows + row]; };
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
  // x_t * W for every step at once on the cube (no step depends on
  // another's).
  std::vector<float> xwAll;
  const uint8_t *xRow = layer.x.at(n * layer.x.strides[1]);
  if (onTheCube(layer)) {
    xwAll.resize(layer.seq * rows);
    mmadTile(layer.inputType, xRow, LhsLayout{layer.x.strides[0], layer.x.strides[2]},
             weights.w.data(), rows, weights.w.plan(), reinterpret_cast<uint8_t *>(xwAll.data()),
             layer.seq, rows, layer.input, /*init=*/true);
  }
  std::vector<double> xw(rows), hr;
  std::vector<uint8_t> hBytes;
  for (int64_t step = 0; step < length; ++step) {
    int64_t t = reverse ? length - 1 - step : step;
    if (onTheCube(layer))
      for (int64_t row = 0; row < rows; ++row)
        xw[row] = layer.f32(xwAll[t * rows + row]);
    else
      multiplyRow(layer, xRow + t * layer.x.strides[0] * layer.x.bytes, layer.x.strides[2],
                  weights.w.data(), rows, weights.w.plan(), layer.input, rows, xw);
    toInputBytes(layer, h, hBytes);
    multiplyRow(layer, hBytes.data(), 1, weights.r.data(), rows, weights.r.plan(), hidden, rows,
                hr);
    // Pre-activation of gate `gate`, row j: one fixpipe rounding.
    auto pre = [&](int64_t gate, int64_t j) {
      int64_t row = gate * hidden + j;
      return layer.round(layer.f32(layer.f32(xw[row] + hr[row]) + biasSum[row]));
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
      // Without linear_before_reset, r scales h before the product.
      std::vector<double> hrH;
      if (linearBeforeReset) {
        hrH.assign(hr.begin() + 2 * hidden, hr.end());
      } else {
        std::vector<double> resetH(hidden);
        for (int64_t j = 0; j < hidden; ++j)
          resetH[j] = layer.round(r[j] * h[j]);
        toInputBytes(layer, resetH, hBytes);
        multiplyRow(layer, hBytes.data(), 1, weights.r.data() + 2 * hidden * layer.r.bytes,
                    rows, weights.rGatePlan, hidden, hidden, hrH);
      }
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

/// The threads of a layer (one or two) meeting once per step: two spin
/// (each has a core), then yield, so that a host with one core still makes
/// progress; one never waits.
class StepBarrier {
public:
  explicit StepBarrier(int parties) : parties_(parties) {}
  void wait() {
    if (parties_ == 1)
      return;
    int phase = phase_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == 1) {
      arrived_.store(0, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      return;
    }
    // Spin for a step's time at most: past it the other thread has lost its
    // core, and spinning on keeps it off this one (with another process
    // busy on one core, 4096 pauses per wait took the LSTM below from 7.4
    // to 34-40 ms; one thread takes 17).
    auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
    bool spinning = true;
    for (unsigned spins = 0; phase_.load(std::memory_order_acquire) == phase; ++spins) {
      if (spinning && (spins & 63) == 0)
        spinning = std::chrono::steady_clock::now() < deadline;
      if (spinning) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        std::this_thread::yield();
      }
    }
  }

private:
  int parties_;
  std::atomic<int> arrived_{0}, phase_{0};
};

/// What the threads of a layer share: h of the step before, in the input
/// dtype's bytes (two buffers, by step parity: one is read while the next
/// is written), and the barrier that ends each step.
struct SharedSteps {
  std::vector<uint8_t> h[2];
  StepBarrier barrier;

  SharedSteps(const Layer &layer, int threads) : barrier(threads) {
    h[0].resize(layer.hidden * elementBytes(layer.inputType));
    h[1].resize(h[0].size());
  }
};

/// One direction of one batch row for hidden units [first, first + units)
/// (any others on the other thread): runDirection's LSTM step, each value
/// the same, on the units' gate columns of W and R (a sum of h * R is one
/// column's, whichever columns a multiply takes) and in fp32 arrays
/// throughout (each value is one: a sum rounded to fp32 or a value of the
/// data dtype; lstmStepInFloat says why the bits are the same).
void runUnits(const Layer &layer, const GateWeights &w, const GateWeights &r, int64_t first,
              int64_t units, int64_t direction, bool reverse, int64_t n, SharedSteps &shared) {
  int64_t hidden = layer.hidden, rows = 4 * hidden, columns = 4 * units;
  size_t inBytes = elementBytes(layer.inputType);
  std::vector<float> biasSum(columns, 0.0f);
  for (int64_t gate = 0; gate < 4 && (layer.flags & HasBias); ++gate)
    for (int64_t j = 0; j < units; ++j) {
      int64_t row = gate * hidden + first + j;
      auto bias = [&](int64_t at) {
        return readValue(layer.inputType,
                         layer.b.at(direction * layer.b.strides[0] + at * layer.b.strides[1]));
      };
      biasSum[gate * units + j] = static_cast<float>(layer.f32(bias(row) + bias(rows + row)));
    }
  std::vector<float> c(units, 0.0f), h(units, 0.0f);
  for (int64_t j = 0; j < units; ++j) {
    if (layer.flags & HasInitH)
      h[j] = static_cast<float>(layer.read(layer.initH, direction, n, first + j));
    if (layer.flags & HasInitC)
      c[j] = static_cast<float>(layer.read(layer.initC, direction, n, first + j));
  }
  writeFloats(layer.inputType, &shared.h[0][first * inBytes], 1, h.data(), units,
              layer.overflow);
  int64_t length = layer.seq;
  if (layer.flags & HasSeqLength) {
    auto given = static_cast<int64_t>(
        readValue(layer.seqType, layer.seqLength.at(n * layer.seqLength.strides[0])));
    length = std::clamp<int64_t>(given, 0, layer.seq);
  }
  int64_t yStride = layer.y.strides[3];
  auto yAt = [&](int64_t t) {
    return layer.y.at(t * layer.y.strides[0] + direction * layer.y.strides[1] +
                      n * layer.y.strides[2] + first * yStride);
  };
  std::vector<float> zeros(units, 0.0f);
  for (int64_t t = length; t < layer.seq; ++t)
    writeFloats(layer.data, yAt(t), yStride, zeros.data(), units, layer.overflow);
  std::vector<float> xwAll(layer.seq * columns), hr(columns);
  mmadTile(layer.inputType, layer.x.at(n * layer.x.strides[1]),
           LhsLayout{layer.x.strides[0], layer.x.strides[2]}, w.data(), columns, w.plan(),
           reinterpret_cast<uint8_t *>(xwAll.data()), layer.seq, columns, layer.input,
           /*init=*/true);
  shared.barrier.wait(); // h of step 0 whole
  for (int64_t step = 0; step < length; ++step) {
    int64_t t = reverse ? length - 1 - step : step;
    mmadTile(layer.inputType, shared.h[step % 2].data(), LhsLayout{hidden, 1}, r.data(), columns,
             r.plan(), reinterpret_cast<uint8_t *>(hr.data()), 1, columns, hidden,
             /*init=*/true);
    lstmStepInFloat(layer, units, &xwAll[t * columns], hr.data(), biasSum.data(), c.data(),
                    h.data());
    writeFloats(layer.data, yAt(t), yStride, h.data(), units, layer.overflow);
    writeFloats(layer.inputType, &shared.h[(step + 1) % 2][first * inBytes], 1, h.data(), units,
                layer.overflow);
    shared.barrier.wait(); // h of the next step whole
  }
  auto stateAt = [&](const Buffer &state) {
    return state.at(direction * state.strides[0] + n * state.strides[1] +
                    first * state.strides[2]);
  };
  writeFloats(layer.data, stateAt(layer.yH), layer.yH.strides[2], h.data(), units,
              layer.overflow);
  writeFloats(layer.data, stateAt(layer.yC), layer.yC.strides[2], c.data(), units,
              layer.overflow);
}

/// An LSTM layer (gatesInFloat) on `threads` threads (1 or 2), each
/// computing its share of the hidden units of every step, directions one
/// after the other. Running the directions on a thread each, every step
/// read a direction's whole R (1 MiB at 256 units) from L3; each thread's
/// half now stays in its L2 for the whole sequence. Two threads meet once
/// per step, to exchange h. One thread takes every unit the same way
/// (a 2-layer bidirectional LSTM of 256: 28 -> 20 ms against the
/// per-element path's conversions through double).
void runLstmInFloats(const Layer &layer, int64_t directions, bool reverseOnly, int threads) {
  SharedSteps shared(layer, threads);
  int64_t half = threads == 1 ? layer.hidden : layer.hidden / 2;
  auto work = [&](int part) {
    int64_t first = part == 0 ? 0 : half, units = part == 0 ? half : layer.hidden - half;
    for (int64_t direction = 0; direction < directions; ++direction) {
      GateWeights w(layer, layer.w, direction, first, units);
      GateWeights r(layer, layer.r, direction, first, units);
      for (int64_t n = 0; n < layer.batch; ++n)
        runUnits(layer, w, r, first, units, direction, reverseOnly || direction == 1, n, shared);
    }
  };
  if (threads == 1) {
    work(0);
    return;
  }
  std::thread other(work, 1);
  work(0);
  other.join();
}

} // namespace

void ascendprec::runtime::setHostThreads(unsigned threads) {
  threadsOfRun.store(std::max(1u, threads), std::memory_order_relaxed);
}

unsigned ascendprec::runtime::hostThreads() {
  return threadsOfRun.load(std::memory_order_relaxed);
}

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
  int64_t directions = dir == RecurrentDirection::Bidirectional ? 2 : 1;
  if (layer.cell == RecurrentCell::Lstm && gatesInFloat(layer) && onTheCube(layer)) {
    bool twoThreads = threadsOfRun.load(std::memory_order_relaxed) >= 2 && layer.hidden >= 16;
    runLstmInFloats(layer, directions, dir == RecurrentDirection::Reverse, twoThreads ? 2 : 1);
    return;
  }
  std::vector<DirectionWeights> weights;
  weights.reserve(directions);
  for (int64_t d = 0; d < directions; ++d)
    weights.emplace_back(layer, d);
  auto runRows = [&](int64_t direction, bool reverse) {
    for (int64_t n = 0; n < layer.batch; ++n)
      runDirection(layer, weights[direction], direction, reverse, n);
  };
  if (dir != RecurrentDirection::Bidirectional) {
    runRows(0, dir == RecurrentDirection::Reverse);
  } else if (threadsOfRun.load(std::memory_order_relaxed) >= 2) {
    // The directions share nothing but their inputs.
    std::thread backward(runRows, 1, true);
    runRows(0, false);
    backward.join();
  } else {
    runRows(0, false);
    runRows(1, true);
  }
}

} // extern "C"
