// PM-6: an op with no fp32 AI Core kernel that is also black-listed runs on
// its AI CPU fp32 kernel; without one, the build fails.
// RUN: prec-opt %s -split-input-file -verify-diagnostics \
// RUN:   --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp32 ops_info_dir=%S/../inputs/lib-custom" \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @aicpu
func.func @aicpu(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-warning @+2 {{1 Xlog1py op runs on AI CPU, far slower than AI Core: the AI Core kernels of Xlog1py on Ascend910 have no float32 row (xlogy) [PM-6]}}
  // CHECK: ascend.generic "Xlog1py"{{.*}}compute = f32, inputs = [f32, f32], outputs = [f32], engine = aicpu, list = none, rule = "PM-6"
  %0 = ascend.generic "Xlog1py"(%a, %a) {name = "xlogy"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @error(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{(erfinv, origin float32) has no fp32 kernel, is in the black list (precision_reduce false) and has no AI CPU fp32 kernel [PM-6]; its kernels support:}}
  %0 = ascend.generic "Erfinv"(%a) {name = "erfinv"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
