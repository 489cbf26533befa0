// tosa graphs become ascend graphs that planning can read.
// RUN: prec-opt %s --convert-tosa-to-ascend -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // CHECK: %[[ADD:.*]] = ascend.Add %arg0, %arg1 {name = "add_0"}
  %0 = tosa.add %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: %[[MUL:.*]] = ascend.Mul %[[ADD]], %arg1 {name = "mul_0"}
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.mul %0, %b, %shift : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<1xi8>) -> tensor<2x8xf32>
  // A NameLoc names the node.
  // CHECK: %[[T:.*]] = ascend.Tanh %[[MUL]] {name = "act"}
  %2 = tosa.tanh %1 : (tensor<2x8xf32>) -> tensor<2x8xf32> loc("act")
  // CHECK-DAG: %[[LO:.*]] = ascend.Const dense<0.000000e+00> : tensor<f32> {name = "clamp_0/min"}
  // CHECK-DAG: %[[HI:.*]] = ascend.Const dense<6.000000e+00> : tensor<f32> {name = "clamp_0/max"}
  // CHECK: %[[C:.*]] = ascend.ClipByValue %[[T]], %[[LO]], %[[HI]] {name = "clamp_0"}
  %3 = tosa.clamp %2 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ascend.Cast %[[C]] {name = "cast_0"} : tensor<2x8xf32> to tensor<2x8xf16>
  %4 = tosa.cast %3 : (tensor<2x8xf32>) -> tensor<2x8xf16>
  %5 = tosa.cast %4 : (tensor<2x8xf16>) -> tensor<2x8xf32>
  // CHECK-NOT: tosa.
  return %5 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @tensors
func.func @tensors(%a: tensor<2x3x4xf32>) -> tensor<4x2x6xf32> {
  // CHECK: ascend.Reshape %arg0 {name = "reshape_0"} : tensor<2x3x4xf32> to tensor<6x4xf32>
  %shape = tosa.const_shape {values = dense<[6, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %a, %shape : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  // CHECK: ascend.Transpose %arg0 {name = "transpose_0", perm = array<i64: 2, 0, 1>}
  %1 = tosa.transpose %a {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: ascend.ConcatV2 {{.*}} {concat_dim = 2 : i64, name = "concat_0"}
  %2 = tosa.concat %1, %1 {axis = 2 : i32} : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x6xf32>
  // CHECK: ascend.ReduceSum {{.*}} {axes = array<i64: 0>, keep_dims = true, name = "reduce_sum_0"}
  %3 = tosa.reduce_sum %2 {axis = 0 : i32} : (tensor<4x2x6xf32>) -> tensor<1x2x6xf32>
  // CHECK-NOT: tosa.
  return %2 : tensor<4x2x6xf32>
}

// -----

// NHWC conv and pooling are wrapped in Transposes to NCHW; OHWI weights
// become OIHW.
// CHECK-LABEL: func.func @nn
func.func @nn(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
              %m: tensor<2x4x16xf32>, %n: tensor<2x16x8xf32>) -> (tensor<1x4x4x4xf32>, tensor<2x4x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: %[[IN:.*]] = ascend.Transpose %arg0 {name = "stem/to_nchw", perm = array<i64: 0, 3, 1, 2>} {{.*}} -> tensor<1x3x8x8xf32>
  // CHECK: %[[W:.*]] = ascend.Transpose %arg1 {name = "stem/weight_oihw", perm = array<i64: 0, 3, 1, 2>}
  // CHECK: %[[CONV:.*]] = ascend.Conv2D %[[IN]], %[[W]], %arg2 {dilations = array<i64: 1, 1>, name = "stem", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} {{.*}} -> tensor<1x4x8x8xf32>
  // CHECK: ascend.Transpose %[[CONV]] {name = "stem/to_nhwc", perm = array<i64: 0, 2, 3, 1>} {{.*}} -> tensor<1x8x8x4xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32> loc("stem")
  // CHECK: ascend.MaxPool {{.*}} {ksize = array<i64: 2, 2>, name = "max_pool2d_0", pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} {{.*}} -> tensor<1x4x4x4xf32>
  %1 = tosa.max_pool2d %0 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: ascend.BatchMatMulV2 %arg3, %arg4 {name = "matmul_0"}
  %2 = tosa.matmul %m, %n, %zp, %zp : (tensor<2x4x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  // CHECK-NOT: tosa.
  return %1, %2 : tensor<1x4x4x4xf32>, tensor<2x4x8xf32>
}
