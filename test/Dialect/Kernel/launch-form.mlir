// akernel.launch's hand-written form (AttrDictAssembly.h) prints what the
// declarative format printed and reads it back; its parser checks `nodes`
// as the declarative one did.
// RUN: prec-opt %s -split-input-file -verify-diagnostics | FileCheck %s

module attributes {akernel.target = #akernel.target<soc = "Ascend910", cube_cores = 32, vector_cores = 32, aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, l2_rate = 128, cube_inputs = [f16, i8]>} {
  akernel.kernel @k attributes {block_dim = 1 : i64, engine = #akernel.engine<vector>, nodes = ["n"]} {
  ^bb0(%a: memref<4xf32, #akernel.space<gm>>, %b: memref<4xf32, #akernel.space<gm>>):
  }
  // CHECK-LABEL: func.func @launch
  func.func @launch(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: akernel.launch @k(%{{.*}}) {nodes = ["n", "m"]} : (tensor<4xf32>) -> tensor<4xf32>
    %y = akernel.launch @k(%x) {nodes = ["n", "m"]} : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

func.func @nodes_not_strings(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'akernel.launch' op attribute 'nodes' failed to satisfy constraint: string array attribute}}
  %y = akernel.launch @k(%x) {nodes = [1]} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
