// KD-2: keep_dtype entries (node names, OpType:: lines, names absorbed by
// fusion) keep their origin dtype under force_fp16. KD-4: entries that match
// nothing get one warning.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=force_fp16 keep_dtype=%S/../inputs/keep.cfg" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.err

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  // CHECK: ascend.Relu {{.*}}name = "relu", {{.*}}compute = f32{{.*}}rule = "KD-2", source = "{{.*}}keep.cfg:2"
  %r = ascend.Relu %x {name = "relu"} : tensor<8xf32>
  // CHECK: ascend.Sigmoid {{.*}}compute = f32{{.*}}rule = "KD-2", source = "{{.*}}keep.cfg:3"
  %s = ascend.Sigmoid %x {name = "sig"} : tensor<8xf32>
  // CHECK: ascend.Tanh {{.*}}compute = f16{{.*}}rule = "PM-5"
  %t = ascend.Tanh %x {name = "tanh"} : tensor<8xf32>
  return %r, %s, %t : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
// WARN: warning: 1 keep_dtype entry matches no op in the model: missing_node (line 4) [KD-4]
