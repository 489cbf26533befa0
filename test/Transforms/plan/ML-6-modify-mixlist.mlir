// ML-6: modify_mixlist moves Relu to the white list and SoftmaxV2 to gray;
// the decision names the file and line of the entry.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision modify_mixlist=%S/../inputs/mixlist-relu-white.json" | FileCheck %s

// CHECK-LABEL: func.func @net
func.func @net(%x: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: ascend.Relu {{.*}}compute = f16{{.*}}list = white, rule = "ML-6", source = "{{.*}}mixlist-relu-white.json:3"
  %r = ascend.Relu %x {name = "relu"} : tensor<8xf32>
  // CHECK: ascend.SoftmaxV2 {{.*}}compute = f16{{.*}}list = gray, rule = "ML-4"
  %s = ascend.SoftmaxV2 %r {name = "softmax", axes = array<i64: 0>} : tensor<8xf32>
  return %s : tensor<8xf32>
}
