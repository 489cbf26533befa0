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
    std::string text = "module attributes {akernel.target = " + kTargetText + "} {\n" +
                       kernel + "\n}";
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    KernelOp op = *module->getOps<KernelOp>().begin();
    return estimateKernel(op, module->getOperation()->getAttrOfType<TargetAttr>("akernel.target"));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string kTargetText = kTarget;
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
  // 558.806 cycles at 1000 MHz, plus the 3.5 us launch.
  EXPECT_NEAR(cost.us, (64 + 3 * 8192.0 / 67 + 128) / 1000 + 3.5, 1e-9);
}

/// One [m, k] x [k, n] product of `type` on one core: loads, L1 -> L0
/// copies, the mmad and the fixpipe to GM, on `target`.
std::string productKernel(const char *type, int m, int k, int n) {
  auto shape = [&](int rows, int cols) {
    return "memref<" + std::to_string(rows) + "x" + std::to_string(cols) + "x" + type;
  };
  std::string a = shape(m, k), b = shape(k, n), c = shape(m, n);
  std::string acc = "memref<" + std::to_string(m) + "x" + std::to_string(n) + "xf32";
  return "akernel.kernel @mm attributes {block_dim = 1 : i64, engine = #akernel.engine<cube>, "
         "nodes = [\"mm\"]} {\n^bb0(%a: " + a + ", #akernel.space<gm>>, %b: " + b +
         ", #akernel.space<gm>>, %c: " + c + ", #akernel.space<gm>>):\n"
         "  %c0 = arith.constant 0 : index\n"
         "  %a1 = akernel.alloc : " + a + ", #akernel.space<l1>>\n"
         "  %b1 = akernel.alloc : " + b + ", #akernel.space<l1>>\n"
         "  %a0 = akernel.alloc : " + a + ", #akernel.space<l0a>>\n"
         "  %b0 = akernel.alloc : " + b + ", #akernel.space<l0b>>\n"
         "  %acc = akernel.alloc : " + acc + ", #akernel.space<l0c>>\n"
         "  akernel.load %a[%c0, %c0] -> %a1 : " + a + ", #akernel.space<gm>> -> " + a +
         ", #akernel.space<l1>>\n"
         "  akernel.load %b[%c0, %c0] -> %b1 : " + b + ", #akernel.space<gm>> -> " + b +
         ", #akernel.space<l1>>\n"
         "  akernel.copy %a1, %a0 : " + a + ", #akernel.space<l1>>, " + a +
         ", #akernel.space<l0a>>\n"
         "  akernel.copy %b1, %b0 : " + b + ", #akernel.space<l1>>, " + b +
         ", #akernel.space<l0b>>\n"
         "  akernel.mmad %a0, %b0, %acc : " + a + ", #akernel.space<l0a>>, " + b +
         ", #akernel.space<l0b>>, " + acc + ", #akernel.space<l0c>>\n"
         "  akernel.fixpipe %acc -> %c[%c0, %c0] {round = #akernel.round<rint>} : " + acc +
         ", #akernel.space<l0c>> -> " + c + ", #akernel.space<gm>>\n}";
}

TEST_F(KernelCostTest, Fp32OnTheCubeRunsAtAQuarterOfFp16) {
  // A 64x64x64 product: 64 fractal cycles in fp16, 256 in fp32 (a K
  // fractal of 4: fp32 matmuls on the 910B are measured 3.7x slower than
  // fp16, docs/cost-model.md), 32 in int8 (DtypeMKN's k of 32).
  kTargetText = std::string(kTarget);
  kTargetText.replace(kTargetText.find("[f16, i8]"), 9, "[f16, f32, i8]");
  EXPECT_DOUBLE_EQ(estimate(productKernel("f16", 64, 64, 64)).cubeCycles, 64);
  EXPECT_DOUBLE_EQ(estimate(productKernel("f32", 64, 64, 64)).cubeCycles, 256);
  auto target = module->getOperation()->getAttrOfType<TargetAttr>("akernel.target");
  EXPECT_DOUBLE_EQ(cubePeakMacsPerSecond(target, Float32Type::get(&context)),
                   cubePeakMacsPerSecond(target, Float16Type::get(&context)) / 4);
}

