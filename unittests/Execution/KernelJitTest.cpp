//===- KernelJitTest.cpp - JIT-compiled kernels round like the device -----===//
//
// Vector kernels are generated, JIT-compiled and run on every fp16 and bf16
// bit pattern (unary ops) or a large seeded sample of pairs (binary ops),
// and their results compared bit for bit with llvm::APFloat computing the
// same operation in the same format. Transcendentals are checked against
// double-precision libm within their documented bound (docs/numerics.md).
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Execution/KernelJit.h"
#include "AscendPrec/InitAll.h"
#include "AscendPrec/Runtime/DoubleExp.h"
#include "AscendPrec/Runtime/HostTensor.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::exec;
using runtime::ElementType;
using runtime::HostTensor;

namespace {

constexpr int64_t kTile = 4096;

const char *kTarget =
    "#akernel.target<soc = \"{0}\", cube_cores = 1, vector_cores = 1, aicpu_cores = 1, "
    "cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, "
    "l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, "
    "cube_inputs = [f16, i8]>";

class KernelJitTest : public ::testing::Test {
protected:
  KernelJitTest() {
    DialectRegistry registry;
    registerAllAscendPrecDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// A vector kernel over `count` elements in tiles of kTile: loads each
  /// input, applies `body` (the vop or vcast text on %in0.., %out) and
  /// stores the result.
  std::shared_ptr<KernelJit> compile(const std::string &soc, int64_t count,
                                     const std::vector<std::string> &inputTypes,
                                     const std::string &outputType, const std::string &body,
                                     const std::string &overflow = "soc") {
    std::string args, loads, allocs;
    for (size_t i = 0; i < inputTypes.size(); ++i) {
      args += llvm::formatv("%x{0}: memref<{1}x{2}, #akernel.space<gm>>, ", i, count,
                            inputTypes[i]);
      allocs += llvm::formatv("    %in{0} = akernel.alloc : memref<{1}x{2}, #akernel.space<ub>>\n",
                              i, kTile, inputTypes[i]);
      loads += llvm::formatv("      akernel.load %x{0}[%off] -> %in{0} : memref<{1}x{2}, "
                             "#akernel.space<gm>> -> memref<{3}x{2}, #akernel.space<ub>>\n",
                             i, count, inputTypes[i], kTile);
    }
    std::string text = llvm::formatv(
        "module attributes {{akernel.target = {0}} {{\n"
        "  akernel.kernel @k attributes {{block_dim = 1 : i64, engine = #akernel.engine<vector>, "
        "nodes = [\"k\"]} {{\n"
        "  ^bb0({1}%y: memref<{2}x{3}, #akernel.space<gm>>):\n"
        "{4}"
        "    %out = akernel.alloc : memref<{5}x{3}, #akernel.space<ub>>\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %end = arith.constant {2} : index\n"
        "    %step = arith.constant {5} : index\n"
        "    scf.for %off = %c0 to %end step %step {{\n"
        "{6}"
        "      {7}\n"
        "      akernel.store %out -> %y[%off] : memref<{5}x{3}, #akernel.space<ub>> -> "
        "memref<{2}x{3}, #akernel.space<gm>>\n"
        "    }\n"
        "  }\n"
        "}\n",
        llvm::formatv(kTarget, soc).str(), args, count, outputType, allocs, kTile, loads, body);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module) << text;
    if (!module)
      return nullptr;
    std::string error;
    NumericsOptions options;
    options.overflow = overflow;
    std::shared_ptr<KernelJit> jit = KernelJit::compile(*module, options, error);
    EXPECT_TRUE(jit) << error;
    return jit;
  }

  /// Runs kernel @k on `buffers` (inputs then the output).
  static void run(const KernelJit &jit, std::vector<HostTensor *> buffers) {
    const CompiledKernel *kernel = jit.lookup("k");
    ASSERT_TRUE(kernel);
    std::vector<std::vector<int64_t>> descriptors;
    for (HostTensor *tensor : buffers) {
      auto address = reinterpret_cast<int64_t>(tensor->data());
      descriptors.push_back({address, address, 0, tensor->numElements(), 1});
    }
    kernel->runBlock(descriptors, 0);
  }

