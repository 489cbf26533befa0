//===- NllLossTest.cpp - the nll_loss kernel by hand ----------------------===//
//
// CANN's NLLLoss as lib/Execution/NllLoss.cpp runs it: per-row losses,
// ignore_index weighing 0, the sum and the weighted mean in fp32, and a
// target outside the classes refused with its row.
//
//===----------------------------------------------------------------------===//

#include "DmaTestFixture.h"

using namespace ascendprec::testing;

namespace {

using NllLossTest = DmaTest;

// x = [[-1, -2, -3], [-4, -5, -6]] (log-probabilities), weight [1, 2, 4].
HostTensor logProbs() { return tensor(ElementType::F32, {2, 3}, {-1, -2, -3, -4, -5, -6}); }
HostTensor classWeights() { return tensor(ElementType::F32, {3}, {1, 2, 4}); }

TEST_F(NllLossTest, NoneGivesEachRowsWeightedLossAndIgnoredRowsZero) {
  DmaOp op = dma("nll_loss", {"2x3xf32", "2xi32", "3xf32"}, {"2xf32", "f32"},
                 "{params = {reduction = \"none\", ignore_index = 0 : i64}}");
  std::vector<HostTensor> out =
      run(op, {logProbs(), ints(ElementType::I32, {2}, {2, 0}), classWeights()});
  // Row 0: -(-3) * 4; row 1 is ignored (target 0).
  EXPECT_EQ(values(out[0]), (std::vector<double>{12, 0}));
  EXPECT_EQ(values(out[1]), (std::vector<double>{4}));
}

TEST_F(NllLossTest, SumAndWeightedMean) {
  HostTensor target = ints(ElementType::I32, {2}, {1, 2});
  DmaOp sum = dma("nll_loss", {"2x3xf32", "2xi32", "3xf32"}, {"f32", "f32"},
                  "{params = {reduction = \"sum\", ignore_index = -100 : i64}}");
  // 2 * 2 + 6 * 4 = 28, total weight 6.
  std::vector<HostTensor> summed = run(sum, {logProbs(), target, classWeights()});
  EXPECT_EQ(values(summed[0]), (std::vector<double>{28}));
  EXPECT_EQ(values(summed[1]), (std::vector<double>{6}));
  DmaOp mean = dma("nll_loss", {"2x3xf32", "2xi32", "3xf32"}, {"f32", "f32"},
                   "{params = {reduction = \"mean\", ignore_index = -100 : i64}}");
  // fp32 division: 28 / 6 rounded once.
  EXPECT_EQ(values(run(mean, {logProbs(), target, classWeights()})[0]),
            (std::vector<double>{static_cast<double>(28.0f / 6.0f)}));
}

TEST_F(NllLossTest, RefusesATargetOutsideTheClasses) {
  DmaOp op = dma("nll_loss", {"2x3xf32", "2xi32", "3xf32"}, {"f32", "f32"},
                 "{params = {reduction = \"sum\", ignore_index = -100 : i64}}");
  std::vector<HostTensor> out = outputsOf(op);
  std::string error;
  EXPECT_FALSE(tryRun(op, {logProbs(), ints(ElementType::I32, {2}, {0, 3}), classWeights()},
                      out, error));
  EXPECT_EQ(error, "nll_loss: the target of row 1 is 3, not a class in [0, 3) nor "
                   "ignore_index -100");
}

} // namespace
