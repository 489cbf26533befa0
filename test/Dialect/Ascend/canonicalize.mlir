// Folders and canonicalization patterns of the `ascend` dialect: only
// rewrites that never change a computed value.
// RUN: prec-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @cast_same_type
func.func @cast_same_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: ascend.Cast
  // CHECK: return %arg0
  %0 = ascend.Cast %x {name = "c"} : tensor<4xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An exact round trip (f16 -> f32 -> f16) returns the original value.
// CHECK-LABEL: func.func @cast_exact_round_trip
func.func @cast_exact_round_trip(%x: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK-NOT: ascend.Cast
  // CHECK: return %arg0
  %0 = ascend.Cast %x {name = "up"} : tensor<4xf16> to tensor<4xf32>
  %1 = ascend.Cast %0 {name = "down"} : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// A lossy round trip (f32 -> f16 -> f32) rounds the values: it stays.
// CHECK-LABEL: func.func @cast_lossy_round_trip
func.func @cast_lossy_round_trip(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[DOWN:.*]] = ascend.Cast %arg0 {name = "down"} : tensor<4xf32> to tensor<4xf16>
  // CHECK: %[[UP:.*]] = ascend.Cast %[[DOWN]] {name = "up"} : tensor<4xf16> to tensor<4xf32>
  // CHECK: return %[[UP]]
  %0 = ascend.Cast %x {name = "down"} : tensor<4xf32> to tensor<4xf16>
  %1 = ascend.Cast %0 {name = "up"} : tensor<4xf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// f16 -> f32 is exact, so f16 -> f32 -> bf16 equals f16 -> bf16.
// CHECK-LABEL: func.func @cast_chain_exact_first_step
func.func @cast_chain_exact_first_step(%x: tensor<4xf16>) -> tensor<4xbf16> {
  // CHECK: %[[C:.*]] = ascend.Cast %arg0 {name = "to_bf16"} : tensor<4xf16> to tensor<4xbf16>
  // CHECK: return %[[C]]
  %0 = ascend.Cast %x {name = "to_f32"} : tensor<4xf16> to tensor<4xf32>
  %1 = ascend.Cast %0 {name = "to_bf16"} : tensor<4xf32> to tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// -----

// f32 -> bf16 is lossy, so the chain f32 -> bf16 -> f16 keeps both steps.
// CHECK-LABEL: func.func @cast_chain_lossy_first_step
func.func @cast_chain_lossy_first_step(%x: tensor<4xf32>) -> tensor<4xf16> {
  // CHECK: ascend.Cast %arg0 {{.*}} to tensor<4xbf16>
  // CHECK: ascend.Cast {{.*}} : tensor<4xbf16> to tensor<4xf16>
  %0 = ascend.Cast %x {name = "a"} : tensor<4xf32> to tensor<4xbf16>
  %1 = ascend.Cast %0 {name = "b"} : tensor<4xbf16> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// Integer widening round trips are exact; narrowing ones are not.
// CHECK-LABEL: func.func @cast_int_round_trips
func.func @cast_int_round_trips(%a: tensor<4xi8>, %b: tensor<4xi32>)
    -> (tensor<4xi8>, tensor<4xi32>) {
  // CHECK: %[[N:.*]] = ascend.Cast %arg1 {{.*}} to tensor<4xi8>
  // CHECK: %[[W:.*]] = ascend.Cast %[[N]] {{.*}} to tensor<4xi32>
  // CHECK: return %arg0, %[[W]]
  %0 = ascend.Cast %a {name = "w"} : tensor<4xi8> to tensor<4xi32>
  %1 = ascend.Cast %0 {name = "n"} : tensor<4xi32> to tensor<4xi8>
  %2 = ascend.Cast %b {name = "n2"} : tensor<4xi32> to tensor<4xi8>
  %3 = ascend.Cast %2 {name = "w2"} : tensor<4xi8> to tensor<4xi32>
  return %1, %3 : tensor<4xi8>, tensor<4xi32>
}

// -----

// A Cast of a constant becomes a constant (rounded to nearest-even), named
// after the Cast.
// CHECK-LABEL: func.func @cast_of_const_float
func.func @cast_of_const_float() -> tensor<3xf16> {
  // CHECK: %[[C:.*]] = ascend.Const dense<[9.997550e-02, 6.550400e+04, 1.000000e+00]> : tensor<3xf16> {absorbed = ["w"], name = "w_fp16"}
  // CHECK-NOT: ascend.Cast
  // CHECK: return %[[C]]
  %w = ascend.Const dense<[0.1, 65504.0, 1.0]> : tensor<3xf32> {name = "w"}
  %0 = ascend.Cast %w {name = "w_fp16"} : tensor<3xf32> to tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// CHECK-LABEL: func.func @cast_of_const_bf16
func.func @cast_of_const_bf16() -> tensor<2xbf16> {
  // 1.00390625 is halfway between two bf16 values; ties go to even (1.0).
  // CHECK: ascend.Const dense<[1.000000e+00, 3.140630e+00]> : tensor<2xbf16>
  %w = ascend.Const dense<[1.00390625, 3.14159]> : tensor<2xf32> {name = "w"}
  %0 = ascend.Cast %w {name = "w_bf16"} : tensor<2xf32> to tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

// Float to integer truncates toward zero; integer to float rounds.
// CHECK-LABEL: func.func @cast_of_const_int
func.func @cast_of_const_int() -> (tensor<3xi32>, tensor<2xf16>) {
  // CHECK-DAG: ascend.Const dense<[-1, 2, 0]> : tensor<3xi32> {absorbed = ["f"], name = "to_int"}
  // 2049 lies halfway between the fp16 values 2048 and 2050: ties to even.
  // CHECK-DAG: ascend.Const dense<2.048000e+03> : tensor<2xf16> {absorbed = ["i"], name = "to_half"}
  %f = ascend.Const dense<[-1.7, 2.9, 0.4]> : tensor<3xf32> {name = "f"}
  %0 = ascend.Cast %f {name = "to_int"} : tensor<3xf32> to tensor<3xi32>
  %i = ascend.Const dense<[2048, 2049]> : tensor<2xi32> {name = "i"}
  %1 = ascend.Cast %i {name = "to_half"} : tensor<2xi32> to tensor<2xf16>
  return %0, %1 : tensor<3xi32>, tensor<2xf16>
}

// -----

// NaN has no integer value: the Cast is left for run time.
// CHECK-LABEL: func.func @cast_of_const_nan_to_int
func.func @cast_of_const_nan_to_int() -> tensor<2xi32> {
  // CHECK: ascend.Cast
  %f = ascend.Const dense<[0x7FC00000, 1.0]> : tensor<2xf32> {name = "f"}
  %0 = ascend.Cast %f {name = "c"} : tensor<2xf32> to tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_reshape
func.func @reshape_of_reshape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // CHECK: %[[R:.*]] = ascend.Reshape %arg0 {name = "r2"} : tensor<2x3x4xf32> to tensor<6x4xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = ascend.Reshape %x {name = "r1"} : tensor<2x3x4xf32> to tensor<24xf32>
  %1 = ascend.Reshape %0 {name = "r2"} : tensor<24xf32> to tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_same_type
func.func @reshape_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: ascend.Reshape
  %0 = ascend.Reshape %x {name = "r"} : tensor<2x3xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity
func.func @transpose_identity(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  // CHECK: %[[T:.*]] = ascend.Transpose %arg0 {name = "swap", perm = array<i64: 1, 0>}
  // CHECK: return %arg0, %[[T]]
  %0 = ascend.Transpose %x {name = "id", perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ascend.Transpose %x {name = "swap", perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// The folded constant keeps names the Cast and the constant had absorbed.
// CHECK-LABEL: func.func @cast_of_const_keeps_absorbed
func.func @cast_of_const_keeps_absorbed() -> tensor<2xf16> {
  // CHECK: ascend.Const {{.*}} {absorbed = ["fused_cast", "fused_const", "w"], name = "c"}
  %w = ascend.Const dense<1.0> : tensor<2xf32> {name = "w", absorbed = ["fused_const"]}
  %0 = ascend.Cast %w {name = "c", absorbed = ["fused_cast"]} : tensor<2xf32> to tensor<2xf16>
  return %0 : tensor<2xf16>
}
