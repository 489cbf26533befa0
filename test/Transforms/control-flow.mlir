// Planning and materialization see the ops inside If and Loop; the
// control-flow ops keep the model's dtypes at their boundary (casts back
// before Yield, casts to the body's dtype before a Loop), and the reports
// say where each op sits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-precision-pipeline="soc_version=Ascend910 precision_mode=allow_mix_precision report=%t/report.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t/report.json
// RUN: FileCheck %s --check-prefix=TEXT < %t/report.txt
// RUN: FileCheck %s --check-prefix=HTML < %t/report.html
// RUN: %python %ascendprec_src/scripts/validate-report.py %ascendprec_src/docs/reference/report.schema.json %t/report.json

// CHECK-LABEL: func.func @main
// The MatMul inside the branch computes in fp16 (white, ML-2) and its result
// goes back to fp32 before the Yield: the If's result keeps its dtype.
// CHECK: ascend.If %{{.*}} {name = "/If"} : (tensor<i1>) -> tensor<4x4xf32> {
// CHECK:   %[[MM:.*]] = ascend.MatMulV2 {{.*}}name = "/then/MatMul"{{.*}} -> tensor<4x4xf16>
// CHECK:   %[[BACK:.*]] = ascend.Cast %[[MM]] {{.*}} : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK:   ascend.Yield %[[BACK]] : tensor<4x4xf32>
// CHECK: } else {
// CHECK:   ascend.Relu {{.*}} : tensor<4x4xf32>
// A Loop's initial value produced in fp16 is cast to the body's fp32.
// CHECK: %[[INIT:.*]] = ascend.MatMulV2 {{.*}}name = "/pre/MatMul"{{.*}} -> tensor<4x4xf16>
// CHECK: %[[INIT32:.*]] = ascend.Cast %[[INIT]] {{.*}} : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK: ascend.Loop max_trip_count(%{{.*}} : tensor<i64>) initial(%[[INIT32]] : tensor<4x4xf32>)
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %[[V:.*]]: tensor<4x4xf32>):
// CHECK:   ascend.Cast %[[V]] {{.*}} : tensor<4x4xf32> to tensor<4x4xf16>
// UB fusion inside the body: the MatMul and the Add after it are one kernel
// computing as each would alone (FU-4): the fp16 sum is widened for the
// yielded fp32 value, in the same kernel.
// CHECK:   ascend.MatMulV2 {{.*}}ascend.ub_group = "/body/MatMul"{{.*}}name = "/body/MatMul"{{.*}} -> tensor<4x4xf16>
// CHECK:   ascend.Add {{.*}}ascend.ub_group = "/body/MatMul"{{.*}}compute = f16
// CHECK:   ascend.Cast {{.*}}ascend.inserted, ascend.ub_group = "/body/MatMul"{{.*}} : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK:   ascend.Yield %{{.*}}, %{{.*}} : tensor<i1>, tensor<4x4xf32>

// JSON: "name": "/then/MatMul",
// JSON: "compute_dtype": "float16",
// JSON: "region": "If '/If' then"
// JSON: "name": "/else/Relu",
// JSON: "region": "If '/If' else"
// JSON: "name": "/body/MatMul",
// JSON: "region": "Loop '/Loop' body"
// JSON: "name": "/body/Add",
// JSON: "region": "Loop '/Loop' body"

// TEXT: node {{.*}} source{{ +}}region
// TEXT: /then/MatMul {{.*}} If '/If' then
// TEXT: /pre/MatMul {{.*}} -

// HTML: <td>/then/MatMul <div class="region">in If '/If' then</div></td>

func.func @main(%c: tensor<i1>, %x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %m: tensor<i64>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %r = ascend.If %c {name = "/If"} : (tensor<i1>) -> tensor<4x4xf32> {
    %a = ascend.MatMulV2 %x, %w {name = "/then/MatMul"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    ascend.Yield %a : tensor<4x4xf32>
  } else {
    %b = ascend.Relu %x {name = "/else/Relu"} : tensor<4x4xf32>
    ascend.Yield %b : tensor<4x4xf32>
  }
  %p = ascend.MatMulV2 %r, %w {name = "/pre/MatMul"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %v = ascend.Loop max_trip_count(%m : tensor<i64>) initial(%p : tensor<4x4xf32>)
      {name = "/Loop", arg_names = ["i", "cond", "v"]} -> tensor<4x4xf32> {
  ^bb0(%i: tensor<i64>, %k: tensor<i1>, %v0: tensor<4x4xf32>):
    %mm = ascend.MatMulV2 %v0, %w {name = "/body/MatMul"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %s = ascend.Add %mm, %v0 {name = "/body/Add"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    ascend.Yield %k, %s : tensor<i1>, tensor<4x4xf32>
  }
  return %r, %v : tensor<4x4xf32>, tensor<4x4xf32>
}
