//===- KernelCostTest.cpp - the cost model against hand-computed figures --===//
//
// docs/cost-model.md derives each figure below.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Dialect/Kernel/Analysis/KernelCost.h"
#include "AscendPrec/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ascendprec::kernel;

namespace {

constexpr const char *kTarget =
    "#akernel.target<soc = \"Ascend910\", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, "
    "cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, "
    "l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>";

class KernelCostTest : public ::testing::Test {
protected:
  KernelCostTest() {
    DialectRegistry registry;
    ascendprec::registerAllAscendPrecDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The estimate of the one kernel in `body` (a module with the target).
  KernelCost estimate(const std::string &kernel) {
    std::string text = std::string("module attributes {akernel.target = ") + kTarget + "} {\n" +
                       kernel + "\n}";
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    KernelOp op = *module->getOps<KernelOp>().begin();
    return estimateKernel(op, module->getOperation()->getAttrOfType<TargetAttr>("akernel.target"));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(KernelCostTest, CubeTileWithoutOverlap) {
  // One 64x64x64 fp16 product: (64/16)^3 = 64 fractal cycles. Moves: two
  // 8 KiB loads and the 8 KiB fp16 result at 67 B/cycle, two 8 KiB L1->L0
  // copies at 128 B/cycle: 3 * 8192 / 67 + 2 * 8192 / 128 = 494.806 cycles.
  KernelCost cost = estimate(R"(
  akernel.kernel @mm attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, nodes = ["mm"]} {
  ^bb0(%a: memref<64x64xf16, #akernel.space<gm>>, %b: memref<64x64xf16, #akernel.space<gm>>, %c: memref<64x64xf16, #akernel.space<gm>>):
    %c0 = arith.constant 0 : index
    %a1 = akernel.alloc : memref<64x64xf16, #akernel.space<l1>>
    %b1 = akernel.alloc : memref<64x64xf16, #akernel.space<l1>>
    %a0 = akernel.alloc : memref<64x64xf16, #akernel.space<l0a>>
    %b0 = akernel.alloc : memref<64x64xf16, #akernel.space<l0b>>
    %acc = akernel.alloc : memref<64x64xf32, #akernel.space<l0c>>
    akernel.load %a[%c0, %c0] -> %a1 : memref<64x64xf16, #akernel.space<gm>> -> memref<64x64xf16, #akernel.space<l1>>
    akernel.load %b[%c0, %c0] -> %b1 : memref<64x64xf16, #akernel.space<gm>> -> memref<64x64xf16, #akernel.space<l1>>
    akernel.copy %a1, %a0 : memref<64x64xf16, #akernel.space<l1>>, memref<64x64xf16, #akernel.space<l0a>>
    akernel.copy %b1, %b0 : memref<64x64xf16, #akernel.space<l1>>, memref<64x64xf16, #akernel.space<l0b>>
    akernel.mmad %a0, %b0, %acc : memref<64x64xf16, #akernel.space<l0a>>, memref<64x64xf16, #akernel.space<l0b>>, memref<64x64xf32, #akernel.space<l0c>>
    akernel.fixpipe %acc -> %c[%c0, %c0] {round = #akernel.round<rint>} : memref<64x64xf32, #akernel.space<l0c>> -> memref<64x64xf16, #akernel.space<gm>>
  })");
  EXPECT_DOUBLE_EQ(cost.cubeCycles, 64);
  EXPECT_NEAR(cost.moveCycles, 3 * 8192.0 / 67 + 2 * 8192.0 / 128, 1e-9);
  EXPECT_NEAR(cost.cycles, 64 + 3 * 8192.0 / 67 + 2 * 8192.0 / 128, 1e-9);
  // 558.806 cycles at 1000 MHz, plus the 2 us launch.
  EXPECT_NEAR(cost.us, (64 + 3 * 8192.0 / 67 + 128) / 1000 + 2.0, 1e-9);
}

/// An Exp kernel over 8 tiles of 1024 fp16 elements on 2 blocks, computing
/// in `compute`.
std::string expKernel(const char *compute) {
  return std::string(R"(
  akernel.kernel @exp attributes {block_dim = 2 : i64, engine = #akernel.engine<vector>, nodes = ["exp"], double_buffer} {
  ^bb0(%x: memref<8192xf16, #akernel.space<gm>>, %y: memref<8192xf16, #akernel.space<gm>>):
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c1024 = arith.constant 1024 : index
    %in = akernel.alloc : memref<1024xf16, #akernel.space<ub>>
    %out = akernel.alloc : memref<1024xf16, #akernel.space<ub>>
    %b = akernel.block_idx : index
    scf.for %t = %b to %c8 step %c2 {
      %o = arith.muli %t, %c1024 : index
      akernel.load %x[%o] -> %in : memref<8192xf16, #akernel.space<gm>> -> memref<1024xf16, #akernel.space<ub>>
      akernel.vop "exp" %in -> %out {compute = )") +
         compute + R"(} : memref<1024xf16, #akernel.space<ub>> -> memref<1024xf16, #akernel.space<ub>>
      akernel.store %out -> %y[%o] : memref<1024xf16, #akernel.space<ub>> -> memref<8192xf16, #akernel.space<gm>>
    }
  })";
}

TEST_F(KernelCostTest, VectorStepsOverlapWithDoubleBuffering) {
  // Block 0 runs 4 of the 8 tiles. Per tile: 2048 bytes in and out at 67
  // B/cycle; Exp in fp16 is 8 repeats of 256 bytes x 4 instructions = 32.
  // Moves 4 * 4096/67 = 244.537 outlast the vector's 128: the overlap
  // leaves 244.537 + 128 / 4 steps.
  KernelCost cost = estimate(expKernel("f16"));
  EXPECT_DOUBLE_EQ(cost.vectorCycles, 4 * 32);
  EXPECT_NEAR(cost.moveCycles, 4 * 4096.0 / 67, 1e-9);
  EXPECT_NEAR(cost.cycles, 4 * 4096.0 / 67 + 128.0 / 4, 1e-9);
}

TEST_F(KernelCostTest, HighPrecisionComputesInFp32) {
  // fp32: 16 repeats x 4 instructions, plus a conversion pass in and out:
  // 96 cycles a tile instead of 32 (IM-7 costs what it costs).
  KernelCost fast = estimate(expKernel("f16"));
  KernelCost precise = estimate(expKernel("f32"));
  EXPECT_DOUBLE_EQ(precise.vectorCycles, 4 * 96);
  EXPECT_DOUBLE_EQ(precise.vectorCycles / fast.vectorCycles, 3);
}

TEST_F(KernelCostTest, PeakMatchesThePublishedFigure) {
  // Ascend910: 32 cores x a 16x16x16 fp16 fractal per cycle at 1 GHz =
  // 1.31e14 MAC/s = 262.1e12 FLOP/s, Huawei's "256 TFLOPS" counted in
  // binary (2^18 GFLOPS); int8 doubles it (Huawei's 512 TOPS).
  estimate(expKernel("f16"));
  auto target = module->getOperation()->getAttrOfType<TargetAttr>("akernel.target");
  double fp16 = cubePeakMacsPerSecond(target, Float16Type::get(&context));
  EXPECT_DOUBLE_EQ(fp16, 32.0 * 16 * 16 * 16 * 1e9);
  EXPECT_DOUBLE_EQ(2 * fp16 / 1e9, 256.0 * 1024);
  EXPECT_DOUBLE_EQ(cubePeakMacsPerSecond(target, IntegerType::get(&context, 8)), 2 * fp16);
}

} // namespace
