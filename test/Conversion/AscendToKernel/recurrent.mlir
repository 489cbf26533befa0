// Recurrent layers: one mix kernel per layer, on one block (the steps
// depend on each other), holding akernel.recurrent over the GM buffers:
// the optional operands present are named by has_* flags.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910B3 precision_mode=force_fp16" \
// RUN:   --prec-lower-to-kernel | FileCheck %s

// CHECK-LABEL: akernel.kernel @lstm
// CHECK-SAME: block_dim = 1 : i64, engine = #akernel.engine<mix>
// CHECK: akernel.recurrent "lstm"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) {direction = "bidirectional", has_bias, hidden_size = 8 : i64}
// CHECK-SAME: memref<5x2x4xf16, #akernel.space<gm>>
// CHECK-LABEL: akernel.kernel @gru
// CHECK: akernel.recurrent "gru"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) {direction = "reverse", has_init_h, hidden_size = 8 : i64, linear_before_reset}
// CHECK-LABEL: akernel.kernel @rnn
// CHECK: akernel.recurrent "rnn"(%arg0, %arg1, %arg2, %arg3, %arg4) {direction = "forward", hidden_size = 8 : i64}
func.func @layers(%x: tensor<5x2x4xf16>, %h0: tensor<1x2x8xf16>)
    -> (tensor<5x2x2x8xf16>, tensor<5x1x2x8xf16>, tensor<5x1x2x8xf16>) {
  %w = ascend.Const dense<0.1> : tensor<2x32x4xf16> {name = "lstm.w"}
  %r = ascend.Const dense<0.1> : tensor<2x32x8xf16> {name = "lstm.r"}
  %b = ascend.Const dense<0.0> : tensor<2x64xf16> {name = "lstm.b"}
  %y, %yh, %yc = ascend.DynamicRNN %x, %w, %r, %b {name = "lstm", hidden_size = 8 : i64,
      direction = #ascend.rnn_direction<bidirectional>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>}
      : (tensor<5x2x4xf16>, tensor<2x32x4xf16>, tensor<2x32x8xf16>, tensor<2x64xf16>)
      -> (tensor<5x2x2x8xf16>, tensor<2x2x8xf16>, tensor<2x2x8xf16>)
  %gw = ascend.Const dense<0.1> : tensor<1x24x4xf16> {name = "gru.w"}
  %gr = ascend.Const dense<0.1> : tensor<1x24x8xf16> {name = "gru.r"}
  %gy, %gh = ascend.DynamicGRUV2 %x, %gw, %gr, %h0 {name = "gru", hidden_size = 8 : i64,
      direction = #ascend.rnn_direction<reverse>, linear_before_reset = 1 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>}
      : (tensor<5x2x4xf16>, tensor<1x24x4xf16>, tensor<1x24x8xf16>, tensor<1x2x8xf16>)
      -> (tensor<5x1x2x8xf16>, tensor<1x2x8xf16>)
  %rw = ascend.Const dense<0.1> : tensor<1x8x4xf16> {name = "rnn.w"}
  %rr = ascend.Const dense<0.1> : tensor<1x8x8xf16> {name = "rnn.r"}
  %ry, %rh = ascend.RNN %x, %rw, %rr {name = "rnn", hidden_size = 8 : i64,
      operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>}
      : (tensor<5x2x4xf16>, tensor<1x8x4xf16>, tensor<1x8x8xf16>) -> (tensor<5x1x2x8xf16>, tensor<1x2x8xf16>)
  return %y, %gy, %ry : tensor<5x2x2x8xf16>, tensor<5x1x2x8xf16>, tensor<5x1x2x8xf16>
}
