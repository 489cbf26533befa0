// Seeds 002/003: op A (here MatMulV2, white in the built-in lists) moved by
// modify_mixlist. black.to-add -> black (keeps fp32); black.to-add with
// white.to-remove -> black; white.to-remove alone -> gray (follows its
// producer, here the fp32 graph input: keeps fp32 under PM-8 semantics, and
// follows an fp16 producer where there is one).
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B precision_mode=allow_mix_precision modify_mixlist=%S/../inputs/seed002-matmul-to-black.json" | FileCheck %s --check-prefix=BLACK
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B precision_mode=allow_mix_precision modify_mixlist=%S/../inputs/seed002-matmul-to-black-remove-white.json" | FileCheck %s --check-prefix=BLACK
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B precision_mode=allow_mix_precision modify_mixlist=%S/../inputs/seed002-matmul-remove-white.json" | FileCheck %s --check-prefix=GRAY
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910B precision_mode=allow_mix_precision" | FileCheck %s --check-prefix=WHITE

func.func @net(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // BLACK: ascend.MatMulV2 {{.*}}name = "fc", {{.*}}compute = f32{{.*}}list = black, rule = "ML-6", source = "{{.*}}seed002-matmul-to-black{{.*}}.json:1"
  // GRAY: ascend.MatMulV2 {{.*}}name = "fc", {{.*}}compute = f32{{.*}}list = gray, rule = "ML-4"
  // WHITE: ascend.MatMulV2 {{.*}}name = "fc", {{.*}}compute = f16{{.*}}list = white, rule = "ML-2"
  %m = ascend.MatMulV2 %a, %b {name = "fc"} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  // fc2 reads an fp16 value cast back to fp32: as a gray op it looks through
  // that Cast and follows fp16 (ML-4); as a black op it keeps fp32.
  %h = ascend.Cast %c {name = "half"} : tensor<4x16xf32> to tensor<4x16xf16>
  %u = ascend.Cast %h {name = "up"} : tensor<4x16xf16> to tensor<4x16xf32>
  // GRAY: ascend.MatMulV2 {{.*}}name = "fc2", {{.*}}compute = f16{{.*}}list = gray, rule = "ML-4"
  // BLACK: ascend.MatMulV2 {{.*}}name = "fc2", {{.*}}compute = f32{{.*}}list = black
  %n = ascend.MatMulV2 %u, %b {name = "fc2"} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %m, %n : tensor<4x8xf32>, tensor<4x8xf32>
}
