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

#include "CubeTile.h"
#include "RuntimeBuffers.h"
#include "Transcendentals.h"
#include "Transpose.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
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

/// One direction's weights as the cube reads them: W and R transposed to
/// [K, gates * hidden] rows of the input dtype, each with its plan, and
/// (GRU) the plan of R's columns of the h gate alone.
struct DirectionWeights {
  std::vector<uint8_t> w, r;
  RhsPlan wPlan, rPlan, rGatePlan;
};

/// weight[direction] ([rows, k] strided) transposed to [k, rows], contiguous.
std::vector<uint8_t> transposedWeight(const Buffer &weight, int64_t direction) {
  int64_t rows = weight.sizes[1], k = weight.sizes[2];
  std::vector<uint8_t> out(rows * k * weight.bytes);
  const uint8_t *source = weight.at(direction * weight.strides[0]);
  if (weight.strides[2] == 1) {
    copyTransposed(source, weight.strides[1], rows, k, out.data(), rows, weight.bytes,
                   /*streaming=*/false);
    return out;
  }
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t p = 0; p < k; ++p)
      std::memcpy(&out[(p * rows + row) * weight.bytes],
                  weight.at(direction * weight.strides[0] + row * weight.strides[1] +
                            p * weight.strides[2]),
                  weight.bytes);
  return out;
}

/// Whether the cube's multiply reads the layer's input dtype (fp16, bf16,
/// fp32); an fp64 layer sums its products one by one.
bool onTheCube(const Layer &layer) {
  return layer.inputType == ElementType::F16 || layer.inputType == ElementType::BF16 ||
         layer.inputType == ElementType::F32;
}

DirectionWeights directionWeights(const Layer &layer, int64_t direction) {
  DirectionWeights weights;
  int64_t rows = layer.gates * layer.hidden;
  weights.w = transposedWeight(layer.w, direction);
  weights.r = transposedWeight(layer.r, direction);
  if (!onTheCube(layer))
    return weights;
  planRhs(layer.inputType, weights.w.data(), rows, layer.input, rows, weights.wPlan);
  planRhs(layer.inputType, weights.r.data(), rows, layer.hidden, rows, weights.rPlan);
  if (layer.cell == RecurrentCell::Gru)
    planRhs(layer.inputType, weights.r.data() + 2 * layer.hidden * layer.r.bytes, rows,
            layer.hidden, layer.hidden, weights.rGatePlan);
  return weights;
}

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

/// One LSTM step's gates, cell and output for every hidden unit at once, in
/// fp32 arrays. The same values as the per-element path, which computes in
/// double and rounds every step: a sum or product of two floats computed in
/// double and rounded to fp32 is the fp32 operation's result (53 >= 2 x 24
/// + 2 bits: double rounding is innocuous), 16-bit values multiply exactly
/// in fp32, the sigmoid is still computed in double, and each step is
/// rounded to the data dtype where the other path rounds it.
void lstmStepInFloat(const Layer &layer, const std::vector<double> &xw,
                     const std::vector<double> &hr, const std::vector<double> &biasSum,
                     std::vector<double> &c, std::vector<double> &next) {
  int64_t hidden = layer.hidden, rows = 4 * hidden;
  thread_local std::vector<float> pre, gate, products, cell;
  pre.resize(rows);
  gate.resize(rows);
  products.resize(2 * hidden);
  cell.resize(hidden);
  for (int64_t row = 0; row < rows; ++row)
    pre[row] = (static_cast<float>(xw[row]) + static_cast<float>(hr[row])) +
               static_cast<float>(biasSum[row]);
  roundToData(layer, pre.data(), rows);
  // i, o, f: sigmoids; the candidate: tanh.
  sigmoidFloats(pre.data(), gate.data(), 3 * hidden);
  tanhFloats(pre.data() + 3 * hidden, gate.data() + 3 * hidden, hidden);
  roundToData(layer, gate.data(), rows);
  const float *inputGate = gate.data(), *outputGate = inputGate + hidden;
  const float *forgetGate = outputGate + hidden, *candidate = forgetGate + hidden;
  for (int64_t j = 0; j < hidden; ++j) {
    products[j] = forgetGate[j] * static_cast<float>(c[j]);
    products[hidden + j] = inputGate[j] * candidate[j];
  }
  roundToData(layer, products.data(), 2 * hidden);
  for (int64_t j = 0; j < hidden; ++j)
    cell[j] = products[j] + products[hidden + j];
  roundToData(layer, cell.data(), hidden);
  tanhFloats(cell.data(), products.data(), hidden);
  roundToData(layer, products.data(), hidden);
  for (int64_t j = 0; j < hidden; ++j)
    products[j] *= outputGate[j];
  roundToData(layer, products.data(), hidden);
  for (int64_t j = 0; j < hidden; ++j) {
    c[j] = cell[j];
    next[j] = products[j];
  }
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
             weights.w.data(), rows, weights.wPlan, reinterpret_cast<uint8_t *>(xwAll.data()),
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
                  weights.w.data(), rows, weights.wPlan, layer.input, rows, xw);
    toInputBytes(layer, h, hBytes);
    multiplyRow(layer, hBytes.data(), 1, weights.r.data(), rows, weights.rPlan, hidden, rows, hr);
    // Pre-activation of gate `gate`, row j: one fixpipe rounding.
    auto pre = [&](int64_t gate, int64_t j) {
      int64_t row = gate * hidden + j;
      return layer.round(layer.f32(layer.f32(xw[row] + hr[row]) + biasSum[row]));
    };
    std::vector<double> next(hidden);
    if (layer.cell == RecurrentCell::Rnn) {
      for (int64_t j = 0; j < hidden; ++j)
        next[j] = layer.tanh(pre(0, j));
    } else if (layer.cell == RecurrentCell::Lstm && gatesInFloat(layer)) {
      lstmStepInFloat(layer, xw, hr, biasSum, c, next);
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

/// Two threads meeting once per step: they spin (each has a core), then
/// yield, so that a host with one core still makes progress.
class StepBarrier {
public:
  void wait() {
    int phase = phase_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == 1) {
      arrived_.store(0, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      return;
    }
    for (unsigned spins = 0; phase_.load(std::memory_order_acquire) == phase; ++spins) {
      if (spins < 4096) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        std::this_thread::yield();
      }
    }
  }

private:
  std::atomic<int> arrived_{0}, phase_{0};
};

