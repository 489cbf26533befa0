// Option errors stop planning before any op is touched: PM-12 (bf16 on a
// SoC without it), PM-2 (both mode options), ML-8 (mixlist without a mixed
// mode), OP-1 (no soc_version).
// RUN: not prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision_bf16" 2>&1 | FileCheck %s --check-prefix=PM12
// PM12: error: precision mode 'allow_mix_precision_bf16' needs bfloat16, which Ascend910 does not support{{.*}}[PM-12]
// RUN: not prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp16 precision_mode_v2=fp16" 2>&1 | FileCheck %s --check-prefix=PM2
// PM2: error: precision_mode and precision_mode_v2 are both set; set only one [PM-2]
// RUN: not prec-opt %s --prec-plan-precision="soc_version=Ascend910 modify_mixlist=%S/../inputs/mixlist-relu-white.json" 2>&1 | FileCheck %s --check-prefix=ML8
// ML8: error: modify_mixlist only applies in a mixed precision mode, but the mode is force_fp16{{.*}}[ML-8]
// RUN: not prec-opt %s --prec-plan-precision="precision_mode=force_fp16" 2>&1 | FileCheck %s --check-prefix=SOC
// SOC: error: --soc_version is required, e.g. --soc_version=Ascend910B3 [OP-1]
func.func @net(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = ascend.Relu %x {name = "relu"} : tensor<8xf32>
  return %r : tensor<8xf32>
}
