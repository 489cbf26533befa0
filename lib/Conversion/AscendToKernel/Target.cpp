//===- Target.cpp - the #akernel.target of a SoC ---------------------------===//

#include "AscendPrec/Conversion/AscendToKernel/AscendToKernel.h"
#include "AscendPrec/Policy/OpLibrary.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

/// The element type of a dtype the cube can multiply.
Type cubeInputType(MLIRContext *context, policy::DType dtype) {
  switch (dtype) {
  case policy::DType::Float16:
    return Float16Type::get(context);
  case policy::DType::BFloat16:
    return BFloat16Type::get(context);
  case policy::DType::Float32:
    return Float32Type::get(context);
  case policy::DType::Int8:
    return IntegerType::get(context, 8);
  default:
    return {};
  }
}

/// L1 -> L0 rates that replace a family's platform config's
/// (docs/cost-model.md, "Measured data paths"). Huawei's msKPP gives the
/// 910B's L1 -> L0A and L1 -> L0B ports as 256 and 128 bytes per cycle, and
/// its curves measured on a 910B1 reach 97-102% of that from 16 KiB copies
/// up; the family's .ini files say 512 and 256. No other family has such
/// figures.
struct MeasuredRates {
  const char *family; ///< the platform config's Short_SoC_version
  int64_t l1ToL0a, l1ToL0b;
};
constexpr MeasuredRates kMeasuredRates[] = {{"Ascend910B", 256, 128}};

const MeasuredRates *measuredRatesOf(const policy::PlatformInfo &platform) {
  for (const MeasuredRates &rates : kMeasuredRates)
    if (platform.shortSocVersion == rates.family)
      return &rates;
  return nullptr;
}

} // namespace

TargetAttr ascendprec::kernel::buildTarget(MLIRContext *context,
                                           const policy::PlatformInfo &platform,
                                           const policy::OpLibrary &library) {
  // The cube's input dtypes are the ones the library's MatMulV2 kernel
  // accepts on its first input (OP-4): a SoC lists only what its cube does.
  SmallVector<Attribute> inputs;
  if (const policy::OpInfo *matmul = library.find("MatMulV2"); matmul && matmul->aicore)
    for (const policy::KernelRow &row : matmul->aicore->rows) {
      if (row.inputs.empty())
        continue;
      Type type = cubeInputType(context, row.inputs.front());
      if (type && !llvm::is_contained(inputs, TypeAttr::get(type)))
        inputs.push_back(TypeAttr::get(type));
    }
  auto count = [](uint64_t value) { return static_cast<int64_t>(value); };
  int64_t cubeCores = count(platform.cubeCoreCount ? platform.cubeCoreCount : platform.aiCoreCount);
  int64_t vectorCores =
      count(platform.vectorCoreCount ? platform.vectorCoreCount : platform.aiCoreCount);
  int64_t l1ToL0a = count(platform.l1ToL0aRate), l1ToL0b = count(platform.l1ToL0bRate);
  if (const MeasuredRates *measured = measuredRatesOf(platform)) {
    l1ToL0a = measured->l1ToL0a;
    l1ToL0b = measured->l1ToL0b;
  }
  return TargetAttr::get(context, StringAttr::get(context, platform.socVersion), cubeCores,
                         vectorCores, count(platform.aiCpuCount), count(platform.cubeM),
                         count(platform.cubeN), count(platform.cubeK), count(platform.cubeFreqMHz),
                         count(platform.l1Size), count(platform.l0aSize), count(platform.l0bSize),
                         count(platform.l0cSize), count(platform.ubSize), count(platform.l2Size),
                         count(platform.ddrRate),
                         count(platform.l2Rate), ArrayAttr::get(context, inputs),
                         count(platform.ddrWriteRate), l1ToL0a, l1ToL0b,
                         count(platform.ubToDdrRate));
}