/// One thread's share of an LSTM direction: hidden units [first, first +
/// units), and W and R's columns of their four gates, [K, 4 * units]
/// (gate-major, as the full rows are), each with its plan.
struct UnitWeights {
  int64_t first = 0, units = 0;
  std::vector<uint8_t> w, r;
  RhsPlan wPlan, rPlan;
};

/// weight[direction]'s rows of the units' gates, transposed to [k, 4 * units].
std::vector<uint8_t> unitColumns(const Layer &layer, const Buffer &weight, int64_t direction,
                                 int64_t first, int64_t units) {
  int64_t k = weight.sizes[2], columns = 4 * units;
  std::vector<uint8_t> out(k * columns * weight.bytes);
  if (weight.strides[2] == 1) {
    // Each gate's rows, transposed into its block of columns.
    for (int64_t gate = 0; gate < 4; ++gate)
      copyTransposed(weight.at(direction * weight.strides[0] +
                               (gate * layer.hidden + first) * weight.strides[1]),
                     weight.strides[1], units, k, out.data() + gate * units * weight.bytes,
                     columns, weight.bytes, /*streaming=*/false);
    return out;
  }
  for (int64_t gate = 0; gate < 4; ++gate)
    for (int64_t j = 0; j < units; ++j) {
      int64_t row = gate * layer.hidden + first + j;
      for (int64_t p = 0; p < k; ++p)
        std::memcpy(&out[(p * columns + gate * units + j) * weight.bytes],
                    weight.at(direction * weight.strides[0] + row * weight.strides[1] +
                              p * weight.strides[2]),
                    weight.bytes);
    }
  return out;
}

UnitWeights unitWeights(const Layer &layer, int64_t direction, int64_t first, int64_t units) {
  UnitWeights weights;
  weights.first = first;
  weights.units = units;
  weights.w = unitColumns(layer, layer.w, direction, first, units);
  weights.r = unitColumns(layer, layer.r, direction, first, units);
  planRhs(layer.inputType, weights.w.data(), 4 * units, layer.input, 4 * units, weights.wPlan);
  planRhs(layer.inputType, weights.r.data(), 4 * units, layer.hidden, 4 * units, weights.rPlan);
  return weights;
}

/// What the two threads of a layer share: h of the step before, in the
/// input dtype's bytes (two buffers, by step parity: one is read while the
/// next is written), and the barrier that ends each step.
struct SharedSteps {
  std::vector<uint8_t> h[2];
  StepBarrier barrier;
};

