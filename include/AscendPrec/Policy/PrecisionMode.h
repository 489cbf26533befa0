//===- PrecisionMode.h - precision_mode / precision_mode_v2 (PM) ----------===//

#ifndef ASCENDPREC_POLICY_PRECISIONMODE_H
#define ASCENDPREC_POLICY_PRECISIONMODE_H

#include "AscendPrec/Policy/DType.h"

#include <optional>
#include <string>
#include <vector>

namespace ascendprec::policy {

/// The distinct behaviours of PM-1's values once PM-3's aliases are merged.
enum class PrecisionMode {
  ForceFp16,          ///< force_fp16 = fp16 (PM-5)
  ForceFp32,          ///< force_fp32 (PM-6)
  CubeFp16InFp32Out,  ///< cube_fp16in_fp32out (PM-7), both spellings
  AllowFp32ToFp16,    ///< allow_fp32_to_fp16 (PM-8)
  AllowFp32ToBf16,    ///< allow_fp32_to_bf16 (PM-8)
  MustKeepOrigin,     ///< must_keep_origin_dtype = origin (PM-9)
  MixedFloat16,       ///< allow_mix_precision = _fp16 = mixed_float16 (PM-10)
  MixedBFloat16,      ///< allow_mix_precision_bf16 = mixed_bfloat16 (PM-10)
  MixedHiFloat8,      ///< mixed_hif8 (PM-10)
  CubeHiFloat8,       ///< cube_hif8 (PM-11)
};

std::optional<PrecisionMode> parsePrecisionMode(const std::string &value);
std::optional<PrecisionMode> parsePrecisionModeV2(const std::string &value);

/// The precision_mode spelling (precision_mode_v2's for the hif8 modes).
std::string precisionModeName(PrecisionMode mode);

/// PM-10: the mixed modes, where the mixlist decides.
bool isMixedMode(PrecisionMode mode);
/// PM-9: must_keep_origin_dtype / origin (KD-3, CD-6 apply).
inline bool isOriginMode(PrecisionMode mode) {
  return mode == PrecisionMode::MustKeepOrigin;
}
/// The dtype a mode reduces to: float16, bfloat16 or hifloat8.
DType lowDType(PrecisionMode mode);
/// PM-12: whether the mode needs bf16 or hif8 support from the SoC.
bool needsBf16(PrecisionMode mode);
bool needsHif8(PrecisionMode mode);

/// PM-13: the seeds' accuracy order, force_fp32 (0, most accurate) >
/// must_keep_origin_dtype > allow_fp32_to_fp16 > allow_mix_precision >
/// force_fp16 (4). Nothing for the modes the seeds do not rank.
std::optional<int> documentedAccuracyRank(PrecisionMode mode);
/// PM-13: the seeds' performance order, force_fp16 (0, fastest; ties with
/// allow_mix_precision allowed) ... force_fp32 (4).
std::optional<int> documentedPerformanceRank(PrecisionMode mode);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_PRECISIONMODE_H