TEST_F(KernelCostTest, L1ToL0CopiesRunOnTheirOwnPipeAtTheirRates) {
  // With the .ini's l1_to_l0_a_rate 512 and l1_to_l0_b_rate 256 and
  // ddr_write_rate 32 (CANN's 910B files): a 128x128x128 fp16 product
  // feeds L0A 32 KiB / 512 + L0B 32 KiB / 256 = 192 cycles on MTE1, loads
  // 64 KiB at 67 B/cycle (MTE2, 978.1), writes 32 KiB at 32 (1024, the
  // longest pipe); the cube takes 512. Without double buffering the pipes
  // add up.
  kTargetText = std::string(kTarget).substr(0, std::string(kTarget).size() - 1) +
                ", ddr_write_rate = 32, l1_l0a_rate = 512, l1_l0b_rate = 256>";
  KernelCost cost = estimate(productKernel("f16", 128, 128, 128));
  EXPECT_DOUBLE_EQ(cost.cubeCycles, 512);
  EXPECT_NEAR(cost.moveCycles, 65536.0 / 67 + 32768.0 / 512 + 32768.0 / 256 + 32768.0 / 32,
              1e-9);
  EXPECT_NEAR(cost.cycles, 512 + cost.moveCycles, 1e-9);
}

TEST(GmReadCycles, APanelReadAgainSoonComesFromL2) {
  // 8 MiB read by one of 4 cores: its 4 MiB share of the 16 MiB buffer
  // from DDR (32 B/cycle) the first time. The other 4 MiB are re-reads:
  // from DDR again when the whole buffer is what comes between two reads
  // (it does not fit the 2 MiB L2), from L2 (110) when only 1 MiB of
  // panels does.
  double mib = 1 << 20;
  EXPECT_DOUBLE_EQ(gmReadCycles(8 * mib, 16 * mib, 4, 2 * mib, 32, 110), 8 * mib / 32);
  EXPECT_DOUBLE_EQ(gmReadCycles(8 * mib, 16 * mib, 4, 2 * mib, 32, 110, 1 * mib),
                   4 * mib / 32 + 4 * mib / 110);
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
  // Block 0 runs 4 of the 8 tiles. Per tile: 2048 bytes in (MTE2) and
  // 2048 out (MTE3), each at 67 B/cycle on its own pipe; Exp in fp16 is 8
  // repeats of 256 bytes x 4 instructions = 32. The vector's 128 cycles
  // outlast each pipe's 4 * 2048/67 = 122.27: the overlap leaves 128 plus
  // the two movement pipes' 244.537 over 4 steps.
  KernelCost cost = estimate(expKernel("f16"));
  EXPECT_DOUBLE_EQ(cost.vectorCycles, 4 * 32);
  EXPECT_NEAR(cost.moveCycles, 4 * 4096.0 / 67, 1e-9);
  EXPECT_NEAR(cost.cycles, 128 + 4 * 4096.0 / 67 / 4, 1e-9);
}

TEST_F(KernelCostTest, LaunchIsTheSameWhateverTheCores) {
  // The Exp kernel: 189.134 cycles at 1000 MHz plus the 3.5 us launch
  // (the smallest whole task measured on a 910B); on 32 blocks the same
  // launch, so a chip with more cores is never charged more for one.
  KernelCost two = estimate(expKernel("f16"));
  EXPECT_NEAR(two.us, (128 + 4 * 4096.0 / 67 / 4) / 1000 + 3.5, 1e-9);
  std::string wide = expKernel("f16");
  wide.replace(wide.find("block_dim = 2"), 13, "block_dim = 32");
  wide.replace(wide.find("%c2 = arith.constant 2"), 22, "%c2 = arith.constant 32");
  KernelCost thirtyTwo = estimate(wide);
  EXPECT_NEAR(thirtyTwo.us - thirtyTwo.cycles / 1000, 3.5, 1e-9);
  EXPECT_LT(thirtyTwo.us, two.us);
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
