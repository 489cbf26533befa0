// rename-duplicates=true: the first use keeps its name, later ones get the
// smallest free <name>_<n>, and a remark says so.
// RUN: prec-opt %s --prec-check-node-names=rename-duplicates=true | FileCheck %s
// RUN: prec-opt %s --prec-check-node-names=rename-duplicates=true 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @duplicate
// CHECK: ascend.Relu %arg0 {name = "relu"}
// CHECK: ascend.Relu %{{.*}} {name = "relu_2"}
// CHECK: ascend.Abs %{{.*}} {name = "relu_1"}
// REMARK: remark: renamed duplicate node name 'relu' to 'relu_2'
func.func @duplicate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ascend.Relu %x {name = "relu"} : tensor<4xf32>
  %1 = ascend.Relu %0 {name = "relu"} : tensor<4xf32>
  %2 = ascend.Abs %1 {name = "relu_1"} : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// Names absorbed by fusion are taken too (FU-3).
// CHECK-LABEL: func.func @absorbed
// CHECK: name = "bn1_1"
// REMARK: remark: renamed duplicate node name 'bn1' to 'bn1_1'
func.func @absorbed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ascend.Relu %x {name = "conv1", absorbed = ["bn1"]} : tensor<4xf32>
  %1 = ascend.Relu %0 {name = "bn1"} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Three uses of one name across functions: _1 and _2, in walk order.
// CHECK-LABEL: func.func @third
// CHECK: name = "shared_2"
// REMARK: remark: renamed duplicate node name 'shared' to 'shared_1'
// REMARK: remark: renamed duplicate node name 'shared' to 'shared_2'
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ascend.Relu %x {name = "shared"} : tensor<4xf32>
  %1 = ascend.Relu %0 {name = "shared"} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @third(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ascend.Relu %x {name = "shared"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
