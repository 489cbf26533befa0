//===- Soc.h - what AscendPrec knows about each soc_version ---------------===//

#ifndef ASCENDPREC_POLICY_SOC_H
#define ASCENDPREC_POLICY_SOC_H

#include <optional>
#include <string>
#include <vector>

namespace ascendprec::policy {

struct SocInfo {
  std::string family;     ///< Ascend910, Ascend910B, Ascend310P, ...
  std::string libraryDir; ///< data/ops/<libraryDir>, empty if none ships
  bool supportsBf16;      ///< PM-12: 910B / 910_93 / 310B class
  bool supportsHif8;      ///< PM-12: 950 class
  bool fp32Cube;          ///< PM-4: training default is must_keep_origin_dtype
  /// FU-4: a FixPipe converts the cube's L0C result (pre_conv first, then
  /// ReLU and the eltwise unit); without one (910, 310P) the vector side
  /// converts L0C into UB and a convolution's float bias is added there.
  bool fixpipe = false;

  /// FU-4: whether a Conv2D's bias is added after its fp32 accumulator is
  /// converted to a 16-bit output (in UB, in that dtype, as TBE's conv2d
  /// does without a FixPipe) rather than in fp32 before the conversion.
  /// The one statement of the rule BufferFusion (the report's ub_step) and
  /// the cube lowering (the kernel) both follow.
  bool addsConvBiasAfterConversion(bool hasBias, bool sixteenBitOutput) const {
    return hasBias && sixteenBitOutput && !fixpipe;
  }
};

/// The family a soc_version belongs to (Ascend910B3 -> Ascend910B), or
/// nothing for a name AscendPrec does not know.
std::optional<SocInfo> lookupSoc(const std::string &socVersion);

/// The platform config a soc_version reads (`platform_config/<name>.ini`):
/// the variant itself, or for a family name the variant that stands for
/// it (Ascend910 -> Ascend910A, Ascend910B -> Ascend910B3, Ascend310P ->
/// Ascend310P3; data/ops/README.md).
std::string platformConfigName(const std::string &socVersion);

/// soc_version values AscendPrec recognizes, for messages.
std::vector<std::string> knownSocVersions();

/// Where the built-in operator library lives: $ASCENDPREC_DATA_DIR, else the
/// installed share/ascendprec/ops, else the source tree's data/ops.
std::string defaultOpsDataDir();

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_SOC_H
