// PM-8: keep the origin dtype where the kernel has it, else reduce.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_fp32_to_fp16" | FileCheck %s
// PM-4: the training default on Ascend910 is allow_fp32_to_fp16.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 graph_run_mode=1" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  // CHECK: ascend.Relu {{.*}}compute = f32{{.*}}rule = "PM-8"
  %r = ascend.Relu %x {name = "relu"} : tensor<1x4x8x8xf32>
  // MaxPool has no fp32 kernel on Ascend910: reduced to fp16.
  // CHECK: ascend.MaxPool {{.*}}compute = f16, inputs = [f16], outputs = [f16]{{.*}}rule = "PM-8"
  %p = ascend.MaxPool %r {name = "pool", ksize = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
