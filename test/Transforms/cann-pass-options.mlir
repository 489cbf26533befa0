// CANN's options are declared on the pass and the pipeline from the option
// table (lib/Policy/OptionTable.cpp, OP-1); the pipeline hands them to
// prec-plan-precision, and a name the table does not have is refused.
// RUN: prec-opt %s --pass-pipeline='builtin.module(prec-precision-pipeline{soc_version=Ascend910B3 precision_mode_v2=mixed_float16 op_select_implmode=high_precision})' \
// RUN:   --dump-pass-pipeline 2>&1 | FileCheck %s
// CHECK: prec-plan-precision{
// CHECK-SAME: op_select_implmode=high_precision
// CHECK-SAME: precision_mode_v2=mixed_float16
// CHECK-SAME: soc_version=Ascend910B3

// Every pass option of the table, nothing else, in the pass's help.
// RUN: prec-opt --help | FileCheck %s --check-prefix=HELP
// HELP-LABEL: --prec-plan-precision
// HELP-DAG: --customize_dtypes=
// HELP-DAG: --graph_run_mode=
// HELP-DAG: --keep_dtype=
// HELP-DAG: --modify_mixlist=
// HELP-DAG: --op_precision_mode=
// HELP-DAG: --op_select_implmode=
// HELP-DAG: --ops_info_dir=
// HELP-DAG: --optypelist_for_implmode=
// HELP-DAG: --precision_mode=
// HELP-DAG: --precision_mode_v2=
// HELP-DAG: --session_options=
// HELP-DAG: --soc_version=
// HELP: --prec-precision-pipeline

// RUN: not prec-opt %s --prec-plan-precision="soc_versoin=Ascend910" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: no such option soc_versoin

module {}
