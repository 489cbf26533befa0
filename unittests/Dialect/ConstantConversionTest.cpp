//===- ConstantConversionTest.cpp - weights converted at compile time -----===//
//
// Large weights (dense_resource blobs) go from f32 to f16/bf16 without
// APFloat; the results must be APFloat's bit for bit (round to nearest even,
// subnormals, overflow to Inf, NaN payloads).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"
#include "AscendPrec/Dialect/Ascend/IR/ConstantConversion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace ascendprec;
using ascendprec::testing::DialectTest;

namespace {

using ConstantConversionTest = DialectTest;

/// The f32 bit patterns as a dense_resource constant.
DenseResourceElementsAttr blobOf(MLIRContext &context, const std::vector<uint32_t> &bits,
                                 const std::string &name) {
  auto type = RankedTensorType::get({static_cast<int64_t>(bits.size())},
                                    Float32Type::get(&context));
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(reinterpret_cast<const char *>(bits.data()), bits.size() * 4),
      alignof(uint64_t));
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

/// Converts `bits` to `to` and compares each element with APFloat's.
void expectAPFloatBits(MLIRContext &context, const std::vector<uint32_t> &bits, Type to) {
  ElementsAttr converted = ascend::convertElements(blobOf(context, bits, "w"), to);
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(converted);
  ASSERT_TRUE(resource);
  ArrayRef<char> data = resource.getData();
  ASSERT_EQ(data.size(), bits.size() * 2);
  const llvm::fltSemantics &semantics = cast<FloatType>(to).getFloatSemantics();
  size_t mismatches = 0;
  for (size_t i = 0; i < bits.size(); ++i) {
    APFloat expected(APFloat::IEEEsingle(), APInt(32, bits[i]));
    bool losesInfo;
    expected.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    uint16_t actual;
    std::memcpy(&actual, data.data() + 2 * i, 2);
    if (actual != expected.bitcastToAPInt().getZExtValue() && ++mismatches <= 5)
      ADD_FAILURE() << "f32 bits 0x" << std::hex << bits[i] << ": got 0x" << actual
                    << ", APFloat gives 0x" << expected.bitcastToAPInt().getZExtValue();
  }
  EXPECT_EQ(mismatches, 0u);
}

/// Edges of both formats, then every 251st f32 bit pattern that is not NaN
/// (about 17 million, both signs, every exponent).
std::vector<uint32_t> samples() {
  std::vector<uint32_t> bits = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, // zeros, infinities
      0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, // 65504, the Inf tie
      0x38800000, 0x387fffff, 0x387ff000,             // smallest normal half
      0x33000000, 0x33000001, 0x33800000, 0x33c00000, // 2^-25 (a tie), 2^-24
      0x3f801000, 0x3f803000, 0x3f800fff, 0x3f801001, // ties to even at 1
      0x7f7fffff, 0xff7fffff, 0x00000001, 0x80000001, // f32 max, f32 denorm
      0x3f808000, 0x3f818000, 0x3f807fff,             // bf16 ties at 1
  };
  for (uint64_t pattern = 0; pattern <= 0xffffffffull; pattern += 251)
    if ((pattern & 0x7fffffff) <= 0x7f800000)
      bits.push_back(static_cast<uint32_t>(pattern));
  return bits;
}

TEST_F(ConstantConversionTest, F32BlobToF16MatchesAPFloat) {
  expectAPFloatBits(context, samples(), Float16Type::get(&context));
}

TEST_F(ConstantConversionTest, F32BlobToBF16MatchesAPFloat) {
  expectAPFloatBits(context, samples(), BFloat16Type::get(&context));
}

TEST_F(ConstantConversionTest, NaNPayloadsFollowAPFloat) {
  // A blob holding NaNs takes APFloat's path for every element.
  std::vector<uint32_t> bits = {0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa00000, 0x3f800000};
  expectAPFloatBits(context, bits, Float16Type::get(&context));
  expectAPFloatBits(context, bits, BFloat16Type::get(&context));
}

} // namespace
