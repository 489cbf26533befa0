// RUN: prec-opt %s | prec-opt | FileCheck %s
// The element-indexed ops round-trip (AscendIndexOps.td).

// CHECK-LABEL: func.func @index_ops
func.func @index_ops(%x: tensor<2x5xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>,
                     %t: tensor<3x2xi64>, %k: tensor<i64>, %axis: tensor<1xi32>)
    -> (tensor<2x3xf32>, tensor<2x5xf32>, tensor<3xf32>, tensor<2x5xf32>, tensor<2x5xf32>,
        tensor<2x5xf32>, tensor<2x5xf32>) {
  // CHECK: ascend.GatherElements %{{.*}}, %{{.*}} {dim = 1 : i64, name = "take"}
  %a = ascend.GatherElements %x, %i {name = "take", dim = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  // CHECK: ascend.ScatterElements {{.*}}reduction = "add"
  %b = ascend.ScatterElements %x, %i, %u {name = "put", axis = 1 : i64, reduction = "add"} : (tensor<2x5xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
  // CHECK: ascend.GatherNd
  %c = ascend.GatherNd %x, %t {name = "pick"} : (tensor<2x5xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  // CHECK: ascend.TensorScatterUpdate
  %d = ascend.TensorScatterUpdate %x, %t, %c {name = "set"} : (tensor<2x5xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<2x5xf32>
  // CHECK: ascend.Triu %{{.*}} {diagonal = 1 : i64, name = "upper"}
  %e = ascend.Triu %x {name = "upper", diagonal = 1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  // A k known only at run time is an operand.
  // CHECK: ascend.Tril %{{.*}}, %{{.*}} {name = "lower"}
  %f = ascend.Tril %x, %k {name = "lower"} : (tensor<2x5xf32>, tensor<i64>) -> tensor<2x5xf32>
  // CHECK: ascend.Cumsum %{{.*}}, %{{.*}} {exclusive = true, name = "cs"}
  %g = ascend.Cumsum %x, %axis {name = "cs", exclusive = true} : (tensor<2x5xf32>, tensor<1xi32>) -> tensor<2x5xf32>
  return %a, %b, %c, %d, %e, %f, %g : tensor<2x3xf32>, tensor<2x5xf32>, tensor<3xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>
}
