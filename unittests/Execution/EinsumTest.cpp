//===- EinsumTest.cpp - the host's Einsum against hand-computed values ----===//
//
// Equations as ONNX writes them (spaces, ellipses, diagonals, the implicit
// output), each checked on small tensors worked out by hand, and the
// equations that must be refused with the reason.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Execution/Einsum.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using ascendprec::exec::EinsumPlan;
using ascendprec::exec::planEinsum;
using ascendprec::exec::runEinsum;
using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;

namespace {

HostTensor tensor(std::vector<int64_t> shape, const std::vector<double> &values,
                  ElementType type = ElementType::F32) {
  HostTensor t(type, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    t.set(static_cast<int64_t>(i), values[i]);
  return t;
}

std::vector<double> valuesOf(const HostTensor &t) {
  std::vector<double> values;
  for (int64_t i = 0; i < t.numElements(); ++i)
    values.push_back(t.get(i));
  return values;
}

/// Plans and runs `equation`; the output's shape and values.
std::pair<std::vector<int64_t>, std::vector<double>> evaluate(const std::string &equation,
                                                              std::vector<HostTensor> operands) {
  std::vector<std::vector<int64_t>> shapes;
  std::vector<const HostTensor *> pointers;
  for (const HostTensor &operand : operands) {
    shapes.push_back(operand.shape());
    pointers.push_back(&operand);
  }
  std::string why;
  std::optional<EinsumPlan> plan = planEinsum(equation, shapes, why);
  EXPECT_TRUE(plan) << equation << ": " << why;
  if (!plan)
    return {};
  HostTensor output(operands.front().type(), plan->outputShape);
  runEinsum(*plan, pointers, output);
  return {plan->outputShape, valuesOf(output)};
}

std::string refusal(const std::string &equation, std::vector<std::vector<int64_t>> shapes) {
  std::string why;
  EXPECT_FALSE(planEinsum(equation, shapes, why)) << equation;
  return why;
}

TEST(Einsum, MatrixProductWithSpaces) {
  auto [shape, values] = evaluate("ij, jk -> ik", {tensor({2, 2}, {1, 2, 3, 4}),
                                                  tensor({2, 2}, {5, 6, 7, 8})});
  EXPECT_EQ(shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values, (std::vector<double>{19, 22, 43, 50}));
}

TEST(Einsum, TransposeAndRowSum) {
  auto [shape, values] = evaluate("ij->ji", {tensor({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values, (std::vector<double>{1, 4, 2, 5, 3, 6}));
  auto [sumShape, sums] = evaluate("ij->i", {tensor({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(sumShape, (std::vector<int64_t>{2}));
  EXPECT_EQ(sums, (std::vector<double>{6, 15}));
}

// No "->": the letters used once, alphabetically ("i,i" is a scalar; "ba"
// is transposed to "ab").
TEST(Einsum, ImplicitOutput) {
  auto [shape, values] = evaluate("i,i", {tensor({3}, {1, 2, 3}), tensor({3}, {4, 5, 6})});
  EXPECT_TRUE(shape.empty());
  EXPECT_EQ(values, (std::vector<double>{32}));
  auto [swapped, swappedValues] = evaluate("ba", {tensor({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(swapped, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(swappedValues, (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

// A repeated label reads a diagonal; the ellipsis keeps the batch.
TEST(Einsum, BatchDiagonal) {
  auto [shape, values] =
      evaluate("...ii->...i", {tensor({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})});
  EXPECT_EQ(shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values, (std::vector<double>{1, 4, 5, 8}));
}

// Ellipsis dimensions broadcast as NumPy's do (1 against 2).
TEST(Einsum, EllipsisBroadcasts) {
  auto [shape, values] = evaluate("...i,...i->...", {tensor({2, 2}, {1, 2, 3, 4}),
                                                      tensor({1, 2}, {10, 100})});
  EXPECT_EQ(shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(values, (std::vector<double>{210, 430}));
}

// The sum is rounded once to the output's dtype: 1 + 2^-11 + 2^-11 is
// 1 + 2^-10 in fp16 (each partial sum rounded would give 1).
TEST(Einsum, RoundsOnceToTheOutput) {
  double half = 1.0 / 2048;
  auto [shape, values] =
      evaluate("i->", {tensor({3}, {1, half, half}, ElementType::F16)});
  EXPECT_EQ(values, (std::vector<double>{1 + 2 * half}));
}

TEST(Einsum, Refusals) {
  EXPECT_EQ(refusal("ij,jk->ik", {{2, 3}}), "the equation names 2 operands, the op has 1");
  EXPECT_EQ(refusal("ijk->i", {{2, 3}}), "the term 'ijk' does not fit an operand of rank 2");
  EXPECT_EQ(refusal("ij,jk->ik", {{2, 3}, {4, 5}}),
            "a label spans dimensions of sizes 3 and 4");
  EXPECT_EQ(refusal("i1->i", {{2, 3}}), "'1' in the term 'i1' is not a letter or '...'");
  EXPECT_EQ(refusal("ij->ik", {{2, 3}}), "an output label is in no operand");
  EXPECT_EQ(refusal("ij->ii", {{2, 3}}), "an output label is repeated");
  EXPECT_EQ(refusal("...i->i", {{2, 3}}),
            "the output drops the ellipsis dimensions (write '...' in it)");
}

} // namespace