  /// A kernel @k reducing the rows of a [rows, cols] tile of `inType` into
  /// [rows, 1] of `outType` with vreduce `kind`.
  std::shared_ptr<KernelJit> compileReduction(const char *kind, const char *inType,
                                              const char *outType, const char *acc,
                                              const char *order, int64_t rows, int64_t cols) {
    std::string text = llvm::formatv(
        "module attributes {{akernel.target = {0}} {{\n"
        "  akernel.kernel @k attributes {{block_dim = 1 : i64, engine = #akernel.engine<vector>, "
        "nodes = [\"k\"]} {{\n"
        "  ^bb0(%x: memref<{5}x{6}x{3}, #akernel.space<gm>>, %y: memref<{5}x1x{4}, "
        "#akernel.space<gm>>):\n"
        "    %in = akernel.alloc : memref<{5}x{6}x{3}, #akernel.space<ub>>\n"
        "    %out = akernel.alloc : memref<{5}x1x{4}, #akernel.space<ub>>\n"
        "    %c0 = arith.constant 0 : index\n"
        "    akernel.load %x[%c0, %c0] -> %in : memref<{5}x{6}x{3}, #akernel.space<gm>> -> "
        "memref<{5}x{6}x{3}, #akernel.space<ub>>\n"
        "    akernel.vreduce \"{1}\" %in -> %out {{acc = {7}, axes = array<i64: 1>, "
        "order = #akernel.order<{2}>} : memref<{5}x{6}x{3}, #akernel.space<ub>> -> "
        "memref<{5}x1x{4}, #akernel.space<ub>>\n"
        "    akernel.store %out -> %y[%c0, %c0] : memref<{5}x1x{4}, #akernel.space<ub>> -> "
        "memref<{5}x1x{4}, #akernel.space<gm>>\n"
        "  }\n"
        "}\n",
        llvm::formatv(kTarget, "Ascend910B3").str(), kind, order, inType, outType, rows, cols,
        acc);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module) << text;
    std::string error;
    std::shared_ptr<KernelJit> jit = module ? KernelJit::compile(*module, {}, error) : nullptr;
    EXPECT_TRUE(jit) << error;
    return jit;
  }

  MLIRContext context;
};

uint16_t bitsAt(const HostTensor &tensor, int64_t i) {
  uint16_t bits;
  std::memcpy(&bits, tensor.data() + 2 * i, 2);
  return bits;
}

void setBits(HostTensor &tensor, int64_t i, uint16_t bits) {
  std::memcpy(tensor.data() + 2 * i, &bits, 2);
}

const llvm::fltSemantics &semanticsOf(const std::string &type) {
  return type == "f16" ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat();
}

/// Equal as results: the same bits, or both NaN.
bool sameResult(uint16_t actual, const llvm::APFloat &expected) {
  if (expected.isNaN())
    return llvm::APFloat(expected.getSemantics(), llvm::APInt(16, actual)).isNaN();
  return actual == expected.bitcastToAPInt().getZExtValue();
}

/// All 65,536 patterns of a 16-bit float type.
HostTensor allPatterns(ElementType type) {
  HostTensor tensor(type, {65536});
  for (int64_t i = 0; i < 65536; ++i)
    setBits(tensor, i, static_cast<uint16_t>(i));
  return tensor;
}

struct UnaryCase {
  const char *kind;
  /// The correctly rounded result in the format, from APFloat or (sqrt)
  /// from double, which is exact enough to round once.
  llvm::APFloat (*reference)(const llvm::APFloat &);
};

llvm::APFloat roundedFromDouble(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat result(value);
  bool lost;
  result.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  return result;
}

double toDouble(const llvm::APFloat &value) {
  llvm::APFloat wide = value;
  bool lost;
  wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return wide.convertToDouble();
}

