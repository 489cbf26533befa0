// prec-lower-to-kernel fails on an op it cannot lower, naming it and why;
// prec-convert-ascend-to-kernel{allow-unlowered} keeps it with a warning
// (one per reason: prec-compile's mode) and lists it on the module for the
// report.
// RUN: not prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16" \
// RUN:   --prec-lower-to-kernel -split-input-file 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=force_fp16" \
// RUN:   --prec-convert-ascend-to-kernel=allow-unlowered -split-input-file 2>%t.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=KEEP < %t.err

// STRICT: unlowered.mlir:[[@LINE+6]]:8: error: 'custom' (MyOp) is not lowered: it is a generic op ('MyOp' has no dedicated Ascend op, so no kernel)
// KEEP: unlowered.mlir:[[@LINE+5]]:8: warning: 'custom' (MyOp) is not lowered: it is a generic op ('MyOp' has no dedicated Ascend op, so no kernel) (no kernel, no time estimate)
// IR: module attributes {akernel.target = {{.*}}, akernel.unlowered = ["custom"]
// IR: ascend.generic "MyOp"
// IR: akernel.launch @e0
func.func @generic(%x: tensor<8xf16>) -> tensor<8xf16> {
  %y = ascend.generic "MyOp"(%x) {name = "custom"} : (tensor<8xf16>) -> tensor<8xf16>
  %z = ascend.Exp %y {name = "e0"} : tensor<8xf16>
  return %z : tensor<8xf16>
}

// -----

// One warning for every op with an unknown shape, naming the others.
// STRICT: error: 'e' (Exp) is not lowered: it has a dynamic shape (tensor<?x8xf16>): give the input shapes (--input_shape)
// STRICT: error: 'e2' (Exp) is not lowered: it has a dynamic shape
// KEEP: warning: 'e' (Exp) is not lowered: it has a dynamic shape (tensor<?x8xf16>): give the input shapes (--input_shape); so are 1 more: 'e2' (no kernel, no time estimate)
func.func @dynamic(%x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  %y = ascend.Exp %x {name = "e"} : tensor<?x8xf16>
  %z = ascend.Exp %y {name = "e2"} : tensor<?x8xf16>
  return %z : tensor<?x8xf16>
}

// -----

// An arg reduction over a row too long for UB runs in chunks, unrolled, up
// to 64 of them (ArgChunks.cpp); a row of 4M elements needs more.
// STRICT: error: 'long_argmax' (ArgMaxV2) is not lowered: it reduces rows too long for UB even in 64 chunks
// KEEP: warning: 'long_argmax' (ArgMaxV2) is not lowered: it reduces rows too long for UB even in 64 chunks (no kernel, no time estimate)
func.func @long_argmax(%x: tensor<2x4194304xf16>) -> tensor<2xi64> {
  %y = ascend.ArgMaxV2 %x {name = "long_argmax", axis = 1 : i64} : (tensor<2x4194304xf16>) -> tensor<2xi64>
  return %y : tensor<2xi64>
}

// The module must have been planned: the lowering uses the policy planning
// recorded.
// RUN: not prec-opt %s --prec-lower-to-kernel -split-input-file 2>&1 | FileCheck %s --check-prefix=UNPLANNED
// UNPLANNED: error: the module has no ascend.policy (run prec-plan-precision, or the precision pipeline, first)
