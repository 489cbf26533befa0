// TbeCommonRules0FusionPass and TbeMatmulElemwiseFusionPass (FU-1, UB
// fusion): after planning, a cube op and the elementwise vector ops after it
// form one kernel. FU-4: no decision changes; the cube's accumulator is
// converted to its planned output dtype first and every chain op computes
// as it would alone (ascend.ub_step says where, per SoC family).
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision" \
// RUN:   --prec-buffer-fusion="soc_version=Ascend910 precision_mode=allow_mix_precision" \
// RUN:   | FileCheck %s
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision" \
// RUN:   --prec-buffer-fusion="soc_version=Ascend910 precision_mode=allow_mix_precision" \
// RUN:   --prec-materialize-precision | FileCheck %s --check-prefix=CAST
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision customize_dtypes=%S/inputs/ub-pins.cfg" \
// RUN:   --prec-buffer-fusion="soc_version=Ascend910 precision_mode=allow_mix_precision customize_dtypes=%S/inputs/ub-pins.cfg" \
// RUN:   | FileCheck %s --check-prefix=PIN
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision" \
// RUN:   --prec-buffer-fusion="soc_version=Ascend910 precision_mode=allow_mix_precision fusion_switch_file=%S/inputs/ub-off.json" \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B1 precision_mode=force_fp32" \
// RUN:   --prec-buffer-fusion="soc_version=Ascend910B1 precision_mode=force_fp32" \
// RUN:   | FileCheck %s --check-prefix=FP32
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B1 precision_mode=force_fp16" \
// RUN:   --prec-buffer-fusion="soc_version=Ascend910B1 precision_mode=force_fp16" \
// RUN:   | FileCheck %s --check-prefix=FIXPIPE

