//===- ReductionRuntime.cpp - vreduce, vpool and vtopk -------------------===//
//
// Reductions accumulate in their `acc` dtype, rounding every step, in tree
// (pairwise) or sequential order; arg reductions and top-k compare exactly;
// pooling averages accumulate in `acc` and divide once.
//
//===----------------------------------------------------------------------===//

#include "RuntimeBuffers.h"

#include "AscendPrec/Runtime/KernelRuntime.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

using namespace ascendprec::runtime;
using namespace ascendprec::runtime::detail;

namespace {

double argExtreme(const std::vector<double> &values, bool largest) {
  size_t best = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i]))
      return static_cast<double>(i);
    if (largest ? values[i] > values[best] : values[i] < values[best])
      best = i;
  }
  return static_cast<double>(best);
}

/// The larger of a running max and the next value as max pooling takes
/// it: a NaN wins, a later NaN over an earlier one, ties keep the first.
/// Chosen by a mask, not a branch: which element wins is data, and
/// mispredicted branches cost more than the compare (2 ns per element).
inline float maxOf(float result, float value) {
  uint32_t take = 0u - static_cast<uint32_t>(std::isnan(value) | (value > result));
  uint32_t valueBits, resultBits;
  std::memcpy(&valueBits, &value, 4);
  std::memcpy(&resultBits, &result, 4);
  resultBits = (valueBits & take) | (resultBits & ~take);
  std::memcpy(&result, &resultBits, 4);
  return result;
}

} // namespace

