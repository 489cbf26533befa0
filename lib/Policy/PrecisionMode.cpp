//===- PrecisionMode.cpp - precision_mode / precision_mode_v2 (PM) --------===//

#include "AscendPrec/Policy/PrecisionMode.h"

namespace ascendprec::policy {

std::optional<PrecisionMode> parsePrecisionMode(const std::string &value) {
  using P = PrecisionMode;
  if (value == "force_fp16")
    return P::ForceFp16;
  if (value == "force_fp32")
    return P::ForceFp32;
  if (value == "cube_fp16in_fp32out")
    return P::CubeFp16InFp32Out;
  if (value == "allow_mix_precision" || value == "allow_mix_precision_fp16")
    return P::MixedFloat16; // PM-3
  if (value == "allow_fp32_to_fp16")
    return P::AllowFp32ToFp16;
  if (value == "must_keep_origin_dtype")
    return P::MustKeepOrigin;
  if (value == "allow_mix_precision_bf16")
    return P::MixedBFloat16;
  if (value == "allow_fp32_to_bf16")
    return P::AllowFp32ToBf16;
  return std::nullopt;
}

std::optional<PrecisionMode> parsePrecisionModeV2(const std::string &value) {
  using P = PrecisionMode;
  if (value == "fp16")
    return P::ForceFp16; // PM-3
  if (value == "origin")
    return P::MustKeepOrigin; // PM-3
  if (value == "cube_fp16in_fp32out")
    return P::CubeFp16InFp32Out;
  if (value == "mixed_float16")
    return P::MixedFloat16; // PM-3
  if (value == "mixed_bfloat16")
    return P::MixedBFloat16; // PM-3
  if (value == "mixed_hif8")
    return P::MixedHiFloat8;
  if (value == "cube_hif8")
    return P::CubeHiFloat8;
  return std::nullopt;
}

std::string precisionModeName(PrecisionMode mode) {
  switch (mode) {
  case PrecisionMode::ForceFp16:
    return "force_fp16";
  case PrecisionMode::ForceFp32:
    return "force_fp32";
  case PrecisionMode::CubeFp16InFp32Out:
    return "cube_fp16in_fp32out";
  case PrecisionMode::AllowFp32ToFp16:
    return "allow_fp32_to_fp16";
  case PrecisionMode::AllowFp32ToBf16:
    return "allow_fp32_to_bf16";
  case PrecisionMode::MustKeepOrigin:
    return "must_keep_origin_dtype";
  case PrecisionMode::MixedFloat16:
    return "allow_mix_precision";
  case PrecisionMode::MixedBFloat16:
    return "allow_mix_precision_bf16";
  case PrecisionMode::MixedHiFloat8:
    return "mixed_hif8";
  case PrecisionMode::CubeHiFloat8:
    return "cube_hif8";
  }
  return "force_fp16";
}

bool isMixedMode(PrecisionMode mode) {
  return mode == PrecisionMode::MixedFloat16 ||
         mode == PrecisionMode::MixedBFloat16 ||
         mode == PrecisionMode::MixedHiFloat8;
}

DType lowDType(PrecisionMode mode) {
  switch (mode) {
  case PrecisionMode::MixedBFloat16:
  case PrecisionMode::AllowFp32ToBf16:
    return DType::BFloat16;
  case PrecisionMode::MixedHiFloat8:
  case PrecisionMode::CubeHiFloat8:
    return DType::HiFloat8;
  default:
    return DType::Float16;
  }
}

bool needsBf16(PrecisionMode mode) {
  return mode == PrecisionMode::MixedBFloat16 ||
         mode == PrecisionMode::AllowFp32ToBf16;
}

bool needsHif8(PrecisionMode mode) {
  return mode == PrecisionMode::MixedHiFloat8 ||
         mode == PrecisionMode::CubeHiFloat8;
}

std::optional<int> documentedAccuracyRank(PrecisionMode mode) {
  switch (mode) {
  case PrecisionMode::ForceFp32:
    return 0;
  case PrecisionMode::MustKeepOrigin:
    return 1;
  case PrecisionMode::AllowFp32ToFp16:
    return 2;
  case PrecisionMode::MixedFloat16:
    return 3;
  case PrecisionMode::ForceFp16:
    return 4;
  default:
    return std::nullopt;
  }
}

std::optional<int> documentedPerformanceRank(PrecisionMode mode) {
  std::optional<int> accuracy = documentedAccuracyRank(mode);
  if (!accuracy)
    return std::nullopt;
  return 4 - *accuracy;
}

} // namespace ascendprec::policy