// CHECK-LABEL: func.func @conv_relu
// FU_4_convert_first (Ascend910, no FixPipe): the Conv2D keeps its fp16
// output and the rule that chose it (ML-2); the Relu its own decision.
// CHECK: ascend.Conv2D {{.*}}ascend.ub_group = "conv", ascend.ub_pass = "TbeCommonRules0FusionPass", ascend.ub_step = "the fp32 accumulator is converted to float16 on its way into UB"{{.*}}precision = #ascend.precision<origin = f32, compute = f16, inputs = [f16, f16], outputs = [f16], {{.*}}rule = "ML-2", source = "built-in">
// CHECK: ascend.Relu {{.*}}ascend.ub_group = "conv", {{.*}}ascend.ub_step = "UB vector, computes in float16 as it would alone (ML-4)"{{.*}}precision = #ascend.precision<origin = f32, compute = f16, inputs = [f16], outputs = [f16], {{.*}}rule = "ML-4", source = "built-in">
// No Cast inside the group: the Relu reads the converted fp16 value.
// CAST-LABEL: func.func @conv_relu
// CAST: ascend.Conv2D {{.*}}-> tensor<1x2x4x4xf16>
// CAST-NEXT: ascend.Relu {{.*}}: tensor<1x2x4x4xf16>
// CAST-NEXT: ascend.Cast {{.*}}ascend.inserted{{.*}}to tensor<1x2x4x4xf32>
// CAST-NOT: ub_group
// CAST: return
// FU_4_fixpipe (Ascend910B1): FixPipe converts (pre_conv), then applies the
// Relu (pre_activation) on the fp16 value.
// FIXPIPE-LABEL: func.func @conv_relu
// FIXPIPE: ascend.Conv2D {{.*}}ascend.ub_step = "FixPipe converts the fp32 accumulator to float16 (pre_conv) first"
// FIXPIPE: ascend.Relu {{.*}}ascend.ub_step = "FixPipe pre_activation, computes in float16 as it would alone (PM-5)"
// OFF-LABEL: func.func @conv_relu
// OFF-NOT: ub_group
// OFF: return
// FP32 (Ascend910B1 has fp32 Conv2D kernels): grouped, decisions unchanged.
// FP32-LABEL: func.func @conv_relu
// FP32: ascend.Conv2D {{.*}}ascend.ub_group = "conv"{{.*}}outputs = [f32], {{.*}}rule = "PM-6"
// FP32: ascend.Relu {{.*}}ascend.ub_group = "conv"{{.*}}rule = "PM-6"
func.func @conv_relu(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w"}
  %c = ascend.Conv2D %x, %w {name = "conv", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.Relu %c {name = "relu"} : tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// At most four elementwise ops join; the fifth (and Sigmoid, not an
// elementwise op UB fusion takes) stay outside.
// CHECK-LABEL: func.func @matmul_chain
// CHECK: ascend.MatMulV2 {{.*}}ascend.ub_group = "mm", ascend.ub_pass = "TbeMatmulElemwiseFusionPass"
// CHECK: ascend.Add {{.*}}ascend.ub_group = "mm"
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "mm"
// CHECK: ascend.Relu {{.*}}ascend.ub_group = "mm"
// CHECK: ascend.ClipByValue {{.*}}ascend.ub_group = "mm"
// CHECK: ascend.Relu
// CHECK-NOT: ub_group
// CHECK-SAME: name = "relu_after"
func.func @matmul_chain(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %bias = ascend.Const dense<1.0> : tensor<4xf32> {name = "bias"}
  %two = ascend.Const dense<2.0> : tensor<4xf32> {name = "two"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi"}
  %m = ascend.MatMulV2 %a, %b {name = "mm"} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %0 = ascend.Add %m, %bias {name = "add"} : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %1 = ascend.Mul %0, %two {name = "mul"} : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %2 = ascend.Relu %1 {name = "relu_in"} : tensor<4x4xf32>
  %3 = ascend.ClipByValue %2, %lo, %hi {name = "clip"} : (tensor<4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<4x4xf32>
  %4 = ascend.Relu %3 {name = "relu_after"} : tensor<4x4xf32>
  return %4 : tensor<4x4xf32>
}

// Not grouped: the cube output has a second user (it must be written out
// anyway), and a Sigmoid is not one of the elementwise ops.
// CHECK-LABEL: func.func @no_match
// CHECK-NOT: ub_group
// CHECK: return
func.func @no_match(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %m = ascend.MatMulV2 %a, %b {name = "mm2"} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %r = ascend.Relu %m {name = "relu_shared"} : tensor<4x4xf32>
  %n = ascend.MatMulV2 %a, %b {name = "mm3"} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %s = ascend.Sigmoid %n {name = "sig"} : tensor<4x4xf32>
  return %m, %r, %s : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// A customize_dtypes pin does not end the chain: fusion changes no
// decision (FU-4), so the pinned Relu joins with its pinned dtypes, and a
// lockfile (every op pinned) replays the same groups.
// PIN-LABEL: func.func @pinned
// PIN: ascend.Conv2D {{.*}}ascend.ub_group = "conv2"
// PIN: ascend.Relu {{.*}}ascend.ub_group = "conv2"{{.*}}name = "relu2"{{.*}}rule = "CD-
// CHECK-LABEL: func.func @pinned
// CHECK: ascend.Conv2D {{.*}}ascend.ub_group = "conv2"
// CHECK: ascend.Add {{.*}}ascend.ub_group = "conv2"
// CHECK: ascend.Relu {{.*}}ascend.ub_group = "conv2"
func.func @pinned(%x: tensor<1x1x4x4xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w2"}
  %c = ascend.Conv2D %x, %w {name = "conv2", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = ascend.Add %c, %r {name = "add2"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.Relu %a {name = "relu2"} : tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// FU-4: the group's value is already fp16; a consumer reading fp16 needs
// no Cast at all.
// CAST-LABEL: func.func @exit_cast
// CAST: ascend.Relu {{.*}}name = "relu3"{{.*}}: tensor<1x2x4x4xf16>
// CAST-NEXT: ascend.Conv2D {{.*}}name = "conv4"
// CAST-NOT: ascend.Cast {{.*}}ub_group = "conv3"
func.func @exit_cast(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w3"}
  %v = ascend.Const dense<1.0> : tensor<2x2x1x1xf32> {name = "w4"}
  %c = ascend.Conv2D %x, %w {name = "conv3", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = ascend.Relu %c {name = "relu3"} : tensor<1x2x4x4xf32>
  %d = ascend.Conv2D %r, %v {name = "conv4", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %d : tensor<1x2x4x4xf32>
}

// CANN's rule for a Conv2D's chain (TbeCommonRules0FusionPass): up to 3
// elementwise ops of any kind join (HardSwish, Sigmoid, Sub)...
// CHECK-LABEL: func.func @conv_any_three
// CHECK: ascend.HardSwish {{.*}}ascend.ub_group = "conv5"
// CHECK: ascend.Sigmoid {{.*}}ascend.ub_group = "conv5"
// CHECK: ascend.Sub {{.*}}ascend.ub_group = "conv5"
// On the FixPipe only the ReLU family goes into pre_activation; the rest
// runs on the vector unit.
// FIXPIPE-LABEL: func.func @conv_any_three
// FIXPIPE: ascend.HardSwish {{.*}}ascend.ub_step = "UB vector, computes in float16 as it would alone (PM-5)"
func.func @conv_any_three(%x: tensor<1x1x4x4xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w5"}
  %c = ascend.Conv2D %x, %w {name = "conv5", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %h = ascend.HardSwish %c {name = "hswish5"} : tensor<1x2x4x4xf32>
  %s = ascend.Sigmoid %h {name = "sig5"} : tensor<1x2x4x4xf32>
  %y = ascend.Sub %s, %r {name = "sub5"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// ...a fourth only when all four are in CANN's white list; otherwise none
// join (CANN clears the match).
// CHECK-LABEL: func.func @conv_four_listed
// CHECK: ascend.Relu {{.*}}ascend.ub_group = "conv6"
// CHECK: ascend.Sigmoid {{.*}}ascend.ub_group = "conv6"
// CHECK: ascend.Tanh {{.*}}ascend.ub_group = "conv6"
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "conv6"
// The four then go to TbeEltwiseFusionPass, which takes elementwise chains
// no cube group took: one kernel of their own, without the Conv2D.
// CHECK-LABEL: func.func @conv_four_unlisted
// CHECK: ascend.Conv2D
// CHECK-NOT: ub_group
// CHECK-SAME: name = "conv7"
// CHECK: ascend.Relu {{.*}}ascend.ub_group = "relu7", ascend.ub_pass = "TbeEltwiseFusionPass"
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "relu7", ascend.ub_pass = "TbeEltwiseFusionPass"
// CHECK: return
func.func @conv_four_listed(%x: tensor<1x1x4x4xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w6"}
  %c = ascend.Conv2D %x, %w {name = "conv6", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %0 = ascend.Relu %c {name = "relu6a"} : tensor<1x2x4x4xf32>
  %1 = ascend.Sigmoid %0 {name = "sig6"} : tensor<1x2x4x4xf32>
  %2 = ascend.Tanh %1 {name = "tanh6"} : tensor<1x2x4x4xf32>
  %y = ascend.Mul %2, %r {name = "mul6"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
func.func @conv_four_unlisted(%x: tensor<1x1x4x4xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w7"}
  %c = ascend.Conv2D %x, %w {name = "conv7", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %0 = ascend.Relu %c {name = "relu7"} : tensor<1x2x4x4xf32>
  %1 = ascend.Sigmoid %0 {name = "sig7"} : tensor<1x2x4x4xf32>
  %2 = ascend.Exp %1 {name = "exp7"} : tensor<1x2x4x4xf32>
  %y = ascend.Mul %2, %r {name = "mul7"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// The chain stops before an op with three inputs (ClipByValue) and before
// a side input that is neither the chain's shape nor a scalar (a
// per-channel scale); a scalar side input joins.
// CHECK-LABEL: func.func @conv_stops
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "conv8"{{.*}}name = "scale8"
// CHECK: ascend.ClipByValue
// CHECK-NOT: ub_group
// CHECK-SAME: name = "clip8"
// CHECK-LABEL: func.func @conv_channel_scale
// CHECK: ascend.Conv2D
// CHECK-NOT: ub_group
// CHECK-SAME: name = "conv9"
// CHECK: ascend.Mul
// CHECK-NOT: ub_group
// CHECK-SAME: name = "chscale9"
func.func @conv_stops(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w8"}
  %k = ascend.Const dense<0.5> : tensor<f32> {name = "k8"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo8"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi8"}
  %c = ascend.Conv2D %x, %w {name = "conv8", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %0 = ascend.Mul %c, %k {name = "scale8"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %y = ascend.ClipByValue %0, %lo, %hi {name = "clip8"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
func.func @conv_channel_scale(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w9"}
  %s = ascend.Const dense<0.5> : tensor<1x2x1x1xf32> {name = "s9"}
  %c = ascend.Conv2D %x, %w {name = "conv9", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.Mul %c, %s {name = "chscale9"} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// TbeConv2dAddClipMulDivFusionPass: the hard-swish opset-9 exporters write
// after a convolution, y * Clip(y + 3, 0, 6) / 6, is one kernel; the
// Conv2D's two readers are the Add and the Mul. FU-4: every member keeps
// its decision and computes as it would alone.
// CHECK-LABEL: func.func @conv_hard_swish
// CHECK: ascend.Conv2D {{.*}}ascend.ub_group = "conv10", ascend.ub_pass = "TbeConv2dAddClipMulDivFusionPass"
// CHECK: ascend.Add {{.*}}ascend.ub_group = "conv10"{{.*}}name = "add10"
// CHECK: ascend.ClipByValue {{.*}}ascend.ub_group = "conv10"{{.*}}name = "clip10"
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "conv10"{{.*}}name = "mul10"
// CHECK: ascend.RealDiv {{.*}}ascend.ub_group = "conv10", ascend.ub_pass = "TbeConv2dAddClipMulDivFusionPass", ascend.ub_step = "UB vector, computes in float16 as it would alone
// OFF-LABEL: func.func @conv_hard_swish
// OFF-NOT: ub_group
// OFF: return
func.func @conv_hard_swish(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w10"}
  %three = ascend.Const dense<3.0> : tensor<f32> {name = "three10"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo10"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi10"}
  %six = ascend.Const dense<6.0> : tensor<f32> {name = "six10"}
  %c = ascend.Conv2D %x, %w {name = "conv10", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %0 = ascend.Add %c, %three {name = "add10"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %1 = ascend.ClipByValue %0, %lo, %hi {name = "clip10"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %2 = ascend.Mul %c, %1 {name = "mul10"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.RealDiv %2, %six {name = "div10"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// The divisor as a multiply (GE turns a scalar divisor into Muls) matches
// too; a Conv2D with a third reader, or a Clip that feeds something besides
// the Mul, does not (its value must be written out anyway).
// CHECK-LABEL: func.func @conv_hard_swish_muls
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "conv11", ascend.ub_pass = "TbeConv2dAddClipMulDivFusionPass"{{.*}}name = "muls11"
// (Their elementwise ops then form TbeEltwiseFusionPass groups: the four
// of conv12; add13 with clip13, whose value is read twice; mul13 and div13.)
// CHECK-LABEL: func.func @conv_hard_swish_shared
// CHECK-NOT: TbeConv2dAddClipMulDivFusionPass
// CHECK: ascend.Add {{.*}}ascend.ub_group = "add12", ascend.ub_pass = "TbeEltwiseFusionPass"
// CHECK: ascend.RealDiv {{.*}}ascend.ub_group = "add12", ascend.ub_pass = "TbeEltwiseFusionPass"
// CHECK: ascend.ClipByValue {{.*}}ascend.ub_group = "add13"
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "mul13"
// CHECK: return
func.func @conv_hard_swish_muls(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w11"}
  %three = ascend.Const dense<3.0> : tensor<f32> {name = "three11"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo11"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi11"}
  %sixth = ascend.Const dense<0.166666672> : tensor<f32> {name = "sixth11"}
  %c = ascend.Conv2D %x, %w {name = "conv11", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %0 = ascend.Add %three, %c {name = "add11"} : (tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = ascend.ClipByValue %0, %lo, %hi {name = "clip11"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %2 = ascend.Mul %1, %c {name = "mul11"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.Mul %2, %sixth {name = "muls11"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
func.func @conv_hard_swish_shared(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w12"}
  %three = ascend.Const dense<3.0> : tensor<f32> {name = "three12"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo12"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi12"}
  %six = ascend.Const dense<6.0> : tensor<f32> {name = "six12"}
  %c = ascend.Conv2D %x, %w {name = "conv12", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %0 = ascend.Add %c, %three {name = "add12"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %1 = ascend.ClipByValue %0, %lo, %hi {name = "clip12"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %2 = ascend.Mul %c, %1 {name = "mul12"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.RealDiv %2, %six {name = "div12"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %c2 = ascend.Conv2D %x, %w {name = "conv13", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %3 = ascend.Add %c2, %three {name = "add13"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %4 = ascend.ClipByValue %3, %lo, %hi {name = "clip13"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %5 = ascend.Mul %c2, %4 {name = "mul13"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %z = ascend.RealDiv %5, %six {name = "div13"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %y, %c, %4 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// TbeEltwiseFusionPass, after the cube ops' passes: PP-LCNetV3's learnable
// affine block (Conv2D, Mul, Add: TbeCommonRules0FusionPass's group) then
// its hard-swish, whose Mul reads the group's value: the Add, Clip, Mul and
// RealDiv, each the previous one's only reader, are one kernel of their own
// named after the Add; ClipByValue joins here.
// CHECK-LABEL: func.func @affine_hard_swish
// CHECK: ascend.Add {{.*}}ascend.ub_group = "conv14", ascend.ub_pass = "TbeCommonRules0FusionPass"{{.*}}name = "bias14"
// CHECK: ascend.Add {{.*}}ascend.ub_group = "plus14", ascend.ub_pass = "TbeEltwiseFusionPass", ascend.ub_step = "UB vector, computes in float16 as it would alone
// CHECK: ascend.ClipByValue {{.*}}ascend.ub_group = "plus14", ascend.ub_pass = "TbeEltwiseFusionPass"
// CHECK: ascend.Mul {{.*}}ascend.ub_group = "plus14"{{.*}}name = "mul14"
// CHECK: ascend.RealDiv {{.*}}ascend.ub_group = "plus14"{{.*}}name = "div14"
// OFF-LABEL: func.func @affine_hard_swish
// OFF-NOT: ub_group
// OFF: return
func.func @affine_hard_swish(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ascend.Const dense<1.0> : tensor<2x1x1x1xf32> {name = "w14"}
  %s = ascend.Const dense<1.5> : tensor<1xf32> {name = "s14"}
  %t = ascend.Const dense<0.5> : tensor<1xf32> {name = "t14"}
  %three = ascend.Const dense<3.0> : tensor<f32> {name = "three14"}
  %lo = ascend.Const dense<0.0> : tensor<f32> {name = "lo14"}
  %hi = ascend.Const dense<6.0> : tensor<f32> {name = "hi14"}
  %six = ascend.Const dense<6.0> : tensor<f32> {name = "six14"}
  %c = ascend.Conv2D %x, %w {name = "conv14", strides = array<i64: 1, 1>,
      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %0 = ascend.Mul %s, %c {name = "scale14"} : (tensor<1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = ascend.Add %0, %t {name = "bias14"} : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> tensor<1x2x4x4xf32>
  %2 = ascend.Add %1, %three {name = "plus14"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %3 = ascend.ClipByValue %2, %lo, %hi {name = "clip14"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %4 = ascend.Mul %1, %3 {name = "mul14"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = ascend.RealDiv %4, %six {name = "div14"} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// At most six ops a group (the seventh starts no group alone), and a value
// read twice ends the chain before its second reader.
// CHECK-LABEL: func.func @eltwise_limits
// CHECK-COUNT-6: ascend.ub_group = "r1", ascend.ub_pass = "TbeEltwiseFusionPass"
// CHECK: ascend.Relu
// CHECK-NOT: ub_group
// CHECK-SAME: name = "r7"
// CHECK: ascend.Exp {{.*}}ascend.ub_group = "e1"
// CHECK: ascend.Exp {{.*}}ascend.ub_group = "e1"{{.*}}name = "e2"
// CHECK: ascend.Exp
// CHECK-NOT: ub_group
// CHECK-SAME: name = "e3"
func.func @eltwise_limits(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %1 = ascend.Relu %x {name = "r1"} : tensor<4x4xf32>
  %2 = ascend.Relu %1 {name = "r2"} : tensor<4x4xf32>
  %3 = ascend.Relu %2 {name = "r3"} : tensor<4x4xf32>
  %4 = ascend.Relu %3 {name = "r4"} : tensor<4x4xf32>
  %5 = ascend.Relu %4 {name = "r5"} : tensor<4x4xf32>
  %6 = ascend.Relu %5 {name = "r6"} : tensor<4x4xf32>
  %7 = ascend.Relu %6 {name = "r7"} : tensor<4x4xf32>
  %e1 = ascend.Exp %x {name = "e1"} : tensor<4x4xf32>
  %e2 = ascend.Exp %e1 {name = "e2"} : tensor<4x4xf32>
  %e3 = ascend.Exp %e2 {name = "e3"} : tensor<4x4xf32>
  return %7, %e2, %e3 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