/// One direction of one batch row for the units of `weights`, the other
/// units on the other thread: the same operations as runDirection's LSTM
/// path with gatesInFloat, on the units' columns (a sum of h * R is one
/// column's, whichever columns a multiply takes).
void runUnits(const Layer &layer, const UnitWeights &weights, int64_t direction, bool reverse,
              int64_t n, SharedSteps &shared) {
  int64_t hidden = layer.hidden, first = weights.first, units = weights.units;
  int64_t rows = 4 * hidden, columns = 4 * units;
  size_t inBytes = elementBytes(layer.inputType);
  std::vector<double> biasSum(columns, 0.0);
  for (int64_t gate = 0; gate < 4 && (layer.flags & HasBias); ++gate)
    for (int64_t j = 0; j < units; ++j) {
      int64_t row = gate * hidden + first + j;
      auto bias = [&](int64_t at) {
        return readValue(layer.inputType,
                         layer.b.at(direction * layer.b.strides[0] + at * layer.b.strides[1]));
      };
      biasSum[gate * units + j] = layer.f32(bias(row) + bias(rows + row));
    }
  std::vector<double> c(units, 0.0), h(units, 0.0);
  for (int64_t j = 0; j < units; ++j) {
    if (layer.flags & HasInitH)
      h[j] = layer.read(layer.initH, direction, n, first + j);
    if (layer.flags & HasInitC)
      c[j] = layer.read(layer.initC, direction, n, first + j);
    writeValue(layer.inputType, &shared.h[0][(first + j) * inBytes], h[j], Rounding::Rint,
               layer.overflow);
  }
  int64_t length = layer.seq;
  if (layer.flags & HasSeqLength) {
    auto given = static_cast<int64_t>(
        readValue(layer.seqType, layer.seqLength.at(n * layer.seqLength.strides[0])));
    length = std::clamp<int64_t>(given, 0, layer.seq);
  }
  auto yAt = [&](int64_t t, int64_t j) {
    return layer.y.at(t * layer.y.strides[0] + direction * layer.y.strides[1] +
                      n * layer.y.strides[2] + (first + j) * layer.y.strides[3]);
  };
  for (int64_t t = length; t < layer.seq; ++t)
    for (int64_t j = 0; j < units; ++j)
      writeValue(layer.data, yAt(t, j), 0.0, Rounding::Rint, layer.overflow);
  std::vector<float> xwAll(layer.seq * columns), sums(columns);
  mmadTile(layer.inputType, layer.x.at(n * layer.x.strides[1]),
           LhsLayout{layer.x.strides[0], layer.x.strides[2]}, weights.w.data(), columns,
           weights.wPlan, reinterpret_cast<uint8_t *>(xwAll.data()), layer.seq, columns,
           layer.input, /*init=*/true);
  Layer part = layer;
  part.hidden = units; // lstmStepInFloat's arrays: the units' four gates
  std::vector<double> xw(columns), hr(columns), next(units);
  shared.barrier.wait(); // h of step 0 whole
  for (int64_t step = 0; step < length; ++step) {
    int64_t t = reverse ? length - 1 - step : step;
    for (int64_t col = 0; col < columns; ++col)
      xw[col] = layer.f32(xwAll[t * columns + col]);
    mmadTile(layer.inputType, shared.h[step % 2].data(), LhsLayout{hidden, 1}, weights.r.data(),
             columns, weights.rPlan, reinterpret_cast<uint8_t *>(sums.data()), 1, columns, hidden,
             /*init=*/true);
    for (int64_t col = 0; col < columns; ++col)
      hr[col] = layer.f32(sums[col]);
    lstmStepInFloat(part, xw, hr, biasSum, c, next);
    h = next;
    std::vector<uint8_t> &out = shared.h[(step + 1) % 2];
    for (int64_t j = 0; j < units; ++j) {
      writeValue(layer.data, yAt(t, j), h[j], Rounding::Rint, layer.overflow);
      writeValue(layer.inputType, &out[(first + j) * inBytes], h[j], Rounding::Rint,
                 layer.overflow);
    }
    shared.barrier.wait(); // h of the next step whole
  }
  for (int64_t j = 0; j < units; ++j) {
    writeValue(layer.data,
               layer.yH.at(direction * layer.yH.strides[0] + n * layer.yH.strides[1] +
                           (first + j) * layer.yH.strides[2]),
               h[j], Rounding::Rint, layer.overflow);
    writeValue(layer.data,
               layer.yC.at(direction * layer.yC.strides[0] + n * layer.yC.strides[1] +
                           (first + j) * layer.yC.strides[2]),
               c[j], Rounding::Rint, layer.overflow);
  }
}

/// An LSTM layer (gatesInFloat) on two threads, each computing half of the
/// hidden units of every step, directions one after the other. Running the
/// directions on a thread each, every step read a direction's whole R (1 MiB
/// at 256 units) from L3; each thread's half now stays in its L2 for the
/// whole sequence. The threads meet once per step, to exchange h.
void runLstmOnTwoThreads(const Layer &layer, int64_t directions, bool reverseOnly) {
  SharedSteps shared;
  shared.h[0].resize(layer.hidden * elementBytes(layer.inputType));
  shared.h[1].resize(shared.h[0].size());
  int64_t half = layer.hidden / 2;
  auto work = [&](int part) {
    int64_t first = part == 0 ? 0 : half, units = part == 0 ? half : layer.hidden - half;
    for (int64_t direction = 0; direction < directions; ++direction) {
      UnitWeights weights = unitWeights(layer, direction, first, units);
      for (int64_t n = 0; n < layer.batch; ++n)
        runUnits(layer, weights, direction, reverseOnly || direction == 1, n, shared);
    }
  };
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
  if (layer.cell == RecurrentCell::Lstm && gatesInFloat(layer) && onTheCube(layer) &&
      threadsOfRun.load(std::memory_order_relaxed) >= 2 && layer.hidden >= 16) {
    runLstmOnTwoThreads(layer, directions, dir == RecurrentDirection::Reverse);
    return;
  }
  std::vector<DirectionWeights> weights;
  for (int64_t d = 0; d < directions; ++d)
    weights.push_back(directionWeights(layer, d));
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
