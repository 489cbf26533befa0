//===- RecurrentRuntimeTest.cpp - LSTM gates in fp32 arrays ---------------===//
//
// With IEEE overflow and fp32 or fp16 data, an LSTM step computes its gates
// for every hidden unit at once in fp32 arrays; otherwise element by
// element in double, rounding every step. On values that never overflow
// the two overflow modes agree, so running one layer under each checks the
// array path against the per-element one bit for bit: saturated gates
// (pre-activations of +-40), -0 and values whose fp16 products are
// subnormal included. An LSTM layer on two threads (each half of the
// hidden units) gives the bits of one thread.
//
//===----------------------------------------------------------------------===//

#include "RuntimeMemref.h"

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/KernelRuntime.h"
#include "AscendPrec/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <random>
#include <vector>

using namespace ascendprec::runtime;
using ascendprec::runtime::testing::Memref;

extern "C" void ascendprec_rt_recurrent(int64_t, void *, int64_t, void *, int64_t, void *, int64_t,
                                        void *, int64_t, void *, int64_t, void *, int64_t, void *,
                                        int64_t, void *, int64_t, void *, int64_t, void *, int32_t,
                                        int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);

namespace {

/// Values of `type` (fp32 as is, fp16 as bits).
struct Values {
  ElementType type;
  std::vector<uint8_t> bytes;
  Values(ElementType type, int64_t count) : type(type), bytes(count * elementBytes(type)) {}
  void set(int64_t i, float value) {
    if (type == ElementType::F32) {
      std::memcpy(&bytes[4 * i], &value, 4);
      return;
    }
    uint16_t bits = roundToHalf(value, Rounding::Rint, Overflow::IEEE);
    std::memcpy(&bytes[2 * i], &bits, 2);
  }
  void *data() { return bytes.data(); }
};

constexpr int64_t kSeq = 6, kInput = 5, kHidden = 24, kRows = 4 * kHidden;

struct LstmCase {
  Values x, w, r, b, h, c;
  LstmCase(ElementType type, unsigned seed)
      : x(type, kSeq * kInput), w(type, kRows * kInput), r(type, kRows * kHidden),
        b(type, 2 * kRows), h(type, kHidden), c(type, kHidden) {
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    auto fill = [&](Values &values, int64_t count, float scale) {
      for (int64_t i = 0; i < count; ++i)
        values.set(i, normal(random) * scale);
    };
    fill(x, kSeq * kInput, 1.0f);
    fill(w, kRows * kInput, 0.5f);
    fill(r, kRows * kHidden, 0.3f);
    fill(b, 2 * kRows, 0.2f);
    fill(h, kHidden, 0.5f);
    fill(c, kHidden, 2.0f);
    // Saturated gates: biases of +-40 on a few rows.
    b.set(3, 40.0f);
    b.set(kHidden + 5, -40.0f);
    b.set(3 * kHidden + 7, 40.0f);
    // -0 and tiny values (fp16 products below its normal range).
    c.set(2, -0.0f);
    h.set(4, -0.0f);
    x.set(7, 1e-4f);
    w.set(11, 3e-4f);
  }

