// Seed 000: pinning Relu to float16 in / int8 out (by node name or by op
// type). No Relu kernel converts fp16 to int8, so the build fails, naming
// the op, the pin and the rows Relu has (CD-5).
// RUN: not prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp16 customize_dtypes=%ascendprec_src/test/Policy/inputs/seed000-customize_dtypes-opname.cfg" 2>&1 | FileCheck %s
// RUN: not prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp16 customize_dtypes=%ascendprec_src/test/Policy/inputs/seed000-customize_dtypes-optype.cfg" 2>&1 | FileCheck %s
// CHECK: error: customize_dtypes pins fp32_vars/Relu (Relu) to inputs (float16), outputs (int8), which no kernel supports; the model cannot be built. Its kernels support:
// CHECK: AI Core (int8) -> (int8)
// CHECK: [CD-5]
// CHECK: seed000-customize_dtypes-{{opname|optype}}.cfg:1:1: note: configured here
func.func @resnet(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %r = ascend.Relu %x {name = "fp32_vars/Relu"} : tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