TEST_F(KernelJitTest, ExactUnaryOpsAreBitExactOnEveryPattern) {
  const UnaryCase cases[] = {
      {"abs", [](const llvm::APFloat &x) { return llvm::abs(x); }},
      {"neg", [](const llvm::APFloat &x) { return llvm::neg(x); }},
      {"copy", [](const llvm::APFloat &x) { return x; }},
      {"relu",
       [](const llvm::APFloat &x) {
         return x.isNaN() ? x : llvm::maximum(x, llvm::APFloat::getZero(x.getSemantics()));
       }},
      {"sqrt",
       [](const llvm::APFloat &x) {
         return roundedFromDouble(std::sqrt(toDouble(x)), x.getSemantics());
       }},
      {"reciprocal",
       [](const llvm::APFloat &x) {
         llvm::APFloat one(x.getSemantics(), 1);
         one.divide(x, llvm::APFloat::rmNearestTiesToEven);
         return one;
       }},
  };
  for (std::string type : {"f16", "bf16"}) {
    ElementType element = type == "f16" ? ElementType::F16 : ElementType::BF16;
    for (const UnaryCase &unary : cases) {
      // IEEE overflow: the 910B-class behaviour, where Inf stays Inf.
      auto jit = compile("Ascend910B3", 65536, {type}, type,
                         llvm::formatv("akernel.vop \"{0}\" %in0 -> %out {{compute = {1}} : "
                                       "memref<{2}x{1}, #akernel.space<ub>> -> memref<{2}x{1}, "
                                       "#akernel.space<ub>>",
                                       unary.kind, type, kTile));
      ASSERT_TRUE(jit);
      HostTensor x = allPatterns(element), y(element, {65536});
      run(*jit, {&x, &y});
      int mismatches = 0;
      for (int64_t i = 0; i < 65536 && mismatches < 5; ++i) {
        llvm::APFloat input(semanticsOf(type), llvm::APInt(16, i));
        llvm::APFloat expected = unary.reference(input);
        if (!sameResult(bitsAt(y, i), expected)) {
          ++mismatches;
          ADD_FAILURE() << unary.kind << " " << type << " of 0x" << llvm::utohexstr(i)
                        << ": got 0x" << llvm::utohexstr(bitsAt(y, i)) << ", expected 0x"
                        << llvm::utohexstr(expected.bitcastToAPInt().getZExtValue());
        }
      }
    }
  }
}

TEST_F(KernelJitTest, BinaryOpsAreBitExactOnSeededPairs) {
  constexpr int64_t kPairs = 200704; // 49 tiles
  using Op = llvm::APFloat::opStatus (llvm::APFloat::*)(const llvm::APFloat &,
                                                         llvm::APFloat::roundingMode);
  const std::pair<const char *, Op> cases[] = {{"add", &llvm::APFloat::add},
                                               {"sub", &llvm::APFloat::subtract},
                                               {"mul", &llvm::APFloat::multiply},
                                               {"div", &llvm::APFloat::divide}};
  for (std::string type : {"f16", "bf16"}) {
    ElementType element = type == "f16" ? ElementType::F16 : ElementType::BF16;
    HostTensor a(element, {kPairs}), b(element, {kPairs});
    std::mt19937 generator(type == "f16" ? 1 : 2);
    for (int64_t i = 0; i < kPairs; ++i) {
      uint32_t bits = generator();
      setBits(a, i, static_cast<uint16_t>(bits));
      // Half of the pairs close in magnitude (cancellation, ties).
      uint16_t other = static_cast<uint16_t>(bits >> 16);
      if (i % 2)
        other = static_cast<uint16_t>((bits & 0xFFC0u) | (other & 0x3Fu));
      setBits(b, i, other);
    }
    for (const auto &[kind, op] : cases) {
      auto jit = compile("Ascend910B3", kPairs, {type, type}, type,
                         llvm::formatv("akernel.vop \"{0}\" %in0, %in1 -> %out {{compute = {1}} "
                                       ": memref<{2}x{1}, #akernel.space<ub>>, memref<{2}x{1}, "
                                       "#akernel.space<ub>> -> memref<{2}x{1}, #akernel.space<ub>>",
                                       kind, type, kTile));
      ASSERT_TRUE(jit);
      HostTensor y(element, {kPairs});
      run(*jit, {&a, &b, &y});
      int mismatches = 0;
      for (int64_t i = 0; i < kPairs && mismatches < 5; ++i) {
        llvm::APFloat expected(semanticsOf(type), llvm::APInt(16, bitsAt(a, i)));
        (expected.*op)(llvm::APFloat(semanticsOf(type), llvm::APInt(16, bitsAt(b, i))),
                       llvm::APFloat::rmNearestTiesToEven);
        if (!sameResult(bitsAt(y, i), expected)) {
          ++mismatches;
          ADD_FAILURE() << kind << " " << type << " pair " << i << ": got 0x"
                        << llvm::utohexstr(bitsAt(y, i)) << ", expected 0x"
                        << llvm::utohexstr(expected.bitcastToAPInt().getZExtValue());
        }
      }
    }
  }
}

