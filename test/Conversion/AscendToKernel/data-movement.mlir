// Data movement: Reshape is a view of the same bytes (no kernel); Transpose
// and Gather are DMA kernels, Gather with index checks under
// support_out_of_bound_index (IM-7). An op planned on the AI CPU becomes an
// AI CPU kernel.
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=must_keep_origin_dtype op_precision_mode=%S/inputs/impl-modes.ini" \
// RUN:   --prec-lower-to-kernel 2>/dev/null | FileCheck %s

// CHECK-LABEL: akernel.kernel @t
// CHECK-SAME: engine = #akernel.engine<vector>
// CHECK: akernel.dma "transpose" ins(%{{.*}}) outs(%{{.*}}) {params = {perm = array<i64: 0, 2, 1>}}
// CHECK-LABEL: akernel.kernel @gather_checked
// CHECK: akernel.dma "gather" ins(%{{.*}}, %{{.*}}) outs(%{{.*}}) {bounds_check, params = {axis = 1 : i64
// CHECK-LABEL: func.func @moves
// CHECK: akernel.launch @t(%arg0)
// CHECK: akernel.view %arg0 {nodes = ["flat"]} : tensor<1x8x64xf16> -> tensor<512xf16>
// CHECK: akernel.launch @gather_checked(%arg0, %arg1)
func.func @moves(%x: tensor<1x8x64xf16>, %i: tensor<4xi32>) -> (tensor<1x64x8xf16>, tensor<512xf16>, tensor<1x4x64xf16>) {
  %t = ascend.Transpose %x {name = "t", perm = array<i64: 0, 2, 1>} : (tensor<1x8x64xf16>) -> tensor<1x64x8xf16>
  %r = ascend.Reshape %x {name = "flat"} : tensor<1x8x64xf16> to tensor<512xf16>
  %g = ascend.GatherV2 %x, %i {name = "gather_checked", axis = 1 : i64} : (tensor<1x8x64xf16>, tensor<4xi32>) -> tensor<1x4x64xf16>
  return %t, %r, %g : tensor<1x64x8xf16>, tensor<512xf16>, tensor<1x4x64xf16>
}

// float64 has no AI Core kernel: the Add runs on the AI CPU (PM-9).
// CHECK-LABEL: akernel.kernel @add64
// CHECK-SAME: block_dim = 1 : i64, engine = #akernel.engine<aicpu>
// CHECK: akernel.aicpu_call "Add"(%arg0, %arg1, %arg2) : memref<16xf64, #akernel.space<gm>>
func.func @aicpu(%a: tensor<16xf64>, %b: tensor<16xf64>) -> tensor<16xf64> {
  %y = ascend.Add %a, %b {name = "add64"} : (tensor<16xf64>, tensor<16xf64>) -> tensor<16xf64>
  return %y : tensor<16xf64>
}

// An AI CPU kernel carries what the op computes (the equation), not its
// name or decision; two Einsums with different equations get two kernels.
// CHECK-LABEL: akernel.kernel @mm64
// CHECK: akernel.aicpu_call "Einsum"(%arg0, %arg1, %arg2) {attrs = {equation = "ij,jk->ik"}}
// CHECK-LABEL: akernel.kernel @tr64
// CHECK: akernel.aicpu_call "Einsum"(%arg0, %arg1) {attrs = {equation = "ij->ji"}}
func.func @einsum(%a: tensor<4x4xf64>, %b: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
  %y = ascend.Einsum %a, %b {name = "mm64", equation = "ij,jk->ik"} : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %z = ascend.Einsum %a {name = "tr64", equation = "ij->ji"} : (tensor<4x4xf64>) -> tensor<4x4xf64>
  return %y, %z : tensor<4x4xf64>, tensor<4x4xf64>
}