namespace {

/// A pooling's geometry, planes or volumes as volumes (depth 1 for planes).
struct PoolGeometry {
  std::array<int64_t, 3> kernel, stride, padBegin, inSize, outSize, inStride, outStride;
};

/// One window column's inputs into `count` results: result i takes
/// src[i * step] (floats), the max or the sum alone in its loop. Called
/// with the step a literal where it usually is (1, or 2 for the common 2x2
/// and 3x3/2 pools), so that the compiler vectorizes the inlined loop: with
/// the max or sum and the count of each element in one loop and a runtime
/// stride, it ran a window element in 2.5 ns (PP-OCR's 2x2 max pool of 200
/// x 2 x 96: 72 us).
inline __attribute__((always_inline)) void poolRowEvery(float *sums, const uint8_t *src,
                                                        int64_t count, int64_t step,
                                                        bool isMax) {
  auto valueAt = [src, step](int64_t i) {
    float value;
    std::memcpy(&value, src + i * step * 4, 4);
    return value;
  };
  if (isMax)
    for (int64_t i = 0; i < count; ++i)
      sums[i] = maxOf(sums[i], valueAt(i));
  else
    for (int64_t i = 0; i < count; ++i)
      sums[i] += valueAt(i);
}

inline void poolRow(float *sums, const uint8_t *src, int64_t count, int64_t step, bool isMax) {
  switch (step) {
  case 1: return poolRowEvery(sums, src, count, 1, isMax);
  case 2: return poolRowEvery(sums, src, count, 2, isMax);
  default: return poolRowEvery(sums, src, count, step, isMax);
  }
}

/// fp32 into fp32 with IEEE overflow, an output row at a time: for each
/// window position in window order, every output of the row takes it, so
/// the loop over the row runs without a call per output (a 2x2 max pool of
/// 200 small planes took 65 us a window at a time). Each output still
/// visits its window's elements in window order, skipping padding.
void poolRowsOnFloats(const Buffer &input, const Buffer &output, const PoolGeometry &g,
                      bool isMax, bool exclusive) {
  int64_t outW = g.outSize[2], windowSize = g.kernel[0] * g.kernel[1] * g.kernel[2];
  thread_local std::vector<float> sums;
  thread_local std::vector<int64_t> valid;
  sums.resize(outW);
  valid.resize(outW);
  for (int64_t plane = 0; plane < output.sizes[0]; ++plane)
    for (int64_t od = 0; od < g.outSize[0]; ++od)
      for (int64_t oh = 0; oh < g.outSize[1]; ++oh) {
        std::fill(sums.begin(), sums.end(), isMax ? -INFINITY : 0.0f);
        std::fill(valid.begin(), valid.end(), 0);
        for (int64_t s = 0; s < g.kernel[0]; ++s) {
          int64_t d = od * g.stride[0] - g.padBegin[0] + s;
          if (d < 0 || d >= g.inSize[0])
            continue;
          for (int64_t r = 0; r < g.kernel[1]; ++r) {
            int64_t h = oh * g.stride[1] - g.padBegin[1] + r;
            if (h < 0 || h >= g.inSize[1])
              continue;
            const uint8_t *row =
                input.at(plane * input.strides[0] + d * g.inStride[0] + h * g.inStride[1]);
            for (int64_t q = 0; q < g.kernel[2]; ++q) {
              // Outputs whose window column q lies inside the row.
              int64_t offset = q - g.padBegin[2];
              int64_t lo = offset >= 0 ? 0 : (-offset + g.stride[2] - 1) / g.stride[2];
              int64_t hi = g.inSize[2] - offset <= 0
                               ? 0
                               : std::min(outW, (g.inSize[2] - offset - 1) / g.stride[2] + 1);
              if (hi > lo)
                poolRow(sums.data() + lo, row + (lo * g.stride[2] + offset) * g.inStride[2] * 4,
                        hi - lo, g.stride[2] * g.inStride[2], isMax);
              if (!isMax && exclusive)
                for (int64_t ow = lo; ow < hi; ++ow)
                  ++valid[ow];
            }
          }
        }
        for (int64_t ow = 0; ow < outW; ++ow) {
          float result = sums[ow];
          if (!isMax)
            result /= static_cast<float>(exclusive ? std::max<int64_t>(valid[ow], 1) : windowSize);
          if (std::isnan(result)) { // quiet, as a rounding writes it
            uint32_t bits;
            std::memcpy(&bits, &result, 4);
            bits |= 0x00400000u;
            std::memcpy(&result, &bits, 4);
          }
          std::memcpy(output.at(plane * output.strides[0] + od * g.outStride[0] +
                                oh * g.outStride[1] + ow * g.outStride[2]),
                      &result, 4);
        }
      }
}

/// fp16 or bf16 input, contiguous input and output: widened to floats
/// (exactly), pooled as fp32 pools, and each result written with the
/// general loop's rounding. A max picks one of its inputs and an average in
/// an fp32 accumulator rounds each addition to fp32 whatever the input
/// dtype, so the bits are the general loop's (PoolRuntimeTest); a NaN keeps
/// its sign and payload, quieted, as writing it from a double does.
void poolHalvesOnFloats(const Buffer &input, const Buffer &output, ElementType in,
                        ElementType out, const PoolGeometry &g, bool isMax, bool exclusive) {
  thread_local std::vector<float> wideIn, wideOut;
  int64_t inCount = input.numElements(), outCount = output.numElements();
  wideIn.resize(inCount);
  wideOut.resize(outCount);
  widenToFloat(in, input.data, wideIn.data(), inCount);
  Buffer floatIn = input, floatOut = output;
  floatIn.data = reinterpret_cast<uint8_t *>(wideIn.data());
  floatOut.data = reinterpret_cast<uint8_t *>(wideOut.data());
  floatIn.bytes = floatOut.bytes = 4;
  poolRowsOnFloats(floatIn, floatOut, g, isMax, exclusive);
  for (int64_t i = 0; i < outCount; ++i)
    writeValue(out, output.at(i), wideOut[i], Rounding::Rint, Overflow::IEEE);
}

} // namespace

namespace {

/// A reduction's max and min steps: NaN wins from either side (the left
/// one's when both are), and of two equal values (+0 and -0) the right one.
inline float reduceMax(float a, float b) { return (a != a || a > b) ? a : b; }
inline float reduceMin(float a, float b) { return (a != a || a < b) ? a : b; }

/// values[0] combined with the rest: in `tree` order (the two halves of
/// the row pairwise until one value is left, as a tree of vector ops halves
/// it each step), else in index order. Overwrites `values`.
template <typename Combine>
float reduceFloats(std::vector<float> &values, bool tree, Combine combine) {
  size_t count = values.size();
  if (tree) {
    while (count > 1) {
      size_t half = (count + 1) / 2;
      for (size_t i = 0; i + half < count; ++i)
        values[i] = combine(values[i], values[i + half]);
      count = half;
    }
    return values[0];
  }
  float total = values[0];
  for (size_t i = 1; i < count; ++i)
    total = combine(total, values[i]);
  return total;
}

} // namespace