TEST_F(KernelJitTest, CastsRoundInEveryModeLikeAPFloat) {
  // f32 values around every fp16 value: the value, the midpoints and their
  // float neighbours.
  std::vector<float> values;
  for (uint32_t bits = 0; bits < 0x7C00; bits += 7) {
    llvm::APFloat low(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
    llvm::APFloat high(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits + 1));
    float l = static_cast<float>(toDouble(low)), h = static_cast<float>(toDouble(high));
    float middle = static_cast<float>((static_cast<double>(l) + h) / 2);
    for (float v : {l, middle, std::nextafter(middle, 0.0f), std::nextafter(middle, 1e9f)}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  int64_t count = (static_cast<int64_t>(values.size()) / kTile) * kTile;
  values.resize(count);
  const std::pair<const char *, llvm::RoundingMode> modes[] = {
      {"rint", llvm::RoundingMode::NearestTiesToEven},
      {"round", llvm::RoundingMode::NearestTiesToAway},
      {"floor", llvm::RoundingMode::TowardNegative},
      {"ceil", llvm::RoundingMode::TowardPositive},
      {"trunc", llvm::RoundingMode::TowardZero}};
  HostTensor x(ElementType::F32, {count});
  std::memcpy(x.data(), values.data(), count * 4);
  for (const auto &[name, mode] : modes) {
    auto jit = compile("Ascend910B3", count, {"f32"}, "f16",
                       llvm::formatv("akernel.vcast %in0 -> %out {{round = #akernel.round<{0}>} "
                                     ": memref<{1}xf32, #akernel.space<ub>> -> memref<{1}xf16, "
                                     "#akernel.space<ub>>",
                                     name, kTile));
    ASSERT_TRUE(jit);
    HostTensor y(ElementType::F16, {count});
    run(*jit, {&x, &y});
    int mismatches = 0;
    for (int64_t i = 0; i < count && mismatches < 5; ++i) {
      llvm::APFloat expected(values[i]);
      bool lost;
      expected.convert(llvm::APFloat::IEEEhalf(), mode, &lost);
      if (!sameResult(bitsAt(y, i), expected)) {
        ++mismatches;
        ADD_FAILURE() << "cast " << name << " of " << values[i] << ": got 0x"
                      << llvm::utohexstr(bitsAt(y, i)) << ", expected 0x"
                      << llvm::utohexstr(expected.bitcastToAPInt().getZExtValue());
      }
    }
  }
}

/// The error of a result in units in the last place of the format, against
/// the exact value (double libm).
double ulpError(double actual, double exact, const llvm::fltSemantics &semantics) {
  if (std::isnan(exact) || std::isinf(exact))
    return (std::isnan(exact) && std::isnan(actual)) || actual == exact ? 0 : INFINITY;
  llvm::APFloat rounded = roundedFromDouble(exact, semantics);
  if (rounded.isInfinity())
    return std::isinf(actual) ? 0 : INFINITY;
  // The ulp at the exact value's binade (subnormal spacing below).
  int exponent = std::max(std::ilogb(std::fabs(exact)),
                          llvm::APFloat::semanticsMinExponent(semantics));
  double ulp = std::ldexp(1.0, exponent - (static_cast<int>(
                                               llvm::APFloat::semanticsPrecision(semantics)) -
                                           1));
  if (exact == 0)
    ulp = std::ldexp(1.0, llvm::APFloat::semanticsMinExponent(semantics) -
                              static_cast<int>(llvm::APFloat::semanticsPrecision(semantics)) + 1);
  return std::fabs(actual - exact) / ulp;
}

TEST_F(KernelJitTest, TranscendentalsStayWithinTheirBoundOnEveryHalfInput) {
  // kind, exact function, bound in ulps of the compute dtype, and the
  // inputs it holds for (docs/numerics.md): one libm step in f32 rounded
  // to fp16 is within 0.5 ulp + a few f32 ulps (2^-12 fp16 ulps); two and
  // three rounded steps (rsqrt, sigmoid) accumulate. Below -11.09 the fp16
  // sigmoid's exp(-x) overflows and the result is 0 (its true value is
  // under 1.6e-5): that is the step sequence's own behaviour, not checked
  // here.
  struct Case {
    const char *kind;
    double (*exact)(double);
    double bound;
    double from;
  };
  const double kOneRounding = 0.5 + 1.0 / 4096;
  const Case cases[] = {
      {"exp", [](double x) { return std::exp(x); }, kOneRounding, -INFINITY},
      {"log", [](double x) { return std::log(x); }, kOneRounding, -INFINITY},
      {"tanh", [](double x) { return std::tanh(x); }, kOneRounding, -INFINITY},
      {"erf", [](double x) { return std::erf(x); }, kOneRounding, -INFINITY},
      {"rsqrt", [](double x) { return 1 / std::sqrt(x); }, 1.5, -INFINITY},
      {"sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, 3.0, -11.09},
  };
  for (const Case &fn : cases) {
    auto jit = compile("Ascend910B3", 65536, {"f16"}, "f16",
                       llvm::formatv("akernel.vop \"{0}\" %in0 -> %out {{compute = f16} : "
                                     "memref<{1}xf16, #akernel.space<ub>> -> memref<{1}xf16, "
                                     "#akernel.space<ub>>",
                                     fn.kind, kTile));
    ASSERT_TRUE(jit);
    HostTensor x = allPatterns(ElementType::F16), y(ElementType::F16, {65536});
    run(*jit, {&x, &y});
    double worst = 0;
    int64_t worstAt = 0;
    for (int64_t i = 0; i < 65536; ++i) {
      double input = x.get(i);
      if (!std::isfinite(input) || input < fn.from)
        continue;
      double error = ulpError(y.get(i), fn.exact(input), llvm::APFloat::IEEEhalf());
      if (error > worst) {
        worst = error;
        worstAt = i;
      }
    }
    EXPECT_LE(worst, fn.bound) << fn.kind << " worst at input " << x.get(worstAt) << ": "
                               << y.get(worstAt) << " vs " << fn.exact(x.get(worstAt));
  }
}

TEST_F(KernelJitTest, Fp32TanhIsCorrectlyRoundedWhereGlibcsIsNot) {
  // Compiled kernels compute fp32 tanh in double (DoubleExp.h), not with
  // glibc's tanhf: on inputs where glibc's tanhf is not correctly rounded,
  // the kernel's result still is.
  int64_t count = 16 * kTile;
  HostTensor x(ElementType::F32, {count}), y(ElementType::F32, {count});
  int64_t glibcMisses = 0;
  for (int64_t i = 0; i < count; ++i) {
    float value = 0.01f + 4.0f * static_cast<float>(i) / static_cast<float>(count);
    x.set(i, i % 2 ? -value : value);
    float input = static_cast<float>(x.get(i));
    glibcMisses += tanhf(input) != static_cast<float>(tanhl(static_cast<long double>(input)));
  }
  ASSERT_GT(glibcMisses, 100) << "the inputs no longer show glibc's misses";
  auto jit = compile("Ascend910B3", count, {"f32"}, "f32",
                     llvm::formatv("akernel.vop \"tanh\" %in0 -> %out {{compute = f32} : "
                                   "memref<{0}xf32, #akernel.space<ub>> -> memref<{0}xf32, "
                                   "#akernel.space<ub>>",
                                   kTile));
  ASSERT_TRUE(jit);
  run(*jit, {&x, &y});
  for (int64_t i = 0; i < count; ++i) {
    float input = static_cast<float>(x.get(i));
    ASSERT_EQ(static_cast<float>(y.get(i)),
              static_cast<float>(tanhl(static_cast<long double>(input))))
        << "tanh(" << input << ")";
  }
}

/// fp32 inputs where exp, tanh and sigmoid change behaviour: special
/// values, the clamps, the results that are subnormal or overflow, then a
/// sweep through [-110, 95] and seeded random bit patterns.
std::vector<float> transcendentalInputs(int64_t count) {
  std::vector<float> values = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN,
                               1e-30f, -1e-30f, 0x1p-12f, -0x1p-12f, 9.1f, -9.1f,
                               -104.0f, -103.97f, -103.3f, -100.0f, -87.5f, -87.33f,
                               88.72f, 88.73f, 89.0f, 709.0f, -745.0f, -10000.0f,
                               1e30f, -1e30f, std::numeric_limits<float>::denorm_min()};
  uint32_t payloadBits = 0x7FC12345u;
  float payload;
  std::memcpy(&payload, &payloadBits, 4);
  values.push_back(payload);
  for (int64_t i = 0; static_cast<int64_t>(values.size()) < count / 2; ++i)
    values.push_back(-110.0f + 205.0f * static_cast<float>(i) / static_cast<float>(count / 2));
  std::mt19937 random(7);
  while (static_cast<int64_t>(values.size()) < count) {
    uint32_t bits = random();
    float value;
    std::memcpy(&value, &bits, 4);
    values.push_back(value);
  }
  return values;
}

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

TEST_F(KernelJitTest, Fp32ExpTanhSigmoidAreTheHostsDoubleExpStepsBitForBit) {
  // The vector codegen emits DoubleExp.h's steps inline (so that LLVM
  // vectorizes the loop); the runtime (LSTM gates) calls the same steps
  // compiled by the host compiler: the two must agree on every bit,
  // NaN payloads included.
  int64_t count = 16 * kTile;
  std::vector<float> inputs = transcendentalInputs(count);
  HostTensor x(ElementType::F32, {count});
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(x.data() + 4 * i, &inputs[i], 4);
  namespace de = runtime::doubleexp;
  struct Case {
    const char *kind;
    std::function<float(float)> host;
  } cases[] = {
      {"exp", de::expFloat},
      {"tanh", de::tanhFloat},
      // Each step rounded to fp32: e = exp(-x), d = 1 + e, 1 / d.
      {"sigmoid", [](float v) { return 1.0f / (1.0f + de::expFloat(-v)); }},
  };
  for (const Case &c : cases) {
    auto jit = compile("Ascend910B3", count, {"f32"}, "f32",
                       llvm::formatv("akernel.vop \"{0}\" %in0 -> %out {{compute = f32} : "
                                     "memref<{1}xf32, #akernel.space<ub>> -> memref<{1}xf32, "
                                     "#akernel.space<ub>>",
                                     c.kind, kTile));
    ASSERT_TRUE(jit);
    HostTensor y(ElementType::F32, {count});
    run(*jit, {&x, &y});
    for (int64_t i = 0; i < count; ++i) {
      float got;
      std::memcpy(&got, y.data() + 4 * i, 4);
      float want = c.host(inputs[i]);
      ASSERT_EQ(floatBits(got), floatBits(want))
          << c.kind << "(" << inputs[i] << " = 0x" << llvm::utohexstr(floatBits(inputs[i]))
          << "): " << got << ", not " << want;
    }
  }
}

TEST_F(KernelJitTest, SaturationModeMapsInfToMaxAndNaNToZero) {
  // Ascend910 (Atlas training) only saturates; Ascend910B3 keeps Inf/NaN.
  std::string body = llvm::formatv("akernel.vop \"exp\" %in0 -> %out {{compute = f16} : "
                                   "memref<{0}xf16, #akernel.space<ub>> -> memref<{0}xf16, "
                                   "#akernel.space<ub>>",
                                   kTile);
  HostTensor x(ElementType::F16, {kTile});
  x.set(0, 12.0);      // exp(12) = 162755 > 65504
  x.set(1, NAN);
  x.set(2, -INFINITY); // exp(-inf) = 0
  auto saturating = compile("Ascend910", kTile, {"f16"}, "f16", body);
  auto ieee = compile("Ascend910B3", kTile, {"f16"}, "f16", body);
  ASSERT_TRUE(saturating && ieee);
  HostTensor y(ElementType::F16, {kTile}), z(ElementType::F16, {kTile});
  run(*saturating, {&x, &y});
  run(*ieee, {&x, &z});
  EXPECT_EQ(bitsAt(y, 0), 0x7BFF);
  EXPECT_EQ(bitsAt(y, 1), 0x0000);
  EXPECT_EQ(y.get(2), 0.0);
  EXPECT_EQ(bitsAt(z, 0), 0x7C00);
  EXPECT_TRUE(std::isnan(z.get(1)));
}

TEST_F(KernelJitTest, HighPrecisionComputeRoundsOnceLowPrecisionEveryStep) {
  // IM-7: a sigmoid on fp16 data computing in fp32 rounds once at the end;
  // computing in fp16 rounds each of its three steps.
  auto body = [](const char *compute) {
    return llvm::formatv("akernel.vop \"sigmoid\" %in0 -> %out {{compute = {0}} : "
                         "memref<{1}xf16, #akernel.space<ub>> -> memref<{1}xf16, "
                         "#akernel.space<ub>>",
                         compute, kTile)
        .str();
  };
  auto precise = compile("Ascend910B3", 65536, {"f16"}, "f16", body("f32"));
  auto fast = compile("Ascend910B3", 65536, {"f16"}, "f16", body("f16"));
  ASSERT_TRUE(precise && fast);
  HostTensor x = allPatterns(ElementType::F16);
  HostTensor p(ElementType::F16, {65536}), f(ElementType::F16, {65536});
  run(*precise, {&x, &p});
  run(*fast, {&x, &f});
  double worstPrecise = 0, worstFast = 0;
  for (int64_t i = 0; i < 65536; ++i) {
    double input = x.get(i);
    if (!std::isfinite(input) || input < -11.09) // fp16's exp(-x) overflows below
      continue;
    double exact = 1 / (1 + std::exp(-input));
    worstPrecise = std::max(worstPrecise, ulpError(p.get(i), exact, llvm::APFloat::IEEEhalf()));
    worstFast = std::max(worstFast, ulpError(f.get(i), exact, llvm::APFloat::IEEEhalf()));
  }
  EXPECT_LE(worstPrecise, 0.5 + 1.0 / 4096);
  EXPECT_GT(worstFast, worstPrecise);
}

TEST_F(KernelJitTest, ArgReductionsTakeTheFirstExtremeAndTheFirstNaN) {
  // vreduce "argmax"/"argmin" over the rows of a 4x8 fp16 tile into i64
  // indices: ties keep the first index (-0 and +0 tie), a NaN is the
  // extreme (the first one wins, as NumPy), whatever the order.
  auto kernel = [&](const char *kind, const char *order) {
    return compileReduction(kind, "f16", "i64", "f16", order, 4, 8);
  };
  const double rows[4][8] = {{1, 3, 3, -2, 3, 0, -2, 1},
                             {-0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0},
                             {1, 5, NAN, 7, NAN, -9, 2, 0},
                             {-INFINITY, 2, 2, 1, INFINITY, INFINITY, -INFINITY, 0}};
  HostTensor x(ElementType::F16, {4, 8});
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c)
      x.set(r * 8 + c, rows[r][c]);
  const int64_t expectedMax[4] = {1, 0, 2, 4}, expectedMin[4] = {3, 0, 2, 0};
  for (const char *order : {"tree", "sequential"})
    for (bool largest : {true, false}) {
      auto jit = kernel(largest ? "argmax" : "argmin", order);
      ASSERT_TRUE(jit);
      HostTensor y(ElementType::I64, {4, 1});
      const CompiledKernel *compiled = jit->lookup("k");
      ASSERT_TRUE(compiled);
      auto inAddress = reinterpret_cast<int64_t>(x.data());
      auto outAddress = reinterpret_cast<int64_t>(y.data());
      std::vector<int64_t> in = {inAddress, inAddress, 0, 4, 8, 8, 1};
      std::vector<int64_t> out = {outAddress, outAddress, 0, 4, 1, 1, 1};
      compiled->runBlock({in, out}, 0);
      for (int64_t r = 0; r < 4; ++r)
        EXPECT_EQ(y.getInt(r), largest ? expectedMax[r] : expectedMin[r])
            << (largest ? "argmax" : "argmin") << " (" << order << ") of row " << r;
    }
}

TEST_F(KernelJitTest, MaxAndMinReductionsFollowTheirStepRuleInEitherOrder) {
  // A max or min step keeps the left value when it is NaN or wins, else
  // the right one: the order decides which zero of +0 and -0 and which
  // NaN comes out. Rows of 7 make the tree's halves uneven. fp32 data in
  // fp32, fp16 data in fp16.
  const float nanA = std::numeric_limits<float>::quiet_NaN(), nanB = -nanA;
  const float rows[5][7] = {{1, 3, 3, -2, 3, 0, -2},
                            {-0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f},
                            {0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f},
                            {1, nanA, 5, nanB, 7, -9, 2},
                            {-INFINITY, 2, 2, 1, INFINITY, INFINITY, -INFINITY}};
  for (const char *type : {"f32", "f16"})
    for (const char *order : {"tree", "sequential"})
      for (bool largest : {true, false}) {
        auto step = [&](float a, float b) {
          return (std::isnan(a) || (largest ? a > b : a < b)) ? a : b;
        };
        ElementType element = std::string(type) == "f32" ? ElementType::F32 : ElementType::F16;
        HostTensor x(element, {5, 7}), y(element, {5, 1});
        for (int64_t r = 0; r < 5; ++r)
          for (int64_t c = 0; c < 7; ++c)
            x.set(r * 7 + c, rows[r][c]);
        auto jit = compileReduction(largest ? "max" : "min", type, type, type, order, 5, 7);
        ASSERT_TRUE(jit);
        auto inAddress = reinterpret_cast<int64_t>(x.data());
        auto outAddress = reinterpret_cast<int64_t>(y.data());
        jit->lookup("k")->runBlock(
            {{inAddress, inAddress, 0, 5, 7, 7, 1}, {outAddress, outAddress, 0, 5, 1, 1, 1}}, 0);
        for (int64_t r = 0; r < 5; ++r) {
          std::vector<float> values(rows[r], rows[r] + 7);
          size_t count = values.size();
          if (std::string(order) == "tree") {
            for (; count > 1; count = (count + 1) / 2)
              for (size_t i = 0; i + (count + 1) / 2 < count; ++i)
                values[i] = step(values[i], values[i + (count + 1) / 2]);
          } else {
            for (size_t i = 1; i < count; ++i)
              values[0] = step(values[0], values[i]);
          }
          auto got = static_cast<float>(y.get(r));
          EXPECT_EQ(floatBits(got), floatBits(values[0]))
              << type << " " << (largest ? "max" : "min") << " (" << order << ") of row " << r
              << ": " << got;
        }
      }
}

TEST_F(KernelJitTest, SecondCompileOfTheSameKernelsComesFromTheCache) {
  std::string body = llvm::formatv("akernel.vop \"abs\" %in0 -> %out {{compute = f16} : "
                                   "memref<{0}xf16, #akernel.space<ub>> -> memref<{0}xf16, "
                                   "#akernel.space<ub>>",
                                   kTile);
  auto first = compile("Ascend910B3", kTile, {"f16"}, "f16", body);
  auto second = compile("Ascend910B3", kTile, {"f16"}, "f16", body);
  auto other = compile("Ascend910B3", kTile, {"f16"}, "f16", body, "saturation");
  ASSERT_TRUE(first && second && other);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_NE(first.get(), other.get());
}

} // namespace
