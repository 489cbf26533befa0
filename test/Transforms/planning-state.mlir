// The planning state left on the module is typed (#ascend.policy,
// #ascend.diagnostic) and survives printing: a report written by a later
// run, from the printed IR alone, lists the options and the warnings.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '{"black-list": {"to-add": ["NoSuchOp"]}}\n' > %t/mix.json
// RUN: prec-opt %s --prec-plan-precision="soc_version=Ascend910 precision_mode=allow_mix_precision modify_mixlist=%t/mix.json" -o %t/planned.mlir 2> /dev/null
// RUN: FileCheck %s --check-prefix=STATE < %t/planned.mlir
// STATE: ascend.plan_warnings = [#ascend.diagnostic<severity = "warning", rule = "ML-7", location = "{{.*}}mix.json:1:28", message = "op type 'NoSuchOp' is not in the operator library for Ascend910">
// STATE-SAME: ascend.policy = #ascend.policy<soc_version = "Ascend910", precision_mode = "allow_mix_precision", options = {modify_mixlist = "{{.*}}mix.json", precision_mode = "allow_mix_precision", soc_version = "Ascend910"}>
// RUN: prec-opt %t/planned.mlir --prec-precision-report="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: "modify_mixlist": "{{.*}}mix.json"
// REPORT: "diagnostics": [
// REPORT-NEXT: {
// REPORT-NEXT: "severity": "warning",
// REPORT-NEXT: "rule": "ML-7",

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ascend.Relu %x {name = "relu"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