extern "C" {

void ascendprec_rt_reduce(int64_t inRank, void *inDesc, int64_t outRank, void *outDesc,
                          int64_t axesRank, void *axesDesc, int32_t kind, int32_t inType,
                          int32_t outType, int32_t accType, int32_t tree, int32_t overflow) {
  ElementType in = typeOf(inType), out = typeOf(outType), acc = typeOf(accType);
  Buffer input = bufferOf(inRank, inDesc, elementBytes(in));
  Buffer output = bufferOf(outRank, outDesc, elementBytes(out));
  std::vector<int64_t> axes = int64Values(axesRank, axesDesc);
  Overflow overflowMode = static_cast<Overflow>(overflow);
  std::vector<bool> reduced(input.rank, false);
  for (int64_t axis : axes)
    reduced[axis] = true;
  std::vector<int64_t> keptShape, reducedShape;
  for (int64_t d = 0; d < input.rank; ++d)
    (reduced[d] ? reducedShape : keptShape).push_back(input.sizes[d]);
  ReduceKind reduceKind = static_cast<ReduceKind>(kind);
  std::vector<int64_t> index(input.rank);
  std::vector<double> values;
  // Reducing the trailing axes of a contiguous input: each output reads one
  // contiguous run. Axes of size 1 do not count ([1, n, 1] over axis 1 is
  // one run of n).
  bool trailing = input.contiguous();
  bool reducedSeen = false;
  for (int64_t d = 0; d < input.rank; ++d) {
    if (input.sizes[d] == 1)
      continue;
    if (reduced[d])
      reducedSeen = true;
    else if (reducedSeen)
      trailing = false;
  }
  int64_t run = 1;
  for (int64_t dim : reducedShape)
    run *= dim;
  // fp32 sums (the common case) add in float arithmetic: the same roundings.
  // A max or min of floats in fp32, or in their own dtype, compares floats:
  // widening them is exact and nothing rounds.
  bool floatInput = in == ElementType::F32 || in == ElementType::F16 || in == ElementType::BF16;
  bool extreme = reduceKind == ReduceKind::Max || reduceKind == ReduceKind::Min;
  bool floatSteps = overflowMode == Overflow::IEEE &&
                    ((acc == ElementType::F32 &&
                      (reduceKind == ReduceKind::Sum || reduceKind == ReduceKind::Mean)) ||
                     (extreme && (acc == ElementType::F32 || (acc == in && floatInput))));
  thread_local std::vector<float> floats;
  forEachIndex(keptShape, [&](int64_t outLinear, const std::vector<int64_t> &kept) {
    values.clear();
    // A run of floats reduced in float steps goes straight into `floats`.
    bool inFloats = trailing && floatSteps && floatInput && run > 0;
    if (inFloats) {
      floats.resize(run);
      widenToFloat(in, input.data + outLinear * run * input.bytes, floats.data(), run);
    } else if (trailing) {
      const uint8_t *start = input.data + outLinear * run * input.bytes;
      values.resize(run);
      if (in == ElementType::F32) {
        const auto *floats = reinterpret_cast<const float *>(start);
        for (int64_t i = 0; i < run; ++i)
          values[i] = floats[i];
      } else {
        for (int64_t i = 0; i < run; ++i)
          values[i] = readValue(in, start + i * input.bytes);
      }
    } else {
      forEachIndex(reducedShape, [&](int64_t, const std::vector<int64_t> &inner) {
        size_t ki = 0, ri = 0;
        for (int64_t d = 0; d < input.rank; ++d)
          index[d] = reduced[d] ? inner[ri++] : kept[ki++];
        values.push_back(readValue(in, input.at(gmOffset(input, index.data()))));
      });
    }
    auto combine = [&](double a, double b) {
      switch (reduceKind) {
      case ReduceKind::Sum:
      case ReduceKind::Mean: return roundToAccumulator(a + b, acc, overflowMode);
      case ReduceKind::Prod: return roundToAccumulator(a * b, acc, overflowMode);
      case ReduceKind::Max: return std::isnan(a) || a > b ? a : b;
      case ReduceKind::Min: return std::isnan(a) || a < b ? a : b;
      case ReduceKind::ArgMax:
      case ReduceKind::ArgMin: break; // argExtreme
      }
      return a;
    };
    double result;
    if (reduceKind == ReduceKind::ArgMax || reduceKind == ReduceKind::ArgMin) {
      result = argExtreme(values, reduceKind == ReduceKind::ArgMax);
    } else if (floatSteps && (inFloats || !values.empty())) {
      if (!inFloats)
        floats.assign(values.begin(), values.end());
      switch (reduceKind) {
      case ReduceKind::Max:
        result = reduceFloats(floats, tree, reduceMax);
        break;
      case ReduceKind::Min:
        result = reduceFloats(floats, tree, reduceMin);
        break;
      default:
        result = reduceFloats(floats, tree, [](float a, float b) { return a + b; });
      }
    } else if (values.empty()) {
      result = reduceKind == ReduceKind::Prod ? 1.0
               : reduceKind == ReduceKind::Max ? -INFINITY
               : reduceKind == ReduceKind::Min ? INFINITY
                                               : 0.0;
    } else {
      for (double &value : values)
        value = roundToAccumulator(value, acc, overflowMode);
      if (tree) {
        // Pairwise, as a tree of vector adds halves the row each step.
        size_t count = values.size();
        while (count > 1) {
          size_t half = (count + 1) / 2;
          for (size_t i = 0; i + half < count; ++i)
            values[i] = combine(values[i], values[i + half]);
          count = half;
        }
        result = values[0];
      } else {
        result = values[0];
        for (size_t i = 1; i < values.size(); ++i)
          result = combine(result, values[i]);
      }
    }
    if (reduceKind == ReduceKind::Mean)
      result =
          roundToAccumulator(result / static_cast<double>(inFloats ? floats.size() : values.size()),
                             acc, overflowMode);
    int64_t at = outLinear;
    if (!output.contiguous()) {
      std::vector<int64_t> outIndex(output.rank);
      int64_t rest = outLinear;
      for (int64_t d = output.rank - 1; d >= 0; --d) {
        outIndex[d] = rest % output.sizes[d];
        rest /= output.sizes[d];
      }
      at = gmOffset(output, outIndex.data());
    }
    writeValue(out, output.at(at), result, Rounding::Rint, overflowMode);
  });
}

void ascendprec_rt_pool(int64_t inRank, void *inDesc, int64_t outRank, void *outDesc,
                        int64_t paramRank, void *paramDesc, int32_t kind, int32_t inType,
                        int32_t outType, int32_t accType, int32_t exclusive, int32_t overflow) {
  ElementType in = typeOf(inType), out = typeOf(outType), acc = typeOf(accType);
  Buffer input = bufferOf(inRank, inDesc, elementBytes(in));
  Buffer output = bufferOf(outRank, outDesc, elementBytes(out));
  // Params: kernel[n], strides[n], pads[2n] for n = 2 (planes) or 3
  // (volumes). A plane is pooled as a volume of depth 1.
  std::vector<int64_t> p = int64Values(paramRank, paramDesc);
  int64_t axes = input.rank - 1;
  std::array<int64_t, 3> kernel = {1, 1, 1}, stride = {1, 1, 1}, padBegin = {0, 0, 0};
  std::array<int64_t, 3> inSize = {1, 1, 1}, outSize = {1, 1, 1}, inStride = {0, 0, 0},
                         outStride = {0, 0, 0};
  for (int64_t a = 0; a < axes; ++a) {
    int64_t slot = 3 - axes + a;
    kernel[slot] = p[a];
    stride[slot] = p[axes + a];
    padBegin[slot] = p[2 * axes + 2 * a];
    inSize[slot] = input.sizes[1 + a];
    outSize[slot] = output.sizes[1 + a];
    inStride[slot] = input.strides[1 + a];
    outStride[slot] = output.strides[1 + a];
  }
  int64_t planes = output.sizes[0];
  int64_t windowSize = kernel[0] * kernel[1] * kernel[2];
  Overflow overflowMode = static_cast<Overflow>(overflow);
  bool isMax = static_cast<PoolKind>(kind) == PoolKind::Max;
  // fp32 into fp32 with IEEE overflow computes on floats: a max makes the
  // same choice, an average adds in the same order with one fp32 rounding
  // per addition (a float sum or quotient rounded from double is the float
  // operation's result) and divides once. Saturation (NaN written as 0)
  // and other dtypes go through doubles and the dtype's rounding.
  bool onFloats = overflowMode == Overflow::IEEE && in == ElementType::F32 &&
                  out == ElementType::F32 && (isMax || acc == ElementType::F32);
  if (onFloats) {
    poolRowsOnFloats(input, output,
                     {kernel, stride, padBegin, inSize, outSize, inStride, outStride}, isMax,
                     exclusive != 0);
    return;
  }
  bool halfInput = in == ElementType::F16 || in == ElementType::BF16;
  if (overflowMode == Overflow::IEEE && halfInput && (isMax || acc == ElementType::F32) &&
      input.contiguous() && output.contiguous()) {
    poolHalvesOnFloats(input, output, in, out,
                       {kernel, stride, padBegin, inSize, outSize, inStride, outStride}, isMax,
                       exclusive != 0);
    return;
  }
  for (int64_t plane = 0; plane < planes; ++plane)
    for (int64_t od = 0; od < outSize[0]; ++od)
      for (int64_t oh = 0; oh < outSize[1]; ++oh)
        for (int64_t ow = 0; ow < outSize[2]; ++ow) {
          // visit(row, wBegin, wEnd) for each input row of the window that
          // lies inside the input, in window order; padding is skipped.
          int64_t first = ow * stride[2] - padBegin[2];
          int64_t wBegin = std::max<int64_t>(first, 0);
          int64_t wEnd = std::min(first + kernel[2], inSize[2]);
          int64_t valid = 0;
          auto forEachRow = [&](auto visit) {
            for (int64_t s = 0; s < kernel[0]; ++s) {
              int64_t d = od * stride[0] - padBegin[0] + s;
              if (d < 0 || d >= inSize[0])
                continue;
              for (int64_t r = 0; r < kernel[1]; ++r) {
                int64_t h = oh * stride[1] - padBegin[1] + r;
                if (h < 0 || h >= inSize[1] || wBegin >= wEnd)
                  continue;
                valid += wEnd - wBegin;
                visit(input.at(plane * input.strides[0] + d * inStride[0] + h * inStride[1]));
              }
            }
          };
          uint8_t *target = output.at(plane * output.strides[0] + od * outStride[0] +
                                      oh * outStride[1] + ow * outStride[2]);
          double result = isMax ? -INFINITY : 0.0;
          forEachRow([&](const uint8_t *row) {
            for (int64_t w = wBegin; w < wEnd; ++w) {
              double value = readValue(in, row + w * inStride[2] * input.bytes);
              if (isMax)
                result = std::isnan(value) || value > result ? value : result;
              else
                result = roundToAccumulator(
                    result + roundToAccumulator(value, acc, overflowMode), acc, overflowMode);
            }
          });
          if (!isMax) {
            int64_t count = exclusive ? std::max<int64_t>(valid, 1) : windowSize;
            result = roundToAccumulator(result / static_cast<double>(count), acc, overflowMode);
          }
          writeValue(out, target, result, Rounding::Rint, overflowMode);
        }
}

void ascendprec_rt_topk(int64_t inRank, void *inDesc, int64_t valRank, void *valDesc,
                        int64_t idxRank, void *idxDesc, int32_t order, int32_t inType,
                        int32_t idxType) {
  ElementType in = typeOf(inType), index = typeOf(idxType);
  Buffer input = bufferOf(inRank, inDesc, elementBytes(in));
  Buffer values = bufferOf(valRank, valDesc, elementBytes(in));
  Buffer indices = bufferOf(idxRank, idxDesc, elementBytes(index));
  int64_t rows = input.sizes[0], n = input.sizes[1], inner = input.sizes[2];
  int64_t k = values.sizes[1];
  bool largest = static_cast<TopKOrder>(order) == TopKOrder::Largest;
  std::vector<double> row(n);
  std::vector<int64_t> ranked(n);
  // NaN ranks above every number; equal elements keep their index order.
  auto before = [&](int64_t a, int64_t b) {
    double x = row[a], y = row[b];
    bool xNan = std::isnan(x), yNan = std::isnan(y);
    if (xNan || yNan)
      return largest ? xNan && !yNan : yNan && !xNan;
    return largest ? x > y : x < y;
  };
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        // Values are moved bit for bit; the comparison reads them.
        row[j] = readValue(in, input.at(r * input.strides[0] + j * input.strides[1] +
                                        i * input.strides[2]));
        ranked[j] = j;
      }
      std::stable_sort(ranked.begin(), ranked.end(), before);
      for (int64_t j = 0; j < k; ++j) {
        int64_t from = ranked[j];
        std::memcpy(values.at(r * values.strides[0] + j * values.strides[1] + i * values.strides[2]),
                    input.at(r * input.strides[0] + from * input.strides[1] + i * input.strides[2]),
                    elementBytes(in));
        writeValue(index,
                   indices.at(r * indices.strides[0] + j * indices.strides[1] +
                              i * indices.strides[2]),
                   static_cast<double>(from), Rounding::Rint, Overflow::Saturate);
      }
    }
}

/// The rounding of one value to a 16-bit float or to fp32 for vector code,
/// in a mode other than rint (which the generated code does inline).
} // extern "C"