  /// Y of one forward layer under `overflow`, as bytes.
  std::vector<uint8_t> run(ElementType data, Overflow overflow) {
    std::vector<uint8_t> y(kSeq * kHidden * elementBytes(data)), yh(kHidden * elementBytes(data)),
        yc(kHidden * elementBytes(data));
    int32_t lengths[1] = {kSeq};
    Memref xm(x.data(), {kSeq, 1, kInput}), wm(w.data(), {1, kRows, kInput}),
        rm(r.data(), {1, kRows, kHidden}), bm(b.data(), {1, 2 * kRows}),
        hm(h.data(), {1, 1, kHidden}), cm(c.data(), {1, 1, kHidden}), sm(lengths, {1}),
        ym(y.data(), {kSeq, 1, 1, kHidden}), yhm(yh.data(), {1, 1, kHidden}),
        ycm(yc.data(), {1, 1, kHidden});
    ascendprec_rt_recurrent(
        3, xm.descriptor(), 3, wm.descriptor(), 3, rm.descriptor(), 2, bm.descriptor(), 3,
        hm.descriptor(), 3, cm.descriptor(), 1, sm.descriptor(), 4, ym.descriptor(), 3,
        yhm.descriptor(), 3, ycm.descriptor(), static_cast<int32_t>(RecurrentCell::Lstm),
        static_cast<int32_t>(RecurrentDirection::Forward), HasBias | HasInitH | HasInitC,
        static_cast<int32_t>(x.type), static_cast<int32_t>(data),
        static_cast<int32_t>(ElementType::I32), static_cast<int32_t>(overflow));
    y.insert(y.end(), yc.begin(), yc.end());
    return y;
  }
};

TEST(RecurrentRuntime, LstmGatesInFp32ArraysMatchTheElementPath) {
  for (ElementType type : {ElementType::F32, ElementType::F16}) {
    for (unsigned seed : {1u, 2u, 3u}) {
      LstmCase layer(type, seed);
      std::vector<uint8_t> arrays = layer.run(type, Overflow::IEEE);
      std::vector<uint8_t> elements = layer.run(type, Overflow::Saturate);
      EXPECT_EQ(arrays, elements) << elementTypeName(type) << ", seed " << seed;
    }
  }
  // fp16 inputs with fp32 results (cube_fp16in_fp32out).
  LstmCase mixed(ElementType::F16, 4);
  EXPECT_EQ(mixed.run(ElementType::F32, Overflow::IEEE),
            mixed.run(ElementType::F32, Overflow::Saturate));
}

/// How runLayer runs its layer.
struct LayerRun {
  unsigned threads = 1;
  /// The results' dtype when not the inputs' (fp16 inputs, fp32 results).
  std::optional<ElementType> data;
  /// Whether W and R are remembered constants (their gate columns then
  /// kept across launches), and R's values scaled by this before the run.
  bool remembered = false;
  float rScale = 1.0f;
};

/// An LSTM layer (`direction`) over a batch of 2 whose second row is 4 steps
/// long: y, y_h and y_c as bytes.
std::vector<uint8_t> runLayer(ElementType type, unsigned threads, unsigned seed,
                              RecurrentDirection direction, LayerRun how = {}) {
  how.threads = threads;
  constexpr int64_t kBatch = 2;
  const int64_t kDirections = direction == RecurrentDirection::Bidirectional ? 2 : 1;
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  auto filled = [&](int64_t count, float scale) {
    Values values(type, count);
    for (int64_t i = 0; i < count; ++i)
      values.set(i, normal(random) * scale);
    return values;
  };
  Values x = filled(kSeq * kBatch * kInput, 1.0f), w = filled(kDirections * kRows * kInput, 0.5f);
  Values r = filled(kDirections * kRows * kHidden, 0.3f), b = filled(kDirections * 2 * kRows, 0.2f);
  Values h = filled(kDirections * kBatch * kHidden, 0.5f);
  Values c = filled(kDirections * kBatch * kHidden, 2.0f);
  b.set(3, 40.0f); // a saturated gate
  c.set(2, -0.0f);
  if (how.rScale != 1.0f) {
    std::mt19937 again(seed + 100);
    for (int64_t i = 0; i < kDirections * kRows * kHidden; ++i)
      r.set(i, normal(again) * 0.3f * how.rScale);
  }
  ElementType data = how.data.value_or(type);
  size_t bytes = elementBytes(data);
  std::vector<uint8_t> y(kSeq * kDirections * kBatch * kHidden * bytes),
      yh(kDirections * kBatch * kHidden * bytes), yc(yh.size());
  int32_t lengths[kBatch] = {kSeq, 4};
  Memref xm(x.data(), {kSeq, kBatch, kInput}), wm(w.data(), {kDirections, kRows, kInput}),
      rm(r.data(), {kDirections, kRows, kHidden}), bm(b.data(), {kDirections, 2 * kRows}),
      hm(h.data(), {kDirections, kBatch, kHidden}), cm(c.data(), {kDirections, kBatch, kHidden}),
      sm(lengths, {kBatch}), ym(y.data(), {kSeq, kDirections, kBatch, kHidden}),
      yhm(yh.data(), {kDirections, kBatch, kHidden}), ycm(yc.data(), {kDirections, kBatch, kHidden});
  // Kept weights live in the process's registry: W and R sit in storage
  // that outlives the run, as a model's initializers do, so that a later
  // run finds them at the same addresses.
  static std::vector<uint8_t> keptW, keptR;
  if (how.remembered) {
    keptW = w.bytes;
    keptR = r.bytes;
    wm = Memref(keptW.data(), {kDirections, kRows, kInput});
    rm = Memref(keptR.data(), {kDirections, kRows, kHidden});
    rememberConstant(keptW.data(), keptW.size());
    rememberConstant(keptR.data(), keptR.size());
  }
  setHostThreads(how.threads);
  ascendprec_rt_recurrent(
      3, xm.descriptor(), 3, wm.descriptor(), 3, rm.descriptor(), 2, bm.descriptor(), 3,
      hm.descriptor(), 3, cm.descriptor(), 1, sm.descriptor(), 4, ym.descriptor(), 3,
      yhm.descriptor(), 3, ycm.descriptor(), static_cast<int32_t>(RecurrentCell::Lstm),
      static_cast<int32_t>(direction),
      HasBias | HasInitH | HasInitC | HasSeqLength, static_cast<int32_t>(type),
      static_cast<int32_t>(data), static_cast<int32_t>(ElementType::I32),
      static_cast<int32_t>(Overflow::IEEE));
  setHostThreads(1);
  if (how.remembered) {
    forgetConstant(keptW.data());
    forgetConstant(keptR.data());
  }
  y.insert(y.end(), yh.begin(), yh.end());
  y.insert(y.end(), yc.begin(), yc.end());
  return y;
}

TEST(RecurrentRuntime, LstmOnTwoThreadsMatchesOneThread) {
  // With 2 threads each computes half of the hidden units of every step
  // (directions in turn); with 1, the directions run whole, one after the
  // other. Bidirectional and one-way layers; padded batch rows, saturated
  // gates and -0 included. (Running a direction on each thread instead was
  // tried: each thread's whole R and W no longer fit its L2, and the
  // second layer of bench/deploy_models.py's LSTM went from 7.1 to 9.6 ms.)
  for (RecurrentDirection direction :
       {RecurrentDirection::Bidirectional, RecurrentDirection::Forward,
        RecurrentDirection::Reverse})
    for (ElementType type : {ElementType::F32, ElementType::F16})
      for (unsigned seed : {5u, 6u})
        EXPECT_EQ(runLayer(type, 2, seed, direction), runLayer(type, 1, seed, direction))
            << elementTypeName(type) << ", seed " << seed << ", direction "
            << static_cast<int>(direction);
}

TEST(RecurrentRuntime, LstmOnTwoThreadsWithFp16InputsAndFp32Results) {
  // cube_fp16in_fp32out: y in fp32, h rounded to fp16 for the next step's
  // multiply.
  LayerRun mixed;
  mixed.data = ElementType::F32;
  for (unsigned seed : {7u, 8u})
    EXPECT_EQ(runLayer(ElementType::F16, 2, seed, RecurrentDirection::Bidirectional, mixed),
              runLayer(ElementType::F16, 1, seed, RecurrentDirection::Bidirectional, mixed))
        << "seed " << seed;
}

TEST(RecurrentRuntime, KeptWeightsOfRememberedConstantsMatchAndAreForgotten) {
  // W and R remembered: their transposed, planned gate columns are kept
  // for later launches (ConstantTiles.h). A second launch reads the kept
  // ones and gives the same bits; once forgotten, new values at the same
  // addresses are read afresh, never the stale columns.
  for (ElementType type : {ElementType::F32, ElementType::F16})
    for (unsigned threads : {1u, 2u}) {
      LayerRun remembered;
      remembered.remembered = true;
      std::vector<uint8_t> plain =
          runLayer(type, threads, 9, RecurrentDirection::Bidirectional);
      EXPECT_EQ(runLayer(type, threads, 9, RecurrentDirection::Bidirectional, remembered), plain);
      EXPECT_EQ(runLayer(type, threads, 9, RecurrentDirection::Bidirectional, remembered), plain);
      LayerRun changed = remembered;
      changed.rScale = 2.0f;
      LayerRun changedPlain;
      changedPlain.rScale = 2.0f;
      std::vector<uint8_t> expected =
          runLayer(type, threads, 9, RecurrentDirection::Bidirectional, changedPlain);
      EXPECT_NE(expected, plain);
      EXPECT_EQ(runLayer(type, threads, 9, RecurrentDirection::Bidirectional, changed), expected)
          << elementTypeName(type) << ", " << threads << " threads";
    }
}

} // namespace
