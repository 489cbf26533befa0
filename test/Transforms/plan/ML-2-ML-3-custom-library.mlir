// ML-2: a white op without a low-precision kernel stays at its origin, with
// a warning. ML-3: a black op without its origin dtype on the AI Core uses
// its AI CPU kernel, and without one the build fails.
// The ML-3 error has a note in the library file, which -verify-diagnostics
// cannot expect: only the expected diagnostics are checked.
// RUN: prec-opt %s -split-input-file -verify-diagnostics=only-expected \
// RUN:   --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision ops_info_dir=%S/../inputs/lib-custom" \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @white
func.func @white(%a: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: ascend.generic "Mish"{{.*}}compute = f32{{.*}}list = white, rule = "ML-2"
  // expected-warning @+1 {{mish (Mish) is in the white list but doesn't support float16; it stays float32 [ML-2]}}
  %0 = ascend.generic "Mish"(%a) {name = "mish"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @black_aicpu
func.func @black_aicpu(%a: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: ascend.generic "Xlog1py"{{.*}}compute = f32{{.*}}engine = aicpu, list = black, rule = "ML-3"
  %0 = ascend.generic "Xlog1py"(%a, %a) {name = "xlogy"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @black_error(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{(erfinv, origin float32) is in the black list but doesn't support its original dtype float32 on the AI Core or AI CPU [ML-3]; its kernels support:}}
  %0 = ascend.generic "Erfinv"(%a) {name = "erfinv"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
