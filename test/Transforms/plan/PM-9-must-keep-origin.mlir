// PM-9: must_keep_origin_dtype (= origin) keeps every op's origin dtype; an
// op whose kernels cannot makes the mode unusable.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B precision_mode=must_keep_origin_dtype" | FileCheck %s --check-prefix=B
// RUN: prec-opt %s -verify-diagnostics --prec-plan-precision="soc_version=Ascend910 precision_mode_v2=origin" -o /dev/null
// PM-4: the training default on Ascend910B-class SoCs is must_keep_origin_dtype.
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B2 graph_run_mode=1" | FileCheck %s --check-prefix=B

// B-LABEL: func.func @net
func.func @net(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // B: ascend.Conv2D {{.*}}origin = f32, compute = f32, inputs = [f32, f32], outputs = [f32]{{.*}}rule = "PM-9"
  // expected-error @+1 {{(conv, origin float32) cannot keep its origin dtype float32 (no AI Core or AI CPU kernel has it), so must_keep_origin_dtype cannot be used [PM-9]; its kernels support:}}
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}

// One error per op type and cause, on its first op, naming the others (five,
// then a count), not one error per op (checked by the second RUN line).
func.func @many(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error @+1 {{(c0, origin float32) cannot keep its origin dtype float32 (no AI Core or AI CPU kernel has it), so must_keep_origin_dtype cannot be used [PM-9]; the same holds for 6 more Conv2D ops (c1, c2, c3, c4, c5 and 1 more); its kernels support:}}
  %0 = ascend.Conv2D %x, %w {name = "c0", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  %1 = ascend.Conv2D %0, %w {name = "c1", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  %2 = ascend.Conv2D %1, %w {name = "c2", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  %3 = ascend.Conv2D %2, %w {name = "c3", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  %4 = ascend.Conv2D %3, %w {name = "c4", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  %5 = ascend.Conv2D %4, %w {name = "c5", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  %6 = ascend.Conv2D %5, %w {name = "c6", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  return %6 : tensor<1x3x8x8xf32>
}
