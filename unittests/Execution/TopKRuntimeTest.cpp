//===- TopKRuntimeTest.cpp - vtopk's order: ties, NaN, both directions ----===//
//
// The runtime function behind akernel.vtopk, called with memref descriptors
// as generated code calls it: equal elements keep their index order and a
// NaN ranks above every number (ONNX's TopK, NumPy's sort).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Runtime/HostTensor.h"
#include "AscendPrec/Runtime/KernelRuntime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

extern "C" void ascendprec_rt_topk(int64_t, void *, int64_t, void *, int64_t, void *, int32_t,
                                   int32_t, int32_t);

using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;
using ascendprec::runtime::TopKOrder;

namespace {

/// A rank-3 memref descriptor of a contiguous [1, n, 1] tensor.
std::vector<int64_t> descriptor(HostTensor &t) {
  auto address = reinterpret_cast<int64_t>(t.data());
  int64_t n = t.numElements();
  return {address, address, 0, 1, n, 1, n, 1, 1};
}

struct Selected {
  std::vector<double> values;
  std::vector<int64_t> indices;
};

Selected topK(const std::vector<double> &row, int64_t k, TopKOrder order) {
  HostTensor input(ElementType::F32, {1, static_cast<int64_t>(row.size()), 1});
  for (size_t i = 0; i < row.size(); ++i)
    input.set(static_cast<int64_t>(i), row[i]);
  HostTensor values(ElementType::F32, {1, k, 1}), indices(ElementType::I64, {1, k, 1});
  std::vector<int64_t> in = descriptor(input), out = descriptor(values),
                       idx = descriptor(indices);
  ascendprec_rt_topk(3, in.data(), 3, out.data(), 3, idx.data(), static_cast<int32_t>(order),
                     static_cast<int32_t>(ElementType::F32), static_cast<int32_t>(ElementType::I64));
  Selected selected;
  for (int64_t i = 0; i < k; ++i) {
    selected.values.push_back(values.get(i));
    selected.indices.push_back(indices.getInt(i));
  }
  return selected;
}

TEST(TopKRuntime, LargestPutsNaNFirstAndKeepsTiesInIndexOrder) {
  Selected s = topK({1, NAN, 3, 3, 2}, 3, TopKOrder::Largest);
  EXPECT_TRUE(std::isnan(s.values[0]));
  EXPECT_EQ(s.values[1], 3);
  EXPECT_EQ(s.values[2], 3);
  EXPECT_EQ(s.indices, (std::vector<int64_t>{1, 2, 3}));
}

TEST(TopKRuntime, SmallestPutsNaNLast) {
  Selected s = topK({1, NAN, 3, -0.5, 2}, 5, TopKOrder::Smallest);
  EXPECT_EQ(s.indices, (std::vector<int64_t>{3, 0, 4, 2, 1}));
  EXPECT_TRUE(std::isnan(s.values[4]));
}

} // namespace
