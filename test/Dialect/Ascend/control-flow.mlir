// If, Loop and Scan round-trip through the printer and parser.
// RUN: prec-opt %s -split-input-file | prec-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @if_op
// CHECK: %[[R:.*]] = ascend.If %{{.*}} {name = "/If"} : (tensor<i1>) -> tensor<4xf32> {
// CHECK:   ascend.Relu
// CHECK:   ascend.Yield %{{.*}} : tensor<4xf32>
// CHECK: } else {
// CHECK:   ascend.Neg
func.func @if_op(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = ascend.If %c {name = "/If"} : (tensor<i1>) -> tensor<4xf32> {
    %a = ascend.Relu %x {name = "/then/Relu"} : tensor<4xf32>
    ascend.Yield %a : tensor<4xf32>
  } else {
    %b = ascend.Neg %x {name = "/else/Neg"} : tensor<4xf32>
    ascend.Yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @loop_op
// CHECK: ascend.Loop max_trip_count(%{{.*}} : tensor<i64>) initial(%{{.*}} : tensor<4xf32>) {arg_names = ["i", "c", "v"], name = "/Loop"} -> tensor<4xf32>, tensor<?x4xf32>
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<4xf32>):
func.func @loop_op(%m: tensor<i64>, %x: tensor<4xf32>, %t: tensor<i1>) -> (tensor<4xf32>, tensor<?x4xf32>) {
  %v, %s = ascend.Loop max_trip_count(%m : tensor<i64>) initial(%x : tensor<4xf32>)
      {name = "/Loop", arg_names = ["i", "c", "v"]} -> tensor<4xf32>, tensor<?x4xf32> {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v0: tensor<4xf32>):
    %w = ascend.Relu %v0 {name = "/body/Relu"} : tensor<4xf32>
    ascend.Yield %t, %w, %w : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  return %v, %s : tensor<4xf32>, tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func @scan_op
// CHECK: ascend.Scan initial(%{{.*}} : tensor<4xf32>) inputs(%{{.*}} : tensor<3x4xf32>) {name = "/Scan"} -> tensor<4xf32>, tensor<3x4xf32>
func.func @scan_op(%s0: tensor<4xf32>, %xs: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %s, %ys = ascend.Scan initial(%s0 : tensor<4xf32>) inputs(%xs : tensor<3x4xf32>)
      {name = "/Scan"} -> tensor<4xf32>, tensor<3x4xf32> {
  ^bb0(%s1: tensor<4xf32>, %x: tensor<4xf32>):
    %t = ascend.Add %s1, %x {name = "/body/Add"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ascend.Yield %t, %t : tensor<4xf32>, tensor<4xf32>
  }
  return %s, %ys : tensor<4xf32>, tensor<3x4xf32>
}
