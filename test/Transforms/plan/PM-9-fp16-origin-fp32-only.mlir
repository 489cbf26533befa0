// PM-9: an fp16-origin op whose kernel has only fp32 computes in fp32.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=must_keep_origin_dtype ops_info_dir=%S/../inputs/lib-custom" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%h: tensor<8xf16>) -> tensor<8xf16> {
  // CHECK: ascend.generic "SoftsignV9"{{.*}}origin = f16, compute = f32, inputs = [f32], outputs = [f32]{{.*}}rule = "PM-9"
  %0 = ascend.generic "SoftsignV9"(%h) {name = "softsign"} : (tensor<8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}
